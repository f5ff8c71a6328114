import ArgumentParser

/// Whether a command shows the options of a browser the user sees or keeps (`--headed`,
/// `--profile`, `--attach`): `run`, `edit` and `browse` do; `batch`, whose many sessions cannot
/// share a window, a profile or the user's browser, refuses them and leaves them out of its help.
protocol BrowserWindowChoice {
    static var visibility: ArgumentVisibility { get }
    static var engineHelp: String { get }
}

/// `--headed`, `--profile` and `--attach` are listed.
enum WindowOptionsShown: BrowserWindowChoice {
    static let visibility = ArgumentVisibility.default
    static let engineHelp = "The engine (default: webkit; chromium with --attach). run also takes a comma list (webkit,chromium) or 'all' (every engine installed here) and compares them."
}

/// `--headed`, `--profile` and `--attach` are left out of the help, and refused with the reason.
enum WindowOptionsHidden: BrowserWindowChoice {
    static let visibility = ArgumentVisibility.hidden
    static let engineHelp = "The engine (default: webkit)."
}
