import UserScripts

/// A question for the person at the terminal (`browse`, as Tampermonkey asks): a script's
/// `GM_xmlhttpRequest` goes to a host its `@connect` lines do not name.
public struct ConnectQuestion: Sendable, Equatable {
    /// The script's `@name`.
    public let scriptName: String
    /// The library script's ID; `nil` for a script outside the library (whose answer lasts the session).
    public let script: ScriptID?
    /// The host, as a `@connect` line would name it.
    public let host: String
    /// The address asked for.
    public let url: String

    public init(scriptName: String, script: ScriptID?, host: String, url: String) {
        self.scriptName = scriptName
        self.script = script
        self.host = host
        self.url = url
    }
}

/// The answer to a ``ConnectQuestion``: for this session, or kept for the script (a library
/// script's, in the library, ``GMAPI/ConnectAnswers``).
public enum ConnectAnswer: Sendable, Equatable {
    case allowAlways
    case allowThisSession
    case refuseAlways
    case refuseThisSession

    var allows: Bool { self == .allowAlways || self == .allowThisSession }
    var isKept: Bool { self == .allowAlways || self == .refuseAlways }
}

/// Asks the person about a ``ConnectQuestion`` and returns the answer (a default when nobody
/// answers in time is the asker's choice).
public typealias ConnectAsker = @Sendable (ConnectQuestion) async -> ConnectAnswer
