import SeedKitSupport

/// The ledger's files section: per template file, in the byte order of the paths, its path, hash and stamp.
///
/// Each file takes
/// - its path: the number of leading bytes it shares with the previous file's path, then the rest as a text (sorted
///   paths share their directories, so a file of a large set costs the bytes of its own name);
/// - its hash, a 64-bit word;
/// - its stamp (``TemplateSet/Stamp``): a byte 0 for none, else 1 and the size, the modification time's seconds and
///   nanoseconds, then the change time as its difference from the modification time (seconds and nanoseconds, a
///   byte each when the two are the same), and the inode; the signed numbers zigzag, so that small ones of either
///   sign take few bytes.
///
/// A set of 200,000 files takes about 40 bytes a file, where decimal text took 100: every launch reads the section to
/// find the files unchanged, and a later launch writes it anew whenever a stamp changes.
extension SeedLedger {
    /// The files section of `fileRecords`, in the byte order of their paths.
    ///
    /// - Complexity: O(*n*) in the bytes of the paths.
    static func filesBytes(of fileRecords: [TemplateSet.FileRecord]) -> [UInt8] {
        // Each path's bytes shared with the previous one's, found once for measuring and writing alike.
        var shared = [Int](repeating: 0, count: fileRecords.count)
        var size = 0
        // The records read by index where they lie: a copy of each would retain and release its path.
        for index in fileRecords.indices {
            if index > 0 { shared[index] = Self.sharedPrefixCount(fileRecords[index - 1].path, fileRecords[index].path) }
            let rest = fileRecords[index].path.utf8.count - shared[index]
            size += LedgerBuffer.size(ofCount: shared[index]) + LedgerBuffer.size(ofCount: rest) + rest + 8
                + LedgerBuffer.size(ofStamp: fileRecords[index].stamp)
        }
        return LedgerBuffer.bytes(size: size) { out in
            for index in fileRecords.indices {
                out.append(count: shared[index])
                out.append(text: fileRecords[index].path, from: shared[index])
                out.append(word: fileRecords[index].hash)
                out.append(stamp: fileRecords[index].stamp)
            }
        }
    }

    /// Reads the files section into ``fileRecords``; the stamps only when `readsStamps` (a launch's summary: a ledger
    /// read whole needs the paths and hashes alone).
    ///
    /// - Throws: ``SeedError`` (``unreadable(_:)``) for bytes no files section has.
    /// - Complexity: O(*n*) in the bytes of the section.
    mutating func readFiles(_ bytes: [UInt8], readsStamps: Bool) throws {
        var reader = LedgerReader(bytes: bytes, section: Self.filesSection)
        var path: [UInt8] = []
        var isSorted = true
        while !reader.isAtEnd {
            // Bounded by the previous path, not by the bytes left: a last file that shares more than its own rest,
            // hash and stamp take is no damage.
            let shared = Int(clamping: try reader.varint())
            guard shared <= path.count else { throw reader.damage("a path shares more than the previous one has") }
            let rest = try reader.textBytes()
            // In byte order when the first byte after the shared ones is larger than the previous path's there, or
            // the previous path ends there and this one goes on.
            if shared < path.count ? rest.first.map({ $0 <= path[shared] }) ?? true : rest.isEmpty && !fileRecords.isEmpty {
                isSorted = false
            }
            path.removeSubrange(shared...)
            path.append(contentsOf: rest)
            let text = String(decoding: path, as: UTF8.self)
            // Decoding repairs invalid UTF-8, which then reads back as other bytes.
            guard text.hasSameBytes(as: path[...]) else { throw reader.damage("a path is not UTF-8") }
            let hash = try reader.word()
            let stamp = try reader.stamp()
            fileRecords.append(TemplateSet.FileRecord(path: text, hash: hash, stamp: readsStamps ? stamp : nil))
        }
        // What reads the records walks them beside sorted lists of paths.
        if !isSorted { fileRecords.sort { $0.path.precedesInBytes($1.path) } }
    }

    /// The number of leading UTF-8 bytes `first` and `second` share.
    private static func sharedPrefixCount(_ first: String, _ second: String) -> Int {
        func count(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> Int {
            let end = min(first.count, second.count)
            var index = 0
            while index < end, first[index] == second[index] { index += 1 }
            return index
        }
        let counted = first.utf8.withContiguousStorageIfAvailable { first in
            second.utf8.withContiguousStorageIfAvailable { second in count(first, second) }
        }
        if let counted = counted ?? nil { return counted }
        return Array(first.utf8).withUnsafeBufferPointer { first in Array(second.utf8).withUnsafeBufferPointer { count(first, $0) } }
    }
}

extension LedgerBuffer {
    /// The bytes ``append(stamp:)`` takes for `stamp`.
    static func size(ofStamp stamp: TemplateSet.Stamp?) -> Int {
        guard let stamp else { return 1 }
        return 1 + size(ofVarint: zigzag(stamp.size))
            + size(ofVarint: zigzag(stamp.modified.seconds)) + size(ofVarint: zigzag(stamp.modified.nanoseconds))
            + size(ofVarint: zigzag(stamp.changed.seconds &- stamp.modified.seconds))
            + size(ofVarint: zigzag(stamp.changed.nanoseconds &- stamp.modified.nanoseconds))
            + size(ofVarint: stamp.inode)
    }

    /// Appends a file's stamp as the files section records it (see ``SeedLedger/filesBytes(of:)``).
    mutating func append(stamp: TemplateSet.Stamp?) {
        guard let stamp else { return append(byte: 0) }
        append(byte: 1)
        append(varint: Self.zigzag(stamp.size))
        append(varint: Self.zigzag(stamp.modified.seconds))
        append(varint: Self.zigzag(stamp.modified.nanoseconds))
        append(varint: Self.zigzag(stamp.changed.seconds &- stamp.modified.seconds))
        append(varint: Self.zigzag(stamp.changed.nanoseconds &- stamp.modified.nanoseconds))
        append(varint: stamp.inode)
    }

    /// Appends `text`'s UTF-8 bytes from the `start`th on, as a text.
    mutating func append(text: String, from start: Int) {
        if text.utf8.withContiguousStorageIfAvailable({ append(text: UnsafeBufferPointer(rebasing: $0[start...])) }) == nil {
            var text = text
            text.withUTF8 { append(text: UnsafeBufferPointer(rebasing: $0[start...])) }
        }
    }

    /// A signed number as an unsigned one whose small magnitudes, of either sign, are small.
    static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value &<< 1) ^ (value >> 63))
    }
}

extension LedgerReader {
    /// A stamp as ``LedgerBuffer/append(stamp:)`` writes it.
    mutating func stamp() throws -> TemplateSet.Stamp? {
        switch try byte() {
        case 0: return nil
        case 1: break
        default: throw damage("a stamp is neither there nor absent")
        }
        let size = Self.unzigzag(try varint())
        let modified = TemplateSet.Stamp.Time(seconds: Self.unzigzag(try varint()), nanoseconds: Self.unzigzag(try varint()))
        let changedSeconds = modified.seconds &+ Self.unzigzag(try varint())
        let changedNanoseconds = modified.nanoseconds &+ Self.unzigzag(try varint())
        return TemplateSet.Stamp(
            size: size, modified: modified,
            changed: TemplateSet.Stamp.Time(seconds: changedSeconds, nanoseconds: changedNanoseconds), inode: try varint())
    }

    /// The signed number of a zigzag one (``LedgerBuffer/zigzag(_:)``).
    static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }
}
