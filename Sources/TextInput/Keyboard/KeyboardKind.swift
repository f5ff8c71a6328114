/// How the keyboard sits on the screen, as far as its end frame tells.
///
/// The kind is read from geometry and phase, never from a height threshold: heights vary by
/// device, orientation, QuickType bar and accessory view. It describes the keyboard; whether it
/// covers a given view is ``KeyboardState/isVisible``, and how far to inset is
/// ``KeyboardState/bottomInset(safeAreaBottom:)``.
public enum KeyboardKind: Sendable, Hashable, CaseIterable {
    /// The keyboard rests on the bottom edge of the screen, fully on screen.
    case docked
    /// The keyboard is on screen but does not reach the bottom edge: the iPad's floating or split
    /// keyboard. It covers nothing that an inset could move content away from.
    case floating
    /// Only a bar is on screen: a hardware keyboard is attached and UIKit shows its shortcuts or
    /// accessory bar. UIKit reports it either as a keyboard frame that runs past the bottom of
    /// the screen or, on some iOS versions, as a hide notification whose frame is still on screen.
    /// A bar reported fully on screen in a show notification cannot be told from a short docked
    /// keyboard and is reported as ``docked``; the inset is the same either way.
    case hardwareBarOnly
    /// Nothing of the keyboard is on screen.
    case hidden
}
