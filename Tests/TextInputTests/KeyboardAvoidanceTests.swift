import Foundation
import Testing
import TextInput

@Suite("KeyboardAvoidance geometry")
struct KeyboardAvoidanceTests {
    struct InsetCase: Sendable, CustomTestStringConvertible {
        var name: String
        var keyboard: CGRect
        var view: CGRect
        var safeAreaBottom: CGFloat
        var inset: CGFloat
        var testDescription: String { name }
    }

    static let insetCases: [InsetCase] = [
        InsetCase(
            name: "docked keyboard over a full-screen view",
            keyboard: CGRect(x: 0, y: 451, width: 375, height: 216), view: CGRect(x: 0, y: 0, width: 375, height: 667),
            safeAreaBottom: 0, inset: 216
        ),
        InsetCase(
            name: "safe area subtracted",
            keyboard: CGRect(x: 0, y: 553, width: 390, height: 291), view: CGRect(x: 0, y: 0, width: 390, height: 844),
            safeAreaBottom: 34, inset: 257
        ),
        InsetCase(
            name: "clamped at zero when the overlap is shorter than the safe area",
            keyboard: CGRect(x: 0, y: 824, width: 390, height: 20), view: CGRect(x: 0, y: 0, width: 390, height: 844),
            safeAreaBottom: 34, inset: 0
        ),
        InsetCase(
            name: "no overlap",
            keyboard: CGRect(x: 0, y: 760, width: 768, height: 264), view: CGRect(x: 0, y: 0, width: 768, height: 700),
            safeAreaBottom: 0, inset: 0
        ),
        InsetCase(
            name: "keyboard touching the view's bottom edge only",
            keyboard: CGRect(x: 0, y: 700, width: 768, height: 324), view: CGRect(x: 0, y: 0, width: 768, height: 700),
            safeAreaBottom: 0, inset: 0
        ),
        InsetCase(
            name: "floating keyboard over the middle of the view",
            keyboard: CGRect(x: 224, y: 600, width: 320, height: 216), view: CGRect(x: 0, y: 0, width: 768, height: 1024),
            safeAreaBottom: 0, inset: 0
        ),
        InsetCase(
            name: "view offset in a window that does not start at the screen's origin",
            keyboard: CGRect(x: 0, y: 416, width: 1024, height: 352), view: CGRect(x: 686, y: 300, width: 338, height: 400),
            safeAreaBottom: 0, inset: 284
        ),
        InsetCase(
            name: "conversion noise on the bottom edge",
            keyboard: CGRect(x: 0, y: 451.0001, width: 375, height: 215.9998), view: CGRect(x: 0, y: 0, width: 375, height: 667),
            safeAreaBottom: 0, inset: 215.9998
        ),
        InsetCase(
            name: "terminal: a 6-row output panel in a 24-row terminal, in cells",
            keyboard: CGRect(x: 0, y: 18, width: 80, height: 6), view: CGRect(x: 0, y: 0, width: 80, height: 24),
            safeAreaBottom: 0, inset: 6
        ),
    ]

    @Test("bottomInset uses the overlap, clamps, and ignores floating keyboards", arguments: insetCases)
    func bottomInset(testCase: InsetCase) {
        let inset = KeyboardAvoidance.bottomInset(
            keyboardFrame: testCase.keyboard, viewFrame: testCase.view, safeAreaBottom: testCase.safeAreaBottom
        )
        #expect(abs(inset - testCase.inset) < 0.000_01)
    }

    struct OffsetCase: Sendable, CustomTestStringConvertible {
        var name: String
        var caret: CGRect
        var currentOffset: CGFloat
        var visibleHeight: CGFloat
        var bottomInset: CGFloat
        var topInset: CGFloat = 0
        var offset: CGFloat
        var testDescription: String { name }
    }

