/// Cleans text that arrives from outside the editor (a paste) before it is inserted.
///
/// Line endings become "\n", and control characters other than newline and tab are dropped:
/// they cannot be part of a script's source meaningfully, and a paste is the classic way to
/// smuggle escape sequences into a terminal program.
enum PastedText {
    static func normalized(_ text: String, codeMode: Bool) -> String {
        var result = String.UnicodeScalarView()
        var previousWasReturn = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value == 0x0D {
                result.append("\n")
                previousWasReturn = true
                continue
            }
            defer { previousWasReturn = false }
            if value == 0x0A {
                if !previousWasReturn { result.append("\n") }
                continue
            }
            if value == 0x09 {
                result.append(scalar)
                continue
            }
            if value < 0x20 || (value >= 0x7F && value < 0xA0) {
                continue
            }
            if codeMode, let replacement = CodeSubstitution.replacement(for: scalar) {
                result.append(replacement)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
