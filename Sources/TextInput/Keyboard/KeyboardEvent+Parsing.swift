#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

extension KeyboardEvent {
    /// Reads a keyboard notification posted by UIKit, or one built the same way.
    ///
    /// Frames are accepted as an `NSValue` holding a `CGRect` (what UIKit sends) or as a plain
    /// `CGRect`; the duration as any number; the curve as an integer (7 included); `isLocal` as a
    /// Bool or an `NSNumber` holding 0 or 1. Nothing is force-cast: the first problem found, in
    /// the order name, `userInfo`, end frame, begin frame, duration, curve, `isLocal`, is thrown
    /// as a ``KeyboardEventError`` that names the key and what it held.
    ///
    /// ```swift
    /// center.addObserver(forName: KeyboardPhase.willShow.notificationName, object: nil, queue: nil) { note in
    ///     guard let event = try? KeyboardEvent(notification: note) else { return }
    ///     ...
    /// }
    /// ```
    ///
    /// - Parameter notification: A notification named after one of the six ``KeyboardPhase``s.
    /// - Throws: ``KeyboardEventError`` describing the first missing or mistyped value.
    public init(notification: Notification) throws(KeyboardEventError) {
        guard let phase = KeyboardPhase(notificationName: notification.name) else {
            throw .unrecognizedName(notification.name.rawValue)
        }
        guard let userInfo = notification.userInfo else {
            throw .missingUserInfo(phase: phase)
        }
        let endFrame = try Self.rect(for: .frameEnd, in: userInfo)
        let beginFrame = try Self.rect(for: .frameBegin, in: userInfo)
        let duration = try Self.duration(in: userInfo)
        let curve = try Self.curve(in: userInfo)
        let isLocal = try Self.isLocal(in: userInfo)
        self.init(
            phase: phase,
            beginFrame: beginFrame,
            endFrame: endFrame,
            animationDuration: duration,
            animationCurve: curve,
            isLocal: isLocal
        )
    }

    /// The Objective-C type encoding of `CGRect` on 64-bit platforms, which is every platform this
    /// package supports; an `NSValue` holding anything else (a point, a size, a number) is refused
    /// before its bytes are read, because reading them with the wrong size is undefined behaviour.
    private static let rectEncoding = "{CGRect={CGPoint=dd}{CGSize=dd}}"

    private static func value(
        for key: KeyboardUserInfoKey,
        in userInfo: [AnyHashable: Any]
    ) throws(KeyboardEventError) -> Any {
        guard let value = userInfo[key.rawValue] else {
            throw .missingValue(key: key)
        }
        return value
    }

    private static func rect(
        for key: KeyboardUserInfoKey,
        in userInfo: [AnyHashable: Any]
    ) throws(KeyboardEventError) -> CGRect {
        let expected = "an NSValue holding a finite CGRect"
        let value = try value(for: key, in: userInfo)
        let rect: CGRect
        // NSValue comes first: on Apple platforms a plain CGRect also bridges to NSValue, and the
        // encoding check below is what rejects an NSValue holding some other structure.
        if let boxed = value as? NSValue {
            let encoding = String(cString: boxed.objCType)
            guard encoding == rectEncoding else {
                throw .mismatchedValue(key: key, expected: expected, found: describe(value, encoding: encoding))
            }
            var unboxed = CGRect.zero
            #if canImport(Darwin)
            boxed.getValue(&unboxed, size: MemoryLayout<CGRect>.size)
            #else
            boxed.getValue(&unboxed)
            #endif
            rect = unboxed
        } else if let plain = value as? CGRect {
            rect = plain
        } else {
            throw .mismatchedValue(key: key, expected: expected, found: describe(value))
        }
        let components = [rect.origin.x, rect.origin.y, rect.size.width, rect.size.height]
        guard components.allSatisfy(\.isFinite) else {
            throw .mismatchedValue(key: key, expected: expected, found: describe(value))
        }
        return rect
    }

    private static func duration(in userInfo: [AnyHashable: Any]) throws(KeyboardEventError) -> TimeInterval {
        let key = KeyboardUserInfoKey.animationDuration
        let value = try value(for: key, in: userInfo)
        let seconds: Double? =
            switch value {
            case let number as Double: number
            case let number as CGFloat: Double(number)
            case let number as Int: Double(number)
            default: nil
            }
        guard let seconds, seconds.isFinite, seconds >= 0 else {
            throw .mismatchedValue(key: key, expected: "a finite, non-negative number of seconds", found: describe(value))
        }
        return seconds
    }

    private static func curve(in userInfo: [AnyHashable: Any]) throws(KeyboardEventError) -> Int {
        let key = KeyboardUserInfoKey.animationCurve
        let value = try value(for: key, in: userInfo)
        // `as? Int` accepts an NSNumber only when it holds an integral value, so 7.5 is refused
        // rather than rounded into a different curve.
        guard let curve = value as? Int else {
            throw .mismatchedValue(key: key, expected: "an integer curve", found: describe(value))
        }
        return curve
    }

    private static func isLocal(in userInfo: [AnyHashable: Any]) throws(KeyboardEventError) -> Bool {
        let key = KeyboardUserInfoKey.isLocal
        let value = try value(for: key, in: userInfo)
        guard let isLocal = value as? Bool else {
            throw .mismatchedValue(key: key, expected: "a Bool", found: describe(value))
        }
        return isLocal
    }

    /// Describes a rejected value by type and content, short enough for a log line.
    private static func describe(_ value: Any, encoding: String? = nil) -> String {
        var text = String(describing: value)
        let limit = 80
        if text.count > limit {
            text = String(text.prefix(limit)) + "…"
        }
        let type = String(describing: Swift.type(of: value))
        guard let encoding else {
            return "\(type) \(text)"
        }
        return "\(type) \(text) (objCType \(encoding))"
    }
}
