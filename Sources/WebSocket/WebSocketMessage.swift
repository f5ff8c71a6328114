/// One complete message received on a WebSocket: the frames of a fragmented message joined.
///
/// ```swift
/// let client = try await WebSocketClient.connect(to: url, onMessage: { message in
///     if message.kind == .text { print(message.text) }
/// }, onClose: { _ in })
/// ```
public struct WebSocketMessage: Sendable, Equatable {
    /// How the peer marked the message's payload.
    public enum Kind: Sendable, Equatable {
        /// UTF-8 text (opcode 1).
        case text
        /// Arbitrary bytes (opcode 2).
        case binary
    }

    /// Whether the payload is text or binary.
    public let kind: Kind
    /// The payload, all fragments joined.
    public let bytes: [UInt8]

    /// Creates a message; the client makes these, tests compare against them.
    public init(kind: Kind, bytes: [UInt8]) {
        self.kind = kind
        self.bytes = bytes
    }

    /// The payload decoded as UTF-8 (invalid sequences become U+FFFD).
    public var text: String {
        String(decoding: bytes, as: UTF8.self)
    }
}
