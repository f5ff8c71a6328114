import TextInput

/// Lets a handler reach the token that owns it.
final class TokenBox: @unchecked Sendable {
    // Unchecked because the token is set once before any notification is posted.
    var token: ObservationToken?
}
