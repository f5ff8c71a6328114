import Foundation
import TestSupport

/// Runs the built `pagescript` on a Dispatch thread and awaits it, so that waiting for the child
/// never holds one of Swift concurrency's few cooperative threads (two on a two-core machine),
/// which the loopback servers' clients in other tests need meanwhile.
enum PageScriptProcess {
    static func run(_ arguments: [String]) async throws -> PageScriptBinary.Outcome {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try PageScriptBinary.run(arguments) })
            }
        }
    }
}
