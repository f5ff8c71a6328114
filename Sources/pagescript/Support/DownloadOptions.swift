import ArgumentParser
import Foundation
import GMAPI

/// `--downloads DIR`: where userscripts' `GM_download` saves files (else the XDG download folder).
struct DownloadOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The folder userscripts' GM_download saves files in (default: XDG_DOWNLOAD_DIR of user-dirs.dirs, else ~/Downloads).", valueName: "folder"))
    var downloads: String?

    /// The folder: the one given, else ``GMAPI/DownloadFolder/standardDirectory(environment:)``.
    var folder: URL {
        downloads.map { URL(fileURLWithPath: $0, isDirectory: true).standardizedFileURL } ?? DownloadFolder.standardDirectory()
    }
}
