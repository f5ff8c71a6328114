import Foundation
import SystemSupport
import Testing

/// Writing to a stream whose reader went away is an answer, not a signal that ends the process.
struct StandardStreamTests {
    @Test func aReaderThatWentAwayIsReportedAsFalse() throws {
        CommandSupervision.reportClosedReadersAsErrors()
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        let saved = dup(STDERR_FILENO)
        defer {
            dup2(saved, STDERR_FILENO)
            close(saved)
        }
        dup2(ends[1], STDERR_FILENO)
        close(ends[1])
        let written = StandardStream.error.write("nobody reads this\n")
        dup2(saved, STDERR_FILENO)
        #expect(written == false)
        #expect(StandardStream.error.write("") == true)
    }
}
