import Foundation
import TestSupport
import Testing
@testable import GMAPI

struct IntegrityCheckTests {
    static let content = Array("window.lib = 1;\n".utf8)
    // The expected digests come from coreutils, not from the code under test; a tool that cannot
    // run leaves a value no hash matches.
    static var md5Hex: String { (try? ReferenceDigest.hex("md5", of: content)) ?? "unavailable" }
    static var sha1Hex: String { (try? ReferenceDigest.hex("sha1", of: content)) ?? "unavailable" }
    static var sha256Hex: String { (try? ReferenceDigest.hex("sha256", of: content)) ?? "unavailable" }
    static var sha384Base64: String { base64("sha384") }
    static var sha512Base64: String { base64("sha512") }
    static var sha256Base64: String { base64("sha256") }

    static func base64(_ algorithm: String) -> String {
        (try? Data(ReferenceDigest.bytes(algorithm, of: content)).base64EncodedString()) ?? "unavailable"
    }

    /// Every form the managers document, each matching the content.
    static var matchingFragments: [String] {
        [
            "md5=\(md5Hex)",
            "sha1=\(sha1Hex)",
            "sha256=\(sha256Hex)",
            "SHA256=\(sha256Hex.uppercased())",
            "sha256-\(sha256Base64)",
            "sha384-\(sha384Base64)",
            "sha512=\(sha512Base64)",
            "md5=\(md5Hex),sha256=\(sha256Hex)",
            "md5=\(md5Hex);sha256-\(sha256Base64)",
            "md5-\(md5Hex), sha256=\(sha256Hex)",
            "sha256=\(sha256Base64.replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"))",
        ]
    }

    @Test func everyDocumentedFormMatchesTheRightContent() throws {
        for fragment in Self.matchingFragments {
            let hashes = try IntegrityCheck.parse(fragment: fragment)
            #expect(!hashes.isEmpty, "\(fragment)")
            #expect(IntegrityCheck.firstMismatch(in: hashes, for: Self.content) == nil, "\(fragment)")
            #expect(IntegrityCheck.firstMismatch(in: hashes, for: Self.content + [0x20]) != nil, "\(fragment)")
        }
    }

    @Test func everyHashIsCheckedAndTheFailingOneIsNamed() throws {
        let wrongSHA256 = String(repeating: "0", count: 64)
        let hashes = try IntegrityCheck.parse(fragment: "md5=\(Self.md5Hex),sha256=\(wrongSHA256)")
        let mismatch = try #require(IntegrityCheck.firstMismatch(in: hashes, for: Self.content))
        #expect(mismatch.hash.algorithm == .sha256)
        #expect(mismatch.hash.written == "sha256=\(wrongSHA256)")
        #expect(mismatch.actual.hexString == Self.sha256Hex)
    }

    @Test(arguments: ["", "v=2", "section-3", "top", "foo=bar;baz", "sha3=abcdef", "crc32=01020304"])
    func fragmentsThatAreNotHashesAreLeftAlone(fragment: String) throws {
        #expect(try IntegrityCheck.parse(fragment: fragment).isEmpty)
    }

    @Test(arguments: ["sha256=abc", "md5=zz", "sha256-not*base64", "sha512=\(String(repeating: "a", count: 64))", "md5="])
    func aKnownAlgorithmWithAMalformedValueIsRefused(fragment: String) {
        #expect(throws: DependencyFailure.self) { try IntegrityCheck.parse(fragment: fragment) }
    }
}
