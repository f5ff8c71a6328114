import ArgumentParser
import SystemSupport
import UserScripts

/// `scripts enable|disable REF` and `scripts enable-for|disable-for [REF] URL`: the switches
/// that are not part of a script's text, kept in the library's state file.
struct EnableScript: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enable", abstract: "Let a script run automatically again.")

    @Argument(help: ArgumentHelp("The script's name or ID.", valueName: "script"))
    var reference: String

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        try libraryOptions.withScript(reference) { library, script in
            try library.setEnabled(true, id: script.id)
            printError("enabled \(script.id) \(TerminalSafeText.escaped(script.name)): it runs automatically where its rules match")
        }
    }
}

struct DisableScript: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "disable", abstract: "Stop a script from running automatically (it can still be run by hand).")

    @Argument(help: ArgumentHelp("The script's name or ID.", valueName: "script"))
    var reference: String

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        try libraryOptions.withScript(reference) { library, script in
            try library.setEnabled(false, id: script.id)
            printError("disabled \(script.id) \(TerminalSafeText.escaped(script.name)): it runs only on demand (run --script \(script.id))")
        }
    }
}

struct EnableScriptForSite: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enable-for", abstract: "Undo 'disable-for' on one site.")

    @Argument(help: ArgumentHelp("The script's name or ID, then the URL; or only the URL.", valueName: "script-and-url"))
    var arguments: [String]

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        try SiteSwitch.apply(disabled: false, arguments: arguments, libraryOptions: libraryOptions)
    }
}

struct DisableScriptForSite: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable-for",
        abstract: "Switch a script off on one site (kept outside the script's text).",
        discussion: "With only a URL, every script that would run there is switched off on that site.")

    @Argument(help: ArgumentHelp("The script's name or ID, then the URL; or only the URL.", valueName: "script-and-url"))
    var arguments: [String]

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        try SiteSwitch.apply(disabled: true, arguments: arguments, libraryOptions: libraryOptions)
    }
}

/// Shared by `disable-for` and `enable-for`.
enum SiteSwitch {
    static func apply(disabled: Bool, arguments: [String], libraryOptions: LibraryOptions) throws {
        guard (1...2).contains(arguments.count), let address = arguments.last else {
            throw CommandFailure.badInput("give a URL, or a script and a URL")
        }
        let url = try PageURL(address)
        let library = try libraryOptions.open()
        let site = Site(url: url)
        let ids = arguments.count == 2
            ? [try library.find(arguments[0]).id]
            : try library.which(url: url, includingInactive: true).map(\.script.id)
        for id in Set(ids).sorted() {
            try library.setDisabled(disabled, id: id, on: site)
            let name = (try? library.find(id.rawValue).name).map { " " + TerminalSafeText.escaped($0) } ?? ""
            printError("\(disabled ? "disabled" : "enabled") \(id)\(name) on \(TerminalSafeText.escaped(site.description))")
        }
    }
}
