/// A host request the editor is waiting for, so a second press does not send it twice.
enum PendingRequest: Hashable, Sendable {
    case examples
    case scriptNames
    case openScript
    case saveForSite(quitAfterwards: Bool)
}
