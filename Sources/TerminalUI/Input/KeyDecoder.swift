/// Turns the bytes a terminal sends into key presses and pastes, incrementally.
///
/// A read can end anywhere: inside a UTF-8 sequence, inside an escape sequence, inside a
/// bracketed-paste marker. The decoder keeps the unfinished tail and completes it with the
/// next ``feed(_:)``, so the result never depends on how the input was split.
///
/// A lone Esc byte is ambiguous: it is the Esc key, or the start of a sequence whose rest has
/// not arrived yet. The decoder does not guess. ``hasPendingEscape`` tells the caller that
/// it is waiting; if nothing more arrives within the caller's timeout, ``flush()`` decides it
/// as the Esc key (or Alt plus the key that follows). Esc followed by a control character is
/// always the Esc key and then that key: Esc and Ctrl-S typed quickly save, never a Ctrl-Alt
/// chord the editor does not have.
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.feed([0x1B, 0x5B])           // [] — "ESC [" may be the start of an arrow key
/// decoder.feed([0x41])                 // [.key(KeyEvent(.up))]
/// decoder.feed([0x1B])                 // [], and hasPendingEscape is true
/// decoder.flush()                      // [.key(KeyEvent(.escape))]
/// ```
struct KeyDecoder: Sendable {
    /// The most paste text kept from one paste; bytes past it are dropped so a runaway paste
    /// cannot exhaust memory. Well above the 1 MB a script paste needs.
    static let pasteLimit = 32 << 20

    /// Longest control sequence accepted before it is discarded as garbage.
    private static let sequenceLimit = 64

