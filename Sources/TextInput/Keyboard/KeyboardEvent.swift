#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// One keyboard notification, read into typed values.
///
/// An event is what UIKit says about the keyboard as a whole: its frames are in the screen's
/// coordinate space and mean nothing for a particular view until they are intersected with that
/// view's frame, which ``KeyboardState`` does. Create one from a posted notification with
/// ``init(notification:)``, or directly when simulating a keyboard.
///
/// ```swift
/// let event = try KeyboardEvent(notification: notification)
/// let state = KeyboardState(event: event, viewFrame: viewFrameInScreen, screenBounds: screen.bounds)
/// ```
public struct KeyboardEvent: Sendable, Equatable {
    /// Which of the six notifications this is.
    public var phase: KeyboardPhase
    /// The keyboard's frame before the change, in the screen's coordinate space.
    public var beginFrame: CGRect
    /// The keyboard's frame after the change, in the screen's coordinate space.
    ///
    /// This is the frame to lay out against: handlers of a *will* phase run inside UIKit's
    /// animation, so views set to their end positions move along with the keyboard.
    public var endFrame: CGRect
    /// The duration of the keyboard's animation in seconds; zero happens and means no animation.
    public var animationDuration: TimeInterval
    /// The raw value of the keyboard's animation curve.
    ///
    /// iOS sends 7, which is not a `UIView.AnimationCurve` case, so the value is kept as an `Int`
    /// rather than an enum that would need a trapping `switch`. Use
    /// ``animationOptionsRawValue`` to animate with it.
    public var animationCurve: Int
    /// Whether the keyboard belongs to this app; false while another app's keyboard is up, as in
    /// Split View or Slide Over.
    public var isLocal: Bool

    /// Creates an event from its parts.
    ///
    /// - Parameters:
    ///   - phase: Which of the six notifications the event stands for.
    ///   - beginFrame: The keyboard's frame before the change, in screen coordinates.
    ///   - endFrame: The keyboard's frame after the change, in screen coordinates.
    ///   - animationDuration: The animation's duration in seconds.
    ///   - animationCurve: The animation curve's raw value.
    ///   - isLocal: Whether the keyboard belongs to this app.
    public init(
        phase: KeyboardPhase,
        beginFrame: CGRect,
        endFrame: CGRect,
        animationDuration: TimeInterval,
        animationCurve: Int,
        isLocal: Bool
    ) {
        self.phase = phase
        self.beginFrame = beginFrame
        self.endFrame = endFrame
        self.animationDuration = animationDuration
        self.animationCurve = animationCurve
        self.isLocal = isLocal
    }

    /// The curve as the raw value of `UIView.AnimationOptions`: the curve shifted left by 16 bits.
    ///
    /// This is the way to animate with the keyboard's curve, 7 included, without converting it to
    /// `UIView.AnimationCurve`, which has no case for 7. Only the four bits UIKit reserves for the
    /// curve are kept, so a malformed curve cannot switch on unrelated options such as transitions.
    ///
    /// ```swift
    /// UIView.animate(
    ///     withDuration: event.animationDuration, delay: 0,
    ///     options: UIView.AnimationOptions(rawValue: event.animationOptionsRawValue)
    /// ) { ... }
    /// ```
    public var animationOptionsRawValue: UInt {
        (UInt(truncatingIfNeeded: animationCurve) & 0xF) << 16
    }
}
