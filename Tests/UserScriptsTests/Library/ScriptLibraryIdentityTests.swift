import Foundation
import Testing
import TestSupport
@testable import UserScripts

/// Text outside the library is the library's script when it has the same `@name` and
/// `@namespace`, as in Tampermonkey and Violentmonkey.
struct ScriptLibraryIdentityTests {
    @Test func theSameNameAndNamespaceIsTheSameScript() throws {
        let folder = try TemporaryDirectory("identity")
        let library = try ScriptLibrary(directory: folder.url)
        func block(_ lines: String...) -> UserScript {
            UserScript(text: (["// ==UserScript=="] + lines.map { "// " + $0 } + ["// ==/UserScript==", "1"]).joined(separator: "\n"))
        }
        let tidy = try library.create(block("@name Tidy", "@namespace example.org"))
        let bare = try library.create(block("@name Bare"))
        _ = try library.create(block("@name Twice"))
        _ = try library.create(block("@name Twice"))

        #expect(try library.script(sameAs: block("@name Tidy", "@namespace example.org", "@version 2"))?.id == tidy.id)
        #expect(try library.script(sameAs: block("@name Tidy", "@namespace example.net")) == nil, "another namespace is another script")
        #expect(try library.script(sameAs: block("@name Tidy")) == nil, "no namespace is not example.org")
        #expect(try library.script(sameAs: block("@name Bare"))?.id == bare.id)
        #expect(try library.script(sameAs: block("@name tidy", "@namespace example.org")) == nil, "names are compared exactly")
        #expect(try library.script(sameAs: block("@name Twice")) == nil, "two candidates: neither is chosen")
    }
}
