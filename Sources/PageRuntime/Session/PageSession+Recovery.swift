import Foundation
import SystemSupport

extension PageSession {
    static let recoveryAttempts = 4

    /// Gets a run's reply after the call that started it came back without one: answers any dialog
    /// the page opened, then asks the runtime for the reply (waiting for the run to finish). A
    /// runtime that is gone means the page changed documents: it navigated away. A page that keeps
    /// breaking the driver's replies moves the session to DevTools, where that exists.
    func recover(run id: String, entry: RuntimeEntry, reason: String, seconds: Double, remaining: Double) async throws(InjectionError) -> RuntimeReply {
        var reason = reason
        for _ in 0..<Self.recoveryAttempts {
            let answered = await answerOpenDialog()
            let outcome = try await execute(ScriptBody.call(entry: entry), entry: entry, request: RuntimeRequest.collect(id: id, wait: true),
                                            timeout: remaining + Self.driverGrace + Self.transportMargin)
            switch outcome {
            case let .reply(reply):
                guard reply.missingRun == nil else {
                    throw .pageInterfered(reason: "the page lost the run (\(reason))")
                }
                return reply
            case .notInstalled:
                throw .navigatedAway(to: (try? await browserURL()) ?? "an unknown address")
            case let .interrupted(next):
                // The same failure again, with no dialog to explain it: the page breaks the
                // driver's replies, and only DevTools can get past it.
                if !answered, next == reason {
                    guard transport.retryAfterInterference() else { throw .pageInterfered(reason: next) }
                }
                reason = next
            case .timedOut:
                throw .timedOut(seconds: seconds)
            case let .compileFailed(message, _):
                guard transport.retryAfterInterference() else { throw .pageInterfered(reason: message) }
            }
        }
        throw .pageInterfered(reason: reason)
    }

    /// The error of a run whose call came back without its reply after the run's deadline.
    ///
    /// Where DevTools evaluated the call, the engine has stopped the script at the call's limit and
    /// the page answers again: what the script logged and asked so far is collected, so a timeout
    /// keeps it. A page still blocked (Execute Script's engines cannot stop a script) has nothing
    /// to give, and is not asked.
    ///
    /// Dialogs the page opened meanwhile are kept with it; where nothing could be collected, under
    /// `fallback`, the page as the visit knows it.
    func timedOut(run id: String, entry: RuntimeEntry, script: PreparedScript, body: ScriptBody, seconds: Double,
                  stopped: Bool = false, fallback: PageContext? = nil) async -> InjectionError {
        let timeout = InjectionError.timeoutError(seconds: seconds)
        let answering = if stopped { true } else { await stopRunningScript() }
        guard answering,
              case let .reply(reply)? = try? await execute(ScriptBody.call(entry: entry), entry: entry,
                                                            request: RuntimeRequest.collect(id: id, wait: false), timeout: 1),
              reply.missingRun == nil,
              let (result, _) = try? reply.result(ofScript: 0, prepared: script, placement: body.placements[0])
        else {
            guard let fallback, !state.read(\.pageDialogs).isEmpty else { return .timedOut(seconds: seconds) }
            return .timedOut(seconds: seconds, partial: ScriptResult(context: fallback, value: nil, console: [], error: timeout, dialogs: takePageDialogs()))
        }
        let partial = ScriptResult(context: result.context, value: nil, console: result.console, error: timeout,
                                   dialogs: ScriptDialog.inOrder(takePageDialogs() + result.dialogs))
        return .timedOut(seconds: seconds, partial: partial)
    }

    /// Stops whatever script keeps the page busy (the user's, or one of the page's own that
    /// blocks it), where DevTools reaches the page. Returns whether the browser said it did:
    /// Execute Script's engines have no such command, and a page that stays stuck is not asked
    /// anything more.
    ///
    /// Only PageScript's own DevTools connection is asked: chromedriver's commands wait behind
    /// the busy page themselves.
    @discardableResult
    func stopRunningScript() async -> Bool {
        guard transport.sendsDevToolsCommands, let direct else { return false }
        return await direct.terminateExecution()
    }

    /// Reads and answers a dialog the page has open, by the session's policy, and keeps it for
    /// the next result. Returns whether there was one.
    @discardableResult
    func answerOpenDialog() async -> Bool {
        // A page in a background tab is not the driver's current window: its dialog is not this
        // driver's to answer.
        guard route == nil else { return false }
        let text: JSONValue
        do {
            text = try await session.command(.GET, "/alert/text", body: nil, name: "get alert text", timeout: 5)
        } catch {
            // None open: a dialog the direct connection saw has closed, whatever its events say yet.
            if case .protocolError(code: .noSuchAlert, _, _) = error { direct?.noDialogOpen() }
            return false
        }
        guard let message = text.stringValue else { return false }
        // The page waits on the dialog until it is answered: it opened before anything the page does next.
        let openedAt = Date().timeIntervalSince1970 * 1000
        // A prompt takes the policy's text (the driver refuses it for other dialogs, which is fine).
        let typed: String? = if let answer = dialogs.promptAnswer,
                                (try? await session.command(.POST, "/alert/text", body: ["text": .string(answer)], name: "send alert text", timeout: 5)) != nil {
            answer
        } else {
            nil
        }
        let verb = dialogs.accepts ? "accept" : "dismiss"
        _ = try? await session.command(.POST, "/alert/\(verb)", body: [:], name: "\(verb) alert", timeout: 5)
        direct?.noDialogOpen()
        state.update { $0.pageDialogs.append(ScriptDialog(kind: typed == nil ? "dialog" : "prompt", message: message, accepted: dialogs.accepts,
                                                          answer: typed, openedByPage: true, openedAt: openedAt)) }
        return true
    }

    func takePageDialogs() -> [ScriptDialog] {
        state.update { state -> [ScriptDialog] in
            defer { state.pageDialogs = [] }
            return state.pageDialogs
        }
    }
}