    static let offsetCases: [OffsetCase] = [
        OffsetCase(
            name: "caret already above the keyboard: no scroll",
            caret: CGRect(x: 10, y: 100, width: 2, height: 20), currentOffset: 0, visibleHeight: 600, bottomInset: 300,
            offset: 0
        ),
        OffsetCase(
            name: "caret under the keyboard: its bottom meets the keyboard's top",
            caret: CGRect(x: 10, y: 400, width: 2, height: 20), currentOffset: 0, visibleHeight: 600, bottomInset: 300,
            offset: 120
        ),
        OffsetCase(
            name: "caret scrolled off the top: its top meets the top",
            caret: CGRect(x: 10, y: 100, width: 2, height: 20), currentOffset: 500, visibleHeight: 600, bottomInset: 300,
            offset: 100
        ),
        OffsetCase(
            name: "top inset (navigation bar) respected",
            caret: CGRect(x: 10, y: 100, width: 2, height: 20), currentOffset: 80, visibleHeight: 600, bottomInset: 300,
            topInset: 44, offset: 56
        ),
        OffsetCase(
            name: "caret taller than the band: top aligned",
            caret: CGRect(x: 10, y: 1000, width: 2, height: 80), currentOffset: 0, visibleHeight: 100, bottomInset: 40,
            offset: 1000
        ),
        OffsetCase(
            name: "no band left: top aligned",
            caret: CGRect(x: 10, y: 1000, width: 2, height: 20), currentOffset: 0, visibleHeight: 300, bottomInset: 320,
            offset: 1000
        ),
        OffsetCase(
            name: "null caret: unchanged",
            caret: .null, currentOffset: 42, visibleHeight: 600, bottomInset: 300,
            offset: 42
        ),
        OffsetCase(
            name: "terminal: caret on line 40 of a 24-row terminal with a 6-row panel, in cells",
            caret: CGRect(x: 12, y: 40, width: 1, height: 1), currentOffset: 10, visibleHeight: 24, bottomInset: 6,
            offset: 23
        ),
        OffsetCase(
            name: "terminal: caret on the last row above the panel stays put",
            caret: CGRect(x: 0, y: 27, width: 1, height: 1), currentOffset: 10, visibleHeight: 24, bottomInset: 6,
            offset: 10
        ),
    ]

    @Test("contentOffset reveals the caret above the bottom inset, scrolling as little as possible", arguments: offsetCases)
    func contentOffset(testCase: OffsetCase) {
        let offset = KeyboardAvoidance.contentOffset(
            revealing: testCase.caret,
            currentOffset: testCase.currentOffset,
            visibleHeight: testCase.visibleHeight,
            bottomInset: testCase.bottomInset,
            topInset: testCase.topInset
        )
        #expect(offset == testCase.offset)
        if !testCase.caret.isNull, testCase.caret.height < testCase.visibleHeight - testCase.topInset - testCase.bottomInset {
            // Whatever the offset, the caret ends up inside the band.
            #expect(testCase.caret.minY >= offset + testCase.topInset)
            #expect(testCase.caret.maxY <= offset + testCase.visibleHeight - testCase.bottomInset)
        }
    }

    @Test("The tracker saves the view's inset once and gives it back when the keyboard goes")
    func trackerRestoresOriginal() {
        var tracker = KeyboardInsetTracker()
        var inset: CGFloat = 20
        inset = tracker.bottomInset(applying: 257, currentBottomInset: inset)
        #expect(inset == 257)
        #expect(tracker.originalBottomInset == 20)
        // QuickType appears: the adjusted inset must not be saved as the original.
        inset = tracker.bottomInset(applying: 302, currentBottomInset: inset)
        #expect(inset == 302)
        #expect(tracker.originalBottomInset == 20)
        inset = tracker.bottomInset(applying: 0, currentBottomInset: inset)
        #expect(inset == 20)
        #expect(tracker.originalBottomInset == nil)
        // With no keyboard, the view's inset is left alone, including changes the app makes.
        inset = tracker.bottomInset(applying: 0, currentBottomInset: 30)
        #expect(inset == 30)
    }

    @Test("While the keyboard is up the inset is never smaller than the view's own")
    func trackerKeepsLargerOriginal() {
        var tracker = KeyboardInsetTracker()
        #expect(tracker.bottomInset(applying: 10, currentBottomInset: 44) == 44)
        #expect(tracker.bottomInset(applying: 0, currentBottomInset: 44) == 44)
    }
}
