import Foundation
import Testing

@testable import PageRuntime

/// Which `data:` images a notification shows; the notifications themselves, on a real bus and
/// daemon, are `BrowseCommandTests.gmNotificationIsShownAndItsClickReachesTheScript`'s.
struct GMNotificationDisplayTests {
    @Test(arguments: [
        ("data:image/png;base64,iVBORw0KGgo=", "png"),
        ("data:IMAGE/JPEG;base64,/9j/4A==", "jpg"),
        ("data:image/svg+xml;base64,PHN2Zz4=", nil),
        ("data:image/png,rawtext", nil),
        ("https://example.com/icon.png", nil),
        ("data:image/png;base64", nil),
    ] as [(String, String?)])
    func onlyBase64PicturesAreShown(url: String, fileExtension: String?) {
        #expect(GMNotificationDisplay.picture(inDataURL: url)?.extension == fileExtension)
    }
}
