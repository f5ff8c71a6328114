import Foundation
import Testing
import TextInput

/// A keyboard notification as a device sends it, with the view it is judged against and the
/// answers PageScript must give.
///
/// Keyboard heights come from keyboard.md's device numbers (216/162 pt iPhone, 253–271 pt with
/// QuickType, 291–336 pt on notch phones with the 34 pt home indicator, 264/352 pt iPad docked,
/// 44–69 pt hardware bars, 37 pt QuickType, 44 pt accessory toolbar, 0.25 s); screen sizes are
/// those of the matching devices (375×667 iPhone 8, 390×844 iPhone 14, 768×1024 iPad).
struct KeyboardFixture: Sendable, CustomTestStringConvertible {
    var name: String
    var screen: CGRect
    var view: CGRect
    var safeAreaBottom: CGFloat = 0
    var phase: KeyboardPhase = .willShow
    var begin: CGRect
    var end: CGRect
    var duration: Double = 0.25
    var curve: Int = 7
    var isLocal = true
    var kind: KeyboardKind
    var isVisible: Bool
    var inset: CGFloat

    var testDescription: String { name }

    var event: KeyboardEvent {
        KeyboardEvent(
            phase: phase, beginFrame: begin, endFrame: end,
            animationDuration: duration, animationCurve: curve, isLocal: isLocal
        )
    }

    var userInfo: [AnyHashable: Any] {
        KeyboardPayload.userInfo(begin: begin, end: end, duration: duration, curve: curve, isLocal: isLocal)
    }

    /// Posts the notification the device would post, on `center`.
    func post(on center: NotificationCenter) {
        center.post(name: phase.notificationName, object: nil, userInfo: userInfo)
    }
}

/// Builds keyboard payloads the way UIKit does: frames boxed in `NSValue`, numbers in `NSNumber`.
enum KeyboardPayload {
    /// The 64-bit Objective-C encoding of `CGRect`, which UIKit's `NSValue(cgRect:)` produces.
    static let rectEncoding = "{CGRect={CGPoint=dd}{CGSize=dd}}"

    /// An `NSValue` holding `rect`, built without UIKit so the same fixture runs on every platform.
    static func boxed(_ rect: CGRect) -> NSValue {
        withUnsafePointer(to: rect) { NSValue(bytes: $0, objCType: rectEncoding) }
    }

    /// An `NSValue` holding a `CGPoint`: the right box with the wrong contents.
    static func boxed(_ point: CGPoint) -> NSValue {
        withUnsafePointer(to: point) { NSValue(bytes: $0, objCType: "{CGPoint=dd}") }
    }

    static func userInfo(
        begin: CGRect, end: CGRect, duration: Double = 0.25, curve: Int = 7, isLocal: Bool = true
    ) -> [AnyHashable: Any] {
        [
            KeyboardUserInfoKey.frameBegin.rawValue: boxed(begin),
            KeyboardUserInfoKey.frameEnd.rawValue: boxed(end),
            KeyboardUserInfoKey.animationDuration.rawValue: NSNumber(value: duration),
            KeyboardUserInfoKey.animationCurve.rawValue: NSNumber(value: curve),
            KeyboardUserInfoKey.isLocal.rawValue: NSNumber(value: isLocal),
        ]
    }
}

/// Screens and windows the fixtures use.
enum KeyboardDevice {
    static let iPhonePortrait = CGRect(x: 0, y: 0, width: 375, height: 667)
    static let iPhoneLandscape = CGRect(x: 0, y: 0, width: 667, height: 375)
    static let notchPortrait = CGRect(x: 0, y: 0, width: 390, height: 844)
    static let iPadPortrait = CGRect(x: 0, y: 0, width: 768, height: 1024)
    static let iPadLandscape = CGRect(x: 0, y: 0, width: 1024, height: 768)
    /// The default iPad form sheet, 540×620 centred: its bottom (822) is 202 pt above the screen's.
    static let formSheet = CGRect(x: 114, y: 202, width: 540, height: 620)
    /// A keyboard frame resting on the bottom of `screen`, or parked just below it when hidden.
    static func keyboard(height: CGFloat, on screen: CGRect, hidden: Bool = false) -> CGRect {
        CGRect(x: 0, y: hidden ? screen.maxY : screen.maxY - height, width: screen.width, height: height)
    }
}

