import Foundation
import Testing
import TextInput

/// Marks the main queue, the main actor's executor, to check where a field is written.
/// `Thread.isMainThread` cannot: under `swift test` on Linux the main queue is drained by a
/// worker thread.
let mainQueueMarker: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// A field that behaves like a `UITextField` driven by a binding: it applies accepted edits
/// itself, keeps a caret, and reports every change of its text.
@MainActor
final class FieldDouble: BoundField {
    var text = "" {
        didSet {
            writes += 1
            if DispatchQueue.getSpecific(key: mainQueueMarker) != true { writesOffMain += 1 }
        }
    }
    var hasMarkedText = false
    var caret = 0
    private(set) var writes = 0
    private(set) var writesOffMain = 0

    /// Proposes an edit the way UIKit's delegate call does, and carries out the decision.
    @discardableResult
    func propose<M, F>(_ replacement: String, in range: NSRange, to binding: FieldBinding<M, F>) throws -> FieldEditDecision {
        let decision = binding.replaceCharacters(in: range, with: replacement)
        switch decision {
        case .accept:
            let result = try TextEdit(range: range, replacement: replacement).applyWithCaret(to: text)
            text = result.text
            caret = result.caretLocation
            binding.fieldTextDidChange()
        case let .replaced(replacedText, caretLocation):
            #expect(text == replacedText, "the binding sets the text it announces")
            caret = caretLocation
        case .refuse:
            break
        }
        return decision
    }

    /// Types at the caret.
    @discardableResult
    func type<M, F>(_ replacement: String, into binding: FieldBinding<M, F>) throws -> FieldEditDecision {
        try propose(replacement, in: NSRange(location: caret, length: 0), to: binding)
    }

    /// Deletes the character before the caret.
    @discardableResult
    func backspace<M, F>(in binding: FieldBinding<M, F>) throws -> FieldEditDecision {
        let range = try #require(text.rangeOfCharacter(endingAt: caret))
        return try propose("", in: range, to: binding)
    }

    /// Selects everything and replaces it.
    @discardableResult
    func replaceAll<M, F>(with replacement: String, in binding: FieldBinding<M, F>) throws -> FieldEditDecision {
        try propose(replacement, in: NSRange(location: 0, length: text.utf16.count), to: binding)
    }
}
