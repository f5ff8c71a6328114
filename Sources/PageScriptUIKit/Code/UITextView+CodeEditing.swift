#if canImport(UIKit)
import UIKit

extension UITextView {
    /// Turns off the typing aids that corrupt code, and sets a monospaced font that follows
    /// Dynamic Type.
    ///
    /// Autocorrection renames identifiers, smart quotes turn `"` into `“` (a syntax error in
    /// JavaScript), smart dashes turn `--` into `–`, smart insert adds spaces around pasted
    /// tokens, spell checking underlines every identifier, and autocapitalisation turns `const`
    /// into `Const` at the start of a line. Inline predictions, Writing Tools and math completion
    /// rewrite text the same way, so they go too where the system has them.
    ///
    /// ```swift
    /// let editor = PlaceholderTextView()
    /// editor.configureForCode()
    /// ```
    public func configureForCode() {
        autocorrectionType = .no
        autocapitalizationType = .none
        spellCheckingType = .no
        smartQuotesType = .no
        smartDashesType = .no
        smartInsertDeleteType = .no
        inlinePredictionType = .no
        if #available(iOS 18.0, *) {
            writingToolsBehavior = .none
            mathExpressionCompletionType = .no
        }
        dataDetectorTypes = []
        // 17 pt is the body style's size at the default content size category; the metrics
        // scale it with the person's setting.
        let monospaced = UIFont.monospacedSystemFont(ofSize: 17, weight: .regular)
        font = UIFontMetrics(forTextStyle: .body).scaledFont(for: monospaced)
        adjustsFontForContentSizeCategory = true
    }
}
#endif
