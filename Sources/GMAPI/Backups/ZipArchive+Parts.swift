import SystemSupport

extension ZipArchive {
    /// The entries that hold files (not folders), by name.
    var filesByName: [String: Entry] {
        Dictionary(entries.filter { !$0.isDirectory }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// An entry's content as JSON: the managers' settings and values files.
    func json(of entry: Entry) throws(BackupReadError) -> JSONValue {
        let bytes: [UInt8]
        do {
            bytes = try contents(of: entry)
        } catch {
            throw .archive(error)
        }
        do {
            return try JSONValue(parsing: bytes)
        } catch {
            throw .unreadablePart(name: entry.name, reason: "it is not JSON (\(error))")
        }
    }

    /// An entry's content, with the archive's error as a backup's.
    func checkedContents(of entry: Entry) throws(BackupReadError) -> [UInt8] {
        do {
            return try contents(of: entry)
        } catch {
            throw .archive(error)
        }
    }
}
