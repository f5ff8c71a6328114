#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// The keyboard as one view sees it: how much of the view it covers, what kind of keyboard it
/// is, and how far to inset the view's content.
///
/// UIKit reports the keyboard for the whole screen. What matters to a view is only the part of
/// the keyboard that overlaps the view's own frame, both in the screen's coordinate space: a view
/// in a Split View or Stage Manager window, or in a form sheet that stops short of the screen's
/// bottom, is covered by less of the keyboard than its height, or by none of it.
///
/// ```swift
/// let state = KeyboardState(event: event, viewFrame: viewFrameInScreen, screenBounds: screen.bounds)
/// if state.isVisible { ... }
/// let inset = state.bottomInset(safeAreaBottom: view.safeAreaInsets.bottom)
/// ```
public struct KeyboardState: Sendable, Equatable {
    /// The notification this state derives from.
    public let event: KeyboardEvent
    /// The view's frame in the screen's coordinate space.
    public let viewFrame: CGRect
    /// The screen's bounds, in the coordinate space the keyboard frames are reported in.
    public let screenBounds: CGRect
    /// The part of the keyboard's end frame that lies over the view and on the screen, or
    /// `CGRect.null` when they do not meet.
    public let overlap: CGRect
    /// How the keyboard sits on the screen.
    public let kind: KeyboardKind

    /// Derives the state for one view.
    ///
    /// - Parameters:
    ///   - event: The keyboard notification, read with ``KeyboardEvent/init(notification:)``.
    ///   - viewFrame: The view's frame converted to the screen's coordinate space (on iOS, to the
    ///     window scene's `screen.coordinateSpace`; not to the window, whose origin is not the
    ///     screen's in Split View, Slide Over or Stage Manager).
    ///   - screenBounds: The bounds of that screen in the same coordinate space.
    public init(event: KeyboardEvent, viewFrame: CGRect, screenBounds: CGRect) {
        self.event = event
        self.viewFrame = viewFrame
        self.screenBounds = screenBounds
        let covered = event.endFrame.intersection(viewFrame).intersection(screenBounds)
        self.overlap = covered.isEmpty ? .null : covered
        self.kind = Self.kind(of: event, on: screenBounds)
    }

    /// Whether any part of the keyboard covers the view.
    ///
    /// This comes from the overlap alone, so a keyboard that is up but lies elsewhere (beside a
    /// Stage Manager window, below a form sheet) is not visible to the view, and a hardware
    /// keyboard's bar that covers the view is.
    public var isVisible: Bool {
        !overlap.isEmpty
    }

    /// The bottom content inset that keeps the view's content clear of the keyboard.
    ///
    /// Zero for a ``KeyboardKind/floating`` or ``KeyboardKind/hidden`` keyboard; otherwise
    /// ``KeyboardAvoidance/bottomInset(keyboardFrame:viewFrame:safeAreaBottom:)`` on the event's
    /// end frame. Unlike that function, this one knows the screen, so it also returns zero for a
    /// floating keyboard hanging below the bottom of a view that does not reach the screen's.
    ///
    /// - Parameter safeAreaBottom: The view's bottom safe-area inset, which the system already
    ///   adds to the content inset (34 pt for the home indicator on notch phones).
    /// - Returns: The inset, never negative.
    public func bottomInset(safeAreaBottom: CGFloat) -> CGFloat {
        switch kind {
        case .floating, .hidden:
            0
        case .docked, .hardwareBarOnly:
            KeyboardAvoidance.bottomInset(
                keyboardFrame: event.endFrame,
                viewFrame: viewFrame,
                safeAreaBottom: safeAreaBottom
            )
        }
    }

    /// Classifies the keyboard from where its end frame lies against the screen's bottom edge.
    private static func kind(of event: KeyboardEvent, on screenBounds: CGRect) -> KeyboardKind {
        let frame = event.endFrame
        guard !frame.intersection(screenBounds).isEmpty else {
            return .hidden
        }
        let tolerance = KeyboardAvoidance.edgeTolerance
        if frame.maxY < screenBounds.maxY - tolerance {
            return .floating
        }
        // A frame that runs past the screen's bottom is a full keyboard pushed down until only
        // its bar shows; a hide notification whose frame is still on screen is the same bar as
        // reported by other iOS versions.
        if frame.maxY > screenBounds.maxY + tolerance || event.phase.isHide {
            return .hardwareBarOnly
        }
        return .docked
    }
}