extension KeyboardFixture {
    // Named fixtures that the seed comparison tests pick out.
    static let formSheetDocked = KeyboardFixture(
        name: "iPad form sheet over a docked 264 pt keyboard",
        screen: KeyboardDevice.iPadPortrait, view: KeyboardDevice.formSheet,
        begin: KeyboardDevice.keyboard(height: 264, on: KeyboardDevice.iPadPortrait, hidden: true),
        end: KeyboardDevice.keyboard(height: 264, on: KeyboardDevice.iPadPortrait),
        kind: .docked, isVisible: true, inset: 62
    )
    static let stageManagerAbove = KeyboardFixture(
        name: "Stage Manager window ending above the 352 pt keyboard",
        screen: KeyboardDevice.iPadLandscape, view: CGRect(x: 100, y: 50, width: 600, height: 300),
        begin: KeyboardDevice.keyboard(height: 352, on: KeyboardDevice.iPadLandscape, hidden: true),
        end: KeyboardDevice.keyboard(height: 352, on: KeyboardDevice.iPadLandscape),
        kind: .docked, isVisible: false, inset: 0
    )
    static let stageManagerPartly = KeyboardFixture(
        name: "Stage Manager window reaching 184 pt into the 352 pt keyboard",
        screen: KeyboardDevice.iPadLandscape, view: CGRect(x: 100, y: 100, width: 600, height: 500),
        begin: KeyboardDevice.keyboard(height: 352, on: KeyboardDevice.iPadLandscape, hidden: true),
        end: KeyboardDevice.keyboard(height: 352, on: KeyboardDevice.iPadLandscape),
        kind: .docked, isVisible: true, inset: 184
    )
    static let notchZeroHeight = KeyboardFixture(
        name: "notch phone, hardware keyboard: zero-height frame at the bottom",
        screen: KeyboardDevice.notchPortrait, view: KeyboardDevice.notchPortrait, safeAreaBottom: 34,
        phase: .willChangeFrame,
        begin: KeyboardDevice.keyboard(height: 291, on: KeyboardDevice.notchPortrait),
        end: CGRect(x: 0, y: 844, width: 390, height: 0),
        kind: .hidden, isVisible: false, inset: 0
    )
    static let notchShortBar = KeyboardFixture(
        name: "notch phone, 20 pt bar shorter than the home indicator",
        screen: KeyboardDevice.notchPortrait, view: KeyboardDevice.notchPortrait, safeAreaBottom: 34,
        phase: .willChangeFrame,
        begin: KeyboardDevice.keyboard(height: 291, on: KeyboardDevice.notchPortrait),
        end: KeyboardDevice.keyboard(height: 20, on: KeyboardDevice.notchPortrait),
        kind: .docked, isVisible: true, inset: 0
    )
    static let iPadFloating = KeyboardFixture(
        name: "iPad floating keyboard, 320×216 mid-screen",
        screen: KeyboardDevice.iPadPortrait, view: KeyboardDevice.iPadPortrait, phase: .willChangeFrame,
        begin: KeyboardDevice.keyboard(height: 264, on: KeyboardDevice.iPadPortrait),
        end: CGRect(x: 224, y: 600, width: 320, height: 216),
        kind: .floating, isVisible: true, inset: 0
    )
    static let iPadSplit = KeyboardFixture(
        name: "iPad split keyboard, raised 200 pt in landscape",
        screen: KeyboardDevice.iPadLandscape, view: KeyboardDevice.iPadLandscape, phase: .willChangeFrame,
        begin: KeyboardDevice.keyboard(height: 352, on: KeyboardDevice.iPadLandscape),
        end: CGRect(x: 0, y: 216, width: 1024, height: 352),
        kind: .floating, isVisible: true, inset: 0
    )
    static let floatingBelowFormSheet = KeyboardFixture(
        name: "iPad floating keyboard hanging below a form sheet",
        screen: KeyboardDevice.iPadPortrait, view: KeyboardDevice.formSheet, phase: .willChangeFrame,
        begin: KeyboardDevice.keyboard(height: 264, on: KeyboardDevice.iPadPortrait),
        end: CGRect(x: 224, y: 700, width: 320, height: 216),
        kind: .floating, isVisible: true, inset: 0
    )
    static let hardwareBarOffScreen = KeyboardFixture(
        name: "iPad hardware keyboard: 313 pt frame with only its 55 pt bar on screen",
        screen: KeyboardDevice.iPadPortrait, view: KeyboardDevice.iPadPortrait,
        begin: CGRect(x: 0, y: 1024, width: 768, height: 313),
        end: CGRect(x: 0, y: 969, width: 768, height: 313),
        kind: .hardwareBarOnly, isVisible: true, inset: 55
    )
    static let hardwareBarInHide = KeyboardFixture(
        name: "iPad hardware keyboard: 69 pt bar reported by willHide",
        screen: KeyboardDevice.iPadPortrait, view: KeyboardDevice.iPadPortrait, phase: .willHide,
        begin: KeyboardDevice.keyboard(height: 264, on: KeyboardDevice.iPadPortrait),
        end: KeyboardDevice.keyboard(height: 69, on: KeyboardDevice.iPadPortrait),
        kind: .hardwareBarOnly, isVisible: true, inset: 69
    )
    static let notchHardwareBarInHide = KeyboardFixture(
        name: "notch phone hardware keyboard: 44 pt bar reported by willHide",
        screen: KeyboardDevice.notchPortrait, view: KeyboardDevice.notchPortrait, safeAreaBottom: 34,
        phase: .willHide,
        begin: KeyboardDevice.keyboard(height: 291, on: KeyboardDevice.notchPortrait),
        end: KeyboardDevice.keyboard(height: 44, on: KeyboardDevice.notchPortrait),
        kind: .hardwareBarOnly, isVisible: true, inset: 10
    )
    static let hardwareNothingOnScreen = KeyboardFixture(
        name: "notch phone hardware keyboard: 291 pt frame entirely below the screen",
        screen: KeyboardDevice.notchPortrait, view: KeyboardDevice.notchPortrait, safeAreaBottom: 34,
        phase: .willChangeFrame,
        begin: KeyboardDevice.keyboard(height: 291, on: KeyboardDevice.notchPortrait),
        end: KeyboardDevice.keyboard(height: 291, on: KeyboardDevice.notchPortrait, hidden: true),
        kind: .hidden, isVisible: false, inset: 0
    )

