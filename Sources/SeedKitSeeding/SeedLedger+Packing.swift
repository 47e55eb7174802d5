import SeedKitSupport

extension SeedLedger {
    /// How one blob of the packed objects table stores its hashes: its first byte.
    enum HashForm: UInt8 {
        /// Each hash is 8 bytes, little-endian: the value of a hash that is 16 lowercase hex digits, as
        /// ``StableHash`` writes them.
        case value = 1
        /// Each hash is its UTF-8 byte count (a varint) and the bytes: an entity with any other hash text.
        case text = 2
    }

    /// The entries of one entity being packed into a blob; see the type's description for the layout.
    struct EntityPacker {
        let hashForm: HashForm
        private(set) var bytes: [UInt8]
        private(set) var count = 0

        init(hashForm: HashForm) {
            self.hashForm = hashForm
            bytes = [hashForm.rawValue]
        }

        /// Appends an entry with a hash as ``StableHash`` computes it, to a blob of hash values.
        mutating func append(key: String, rowID: Int64, hashValue: UInt64) {
            precondition(hashForm == .value, "a hash value goes in a blob of hash values")
            appendKeyAndRowID(key, rowID)
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: hashValue >> UInt64(shift))) }
            count += 1
        }

        /// Appends an entry, unless its hash has no place in the blob's form: text where values are stored.
        ///
        /// - Returns: Whether the entry was appended.
        mutating func append(key: String, rowID: Int64, hash: String) -> Bool {
            switch hashForm {
            case .value:
                guard let value = StableHash.value(ofText: hash) else { return false }
                append(key: key, rowID: rowID, hashValue: value)
            case .text:
                appendKeyAndRowID(key, rowID)
                appendText(hash)
                count += 1
            }
            return true
        }

        private mutating func appendKeyAndRowID(_ key: String, _ rowID: Int64) {
            appendText(key)
            appendVarint(UInt64(bitPattern: rowID))
        }

        /// The text's UTF-8 byte count (a varint), then its bytes.
        private mutating func appendText(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in
                appendVarint(UInt64(utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }

        /// LEB128: seven bits a byte, low bits first, the high bit set on every byte but the last.
        private mutating func appendVarint(_ value: UInt64) {
            var value = value
            while value >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        }
    }

    /// The blobs of ``objects``, one per entity, with their entry counts; or those of ``packedEntries``.
    ///
    /// - Complexity: O(*n*) in the number of objects and the length of their keys.
    func packedObjects() -> [(entity: String, count: Int, bytes: [UInt8])] {
        if !packedEntries.isEmpty {
            precondition(objects.isEmpty, "a ledger holds its entries in one form")
            return packedEntries.map { ($0.key, $0.value.count, $0.value.bytes) }
        }
        // Hashes as values, until an entity has one that is not: that entity is packed again, with text, in a second
        // pass. Seeds write only values, and one pass over 200,000 entries is what they cost.
        var packers: [String: EntityPacker] = [:]
        var textHashEntities: Set<String> = []
        for (key, entry) in objects {
            if !textHashEntities.isEmpty && textHashEntities.contains(entry.entity) { continue }
            if !packers[entry.entity, default: EntityPacker(hashForm: .value)].append(key: key, rowID: entry.rowID, hash: entry.hash) {
                textHashEntities.insert(entry.entity)
                packers[entry.entity] = nil
            }
        }
        if !textHashEntities.isEmpty {
            for (key, entry) in objects where textHashEntities.contains(entry.entity) {
                _ = packers[entry.entity, default: EntityPacker(hashForm: .text)].append(key: key, rowID: entry.rowID, hash: entry.hash)
            }
        }
        return packers.map { ($0.key, $0.value.count, $0.value.bytes) }
    }

    /// Adds the entries of one entity's blob to ``objects``.
    ///
    /// - Throws: ``SeedError`` naming the entity when the blob is not what ``packedObjects()`` writes: an unknown
    ///   hash form, a length past its end, a key that is not UTF-8, bytes after the last entry, a number of entries
    ///   other than `count`, or a key already read.
    /// - Complexity: O(*n*) in the blob's length.
    mutating func unpack(_ blob: [UInt8], entity: String, count: Int) throws(SeedError) {
        var reader = BlobReader(bytes: blob, entity: entity)
        guard let hashForm = HashForm(rawValue: try reader.byte()) else {
            throw reader.damage("unknown hash form \(blob[0])")
        }
        var read = 0
        while !reader.isAtEnd {
            let key = try reader.text(what: "key")
            let rowID = Int64(bitPattern: try reader.varint())
            let hash: String
            switch hashForm {
            case .value:
                var value: UInt64 = 0
                for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(try reader.byte()) << UInt64(shift) }
                hash = StableHash.text(of: value)
            case .text:
                hash = try reader.text(what: "hash")
            }
            if objects.updateValue(Entry(entity: entity, rowID: rowID, hash: hash), forKey: key) != nil {
                throw reader.damage("the key \(key) is in the ledger twice")
            }
            read += 1
        }
        guard read == count else { throw reader.damage("\(read) entries where \(count) were written") }
    }

    /// Reads one blob front to back, every read checked against its end.
    private struct BlobReader {
        let bytes: [UInt8]
        let entity: String
        private var offset = 0

        init(bytes: [UInt8], entity: String) {
            self.bytes = bytes
            self.entity = entity
        }

        var isAtEnd: Bool { offset == bytes.count }

        mutating func byte() throws(SeedError) -> UInt8 {
            guard offset < bytes.count else { throw damage("it ends in the middle of an entry") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func varint() throws(SeedError) -> UInt64 {
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 64, by: 7) {
                let byte = try byte()
                value |= UInt64(byte & 0x7f) << UInt64(shift)
                if byte < 0x80 { return value }
            }
            throw damage("a number longer than 64 bits")
        }

        /// A length-prefixed UTF-8 string.
        mutating func text(what: String) throws(SeedError) -> String {
            let length = try varint()
            guard length <= UInt64(bytes.count - offset) else { throw damage("a \(what) runs past its end") }
            let utf8 = bytes[offset..<offset + Int(length)]
            offset += Int(length)
            let text = String(decoding: utf8, as: UTF8.self)
            // Decoding repairs invalid UTF-8, which then reads back as other bytes.
            guard text.utf8.elementsEqual(utf8) else { throw damage("a \(what) is not UTF-8") }
            return text
        }

        func damage(_ problem: String) -> SeedError {
            SeedError("the seed ledger is damaged: the entries of \(entity) in \(SeedLedger.packedObjectsTable): \(problem)")
        }
    }
}
