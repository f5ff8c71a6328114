import NIOCore
import Testing
@testable import WebDriver

/// The scan the relay reads WebKit's inspector messages with: it must find a name wherever it
/// lies in the buffer's readable bytes, and nowhere else.
struct ByteSearchTests {
    private func view(_ text: String, skipping prefix: String = "") -> ByteBufferView {
        var buffer = ByteBuffer(string: prefix + text)
        buffer.moveReaderIndex(forwardBy: prefix.utf8.count)
        return buffer.readableBytesView
    }

    @Test func findsANameAtTheStartInTheMiddleAndAtTheEnd() {
        let name = Array("Page.frameNavigated".utf8)
        #expect(view("Page.frameNavigated, then more").contains(bytes: name))
        #expect(view(#"{"method":"Page.frameNavigated","params":{}}"#).contains(bytes: name))
        #expect(view("ends with Page.frameNavigated").contains(bytes: name))
        #expect(view("Page.frameNavigated").contains(bytes: name))
    }

    @Test func findsNothingThatIsNotThere() {
        let name = Array("Network.responseReceived".utf8)
        #expect(!view(#"{"method":"Network.dataReceived"}"#).contains(bytes: name))
        // A prefix of the name, at the very end, is not the name.
        #expect(!view("...Network.responseReceive").contains(bytes: name))
        #expect(!view("Network").contains(bytes: name))
        #expect(!view("").contains(bytes: name))
    }

    @Test func findsANameAfterAPartialMatchThatOverlapsIt() {
        #expect(view("aaab").contains(bytes: Array("aab".utf8)))
        #expect(view("Network.Network.enable").contains(bytes: Array("Network.enable".utf8)))
    }

    @Test func readsOnlyTheReadableBytes() {
        let name = Array("frameTree".utf8)
        #expect(!view("the rest", skipping: "frameTree, already read: ").contains(bytes: name))
        #expect(view("frameTree", skipping: "read: ").contains(bytes: name))
    }

    @Test func theEmptyPatternIsEverywhere() {
        #expect(view("anything").contains(bytes: []))
    }
}
