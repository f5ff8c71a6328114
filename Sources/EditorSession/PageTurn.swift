/// One piece of work on the editor's page at a time: the user's runs and reloads, and the
/// serving of what a userscript queued after its run ended (``LateWorkServer``).
///
/// The page keeps one queue of userscript work; a poll for late work that ran while a new run
/// was starting could take the new run's work. Taking turns rules that out.
actor PageTurn {
    private var isTaken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init() {}

    /// Runs `body` when no other work holds the page.
    func during<Output: Sendable>(_ body: @Sendable () async throws -> Output) async rethrows -> Output {
        await take()
        defer { give() }
        return try await body()
    }

    private func take() async {
        guard isTaken else {
            isTaken = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func give() {
        if waiting.isEmpty {
            isTaken = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
