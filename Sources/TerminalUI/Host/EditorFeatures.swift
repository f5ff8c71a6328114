/// Which optional host features are available; the state machine and status line use it.
struct EditorFeatures: Hashable, Sendable {
    var examples: Bool
    var saveForSite: Bool
    var openScript: Bool
    var saveNamedScript: Bool

    static let all = EditorFeatures(examples: true, saveForSite: true, openScript: true, saveNamedScript: true)
    static let none = EditorFeatures(examples: false, saveForSite: false, openScript: false, saveNamedScript: false)
}
