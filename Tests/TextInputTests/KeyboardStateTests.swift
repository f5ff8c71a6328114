import Foundation
import Testing
import TextInput

@Suite("KeyboardState from device payloads")
struct KeyboardStateTests {
    @Test("Each device payload, posted through a private center, gives the right state", arguments: KeyboardFixture.all)
    func devicePayload(fixture: KeyboardFixture) throws {
        let center = NotificationCenter()
        let observer = KeyboardObserver(center: center)
        fixture.post(on: center)

        #expect(observer.lastError == nil)
        let event = try #require(observer.currentEvent)
        #expect(event == fixture.event)
        let state = try #require(observer.currentState(viewFrame: fixture.view, screenBounds: fixture.screen))
        #expect(state.kind == fixture.kind)
        #expect(state.isVisible == fixture.isVisible)
        #expect(state.bottomInset(safeAreaBottom: fixture.safeAreaBottom) == fixture.inset)
    }

    @Test("Visibility is the overlap with the view, whatever the keyboard's height")
    func visibilityFromOverlap() {
        let screen = KeyboardDevice.iPadPortrait
        // The same 69 pt bar is visible to a full-screen view and invisible to a form sheet above it.
        let bar = KeyboardEvent(
            phase: .willHide, beginFrame: .zero, endFrame: KeyboardDevice.keyboard(height: 69, on: screen),
            animationDuration: 0, animationCurve: 7, isLocal: true
        )
        let fullScreen = KeyboardState(event: bar, viewFrame: screen, screenBounds: screen)
        let sheet = KeyboardState(event: bar, viewFrame: KeyboardDevice.formSheet, screenBounds: screen)
        #expect(fullScreen.isVisible)
        #expect(fullScreen.overlap == CGRect(x: 0, y: 955, width: 768, height: 69))
        #expect(!sheet.isVisible)
        #expect(sheet.overlap.isNull)
    }

    @Test("The overlap leaves out the part of the keyboard below the screen")
    func overlapClippedToScreen() {
        let fixture = KeyboardFixture.hardwareBarOffScreen
        let state = KeyboardState(event: fixture.event, viewFrame: fixture.view, screenBounds: fixture.screen)
        #expect(state.overlap == CGRect(x: 0, y: 969, width: 768, height: 55))
    }

    @Test("The state knows the screen, so a floating keyboard below a form sheet is still floating")
    func floatingKnownFromScreen() {
        let fixture = KeyboardFixture.floatingBelowFormSheet
        let state = KeyboardState(event: fixture.event, viewFrame: fixture.view, screenBounds: fixture.screen)
        #expect(state.kind == .floating)
        #expect(state.bottomInset(safeAreaBottom: 0) == 0)
        // The view-only function cannot tell, which is why the state exists.
        let viewOnly = KeyboardAvoidance.bottomInset(keyboardFrame: fixture.end, viewFrame: fixture.view, safeAreaBottom: 0)
        #expect(viewOnly == 122)
    }

    @Test("Sequences end in the right state and every step is reported", arguments: KeyboardSequenceFixture.all)
    func sequence(fixture: KeyboardSequenceFixture) throws {
        let center = NotificationCenter()
        let phases = KeyboardRecorder<KeyboardPhase>()
        let observer = KeyboardObserver(center: center) { update in
            if case .success(let event) = update {
                phases.record(event.phase)
            }
        }
        fixture.post(on: center)

        #expect(phases.values == fixture.steps.map(\.phase))
        let state = try #require(observer.currentState(viewFrame: fixture.screenAfter, screenBounds: fixture.screenAfter))
        #expect(state.bottomInset(safeAreaBottom: fixture.safeAreaBottom) == fixture.insetAfter)
    }
}