    /// Every device case, each checked end to end through a real notification center.
    static let all: [KeyboardFixture] = [
        KeyboardFixture(
            name: "iPhone portrait, 216 pt",
            screen: KeyboardDevice.iPhonePortrait, view: KeyboardDevice.iPhonePortrait,
            begin: KeyboardDevice.keyboard(height: 216, on: KeyboardDevice.iPhonePortrait, hidden: true),
            end: KeyboardDevice.keyboard(height: 216, on: KeyboardDevice.iPhonePortrait),
            kind: .docked, isVisible: true, inset: 216
        ),
        KeyboardFixture(
            name: "iPhone portrait with QuickType, 253 pt",
            screen: KeyboardDevice.iPhonePortrait, view: KeyboardDevice.iPhonePortrait,
            begin: KeyboardDevice.keyboard(height: 253, on: KeyboardDevice.iPhonePortrait, hidden: true),
            end: KeyboardDevice.keyboard(height: 253, on: KeyboardDevice.iPhonePortrait),
            kind: .docked, isVisible: true, inset: 253
        ),
        KeyboardFixture(
            name: "iPhone portrait with QuickType, 271 pt, didShow without animation",
            screen: KeyboardDevice.iPhonePortrait, view: KeyboardDevice.iPhonePortrait, phase: .didShow,
            begin: KeyboardDevice.keyboard(height: 271, on: KeyboardDevice.iPhonePortrait, hidden: true),
            end: KeyboardDevice.keyboard(height: 271, on: KeyboardDevice.iPhonePortrait), duration: 0,
            kind: .docked, isVisible: true, inset: 271
        ),
        KeyboardFixture(
            name: "iPhone portrait with a 44 pt accessory toolbar, 260 pt",
            screen: KeyboardDevice.iPhonePortrait, view: KeyboardDevice.iPhonePortrait,
            begin: KeyboardDevice.keyboard(height: 260, on: KeyboardDevice.iPhonePortrait, hidden: true),
            end: KeyboardDevice.keyboard(height: 260, on: KeyboardDevice.iPhonePortrait),
            kind: .docked, isVisible: true, inset: 260
        ),
        KeyboardFixture(
            name: "iPhone landscape, 162 pt",
            screen: KeyboardDevice.iPhoneLandscape, view: KeyboardDevice.iPhoneLandscape,
            begin: KeyboardDevice.keyboard(height: 162, on: KeyboardDevice.iPhoneLandscape, hidden: true),
            end: KeyboardDevice.keyboard(height: 162, on: KeyboardDevice.iPhoneLandscape),
            kind: .docked, isVisible: true, inset: 162
        ),
        KeyboardFixture(
            name: "iPhone landscape with a 37 pt QuickType bar, 199 pt",
            screen: KeyboardDevice.iPhoneLandscape, view: KeyboardDevice.iPhoneLandscape,
            phase: .willChangeFrame,
            begin: KeyboardDevice.keyboard(height: 162, on: KeyboardDevice.iPhoneLandscape),
            end: KeyboardDevice.keyboard(height: 199, on: KeyboardDevice.iPhoneLandscape),
            kind: .docked, isVisible: true, inset: 199
        ),
        KeyboardFixture(
            name: "notch phone portrait, 291 pt including the 34 pt home indicator",
            screen: KeyboardDevice.notchPortrait, view: KeyboardDevice.notchPortrait, safeAreaBottom: 34,
            begin: KeyboardDevice.keyboard(height: 291, on: KeyboardDevice.notchPortrait, hidden: true),
            end: KeyboardDevice.keyboard(height: 291, on: KeyboardDevice.notchPortrait),
            kind: .docked, isVisible: true, inset: 257
        ),
        KeyboardFixture(
            name: "notch phone portrait with QuickType, 336 pt",
            screen: KeyboardDevice.notchPortrait, view: KeyboardDevice.notchPortrait, safeAreaBottom: 34,
            begin: KeyboardDevice.keyboard(height: 336, on: KeyboardDevice.notchPortrait, hidden: true),
            end: KeyboardDevice.keyboard(height: 336, on: KeyboardDevice.notchPortrait),
            kind: .docked, isVisible: true, inset: 302
        ),
        KeyboardFixture(
            name: "notch phone, keyboard hiding",
            screen: KeyboardDevice.notchPortrait, view: KeyboardDevice.notchPortrait, safeAreaBottom: 34,
            phase: .willHide,
            begin: KeyboardDevice.keyboard(height: 336, on: KeyboardDevice.notchPortrait),
            end: KeyboardDevice.keyboard(height: 336, on: KeyboardDevice.notchPortrait, hidden: true),
            kind: .hidden, isVisible: false, inset: 0
        ),
        KeyboardFixture(
            name: "notch phone, keyboard hidden",
            screen: KeyboardDevice.notchPortrait, view: KeyboardDevice.notchPortrait, safeAreaBottom: 34,
            phase: .didHide,
            begin: KeyboardDevice.keyboard(height: 336, on: KeyboardDevice.notchPortrait),
            end: KeyboardDevice.keyboard(height: 336, on: KeyboardDevice.notchPortrait, hidden: true),
            kind: .hidden, isVisible: false, inset: 0
        ),
        KeyboardFixture(
            name: "iPad portrait, docked 264 pt",
            screen: KeyboardDevice.iPadPortrait, view: KeyboardDevice.iPadPortrait,
            begin: KeyboardDevice.keyboard(height: 264, on: KeyboardDevice.iPadPortrait, hidden: true),
            end: KeyboardDevice.keyboard(height: 264, on: KeyboardDevice.iPadPortrait),
            kind: .docked, isVisible: true, inset: 264
        ),
        KeyboardFixture(
            name: "iPad landscape, docked 352 pt",
            screen: KeyboardDevice.iPadLandscape, view: KeyboardDevice.iPadLandscape, phase: .didChangeFrame,
            begin: KeyboardDevice.keyboard(height: 352, on: KeyboardDevice.iPadLandscape, hidden: true),
            end: KeyboardDevice.keyboard(height: 352, on: KeyboardDevice.iPadLandscape),
            kind: .docked, isVisible: true, inset: 352
        ),
        KeyboardFixture(
            name: "Split View, left window, docked 352 pt keyboard across both",
            screen: KeyboardDevice.iPadLandscape, view: CGRect(x: 0, y: 0, width: 678, height: 768),
            begin: KeyboardDevice.keyboard(height: 352, on: KeyboardDevice.iPadLandscape, hidden: true),
            end: KeyboardDevice.keyboard(height: 352, on: KeyboardDevice.iPadLandscape),
            kind: .docked, isVisible: true, inset: 352
        ),
        KeyboardFixture(
            name: "Split View, right window, the other app's keyboard",
            screen: KeyboardDevice.iPadLandscape, view: CGRect(x: 686, y: 0, width: 338, height: 768),
            begin: KeyboardDevice.keyboard(height: 352, on: KeyboardDevice.iPadLandscape, hidden: true),
            end: KeyboardDevice.keyboard(height: 352, on: KeyboardDevice.iPadLandscape), isLocal: false,
            kind: .docked, isVisible: true, inset: 352
        ),
        formSheetDocked,
        stageManagerAbove,
        stageManagerPartly,
        iPadFloating,
        iPadSplit,
        floatingBelowFormSheet,
        hardwareBarOffScreen,
        hardwareBarInHide,
        notchHardwareBarInHide,
        hardwareNothingOnScreen,
        notchZeroHeight,
        notchShortBar,
    ]
}

