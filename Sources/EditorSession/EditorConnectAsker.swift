import Foundation
import PageRuntime
import SystemSupport
import TerminalUI

/// Asks the person at the editor whether a script may reach a host its `@connect` lines do not
/// name, as Tampermonkey asks and as `browse` does (a ``PageRuntime/ConnectAsker``): a question
/// on the status line, `a` allows it for good, `o` for this session, `r` refuses it for good,
/// `n` (or Esc) for this session; no key within ``questionTimeout`` refuses it this once.
///
/// ```swift
/// let asker = EditorConnectAsker()
/// let host = GMHost(libraryDirectory: library.directory, asker: asker.ask)
/// asker.attach(notices.send)   // once the editor exists
/// ```
final class EditorConnectAsker: @unchecked Sendable {
    /// How long a question waits for a key.
    static let questionTimeout: Duration = .seconds(60)

    // Guards `notify`; hence @unchecked Sendable.
    private let lock = NSLock()
    private var notify: (@Sendable (EditorNotice) -> Void)?
    private let timeout: Duration

    init(timeout: Duration = EditorConnectAsker.questionTimeout) {
        self.timeout = timeout
    }

    /// From now on, questions go to the editor through `notify`; before, a question is refused
    /// this once (nobody could see it).
    func attach(_ notify: @escaping @Sendable (EditorNotice) -> Void) {
        lock.withLock { self.notify = notify }
    }

    /// Asks; returns the person's answer.
    @Sendable func ask(_ question: ConnectQuestion) async -> ConnectAnswer {
        guard let notify = lock.withLock({ notify }) else { return .refuseThisSession }
        let safe = TerminalSafeText.escaped
        return await withCheckedContinuation { (continuation: CheckedContinuation<ConnectAnswer, Never>) in
            let asked = HostQuestion(
                prompt: "\(safe(question.scriptName)) wants to reach \(safe(question.host)), which its @connect lines do not name.",
                choices: [
                    .init(key: "a", label: "Allow always"), .init(key: "o", label: "Allow this session"),
                    .init(key: "r", label: "Refuse always"), .init(key: "n", label: "Refuse this session"),
                ]
            ) { key in
                continuation.resume(returning: Self.answer(forKey: key))
            }
            notify(.ask(asked))
            let timeout = timeout
            Task {
                try? await Task.sleep(for: timeout)
                // The editor's later key, if any, finds the question answered.
                notify(.withdraw(asked, message: "No answer about \(safe(question.host)): refused this time."))
                asked.answerUnanswered()
            }
        }
    }

    /// What a key means; `nil` (Esc, or no key in time) refuses this once.
    static func answer(forKey key: Character?) -> ConnectAnswer {
        switch key {
        case "a": .allowAlways
        case "o": .allowThisSession
        case "r": .refuseAlways
        default: .refuseThisSession
        }
    }
}
