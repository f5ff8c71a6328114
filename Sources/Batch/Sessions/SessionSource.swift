
/// Where a batch's sessions come from: local drivers PageScript starts and stops, or a remote
/// endpoint.
///
/// Each of the batch's workers (slots) holds at most one session at a time and asks for a new
/// one when its session dies. Sources decide how a slot's session is made: one WebKitWebDriver
/// per slot on a shared private display, one chromedriver serving every slot with a throwaway
/// profile each, or N sessions on a remote endpoint.
public protocol SessionSource: Sendable {
    /// What records name as their `engine` before any session says better.
    var engineLabel: String { get }

    /// Checks, before the batch starts, that sessions can be had at all (the engine's programs
    /// exist, the endpoint answers). Throws ``SessionSourceError/fatal(reason:)`` otherwise.
    func prepare() async throws(SessionSourceError)

    /// Opens a session for `slot` whose pages load within `pageLoadTimeout` and whose scripts
    /// run within `scriptTimeout` seconds.
    func openSession(slot: Int, scriptTimeout: Double, pageLoadTimeout: Double) async throws(SessionSourceError) -> OpenedSession

    /// Ends `session` and stops whatever was started only for it. Never throws: the browser may
    /// be gone already.
    func retire(_ session: OpenedSession) async

    /// Stops everything the source started. Idempotent.
    func shutdown() async

    /// The browser processes of each slot and their resident memory, for the memory limit;
    /// empty for a remote endpoint, whose machines PageScript does not see.
    func browserProcesses() async -> [SlotProcess]
}

/// One process of a slot's browser, with its resident memory.
public struct SlotProcess: Sendable, Equatable {
    /// The slot whose browser it belongs to.
    public let slot: Int
    /// The process.
    public let processID: Int32
    /// Its resident memory, in bytes.
    public let residentBytes: UInt64

    public init(slot: Int, processID: Int32, residentBytes: UInt64) {
        self.slot = slot
        self.processID = processID
        self.residentBytes = residentBytes
    }
}
