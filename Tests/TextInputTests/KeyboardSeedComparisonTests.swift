import Foundation
import Testing
import TextInput

/// The seed's avoidance formula, as seeds 000 and 001 write it.
///
/// `view.convert(frame, from: view.window)` only translates the rectangle (the window's origin is
/// taken for the screen's), so its height survives unchanged and the view's frame plays no part:
/// the inset is the keyboard's height minus the safe area, and a hide notification resets it to
/// `.zero`.
private func seedBottomInset(keyboardFrame: CGRect, viewFrame: CGRect, safeAreaBottom: CGFloat, isHide: Bool = false) -> CGFloat {
    isHide ? 0 : keyboardFrame.height - safeAreaBottom
}

/// `scrollRangeToVisible(selectedRange)` as the seed uses it: it reveals the bounding rectangle
/// of the whole selection with the least scrolling, and measures against the bounds without the
/// keyboard inset it was just given (the inset is not laid out yet, and the call does not honour
/// it). A selection taller than the view cannot be revealed whole, so it lands on whichever edge
/// is nearer.
private func seedContentOffset(revealing selection: CGRect, currentOffset: CGFloat, visibleHeight: CGFloat) -> CGFloat {
    if selection.minY < currentOffset {
        return selection.minY
    }
    if selection.maxY > currentOffset + visibleHeight {
        return selection.maxY - visibleHeight
    }
    return currentOffset
}

/// Seed 003's `KeyboardHandler`: it merges only the show and hide notifications.
private final class SeedKeyboardHandler: @unchecked Sendable {
    private let lock = NSLock()
    private var lastHeight: CGFloat?
    private var tokens: [any NSObjectProtocol] = []
    private let center: NotificationCenter

    init(center: NotificationCenter) {
        self.center = center
        let names: [KeyboardPhase] = [.willShow, .didShow, .willHide, .didHide]
        let tokens = names.map { phase in
            center.addObserver(forName: phase.notificationName, object: nil, queue: nil) { [weak self] note in
                guard let self, let event = try? KeyboardEvent(notification: note) else { return }
                lock.withLock { lastHeight = event.endFrame.height }
            }
        }
        lock.withLock { self.tokens = tokens }
    }

    var height: CGFloat? {
        lock.withLock { lastHeight }
    }

    deinit {
        for token in tokens {
            center.removeObserver(token)
        }
    }
}

@Suite("Where the seed breaks (keyboard.md, cases 1 to 7)")
struct KeyboardSeedComparisonTests {
    private func pageScriptInset(_ fixture: KeyboardFixture) -> CGFloat {
        KeyboardState(event: fixture.event, viewFrame: fixture.view, screenBounds: fixture.screen)
            .bottomInset(safeAreaBottom: fixture.safeAreaBottom)
    }

    private func seedInset(_ fixture: KeyboardFixture) -> CGFloat {
        seedBottomInset(
            keyboardFrame: fixture.end, viewFrame: fixture.view, safeAreaBottom: fixture.safeAreaBottom,
            isHide: fixture.phase == .willHide
        )
    }

    @Test(
        "1. Screen coordinates: only the overlap with the view counts",
        arguments: [KeyboardFixture.formSheetDocked, .stageManagerAbove, .stageManagerPartly]
    )
    func overlapOnly(fixture: KeyboardFixture) {
        #expect(seedInset(fixture) != fixture.inset)
        #expect(pageScriptInset(fixture) == fixture.inset)
    }

    @Test("2. Clamped at zero instead of going negative", arguments: [KeyboardFixture.notchZeroHeight, .notchShortBar])
    func clampedAtZero(fixture: KeyboardFixture) {
        #expect(seedInset(fixture) < 0)
        #expect(pageScriptInset(fixture) == 0)
    }

