/// What the extension sends back to Action.js's `finalize` when the user taps Done.
///
/// Safari passes the dictionary found under `NSExtensionJavaScriptFinalizeArgumentKey` to
/// `finalize(parameters)`, which runs `parameters.customJavaScript`. The script travels as data
/// in that dictionary; it is never spliced into JavaScript source.
///
/// ```swift
/// let argument = ActionReply.finalizeArgument(script: textView.text) as NSDictionary
/// let reply: NSDictionary = [NSExtensionJavaScriptFinalizeArgumentKey: argument]
/// ```
public enum ActionReply {
    /// The key `finalize` reads the script from.
    public static let scriptKey = "customJavaScript"

    /// The argument for `finalize`: the script under ``scriptKey``.
    ///
    /// - Parameter script: The user's script, exactly as typed.
    public static func finalizeArgument(script: String) -> [String: String] {
        [scriptKey: script]
    }
}