/// A notification sequence a device posts, and what the last one must leave behind.
struct KeyboardSequenceFixture: Sendable, CustomTestStringConvertible {
    var name: String
    var screenAfter: CGRect
    var safeAreaBottom: CGFloat = 0
    var steps: [KeyboardEvent]
    var insetAfter: CGFloat

    var testDescription: String { name }

    func post(on center: NotificationCenter) {
        for step in steps {
            let userInfo = KeyboardPayload.userInfo(
                begin: step.beginFrame, end: step.endFrame, duration: step.animationDuration,
                curve: step.animationCurve, isLocal: step.isLocal
            )
            center.post(name: step.phase.notificationName, object: nil, userInfo: userInfo)
        }
    }

    private static func step(_ phase: KeyboardPhase, from begin: CGRect, to end: CGRect) -> KeyboardEvent {
        KeyboardEvent(
            phase: phase, beginFrame: begin, endFrame: end, animationDuration: 0.25, animationCurve: 7, isLocal: true
        )
    }

    /// The portrait keyboard (216 pt) stays up while the phone turns to landscape (162 pt).
    static let rotationWhileShown: KeyboardSequenceFixture = {
        let portrait = KeyboardDevice.keyboard(height: 216, on: KeyboardDevice.iPhonePortrait)
        let landscape = KeyboardDevice.keyboard(height: 162, on: KeyboardDevice.iPhoneLandscape)
        return KeyboardSequenceFixture(
            name: "iPhone rotating to landscape with the keyboard up",
            screenAfter: KeyboardDevice.iPhoneLandscape,
            steps: [
                step(.willChangeFrame, from: portrait, to: landscape),
                step(.willShow, from: portrait, to: landscape),
                step(.didChangeFrame, from: portrait, to: landscape),
                step(.didShow, from: portrait, to: landscape),
            ],
            insetAfter: 162
        )
    }()

