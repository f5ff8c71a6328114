/// The Punycode encoding of RFC 3492, which spells a Unicode domain label in ASCII letters,
/// digits and hyphens (the part after `xn--`).
///
/// Written here rather than borrowed so that host canonicalisation behaves the same on every
/// platform; the arithmetic follows the RFC's reference algorithm, including its overflow limits.
enum Punycode {
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 0x80
    /// The RFC's `maxint`: decoders reject anything that would overflow a 32-bit signed integer.
    private static let maxInt = Int(Int32.max)

    /// Encodes `scalars` (one label, already mapped and normalised); `nil` when the label is too
    /// long to encode without overflow.
    static func encode(_ scalars: [Unicode.Scalar]) -> String? {
        var output: [UInt8] = []
        for scalar in scalars where scalar.isASCII {
            output.append(UInt8(scalar.value))
        }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }

        var n = initialN
        var delta = 0
        var bias = initialBias
        let values = scalars.map { Int($0.value) }
        while handled < values.count {
            guard let next = values.filter({ $0 >= n }).min() else { return nil }
            let (scaled, overflow) = (next - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow, delta <= maxInt - scaled else { return nil }
            delta += scaled
            n = next
            for value in values {
                if value < n {
                    delta += 1
                    guard delta <= maxInt else { return nil }
                }
                guard value == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = threshold(k, bias: bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, count: handled + 1, isFirst: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes the ASCII part of an `xn--` label; `nil` when it is not valid Punycode.
    static func decode(_ encoded: Substring) -> [Unicode.Scalar]? {
        let bytes = Array(encoded.utf8)
        var output: [Unicode.Scalar] = []
        var position = 0
        if let lastHyphen = bytes.lastIndex(of: UInt8(ascii: "-")) {
            for byte in bytes[..<lastHyphen] {
                guard byte < 0x80 else { return nil }
                output.append(Unicode.Scalar(byte))
            }
            position = lastHyphen + 1
        }
        var n = initialN
        var i = 0
        var bias = initialBias
        while position < bytes.count {
            let oldI = i
            var weight = 1
            var k = base
            while true {
                guard position < bytes.count, let value = digitValue(bytes[position]) else { return nil }
                position += 1
                let (product, overflow) = value.multipliedReportingOverflow(by: weight)
                guard !overflow, product <= maxInt - i else { return nil }
                i += product
                let t = threshold(k, bias: bias)
                if value < t { break }
                let (nextWeight, weightOverflow) = weight.multipliedReportingOverflow(by: base - t)
                guard !weightOverflow, nextWeight <= maxInt else { return nil }
                weight = nextWeight
                k += base
            }
            let count = output.count + 1
            bias = adapt(i - oldI, count: count, isFirst: oldI == 0)
            guard i / count <= maxInt - n else { return nil }
            n += i / count
            i %= count
            // Basic code points may only appear before the delimiter.
            guard n >= initialN, let scalar = Unicode.Scalar(UInt32(n)) else { return nil }
            output.insert(scalar, at: i)
            i += 1
        }
        return output
    }

    private static func threshold(_ k: Int, bias: Int) -> Int {
        if k <= bias { return tMin }
        if k >= bias + tMax { return tMax }
        return k - bias
    }

    private static func adapt(_ delta: Int, count: Int, isFirst: Bool) -> Int {
        var delta = isFirst ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    private static func digit(_ value: Int) -> UInt8 {
        value < 26 ? UInt8(ascii: "a") + UInt8(value) : UInt8(ascii: "0") + UInt8(value - 26)
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0")) + 26
        default: nil
        }
    }
}
