/// Where the terminal's cursor goes after a frame; `nil` in a frame hides it.
struct CursorPlacement: Hashable, Sendable {
    var x: Int
    var y: Int
}