    @Test("3. On hide the view's own inset comes back, not zero")
    func restoresOriginal() throws {
        let center = NotificationCenter()
        let screen = KeyboardDevice.notchPortrait
        let shown = KeyboardDevice.keyboard(height: 336, on: screen)
        let hidden = KeyboardDevice.keyboard(height: 336, on: screen, hidden: true)
        let observer = KeyboardObserver(center: center)
        let ownInset: CGFloat = 20
        var tracker = KeyboardInsetTracker()
        var inset = ownInset
        var seedInset = ownInset

        for (phase, begin, end) in [(KeyboardPhase.willShow, hidden, shown), (.willHide, shown, hidden)] {
            center.post(name: phase.notificationName, object: nil, userInfo: KeyboardPayload.userInfo(begin: begin, end: end))
            let state = try #require(observer.currentState(viewFrame: screen, screenBounds: screen))
            inset = tracker.bottomInset(applying: state.bottomInset(safeAreaBottom: 34), currentBottomInset: inset)
            seedInset = seedBottomInset(keyboardFrame: end, viewFrame: screen, safeAreaBottom: 34, isHide: phase.isHide)
            if phase == .willShow {
                #expect(inset == 302)
            }
        }
        #expect(seedInset == 0)
        #expect(seedInset != ownInset)
        #expect(inset == ownInset)
    }

    @Test("4. A floating or split keyboard needs no inset", arguments: [KeyboardFixture.iPadFloating, .iPadSplit])
    func floatingNeedsNoInset(fixture: KeyboardFixture) {
        #expect(seedInset(fixture) > 0)
        #expect(pageScriptInset(fixture) == 0)
        #expect(KeyboardAvoidance.bottomInset(keyboardFrame: fixture.end, viewFrame: fixture.view, safeAreaBottom: 0) == 0)
    }

    @Test(
        "5. A hardware keyboard's bar is handled by the overlap, not by its reported height",
        arguments: [KeyboardFixture.hardwareBarOffScreen, .hardwareBarInHide, .notchHardwareBarInHide, .hardwareNothingOnScreen]
    )
    func hardwareKeyboard(fixture: KeyboardFixture) {
        #expect(seedInset(fixture) != fixture.inset)
        #expect(pageScriptInset(fixture) == fixture.inset)
    }

    @Test("6. Height changes while the keyboard is up arrive only as frame changes")
    func frameChangesWhileUp() throws {
        let center = NotificationCenter()
        let fixture = KeyboardSequenceFixture.quickTypeAppears
        let screen = fixture.screenAfter
        let seed = SeedKeyboardHandler(center: center)
        let observer = KeyboardObserver(center: center)
        fixture.post(on: center)

        let seedHeight = try #require(seed.height)
        #expect(seedBottomInset(keyboardFrame: CGRect(x: 0, y: 0, width: 390, height: seedHeight), viewFrame: screen, safeAreaBottom: 34) == 257)
        let state = try #require(observer.currentState(viewFrame: screen, screenBounds: screen))
        #expect(state.bottomInset(safeAreaBottom: 34) == fixture.insetAfter)
        #expect(fixture.insetAfter == 302)
    }

    struct CaretCase: Sendable, CustomTestStringConvertible {
        var name: String
        var currentOffset: CGFloat
        var testDescription: String { name }
    }

    @Test(
        "7. The caret at the selection's end is revealed above the keyboard, not the selection",
        arguments: [
            CaretCase(name: "scrolled past the selection", currentOffset: 2000),
            CaretCase(name: "scrolled above the selection", currentOffset: 0),
        ]
    )
    func caretNotSelection(testCase: CaretCase) {
        // Lines 10 to 90 of a 20 pt-per-line text are selected; the caret sits on line 90.
        let selection = CGRect(x: 0, y: 200, width: 390, height: 1600)
        let caret = CGRect(x: 120, y: 1780, width: 2, height: 20)
        let visibleHeight: CGFloat = 600
        let keyboardInset: CGFloat = 300

        func caretIsVisible(at offset: CGFloat) -> Bool {
            caret.minY >= offset && caret.maxY <= offset + visibleHeight - keyboardInset
        }

        let seedOffset = seedContentOffset(revealing: selection, currentOffset: testCase.currentOffset, visibleHeight: visibleHeight)
        let offset = KeyboardAvoidance.contentOffset(
            revealing: caret, currentOffset: testCase.currentOffset, visibleHeight: visibleHeight, bottomInset: keyboardInset
        )
        #expect(!caretIsVisible(at: seedOffset))
        #expect(caretIsVisible(at: offset))
    }
}