    /// The QuickType bar appears while the keyboard stays up: frame changes only, no show.
    static let quickTypeAppears: KeyboardSequenceFixture = {
        let screen = KeyboardDevice.notchPortrait
        let hidden = KeyboardDevice.keyboard(height: 291, on: screen, hidden: true)
        let plain = KeyboardDevice.keyboard(height: 291, on: screen)
        let withQuickType = KeyboardDevice.keyboard(height: 336, on: screen)
        return KeyboardSequenceFixture(
            name: "notch phone, QuickType bar appearing while the keyboard is up",
            screenAfter: screen, safeAreaBottom: 34,
            steps: [
                step(.willChangeFrame, from: hidden, to: plain),
                step(.willShow, from: hidden, to: plain),
                step(.didChangeFrame, from: hidden, to: plain),
                step(.didShow, from: hidden, to: plain),
                step(.willChangeFrame, from: plain, to: withQuickType),
                step(.didChangeFrame, from: plain, to: withQuickType),
            ],
            insetAfter: 302
        )
    }()

    /// The iPad keyboard is undocked: it stops touching the bottom, so the view owes it nothing.
    static let undock: KeyboardSequenceFixture = {
        let screen = KeyboardDevice.iPadPortrait
        let docked = KeyboardDevice.keyboard(height: 264, on: screen)
        let floating = CGRect(x: 224, y: 600, width: 320, height: 216)
        return KeyboardSequenceFixture(
            name: "iPad keyboard undocked to floating",
            screenAfter: screen,
            steps: [
                step(.willChangeFrame, from: docked, to: floating),
                step(.didChangeFrame, from: docked, to: floating),
            ],
            insetAfter: 0
        )
    }()

    static let all: [KeyboardSequenceFixture] = [rotationWhileShown, quickTypeAppears, undock]
}
