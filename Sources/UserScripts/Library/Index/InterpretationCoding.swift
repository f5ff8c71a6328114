import Foundation

/// How a ``ScriptInterpretation`` is written into the library index and read back, compiled
/// patterns included, so that a cold start rebuilds a script's rules without parsing or
/// compiling its file again. Regular expressions are the exception: they are kept as written and
/// compiled when read, which costs microseconds.
extension BinaryWriter {
    mutating func write(_ interpretation: ScriptInterpretation) {
        write(interpretation.name)
        write(interpretation.runMode)
        write(interpretation.runAtLine)
        write(interpretation.rules) { $0.write($1) }
        let rules = interpretation.rules
        write(interpretation.notes) { writer, note in writer.write(note, rules: rules) }
        write(interpretation.requires) { $0.write($1) }
        write(interpretation.resources) { $0.write($1) }
        write(interpretation.grants) { $0.write($1) }
        write(interpretation.noFrames)
    }

    private mutating func write(_ runAt: RunAt) {
        let tag: UInt8 = switch runAt {
        case .documentStart: 0
        case .documentBody: 1
        case .documentEnd: 2
        case .documentIdle: 3
        }
        write(tag: tag)
    }

    private mutating func write(_ runMode: RunMode) {
        switch runMode {
        case .automatic(let runAt):
            write(tag: 0)
            write(runAt)
        case .onDemand(.noSiteRules):
            write(tag: 1)
        case .onDemand(.contextMenu(let line)):
            write(tag: 2)
            write(line)
        case .onDemand(.everySiteRuleSetAside):
            write(tag: 3)
        case .onDemand(.unreadableExclusion(let line)):
            write(tag: 4)
            write(line)
        case .onDemand(.blockNotClosed(let line)):
            write(tag: 5)
            write(line)
        }
    }

    private mutating func write(_ rule: SiteRule) {
        write(tag: UInt8(SiteRule.Kind.allCases.firstIndex(of: rule.kind) ?? 0))
        write(rule.text)
        write(rule.line)
        switch rule.reading {
        case .asWritten:
            write(tag: 0)
        case .narrowed(let how):
            write(tag: 1)
            write(how)
        case .broadened(let how):
            write(tag: 2)
            write(how)
        case .setAside(let error):
            write(tag: 3)
            write(error.pattern)
            write(error.reason)
            write(error.suggestion)
        }
        write(rule.patterns) { $0.write($1) }
    }

    private mutating func write(_ pattern: SitePattern) {
        switch pattern.form {
        case .matchPattern(let compiled):
            write(tag: 0)
            write(compiled)
        case .publicSuffix(let suffixPattern):
            write(tag: 1)
            write(suffixPattern.base)
            write(suffixPattern.name)
            write(suffixPattern.includesSubdomains)
        case .regularExpression(let expression, let hosts):
            write(tag: 2)
            write(expression.text)
            write(hosts) { $0.write($1) }
        case .exclusionExpression(let expression):
            write(tag: 3)
            write(expression.text)
        case .exclusionGlob(let glob):
            write(tag: 4)
            write(glob.text)
        case .exclusionPattern(let compiled, _):
            write(tag: 5)
            write(compiled)
        }
    }

    private mutating func write(_ pattern: MatchPattern) {
        write(pattern.text)
        switch pattern.scheme {
        case .httpOrHTTPS: write(tag: 0)
        case .exactly(.http): write(tag: 1)
        case .exactly(.https): write(tag: 2)
        case .exactly(.file): write(tag: 3)
        case .any: write(tag: 4)
        }
        write(pattern.host)
        write(pattern.port)
        write(pattern.path.text)
    }

    private mutating func write(_ host: MatchPattern.HostRule) {
        switch host {
        case .any:
            write(tag: 0)
        case .exactly(let exact):
            write(tag: 1)
            write(exact)
        case .domainAndSubdomains(let domain):
            write(tag: 2)
            write(domain)
        }
    }

    private mutating func write(_ host: URLHost) {
        switch host {
        case .domain(let name):
            write(tag: 0)
            write(name)
        case .ipv4(let address):
            write(tag: 1)
            write(UInt64(address.value))
        case .ipv6(let address):
            write(tag: 2)
            write(address.pieces.map(Int.init)) { $0.write($1) }
        case .empty:
            write(tag: 3)
        }
    }

