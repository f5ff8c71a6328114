/// A key as the terminal reports it, before modifiers.
///
/// Control and Alt combinations with letters arrive as ``character(_:)`` with modifiers, so
/// Ctrl-S is `.character("s")` with `.control`.
enum Key: Hashable, Sendable {
    case character(Character)
    case enter
    case tab
    case backTab
    case backspace
    case delete
    case insert
    case escape
    case up
    case down
    case left
    case right
    case home
    case end
    case pageUp
    case pageDown
    case function(Int)
}
