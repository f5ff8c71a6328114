import ArgumentParser

struct EnableScriptForSite: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enable-for", abstract: "Undo 'disable-for' on one site.")

    @Argument(help: "The script's name or ID, then the URL; or only the URL.")
    var arguments: [String]

    @OptionGroup var libraryOptions: LibraryOptions

    func run() throws {
        try SiteSwitch.apply(disabled: false, arguments: arguments, libraryOptions: libraryOptions)
    }
}
