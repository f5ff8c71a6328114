import Foundation
import Testing
@testable import UserScripts

struct LibraryLocationTests {
    @Test(arguments: [
        (nil, ["HOME": "/home/me"], "/home/me/.local/share/pagescript/scripts", LibraryLocation.Source.home),
        (nil, ["HOME": "/home/me", "XDG_DATA_HOME": "/data"], "/data/pagescript/scripts", .xdgDataHome),
        (nil, ["HOME": "/home/me", "XDG_DATA_HOME": "relative/data"], "/home/me/.local/share/pagescript/scripts", .home),
        (nil, ["HOME": "/home/me", "XDG_DATA_HOME": "/data", "PAGESCRIPT_LIBRARY": "/srv/scripts"], "/srv/scripts", .pagescriptLibraryVariable),
        (nil, ["HOME": "/home/me", "PAGESCRIPT_LIBRARY": "~/my-scripts"], "/home/me/my-scripts", .pagescriptLibraryVariable),
        (nil, ["HOME": "/home/me", "PAGESCRIPT_LIBRARY": "scripts"], "/work/scripts", .pagescriptLibraryVariable),
        (nil, ["HOME": "/home/me", "PAGESCRIPT_LIBRARY": ""], "/home/me/.local/share/pagescript/scripts", .home),
        ("/given", ["HOME": "/home/me", "PAGESCRIPT_LIBRARY": "/srv/scripts"], "/given", .explicit),
        ("../given", ["PAGESCRIPT_LIBRARY": "/srv/scripts"], "/given", .explicit),
    ] as [(String?, [String: String], String, LibraryLocation.Source)])
    func resolvesInOrderOfPrecedence(_ directory: String?, _ environment: [String: String], _ expected: String, _ source: LibraryLocation.Source) throws {
        let location = try LibraryLocation.resolve(directory: directory, environment: environment, currentDirectory: "/work")
        #expect(location.directory.path(percentEncoded: false).trimmingSuffix("/") == expected)
        #expect(location.source == source)
    }

    @Test func withoutHomeOrAnythingElseItSaysWhatToDo() {
        let error = #expect(throws: LibraryError.self) { try LibraryLocation.resolve(environment: [:], currentDirectory: "/") }
        #expect(error == .noHomeDirectory)
        #expect(error?.description.contains("PAGESCRIPT_LIBRARY") == true)
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        count > 1 && hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
