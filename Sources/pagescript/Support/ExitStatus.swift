import Batch
import Benchmarking
import EditorSession
import Engines
import GMAPI
import PageRuntime
import UserScripts

/// The exit codes, decided in one place.
///
/// Commands do not pick codes: they throw what went wrong (a library's own error, or a
/// ``CommandFailure`` for what only the command knows) and `PageScript.main` ends the process
/// with ``code(for:)``. So the same failure exits with the same code whichever command met it,
/// and README.md's table is this one.
///
/// | code | meaning |
/// | --- | --- |
/// | 0 | done |
/// | 1 | a script threw or did not parse, import or export refused a file (or a download or backup), a `batch` page did not end `ok`, or `match` matched no URL |
/// | 2 | usage or bad input |
/// | 3 | the engine is missing, failed to start or died, or a batch could not get a session |
/// | 4 | a script did not finish in time |
/// | 128 + n | ended by signal n |
enum ExitStatus {
    static let scriptFailed: Int32 = 1
    static let badInput: Int32 = 2
    static let engineFailed: Int32 = 3
    static let timedOut: Int32 = 4

    /// The exit code for `error`, thrown by a command.
    static func code(for error: any Error) -> Int32 {
        switch error {
        case let failure as CommandFailure:
            switch failure {
            case .badInput: badInput
            case .browserStopped, .noSession: engineFailed
            case .scriptsFailed, .noMatch: scriptFailed
            case .scriptsTimedOut: timedOut
            case let .signal(number): 128 + number
            case let .reported(failure): code(for: failure)
            }
        case let failure as PageRunner.Failure:
            code(for: failure)
        case let error as InjectionError:
            code(for: error)
        case let failure as PageEditor.Failure:
            switch failure {
            case let .page(failure): code(for: failure)
            case .terminal, .file: badInput
            }
        case is EngineError, is BenchmarkError:
            engineFailed
        case let error as ScriptImportError:
            // A path that is not there is bad input; a download or a backup that failed is a refusal.
            if case .library = error { badInput } else { scriptFailed }
        case is LibraryError, is MetadataError, is ValueStoreError, is MatchPatternError, is URLParseError, is ScriptCodeOptions.Unreadable, is BatchSetupError:
            badInput
        default:
            // A failure no row of the table names is still a failure, never a silent success.
            scriptFailed
        }
    }

    private static func code(for failure: PageRunner.Failure) -> Int32 {
        switch failure {
        case .engine: engineFailed
        case let .injection(error): code(for: error)
        }
    }

    private static func code(for error: InjectionError) -> Int32 {
        switch error {
        case .timedOut, .loadTimedOut: timedOut
        case .invalidURL, .navigationFailed, .library: badInput
        case .webDriver, .resourceMissing: engineFailed
        case .malformedReply, .pageChanged, .pageInterfered, .navigatedAway, .filesMissing: scriptFailed
        }
    }
}

/// What ends a command without success when no library error says it: ``ExitStatus`` gives
/// each case its exit code, and `PageScript.main` prints its message.
enum CommandFailure: Error, CustomStringConvertible {
    /// The command line or the user's input is wrong; the message says what.
    case badInput(String)
    /// The browser went away while the editor was open; the message says how.
    case browserStopped(String)
    /// A batch could not get a session (none at all, or none for its whole wait); the message
    /// says why.
    case noSession(String)
    /// A script threw or did not parse, or a file was refused; the output already says which.
    case scriptsFailed
    /// A library script did not finish in time; the output already says which.
    case scriptsTimedOut
    /// A termination signal ended the command.
    case signal(Int32)
    /// `match`: none of the URLs matched; the output already says so, line by line.
    case noMatch
    /// A page run that did not complete, already reported on standard error (and with `--json`
    /// on standard output); its exit code is the failure's.
    case reported(PageRunner.Failure)

    /// The message to print; empty when the output already told the user.
    var description: String {
        switch self {
        case let .badInput(message), let .browserStopped(message), let .noSession(message): message
        case .scriptsFailed, .scriptsTimedOut, .signal, .reported, .noMatch: ""
        }
    }
}
