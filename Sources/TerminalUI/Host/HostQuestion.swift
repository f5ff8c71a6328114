import Foundation

/// A question the program running the editor puts to the person, on the status line, while they
/// edit: a userscript asks to reach a host its `@connect` lines do not name, say. One key of
/// ``choices`` answers it; Esc answers `nil` (the program's cautious default). Questions wait
/// behind each other and behind the editor's own.
///
/// ```swift
/// let question = HostQuestion(prompt: "Price watch wants to reach api.example. Allow it?",
///                             choices: [.init(key: "a", label: "Always"), .init(key: "n", label: "Not now")]) { key in
///     continuation.resume(returning: key == "a")
/// }
/// notices.send(.ask(question))
/// ```
public struct HostQuestion: Hashable, Sendable {
    /// A key that answers, and what it means.
    public struct Choice: Hashable, Sendable {
        public let key: Character
        public let label: String

        public init(key: Character, label: String) {
            self.key = key
            self.label = label
        }
    }

    /// The question, in words (page-provided parts already escaped by the asker).
    public let prompt: String
    /// The keys that answer it.
    public let choices: [Choice]
    private let responder: Responder

    /// - Parameter respond: Called once, with the key chosen, or `nil` for Esc or a question
    ///   withdrawn unanswered.
    public init(prompt: String, choices: [Choice], respond: @escaping @Sendable (Character?) -> Void) {
        self.prompt = prompt
        self.choices = choices
        responder = Responder(respond)
    }

    /// Answers the question, once; later answers are ignored.
    func respond(_ key: Character?) {
        responder.respond(key)
    }

    /// Answers `nil` for the person when they have not answered (a question that waited too
    /// long); nothing when they have.
    public func answerUnanswered() {
        responder.respond(nil)
    }

    /// The closure, called at most once; equal only to itself.
    private final class Responder: Hashable, @unchecked Sendable {
        // Guards `respond`, which is cleared once called; hence @unchecked Sendable.
        private let lock = NSLock()
        private var respond: (@Sendable (Character?) -> Void)?

        init(_ respond: @escaping @Sendable (Character?) -> Void) {
            self.respond = respond
        }

        func respond(_ key: Character?) {
            let call = lock.withLock { () -> (@Sendable (Character?) -> Void)? in
                defer { respond = nil }
                return respond
            }
            call?(key)
        }

        static func == (left: Responder, right: Responder) -> Bool { left === right }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }
}
