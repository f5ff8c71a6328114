import Foundation
import UserScripts

/// The files the benchmarks work on, in a temporary folder of their own: a small page, two
/// 1,000-script libraries and a 10,000-script one.
///
/// - `page.html`, a page with a title and one paragraph;
/// - `library-none/`: 1,000 ``SyntheticLibrary`` scripts, none of which matches the page (they
///   are all for http and https sites);
/// - `library-one/`: 999 of the same and one script for the page's folder, with `@run-at` and
///   the body `1`.
/// - `library-large/`: 10,000 ``SyntheticLibrary`` scripts, for the cold load of a large library.
///
/// ```swift
/// let fixture = try BenchmarkFixture.make()
/// defer { fixture.remove() }
/// fixture.pageURL   // file:///tmp/pagescript-bench-.../page.html
/// ```
public struct BenchmarkFixture: Sendable {
    /// The temporary folder holding everything.
    public let folder: URL
    /// The page's `file:` URL.
    public let pageURL: String
    /// A 1,000-script library in which no script matches the page.
    public let libraryWithoutMatch: URL
    /// A 1,000-script library in which exactly one script matches the page.
    public let libraryWithOneMatch: URL
    /// A 10,000-script library.
    public let largeLibrary: URL

    /// The number of scripts in each library.
    public static let libraryScriptCount = 1_000
    /// The number of scripts in the large library.
    public static let largeLibraryScriptCount = 10_000

    /// Writes the page and the libraries into a new temporary folder.
    ///
    /// - Throws: ``BenchmarkError/fixture(reason:)`` when a file cannot be written.
    public static func make() throws(BenchmarkError) -> BenchmarkFixture {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("pagescript-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))", isDirectory: true)
        let page = folder.appendingPathComponent("page.html")
        let withoutMatch = folder.appendingPathComponent("library-none", isDirectory: true)
        let withOneMatch = folder.appendingPathComponent("library-one", isDirectory: true)
        let large = folder.appendingPathComponent("library-large", isDirectory: true)
        do {
            for directory in [withoutMatch, withOneMatch, large] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            try Data("<!doctype html><title>Bench</title><p>bench</p>\n".utf8).write(to: page)
            try SyntheticLibrary(count: libraryScriptCount).write(to: withoutMatch)
            let library = SyntheticLibrary(count: libraryScriptCount - 1)
            try library.write(to: withOneMatch)
            let matching = try UserScript.make(
                name: "Bench page", matches: ["file://\(folder.path(percentEncoded: false))/*"], runAt: .documentEnd, body: "1\n")
            try SyntheticLibrary.write(matching, named: "bench-page", to: withOneMatch)
            try SyntheticLibrary(count: largeLibraryScriptCount).write(to: large)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw .fixture(reason: "\(error)")
        }
        return BenchmarkFixture(
            folder: folder, pageURL: page.absoluteString, libraryWithoutMatch: withoutMatch, libraryWithOneMatch: withOneMatch, largeLibrary: large)
    }

    /// Removes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
