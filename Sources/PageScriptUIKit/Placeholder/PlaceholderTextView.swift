#if canImport(UIKit)
import TextInput
import UIKit

/// A `UITextView` that shows a placeholder exactly when its text is empty and no input method
/// is composing in it.
///
/// `UITextView` has no placeholder, and the usual fix (a label hidden from a text-did-change
/// handler) misses text set in code, which posts no notification, and the moment an input method
/// composes its first character in an otherwise empty view. This subclass feeds a
/// `PlaceholderState` from three places:
///
/// - `UITextView.textDidChangeNotification`, observed for this view only (`object: self`) through
///   an `ObservationToken` that the view owns, so the observer goes away with the view;
/// - the `text` and `attributedText` setters and `replace(_:withText:)`, for text changed in code;
/// - `setMarkedText(_:selectedRange:)` and `unmarkText()`, for composition starting and ending.
///
/// ```swift
/// let textView = PlaceholderTextView()
/// textView.placeholder = "// JavaScript to run on this page"
/// textView.text = savedScript  // the placeholder hides; no notification needed
/// ```
///
/// Style the placeholder through ``placeholderLabel``; it follows the view's font, alignment and
/// text container insets.
@MainActor
public final class PlaceholderTextView: UITextView {
    /// The text shown while the view is empty.
    public var placeholder: String = "" {
        didSet { placeholderLabel.text = placeholder }
    }

    /// The label that shows ``placeholder``, for styling; its frame is managed by the view.
    public let placeholderLabel = UILabel()

    /// Whether the placeholder is shown, and why.
    public private(set) var placeholderState = PlaceholderState()

    // Qualified: newer Foundations nest a type of the same name in NotificationCenter.
    private var textChanges: TextInput.ObservationToken?

    /// Creates a text view; see `UITextView.init(frame:textContainer:)`.
    public override init(frame: CGRect, textContainer: NSTextContainer?) {
        super.init(frame: frame, textContainer: textContainer)
        configurePlaceholder()
    }

    /// Creates a text view from an archive; see `UITextView.init(coder:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        configurePlaceholder()
    }

    public override var text: String! {
        didSet { refreshPlaceholder() }
    }

    public override var attributedText: NSAttributedString! {
        didSet { refreshPlaceholder() }
    }

    public override var font: UIFont? {
        didSet { placeholderLabel.font = font }
    }

    public override var textAlignment: NSTextAlignment {
        didSet { placeholderLabel.textAlignment = textAlignment }
    }

    public override var textContainerInset: UIEdgeInsets {
        didSet { setNeedsLayout() }
    }

    public override func replace(_ range: UITextRange, withText text: String) {
        super.replace(range, withText: text)
        refreshPlaceholder()
    }

    public override func setMarkedText(_ markedText: String?, selectedRange: NSRange) {
        super.setMarkedText(markedText, selectedRange: selectedRange)
        refreshPlaceholder()
    }

    public override func unmarkText() {
        super.unmarkText()
        refreshPlaceholder()
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        // Dynamic Type changes the view's font without calling its setter.
        if placeholderLabel.font != font {
            placeholderLabel.font = font
        }
        let padding = textContainer.lineFragmentPadding
        let insets = textContainerInset
        let width = max(bounds.width - insets.left - insets.right - 2 * padding, 0)
        let height = placeholderLabel.sizeThatFits(CGSize(width: width, height: .greatestFiniteMagnitude)).height
        placeholderLabel.frame = CGRect(x: insets.left + padding, y: insets.top, width: width, height: height)
    }

    /// Shows or hides the placeholder for the view's current text and composition.
    ///
    /// The view calls this itself for typing, composition and the text setters. Call it after
    /// changing `textStorage` directly, which none of those see.
    public func refreshPlaceholder() {
        if placeholderState.update(text: text ?? "", isComposing: markedTextRange != nil) {
            placeholderLabel.isHidden = !placeholderState.isVisible
        }
    }

    private func configurePlaceholder() {
        placeholderLabel.numberOfLines = 0
        placeholderLabel.textColor = .placeholderText
        placeholderLabel.font = font
        placeholderLabel.textAlignment = textAlignment
        placeholderLabel.isUserInteractionEnabled = false
        // VoiceOver reads the text view as one element; the label would be read as stray text.
        placeholderLabel.isAccessibilityElement = false
        addSubview(placeholderLabel)
        placeholderState = PlaceholderState(text: text ?? "", isComposing: markedTextRange != nil)
        placeholderLabel.isHidden = !placeholderState.isVisible
        // The main queue delivers on the main thread whoever posts, which is what makes
        // `assumeIsolated` safe; the token removes the observer when the view is released.
        textChanges = NotificationCenter.default.observe(
            UITextView.textDidChangeNotification,
            object: self,
            queue: .main
        ) { [weak self] _ in
            MainActor.assumeIsolated { self?.refreshPlaceholder() }
        }
    }
}
#endif
