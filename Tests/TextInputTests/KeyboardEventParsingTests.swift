import Foundation
import Testing
import TextInput

@Suite("KeyboardEvent parsing")
struct KeyboardEventParsingTests {
    private let begin = CGRect(x: 0, y: 844, width: 390, height: 336)
    private let end = CGRect(x: 0, y: 508, width: 390, height: 336)

    private func notification(_ phase: KeyboardPhase, _ userInfo: [AnyHashable: Any]?) -> Notification {
        Notification(name: phase.notificationName, object: nil, userInfo: userInfo)
    }

    @Test("The six phases carry UIKit's raw notification names")
    func rawNames() {
        #expect(KeyboardPhase.allCases.map(\.notificationName.rawValue) == [
            "UIKeyboardWillShowNotification",
            "UIKeyboardDidShowNotification",
            "UIKeyboardWillHideNotification",
            "UIKeyboardDidHideNotification",
            "UIKeyboardWillChangeFrameNotification",
            "UIKeyboardDidChangeFrameNotification",
        ])
        #expect(KeyboardUserInfoKey.allCases.map(\.rawValue) == [
            "UIKeyboardFrameBeginUserInfoKey",
            "UIKeyboardFrameEndUserInfoKey",
            "UIKeyboardAnimationDurationUserInfoKey",
            "UIKeyboardAnimationCurveUserInfoKey",
            "UIKeyboardIsLocalUserInfoKey",
        ])
    }

    @Test("Every phase parses with all its values", arguments: KeyboardPhase.allCases)
    func parsesEveryPhase(phase: KeyboardPhase) throws {
        let userInfo = KeyboardPayload.userInfo(begin: begin, end: end, duration: 0.25, curve: 7, isLocal: false)
        let event = try KeyboardEvent(notification: notification(phase, userInfo))
        #expect(event == KeyboardEvent(
            phase: phase, beginFrame: begin, endFrame: end, animationDuration: 0.25, animationCurve: 7, isLocal: false
        ))
        #expect(KeyboardPhase(notificationName: phase.notificationName) == phase)
    }

    @Test("Plain CGRect, Double, Int and Bool values are accepted as well as boxed ones")
    func acceptsPlainValues() throws {
        let userInfo: [AnyHashable: Any] = [
            KeyboardUserInfoKey.frameBegin.rawValue: begin,
            KeyboardUserInfoKey.frameEnd.rawValue: end,
            KeyboardUserInfoKey.animationDuration.rawValue: 0.0,
            KeyboardUserInfoKey.animationCurve.rawValue: 7,
            KeyboardUserInfoKey.isLocal.rawValue: true,
        ]
        let event = try KeyboardEvent(notification: notification(.didChangeFrame, userInfo))
        #expect(event.beginFrame == begin)
        #expect(event.endFrame == end)
        #expect(event.animationDuration == 0)
        #expect(event.animationCurve == 7)
        #expect(event.isLocal)
    }

    #if os(macOS) || os(Linux)
    @Test("An NSValue made by Foundation's own NSValue(rect:) parses")
    func acceptsFoundationBoxedRect() throws {
        var userInfo = KeyboardPayload.userInfo(begin: begin, end: end)
        userInfo[KeyboardUserInfoKey.frameEnd.rawValue] = NSValue(rect: end)
        let event = try KeyboardEvent(notification: notification(.willShow, userInfo))
        #expect(event.endFrame == end)
    }
    #endif

    @Test("Curve 7 is kept and becomes animation options without a trapping switch")
    func curveSeven() throws {
        let event = try KeyboardEvent(notification: notification(.willShow, KeyboardPayload.userInfo(begin: begin, end: end)))
        #expect(event.animationCurve == 7)
        #expect(event.animationOptionsRawValue == 7 << 16)
        var malformed = event
        malformed.animationCurve = -1
        #expect(malformed.animationOptionsRawValue == 0xF << 16)
    }

    @Test("A name that is not a keyboard notification is refused")
    func unrecognizedName() {
        let note = Notification(name: Notification.Name("UITextViewTextDidChangeNotification"), object: nil, userInfo: [:])
        #expect(throws: KeyboardEventError.unrecognizedName("UITextViewTextDidChangeNotification")) {
            try KeyboardEvent(notification: note)
        }
    }

    @Test("A notification without userInfo is refused")
    func missingUserInfo() {
        #expect(throws: KeyboardEventError.missingUserInfo(phase: .willHide)) {
            try KeyboardEvent(notification: notification(.willHide, nil))
        }
    }

    @Test("A missing key is named", arguments: KeyboardUserInfoKey.allCases)
    func missingKey(key: KeyboardUserInfoKey) {
        var userInfo = KeyboardPayload.userInfo(begin: begin, end: end)
        userInfo[key.rawValue] = nil
        #expect(throws: KeyboardEventError.missingValue(key: key)) {
            try KeyboardEvent(notification: notification(.willShow, userInfo))
        }
    }

    struct Mistyped: Sendable, CustomTestStringConvertible {
        var key: KeyboardUserInfoKey
        var label: String
        var value: @Sendable () -> Any
        /// Text the error's `found` must contain, showing what was there.
        var found: String
        var testDescription: String { "\(key.rawValue) = \(label)" }
    }

    static let mistyped: [Mistyped] = [
        Mistyped(key: .frameEnd, label: "a String", value: { "oops" }, found: "oops"),
        Mistyped(key: .frameEnd, label: "an NSNumber", value: { NSNumber(value: 336) }, found: "336"),
        Mistyped(key: .frameBegin, label: "an NSValue holding a CGPoint", value: {
            KeyboardPayload.boxed(CGPoint(x: 3, y: 4))
        }, found: "CGPoint"),
        Mistyped(key: .frameEnd, label: "a CGRect with NaN", value: {
            KeyboardPayload.boxed(CGRect(x: 0, y: CGFloat.nan, width: 390, height: 336))
        }, found: "nan"),
        Mistyped(key: .animationDuration, label: "a String", value: { "0.25" }, found: "0.25"),
        Mistyped(key: .animationDuration, label: "a negative number", value: { NSNumber(value: -1.0) }, found: "-1"),
        Mistyped(key: .animationDuration, label: "NaN", value: { Double.nan }, found: "nan"),
        Mistyped(key: .animationCurve, label: "a fraction", value: { NSNumber(value: 7.5) }, found: "7.5"),
        Mistyped(key: .animationCurve, label: "a String", value: { "easeInOut" }, found: "easeInOut"),
        Mistyped(key: .isLocal, label: "a String", value: { "yes" }, found: "yes"),
        Mistyped(key: .isLocal, label: "the number 2", value: { NSNumber(value: 2) }, found: "2"),
    ]

    @Test("A mistyped value is named with what was found", arguments: mistyped)
    func mistypedValue(testCase: Mistyped) throws {
        var userInfo = KeyboardPayload.userInfo(begin: begin, end: end)
        userInfo[testCase.key.rawValue] = testCase.value()
        let error = try #require(throws: KeyboardEventError.self) {
            try KeyboardEvent(notification: notification(.willChangeFrame, userInfo))
        }
        guard case .mismatchedValue(let key, _, let found) = error else {
            Issue.record("expected mismatchedValue, got \(error)")
            return
        }
        #expect(key == testCase.key)
        #expect(found.contains(testCase.found))
        #expect(error.key == testCase.key)
        #expect(error.description.contains(testCase.key.rawValue))
        #expect(error.description.contains(testCase.found))
    }

    @Test("Problems are reported in a fixed order: end frame before the others")
    func firstProblemWins() {
        let userInfo: [AnyHashable: Any] = [KeyboardUserInfoKey.animationCurve.rawValue: "bad"]
        #expect(throws: KeyboardEventError.missingValue(key: .frameEnd)) {
            try KeyboardEvent(notification: notification(.willShow, userInfo))
        }
    }
}
