/// Decides whether the inside of braces reads as the property definitions of an object literal,
/// from its items at depth 1 (read as an object literal).
///
/// This is the console's question for an input that is `{ ... }` alone: browsers' consoles
/// evaluate it as an object when it parses as one (`{a: 1, b: 2}`, `{ "x": [1, 2], ...rest,
/// [k]: v, m() {}, get g() {} }`, `{ a }`, `{}`) and as a block otherwise (`{ foo(); }`,
/// `{ let x = 1; x }`). Property definitions are: `name`, `name: value`, `...value`,
/// `[key]: value`, and methods with their `get`, `set`, `async` and `*` modifiers, separated by
/// commas, with an optional trailing comma. Anything else (a `;`, `name = value`, a keyword as a
/// shorthand name, two properties without a comma) is not an object literal.
enum ObjectLiteralCheck {
    static func isObjectLiteral(_ items: [OutlineItem]) -> Bool {
        var index = 0
        while index < items.count {
            guard let next = readProperty(items, from: index) else { return false }
            index = next
            if index < items.count {
                guard items[index].isPunctuator(.comma) else { return false }
                index += 1
            }
        }
        return true
    }

    /// Reads one property definition at `start`; returns where it ends, or `nil` when it is not one.
    private static func readProperty(_ items: [OutlineItem], from start: Int) -> Int? {
        var index = start
        if items[index].isPunctuator(.ellipsis) {
            return readValue(items, from: index + 1)
        }
        var hasModifier = false
        while isModifier(items, at: index) {
            hasModifier = true
            index += 1
        }
        guard index < items.count else { return nil }
        let key = items[index]
        guard isPropertyName(key) else { return nil }
        index += 1
        guard index < items.count, !items[index].isPunctuator(.comma) else {
            // A shorthand property: a plain name that can stand for a variable.
            return !hasModifier && isShorthandName(key) ? index : nil
        }
        let following = items[index]
        if following.isPunctuator(.colon), !hasModifier {
            return readValue(items, from: index + 1)
        }
        if following.isParenthesisGroup, index + 1 < items.count, items[index + 1].isBraceGroup {
            return index + 2
        }
        return nil
    }

    /// Reads a value: at least one item, up to the next comma, without a `;` and without a `:`
    /// that no `?` of a conditional expression is waiting for (`{ a: 1 b: 2 }` is no object).
    private static func readValue(_ items: [OutlineItem], from start: Int) -> Int? {
        var index = start
        var openConditionals = 0
        while index < items.count, !items[index].isPunctuator(.comma) {
            let item = items[index]
            if item.isPunctuator(.semicolon) { return nil }
            if item.isPunctuator(.questionMark) {
                openConditionals += 1
            } else if item.isPunctuator(.colon) {
                guard openConditionals > 0 else { return nil }
                openConditionals -= 1
            }
            index += 1
        }
        return index > start ? index : nil
    }

    /// `get`, `set`, `async` or `*` before a property name (`async` only on the name's line).
    private static func isModifier(_ items: [OutlineItem], at index: Int) -> Bool {
        guard index + 1 < items.count else { return false }
        let item = items[index]
        let next = items[index + 1]
        guard isPropertyName(next) || next.isPunctuator(.star) else { return false }
        if item.isPunctuator(.star) { return true }
        if item.isWord(.get) || item.isWord(.set) { return true }
        return item.isWord(.async) && !next.isPrecededByLineBreak
    }

    private static func isPropertyName(_ item: OutlineItem) -> Bool {
        switch item.shape {
        case .token(.identifier), .token(.keyword), .token(.string), .token(.number), .group(.bracket):
            true
        default:
            false
        }
    }

    private static func isShorthandName(_ item: OutlineItem) -> Bool {
        guard case .token(.identifier) = item.shape else { return false }
        return item.word?.canBeShorthandProperty ?? true
    }
}
