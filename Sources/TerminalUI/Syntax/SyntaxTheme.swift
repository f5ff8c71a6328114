/// The colours of syntax kinds, from the terminal's palette so they follow its theme.
enum SyntaxTheme {
    static func style(for kind: SyntaxKind) -> CellStyle {
        switch kind {
        case .plain: return .plain
        case .keyword: return CellStyle(foreground: .magenta)
        case .literal: return CellStyle(foreground: .yellow)
        case .string, .template: return CellStyle(foreground: .green)
        case .number: return CellStyle(foreground: .yellow)
        case .comment: return CellStyle(foreground: .brightBlack)
        case .regex: return CellStyle(foreground: .red)
        case .invalid: return CellStyle(foreground: .red, attributes: .underline)
        }
    }
}
