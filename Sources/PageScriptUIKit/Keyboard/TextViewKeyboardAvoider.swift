#if canImport(UIKit)
import os
import TextInput
import UIKit

/// Keeps a text view's text, and its caret, clear of the keyboard by insetting its content.
///
/// A text view that fills its screen keeps its frame when the keyboard comes up; what changes is
/// how far its content may scroll. The avoider listens to all six keyboard notifications through
/// `KeyboardObserver` (height changes while the keyboard stays up, such as the
/// QuickType bar or a language switch, arrive only as frame changes) and, for each one:
///
/// 1. converts the text view's bounds into the coordinate space of its own screen, taken from its
///    window scene: an app extension has neither `UIScreen.main` nor `UIApplication.shared`, and a
///    window in Split View, Slide Over or Stage Manager does not start at the screen's origin;
/// 2. lets `KeyboardState` work out how much of the keyboard overlaps the view: none
///    for a floating keyboard or one beside a Stage Manager window, a bar for a hardware keyboard;
/// 3. applies that as the bottom content and scroll-indicator inset through
///    `KeyboardInsetTracker`, which gives the view its own inset back when the keyboard
///    goes, instead of zero;
/// 4. once the new inset is laid out, scrolls just far enough to show the caret (the end of the
///    selection, not the whole selection) between the bars at the top and the keyboard.
///
/// Changes announced before the keyboard moves are animated with its duration and curve.
///
/// ```swift
/// final class EditorViewController: UIViewController {
///     private let textView = UITextView()
///     private var keyboardAvoider: TextViewKeyboardAvoider?
///
///     override func viewDidLoad() {
///         super.viewDidLoad()
///         view.addSubview(textView)  // pinned to the view's edges
///         keyboardAvoider = TextViewKeyboardAvoider(textView: textView)
///     }
///
///     override func viewDidLayoutSubviews() {
///         super.viewDidLayoutSubviews()
///         keyboardAvoider?.refresh()  // the view moved under a keyboard that stayed put
///     }
/// }
/// ```
///
/// A view laid out with Auto Layout that can simply end above the keyboard is better served by
/// `UIKeyboardLayoutGuide`; see `UIView.pinBottomAboveKeyboard(_:spacing:)`.
@MainActor
public final class TextViewKeyboardAvoider {
    /// The text view kept clear of the keyboard; held weakly, so the avoider never keeps it alive.
    public private(set) weak var textView: UITextView?

    /// The keyboard as the text view last saw it, or `nil` before the first notification.
    public private(set) var keyboardState: KeyboardState?

    private var observer: KeyboardObserver?
    private var contentInsets = KeyboardInsetTracker()
    private var indicatorInsets = KeyboardInsetTracker()

    /// Starts keeping `textView` clear of the keyboard.
    ///
    /// - Parameters:
    ///   - textView: The text view to inset; not retained.
    ///   - center: Where the keyboard notifications are posted; `.default` in an app.
    public init(textView: UITextView, center: NotificationCenter = .default) {
        self.textView = textView
        observer = KeyboardObserver(center: center) { [weak self] update in
            MainActorHop.run { self?.receive(update) }
        }
    }

    /// The most recent keyboard notification that could not be read, or `nil`.
    public var lastError: KeyboardEventError? {
        observer?.lastError
    }

    /// Stops following the keyboard; the insets stay as they are. Releasing the avoider does the
    /// same.
    public func cancel() {
        observer?.cancel()
    }

    /// Applies the latest keyboard frame again, without animating or scrolling.
    ///
    /// The keyboard posts nothing when the view itself moves: a Stage Manager window resized, a
    /// sheet changing detent, a rotation finishing. Call this from `viewDidLayoutSubviews`; it
    /// writes an inset only when it changes, so it does not cause another layout pass.
    public func refresh() {
        guard let event = observer?.currentEvent else { return }
        apply(event, animated: false, revealingCaret: false)
    }

    /// Lays out the text view and scrolls it just far enough to show its caret between the bars at
    /// the top and the keyboard; call it after replacing the text in code.
    public func revealCaret() {
        guard let textView else { return }
        textView.layoutIfNeeded()
        Self.scrollToCaret(in: textView)
    }

    private func receive(_ update: KeyboardObserver.Update) {
        switch update {
        case .success(let event):
            apply(event, animated: event.phase.isBeforeChange, revealingCaret: true)
        case .failure(let error):
            Logger(subsystem: "PageScriptUIKit", category: "Keyboard")
                .error("Ignored a keyboard notification: \(error.description, privacy: .public)")
        }
    }

    private func apply(_ event: KeyboardEvent, animated: Bool, revealingCaret: Bool) {
        guard let textView, let screen = textView.window?.windowScene?.screen else { return }
        let space = screen.coordinateSpace
        let state = KeyboardState(
            event: event,
            viewFrame: textView.convert(textView.bounds, to: space),
            screenBounds: space.bounds
        )
        keyboardState = state
        // The system adds the safe area on top of `contentInset` (see `adjustedContentInset`);
        // pass on exactly what it adds, which is nothing when the adjustment behaviour is `.never`.
        let systemBottom = textView.adjustedContentInset.bottom - textView.contentInset.bottom
        let keyboardBottom = state.bottomInset(safeAreaBottom: systemBottom)
        let contentBottom = contentInsets.bottomInset(
            applying: keyboardBottom,
            currentBottomInset: textView.contentInset.bottom
        )
        let indicatorBottom = indicatorInsets.bottomInset(
            applying: keyboardBottom,
            currentBottomInset: textView.verticalScrollIndicatorInsets.bottom
        )
        let changes: @MainActor @Sendable () -> Void = {
            if textView.contentInset.bottom != contentBottom {
                textView.contentInset.bottom = contentBottom
            }
            if textView.verticalScrollIndicatorInsets.bottom != indicatorBottom {
                textView.verticalScrollIndicatorInsets.bottom = indicatorBottom
            }
            guard revealingCaret else { return }
            // Scrolling before the new inset is laid out would aim at the old visible band and
            // leave the caret under the keyboard.
            textView.layoutIfNeeded()
            Self.scrollToCaret(in: textView)
        }
        if animated, event.animationDuration > 0 {
            UIView.animate(
                withDuration: event.animationDuration,
                delay: 0,
                options: [UIView.AnimationOptions(rawValue: event.animationOptionsRawValue), .beginFromCurrentState],
                animations: { changes() }
            )
        } else {
            changes()
        }
    }

    private static func scrollToCaret(in textView: UITextView) {
        // Only a text view being edited has a caret worth chasing; scrolling an idle one would
        // move the text out from under the person reading it.
        guard textView.isFirstResponder, let end = textView.selectedTextRange?.end else { return }
        let insets = textView.adjustedContentInset
        let offset = KeyboardAvoidance.contentOffset(
            revealing: textView.caretRect(for: end),
            currentOffset: textView.contentOffset.y,
            visibleHeight: textView.bounds.height,
            bottomInset: insets.bottom,
            topInset: insets.top
        )
        if offset != textView.contentOffset.y {
            textView.contentOffset = CGPoint(x: textView.contentOffset.x, y: offset)
        }
    }
}
#endif