    private mutating func write(_ note: ScriptNote, rules: [SiteRule]) {
        write(note.line)
        switch note.kind {
        case .comment(let text):
            write(tag: 0)
            write(text)
        case .keyWithoutAt(let key):
            write(tag: 1)
            write(key)
        case .emptyKey:
            write(tag: 2)
        case .strayMarker(let marker):
            write(tag: 3)
            write(marker)
        case .blockNotClosed:
            write(tag: 4)
        case .duplicated(let key, let firstLine):
            write(tag: 5)
            write(key)
            write(firstLine)
        case .emptyName:
            write(tag: 6)
        case .unknownRunAt(let value):
            write(tag: 7)
            write(value)
        case .ruleSetAside(let rule):
            write(tag: 8)
            write(rules.firstIndex(of: rule) ?? -1)
        case .requireWithoutURL:
            write(tag: 9)
        case .resourceWithoutURL(let value):
            write(tag: 10)
            write(value)
        }
    }

    private mutating func write(_ file: RequiredFile) {
        write(file.name)
        write(file.written)
        write(file.url?.absoluteString)
        write(file.integrity) { writer, hash in
            writer.write(hash.algorithm)
            writer.write(hash.value)
            writer.write(hash.encoding == .hexadecimal)
        }
        write(file.line)
    }
}

extension BinaryReader {
    mutating func readInterpretation() throws(Corrupt) -> ScriptInterpretation {
        let name = try readString()
        let runMode = try readRunMode()
        let runAtLine = try readOptionalInt()
        let rules = try readArray { (reader: inout BinaryReader) throws(Corrupt) in try reader.readRule() }
        let notes = try readArray { (reader: inout BinaryReader) throws(Corrupt) in try reader.readNote(rules: rules) }
        let requires = try readArray { (reader: inout BinaryReader) throws(Corrupt) in try reader.readFile() }
        let resources = try readArray { (reader: inout BinaryReader) throws(Corrupt) in try reader.readFile() }
        let grants = try readArray { (reader: inout BinaryReader) throws(Corrupt) in try reader.readString() }
        let noFrames = try readBool()
        return ScriptInterpretation(
            name: name, runMode: runMode, runAtLine: runAtLine, rules: rules, notes: notes,
            requires: requires, resources: resources, grants: grants, noFrames: noFrames)
    }

    private mutating func readRunAt() throws(Corrupt) -> RunAt {
        switch try readTag() {
        case 0: .documentStart
        case 1: .documentBody
        case 2: .documentEnd
        case 3: .documentIdle
        default: throw Corrupt()
        }
    }

    private mutating func readRunMode() throws(Corrupt) -> RunMode {
        switch try readTag() {
        case 0: .automatic(try readRunAt())
        case 1: .onDemand(.noSiteRules)
        case 2: .onDemand(.contextMenu(line: try readInt()))
        case 3: .onDemand(.everySiteRuleSetAside)
        case 4: .onDemand(.unreadableExclusion(line: try readInt()))
        case 5: .onDemand(.blockNotClosed(line: try readInt()))
        default: throw Corrupt()
        }
    }

    private mutating func readRule() throws(Corrupt) -> SiteRule {
        let kindIndex = Int(try readTag())
        guard SiteRule.Kind.allCases.indices.contains(kindIndex) else { throw Corrupt() }
        let kind = SiteRule.Kind.allCases[kindIndex]
        let text = try readString()
        let line = try readInt()
        let reading: SiteRule.Reading
        switch try readTag() {
        case 0: reading = .asWritten
        case 1: reading = .narrowed(try readString())
        case 2: reading = .broadened(try readString())
        case 3: reading = .setAside(MatchPatternError(pattern: try readString(), reason: try readString(), suggestion: try readOptionalString()))
        default: throw Corrupt()
        }
        let patterns = try readArray { (reader: inout BinaryReader) throws(Corrupt) in try reader.readPattern() }
        return SiteRule(kind: kind, text: text, line: line, patterns: patterns, reading: reading)
    }

