import SystemSupport

/// Writes a line to standard error. Page-provided text must be escaped by the caller.
func printError(_ line: String) {
    write(line + "\n", to: .error)
}

/// Writes a line to standard output.
func printOutput(_ line: String) {
    write(line + "\n", to: .output)
}

/// Writes a renderer's lines, each to its stream.
func printLines(_ lines: [StreamLine]) {
    for line in lines {
        write(line.text + "\n", to: line.stream)
    }
}

/// Writes `text` as it is (a progress line redrawn in place, say).
func write(_ text: String, to stream: StandardStream) {
    guard stream.write(text) else { Interruption.endForClosedReader() }
}
