import ArgumentParser
import TerminalText

/// Prints `message` (escaped for the terminal) and returns the exit code to throw.
func fail(_ message: String, _ code: ExitCode) -> ExitCode {
    printError("pagescript: \(TerminalSafeText.escaped(message))")
    return code
}