    private mutating func readPattern() throws(Corrupt) -> SitePattern {
        switch try readTag() {
        case 0:
            return SitePattern(.matchPattern(try readMatchPattern()))
        case 1:
            let base = try readMatchPattern()
            return SitePattern(.publicSuffix(PublicSuffixPattern(base: base, name: try readString(), includesSubdomains: try readBool())))
        case 2:
            let expression = try readExpression()
            let hosts = try readArray { (reader: inout BinaryReader) throws(Corrupt) in try reader.readHostRule() }
            return SitePattern(.regularExpression(expression, hosts: hosts))
        case 3:
            return SitePattern(.exclusionExpression(try readExpression()))
        case 4:
            return SitePattern(.exclusionGlob(URLGlob(try readString())))
        case 5:
            return .exclusion(try readMatchPattern())
        default:
            throw Corrupt()
        }
    }

    private mutating func readExpression() throws(Corrupt) -> URLRegex {
        let text = try readString()
        if let compiled = compiledExpressions[text] { return compiled }
        do {
            let compiled = try URLRegex(text)
            compiledExpressions[text] = compiled
            return compiled
        } catch {
            throw Corrupt()
        }
    }

    private mutating func readMatchPattern() throws(Corrupt) -> MatchPattern {
        let text = try readString()
        let scheme: MatchPattern.SchemeRule
        switch try readTag() {
        case 0: scheme = .httpOrHTTPS
        case 1: scheme = .exactly(.http)
        case 2: scheme = .exactly(.https)
        case 3: scheme = .exactly(.file)
        case 4: scheme = .any
        default: throw Corrupt()
        }
        let host = try readHostRule()
        let port = try readOptionalInt()
        let path = try readString()
        return MatchPattern(text: text, scheme: scheme, host: host, port: port, path: PathGlob(path))
    }

    private mutating func readHostRule() throws(Corrupt) -> MatchPattern.HostRule {
        switch try readTag() {
        case 0: .any
        case 1: .exactly(try readHost())
        case 2: .domainAndSubdomains(try readString())
        default: throw Corrupt()
        }
    }

    private mutating func readHost() throws(Corrupt) -> URLHost {
        switch try readTag() {
        case 0:
            return .domain(try readString())
        case 1:
            guard let value = UInt32(exactly: try readUnsigned()) else { throw Corrupt() }
            return .ipv4(IPv4Address(value: value))
        case 2:
            let pieces = try readArray { (reader: inout BinaryReader) throws(Corrupt) -> UInt16 in
                guard let piece = UInt16(exactly: try reader.readInt()) else { throw Corrupt() }
                return piece
            }
            guard let address = IPv6Address(pieces: pieces) else { throw Corrupt() }
            return .ipv6(address)
        case 3:
            return .empty
        default:
            throw Corrupt()
        }
    }

    private mutating func readNote(rules: [SiteRule]) throws(Corrupt) -> ScriptNote {
        let line = try readInt()
        let kind: ScriptNote.Kind
        switch try readTag() {
        case 0: kind = .comment(try readString())
        case 1: kind = .keyWithoutAt(try readString())
        case 2: kind = .emptyKey
        case 3: kind = .strayMarker(try readString())
        case 4: kind = .blockNotClosed
        case 5: kind = .duplicated(key: try readString(), firstLine: try readInt())
        case 6: kind = .emptyName
        case 7: kind = .unknownRunAt(try readString())
        case 8:
            let index = try readInt()
            guard rules.indices.contains(index) else { throw Corrupt() }
            kind = .ruleSetAside(rules[index])
        case 9: kind = .requireWithoutURL
        case 10: kind = .resourceWithoutURL(try readString())
        default: throw Corrupt()
        }
        return ScriptNote(kind: kind, line: line)
    }

    private mutating func readFile() throws(Corrupt) -> RequiredFile {
        let name = try readOptionalString()
        let written = try readString()
        let url = try readOptionalString().flatMap { URL(string: $0) }
        let integrity = try readArray { (reader: inout BinaryReader) throws(Corrupt) in
            IntegrityHash(algorithm: try reader.readString(), value: try reader.readString(), encoding: try reader.readBool() ? .hexadecimal : .base64)
        }
        return RequiredFile(name: name, written: written, url: url, integrity: integrity, line: try readInt())
    }
}