    private static let pasteEnd: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]

    /// Bytes received but not decoded yet (outside a paste).
    private var pending: [UInt8] = []
    /// The paste being collected, between the start and end markers.
    private var paste: [UInt8]?

    init() {}

    /// Whether the decoder holds an Esc that may be a key or the start of a sequence. The
    /// caller waits a short time for more bytes and then calls ``flush()``.
    var hasPendingEscape: Bool {
        paste == nil && pending.first == 0x1B
    }

    /// Whether a bracketed paste has started and not ended yet.
    var isInPaste: Bool { paste != nil }

    /// Decodes as much of the input so far as is complete.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
        var buffer = pending
        buffer.append(contentsOf: bytes)
        pending = []
        var events: [InputEvent] = []
        var position = 0
        while position < buffer.count {
            if paste != nil {
                position = collectPaste(buffer, from: position, into: &events)
                continue
            }
            switch decode(buffer, at: position) {
            case .event(let event, let next):
                events.append(event)
                position = next
            case .skip(let next):
                position = next
            case .pasteStart(let next):
                paste = []
                position = next
            case .incomplete:
                pending = Array(buffer[position...])
                return events
            }
        }
        return events
    }

    /// Decides whatever is pending as if no more bytes will come: a lone Esc is the Esc key,
    /// "Esc [" and "Esc O" are Alt-[ and Alt-O, an unfinished UTF-8 sequence becomes U+FFFD
    /// and an unfinished control sequence is dropped. An unfinished paste is kept.
    mutating func flush() -> [InputEvent] {
        guard paste == nil, !pending.isEmpty else { return [] }
        let bytes = pending
        pending = []
        if bytes == [0x1B] {
            return [.key(KeyEvent(.escape))]
        }
        if bytes.count == 2, bytes[0] == 0x1B, bytes[1] == 0x5B || bytes[1] == 0x4F {
            return [.key(KeyEvent(.character(Character(Unicode.Scalar(bytes[1]))), .alt))]
        }
        if bytes[0] == 0x1B {
            return []
        }
        return [.key(KeyEvent(.character("\u{FFFD}")))]
    }

    // MARK: - Paste

    /// Moves paste bytes from `buffer` into the paste until the end marker; returns where
    /// decoding continues. A possible beginning of the marker at the end of the buffer is kept
    /// pending, since the marker itself may be split across reads.
    private mutating func collectPaste(_ buffer: [UInt8], from start: Int, into events: inout [InputEvent]) -> Int {
        let marker = Self.pasteEnd
        var search = start
        while let escape = buffer[search...].firstIndex(of: 0x1B) {
            let available = buffer.count - escape
            if available >= marker.count {
                if buffer[escape..<escape + marker.count].elementsEqual(marker) {
                    appendToPaste(buffer[start..<escape])
                    let text = String(decoding: paste ?? [], as: UTF8.self)
                    paste = nil
                    events.append(.paste(text))
                    return escape + marker.count
                }
            } else if buffer[escape...].elementsEqual(marker.prefix(available)) {
                appendToPaste(buffer[start..<escape])
                pending = Array(buffer[escape...])
                return buffer.count
            }
            search = escape + 1
        }
        appendToPaste(buffer[start...])
        return buffer.count
    }

    private mutating func appendToPaste(_ bytes: ArraySlice<UInt8>) {
        guard var collected = paste else { return }
        paste = nil
        let room = Self.pasteLimit - collected.count
        if room > 0 {
            collected.append(contentsOf: bytes.prefix(room))
        }
        paste = collected
    }

    // MARK: - Keys

    private enum Step {
        case event(InputEvent, next: Int)
        case skip(next: Int)
        case pasteStart(next: Int)
        case incomplete
    }

    private func decode(_ buffer: [UInt8], at position: Int) -> Step {
        let byte = buffer[position]
        guard byte == 0x1B else {
            return decodePlain(buffer, at: position, modifiers: [])
        }
        guard position + 1 < buffer.count else { return .incomplete }
        switch buffer[position + 1] {
        case 0x5B:
            return decodeCSI(buffer, from: position + 2)
        case 0x4F:
            return decodeSS3(buffer, at: position + 2)
        case 0x1B:
            // Esc Esc: the first is a key of its own; the second starts afresh.
            return .event(.key(KeyEvent(.escape)), next: position + 1)
        case 0x00...0x1F:
            // Esc and then a control key (Ctrl-S, Enter, Tab) pressed before the Esc delay ran
            // out: two keys, since the editor binds no Ctrl-Alt chord that this could be.
            return .event(.key(KeyEvent(.escape)), next: position + 1)
        default:
            return decodePlain(buffer, at: position + 1, modifiers: .alt)
        }
    }

    /// A byte or UTF-8 sequence that is not an escape sequence.
    private func decodePlain(_ buffer: [UInt8], at position: Int, modifiers: KeyModifiers) -> Step {
        let byte = buffer[position]
        let next = position + 1
        func key(_ key: Key, _ extra: KeyModifiers = []) -> Step {
            .event(.key(KeyEvent(key, modifiers.union(extra))), next: next)
        }
        switch byte {
        case 0x0D, 0x0A:
            return key(.enter)
        case 0x09:
            return key(.tab)
        case 0x7F, 0x08:
            return key(.backspace)
        case 0x00:
            return key(.character(" "), .control)
        case 0x01...0x1A:
            return key(.character(Character(Unicode.Scalar(byte + 0x60))), .control)
        case 0x1C...0x1F:
            return key(.character(Character(Unicode.Scalar(byte + 0x40))), .control)
        case 0x1B:
            return key(.escape)
        case 0x20...0x7E:
            return key(.character(Character(Unicode.Scalar(byte))))
        default:
            return decodeUTF8(buffer, at: position, modifiers: modifiers)
        }
    }

    private func decodeUTF8(_ buffer: [UInt8], at position: Int, modifiers: KeyModifiers) -> Step {
        let lead = buffer[position]
        let length: Int
        // The allowed range of the second byte excludes overlong forms and surrogates.
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default:
            return .event(.key(KeyEvent(.character("\u{FFFD}"), modifiers)), next: position + 1)
        }
        for offset in 1..<length {
            guard position + offset < buffer.count else { return .incomplete }
            let byte = buffer[position + offset]
            let allowed = offset == 1 ? secondRange : 0x80...0xBF
            guard allowed.contains(byte) else {
                return .event(.key(KeyEvent(.character("\u{FFFD}"), modifiers)), next: position + offset)
            }
        }
        let text = String(decoding: buffer[position..<position + length], as: UTF8.self)
        let character = text.first ?? "\u{FFFD}"
        return .event(.key(KeyEvent(.character(character), modifiers)), next: position + length)
    }

    /// `ESC O x`: the application-mode arrows, Home/End and F1–F4.
    private func decodeSS3(_ buffer: [UInt8], at position: Int) -> Step {
        guard position < buffer.count else { return .incomplete }
        let next = position + 1
        let key: Key
        switch buffer[position] {
        case 0x41: key = .up
        case 0x42: key = .down
        case 0x43: key = .right
        case 0x44: key = .left
        case 0x48: key = .home
        case 0x46: key = .end
        case 0x50: key = .function(1)
        case 0x51: key = .function(2)
        case 0x52: key = .function(3)
        case 0x53: key = .function(4)
        case 0x4D: key = .enter
        default:
            return .event(.key(KeyEvent(.character("O"), .alt)), next: position)
        }
        return .event(.key(KeyEvent(key)), next: next)
    }

    /// `ESC [ parameters final`.
    private func decodeCSI(_ buffer: [UInt8], from start: Int) -> Step {
        var index = start
        while index < buffer.count {
            let byte = buffer[index]
            switch byte {
            case 0x30...0x3F, 0x20...0x2F:
                index += 1
                if index - start > Self.sequenceLimit { return .skip(next: index) }
            case 0x40...0x7E:
                return csiStep(parameters: buffer[start..<index], final: byte, next: index + 1)
            default:
                // Not a valid sequence: drop the introducer and decode the rest as typed.
                return .skip(next: index)
            }
        }
        return .incomplete
    }

    private func csiStep(parameters bytes: ArraySlice<UInt8>, final: UInt8, next: Int) -> Step {
        let text = String(decoding: bytes, as: UTF8.self)
        if text.first.map({ "<=>?".contains($0) }) == true {
            // Private sequences (mouse, device reports) are not keys.
            return .skip(next: next)
        }
        let parameters = text.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 1 }
        let modifiers = KeyModifiers(xtermParameter: parameters.count > 1 ? parameters[1] : 1)
        func key(_ key: Key, _ mods: KeyModifiers = modifiers) -> Step {
            .event(.key(KeyEvent(key, mods)), next: next)
        }
        switch final {
        case 0x41: return key(.up)
        case 0x42: return key(.down)
        case 0x43: return key(.right)
        case 0x44: return key(.left)
        case 0x48: return key(.home)
        case 0x46: return key(.end)
        case 0x5A: return key(.backTab, modifiers.subtracting(.shift))
        case 0x50: return key(.function(1))
        case 0x51: return key(.function(2))
        case 0x52: return key(.function(3))
        case 0x53: return key(.function(4))
        case 0x75:
            // CSI codepoint ; modifiers u — the "fixterms"/kitty form of a key.
            guard let code = parameters.first, let scalar = Unicode.Scalar(UInt32(max(0, code))) else {
                return .skip(next: next)
            }
            return csiCodepoint(scalar, modifiers: modifiers, next: next)
        case 0x7E:
            return tildeStep(parameters: parameters, modifiers: modifiers, next: next)
        default:
            return .skip(next: next)
        }
    }

    private func tildeStep(parameters: [Int], modifiers: KeyModifiers, next: Int) -> Step {
        func key(_ key: Key) -> Step {
            .event(.key(KeyEvent(key, modifiers)), next: next)
        }
        switch parameters.first ?? 0 {
        case 1, 7: return key(.home)
        case 2: return key(.insert)
        case 3: return key(.delete)
        case 4, 8: return key(.end)
        case 5: return key(.pageUp)
        case 6: return key(.pageDown)
        case 11...15: return key(.function((parameters.first ?? 11) - 10))
        case 17...21: return key(.function((parameters.first ?? 17) - 11))
        case 23, 24: return key(.function((parameters.first ?? 23) - 12))
        case 200: return .pasteStart(next: next)
        case 27:
            // xterm modifyOtherKeys: CSI 27 ; modifiers ; codepoint ~
            guard parameters.count > 2, let scalar = Unicode.Scalar(UInt32(max(0, parameters[2]))) else {
                return .skip(next: next)
            }
            return csiCodepoint(scalar, modifiers: modifiers, next: next)
        default:
            // Includes a stray paste end (201) outside a paste.
            return .skip(next: next)
        }
    }

    private func csiCodepoint(_ scalar: Unicode.Scalar, modifiers: KeyModifiers, next: Int) -> Step {
        let key: Key
        switch scalar.value {
        case 0x0D: key = .enter
        case 0x09: key = .tab
        case 0x1B: key = .escape
        case 0x7F, 0x08: key = .backspace
        default:
            guard scalar.value >= 0x20 else { return .skip(next: next) }
            key = .character(Character(scalar))
        }
        return .event(.key(KeyEvent(key, modifiers)), next: next)
    }
}
