import SeedKitSupport
import SeedKitJSON
import SeedKitModel

extension SeedLedger {
    /// Which objects each file of the applied set bears on, by their ledger keys: what a later launch that reads only
    /// the changed files needs of the others.
    ///
    ///     let ledger = try SeedLedger.read(from: store, schema: schema, carrying: unchanged)
    ///     ledger.origins?.files.first?.keys                       // of the files read: [Team[name=Core], …]
    ///     ledger.origins?.carried?.isBorneByCarriedFile(key)      // whether a file not read bears on `key`
    ///
    /// A file bears on the objects its records state, those its links decide something of (an inverse's slot, a
    /// list's order, what is owned: ``SeedObjects/touches``) and those it names that no record states and no file
    /// not read bears on (``SeedObjects/references``). It is *settled* when every such object's ledger entry is what
    /// its statements hash to, so that reading the file again, unchanged, would leave them all alone.
    ///
    /// In the ledger (its `objects` section), each file has a part: the entries of the objects it is home to (the
    /// first file in path order bearing on them) and the keys of the others it bears on; objects no file bears on
    /// (kept after the templates dropped them) have a part of their own. An index of (key hash, file) pairs says
    /// which files bear on a key without reading their parts.
    struct Origins: Sendable {
        struct File: Sendable {
            var path: String
            var isSettled: Bool
            var keys: Keys
        }

        /// The keys a file bears on: as a ledger read holds them, or, for a file the run read, by the objects they
        /// are the keys of, which the run's objects and plan hold already — 4 bytes a key rather than a copy of it (48).
        struct Keys: RandomAccessCollection, Sendable {
            private let keys: [SeedKey]
            private let objects: [Int32]
            private let set: [SeedObject]
            private let ownedKeys: SeedLedger.OwnedKeys

            init(_ keys: [SeedKey]) {
                self.keys = keys
                objects = []
                set = []
                ownedKeys = SeedLedger.OwnedKeys()
            }

            /// The keys of `objects`, each of which has one: its own, else its owned key.
            init(objects: [Int32], of set: [SeedObject], ownedKeys: SeedLedger.OwnedKeys) {
                keys = []
                self.objects = objects
                self.set = set
                self.ownedKeys = ownedKeys
            }

            var startIndex: Int { 0 }
            var endIndex: Int { objects.isEmpty ? keys.count : objects.count }

            subscript(position: Int) -> SeedKey {
                guard !objects.isEmpty else { return keys[position] }
                return ownedKeys.key(of: Int(objects[position]), in: set)!
            }
        }

        /// The fingerprint of the model the run planned with: the keys and hashes hold for that model only.
        var modelFingerprint: String
        /// Of the files read, in the byte order of their paths.
        var files: [File] = []
        /// The parts of the files not read, carried into the next ledger as they are; nil when every file was read.
        var carried: Carried?
    }

    /// The parts of the objects section of the files a launch did not read, as bytes, and the bearer index.
    struct Carried: Sendable {
        /// The objects section as read.
        let bytes: [UInt8]
        /// The ledger's files, in the section's order.
        let records: [TemplateSet.FileRecord]
        /// Per file of ``records``: whether it was not read (its part is carried), whether it was settled, and its
        /// part.
        let isCarried: [Bool]
        let isSettled: [Bool]
        let parts: [Range<Int>]
        /// Where the (key hash, file) pairs are in ``bytes``.
        let pairs: Range<Int>
        /// The number of entries of the carried parts, by entity name.
        let counts: [String: Int]

        /// Whether a file not read bears on the object `key` names.
        ///
        /// - Complexity: O(log *n*) in the number of pairs.
        func isBorneByCarriedFile(_ key: SeedKey) -> Bool {
            let hash = SeedLedger.stableHash(of: key)
            return bytes.withUnsafeBytes { raw in
                var low = 0, high = pairs.count / 12
                while low < high {
                    let middle = (low + high) / 2
                    if hashOfPair(at: pairs.lowerBound + 12 * middle, in: raw) < hash {
                        low = middle + 1
                    } else {
                        high = middle
                    }
                }
                while low < pairs.count / 12 {
                    let offset = pairs.lowerBound + 12 * low
                    guard hashOfPair(at: offset, in: raw) == hash else { return false }
                    let file = Int(raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self).littleEndian)
                    if file < isCarried.count, isCarried[file] { return true }
                    low += 1
                }
                return false
            }
        }

        /// The key hash of the pair at `offset`.
        private func hashOfPair(at offset: Int, in raw: UnsafeRawBufferPointer) -> UInt64 {
            raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
        }

        /// The (key hash, file) pairs of the carried files, in hash order, each file by its index in `paths`.
        func carriedPairs(fileIndices: [Int?]) -> [BearerPair] {
            var result: [BearerPair] = []
            bytes.withUnsafeBytes { raw in
                for pair in 0..<pairs.count / 12 {
                    let offset = pairs.lowerBound + 12 * pair
                    let file = Int(raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self).littleEndian)
                    guard file < isCarried.count, isCarried[file], let index = fileIndices[file] else { continue }
                    result.append(BearerPair(hash: hashOfPair(at: offset, in: raw), file: UInt32(index)))
                }
            }
            return result
        }
    }

    /// A file bearing on a key, by the key's ``stableHash(of:)`` and the file's index among the ledger's files.
    ///
    /// The hash is kept as two halves, so that a pair takes 12 bytes, as in the ledger, rather than 16: packing holds
    /// one for each object beside the ledger's bytes.
    struct BearerPair: Comparable {
        private let hashHigh: UInt32
        private let hashLow: UInt32
        let file: UInt32

        init(hash: UInt64, file: UInt32) {
            hashHigh = UInt32(truncatingIfNeeded: hash >> 32)
            hashLow = UInt32(truncatingIfNeeded: hash)
            self.file = file
        }

        var hash: UInt64 { UInt64(hashHigh) << 32 | UInt64(hashLow) }

        static func < (lhs: BearerPair, rhs: BearerPair) -> Bool {
            (lhs.hashHigh, lhs.hashLow, lhs.file) < (rhs.hashHigh, rhs.hashLow, rhs.file)
        }
    }

    /// A key's hash as the bearer index records it: the stable hash of its kind, root, a 0xff byte and its text.
    static func stableHash(of key: SeedKey) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(key.kind.rawValue)
        var root = key.root, text = key.text
        root.withUTF8 { for byte in $0 { hasher.combine(byte) } }
        hasher.combine(0xff)
        text.withUTF8 { for byte in $0 { hasher.combine(byte) } }
        return hasher.value
    }

    /// Reads the objects section: the model's fingerprint, the number of files, each file's settled flag (1 or 0),
    /// the bearer pairs (each a key hash and a file index, 64 and 32 bits little-endian, in order), each part's start
    /// (64 bits little-endian, from the parts' start: the files' parts, the part of objects no file bears on, and the
    /// end), then the parts. A part is a count of entries and the entries (``readEntry(_:layout:schema:)``, each after
    /// its layout's index), then a count of keys and each key's kind, root and text.
    ///
    /// Every part is read but those of the files `unchanged` names (relative paths in byte order), whose bytes are
    /// kept in ``Origins/carried``; with nil, every part, and no origins are kept.
    mutating func readObjects(
        _ bytes: [UInt8], layouts: [Layout], schema: SeedSchema, carrying unchanged: [String]?
    ) throws {
        var reader = LedgerReader(bytes: bytes, section: Self.objectsSection)
        let modelFingerprint = try reader.text()
        let fileCount = try reader.count()
        guard fileCount == fileRecords.count else {
            throw reader.damage("another number of files than the files section")
        }
        let isSettled = try reader.take(fileCount).map { $0 == 1 }
        let pairCount = try reader.count()
        let pairsStart = reader.offset
        try reader.skip(12 * pairCount)
        let pairs = pairsStart..<reader.offset
        var starts: [Int] = []
        for _ in 0..<fileCount + 2 { starts.append(Int(truncatingIfNeeded: try reader.word())) }
        let partsStart = reader.offset
        guard starts.first == 0, zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 }),
            starts.last == bytes.count - partsStart
        else { throw reader.damage("its parts are out of place") }
        var isCarried = [Bool](repeating: false, count: fileCount)
        if let unchanged {
            for index in TemplateSet.FileRecord.indices(of: unchanged, in: fileRecords) {
                if let index { isCarried[index] = true }
            }
        }
        var files: [Origins.File] = []
        var parsedCounts = [Int](repeating: 0, count: schema.entities.count)
        for part in 0...fileCount where part == fileCount || !isCarried[part] {
            let range = partsStart + starts[part]..<partsStart + starts[part + 1]
            var partReader = LedgerReader(bytes: bytes, section: Self.objectsSection, range: range)
            var keys: [SeedKey] = []
            for _ in 0..<(try partReader.count()) {
                let layout = try partReader.count()
                guard layout < layouts.count else { throw partReader.damage("an entry of no layout") }
                let key = try readEntry(&partReader, layout: layouts[layout], schema: schema)
                if let entity = layouts[layout].entity { parsedCounts[entity] += 1 }
                if unchanged != nil, let key { keys.append(key) }
            }
            for _ in 0..<(try partReader.count()) {
                let kind = try partReader.byte()
                guard let keyKind = SeedKey.Kind(rawValue: kind) else {
                    throw Self.unreadable("an unknown kind of key \(kind)")
                }
                let root = try partReader.text(), text = try partReader.text()
                if unchanged != nil { keys.append(SeedKey(kind: keyKind, root: root, text: text)) }
            }
            guard partReader.isAtEnd else { throw partReader.damage("bytes after the last key of a file") }
            if unchanged != nil, part < fileCount {
                files.append(Origins.File(path: fileRecords[part].path, isSettled: isSettled[part], keys: Origins.Keys(keys)))
            }
        }
        guard unchanged != nil else { return }
        var counts = objectCounts
        for (entity, count) in parsedCounts.enumerated() where count > 0 {
            counts[schema.entities[entity].entity.name, default: 0] -= count
        }
        origins = Origins(
            modelFingerprint: modelFingerprint, files: files,
            carried: Carried(
                bytes: bytes, records: fileRecords, isCarried: isCarried, isSettled: isSettled,
                parts: (0...fileCount).map { partsStart + starts[$0]..<partsStart + starts[$0 + 1] }, pairs: pairs,
                counts: counts.filter { $0.value != 0 }))
    }
}

extension SeedLedger.Origins {
    /// The origins a run leaves: for each file it read (`files`, by index in `objects`' records), the keys of the
    /// objects the file bears on as `plan` settled them (but objects only named that a file not read bears on);
    /// the parts of the files it did not read carried as `carried` has them.
    ///
    /// - Complexity: O(*n*) in the objects, their statements and what they bear on.
    init(
        files: [String], objects: SeedObjects, plan: SeedPlan, modelFingerprint: String, carried: SeedLedger.Carried?
    ) {
        self.init(modelFingerprint: modelFingerprint, carried: carried)
        // What each file bears on beside its records' objects: grouped by file, in the order found.
        var others: [(file: Int32, object: Int32)] = objects.touches + objects.references
        for (index, object) in objects.objects.enumerated() where objects.storedRowID(of: index) == nil {
            // Created by a reference: the first file that names it states it.
            if let definition = object.definition,
                objects.recordObjects(ofFile: Int(definition.file)).dropFirst(Int(definition.record)).first
                    != Int32(index)
            {
                others.append((definition.file, Int32(index)))
            }
        }
        var otherStarts = [Int](repeating: 0, count: files.count + 1)
        for other in others { otherStarts[Int(other.file) + 1] += 1 }
        for file in 0..<files.count { otherStarts[file + 1] += otherStarts[file] }
        var byFile = [Int32](repeating: 0, count: others.count)
        var next = otherStarts
        for other in others {
            byFile[next[Int(other.file)]] = other.object
            next[Int(other.file)] += 1
        }
        self.files.reserveCapacity(files.count)
        // The file each object was last found bearing on: an object named twice by a file is one of its keys.
        var lastFile = [Int32](repeating: -1, count: objects.objects.count)
        for (file, path) in files.enumerated() {
            var keyed: [Int32] = [], isSettled = true
            // As many as it may bear on: kept until the ledger is packed, a list grown by doubling would hold a third
            // more.
            keyed.reserveCapacity(objects.recordObjects(ofFile: file).count + otherStarts[file + 1] - otherStarts[file])
            func bears(on object: Int32) {
                guard object >= 0, lastFile[Int(object)] != Int32(file), !plan.carried.contains(Int(object)) else {
                    return
                }
                lastFile[Int(object)] = Int32(file)
                guard plan.key(of: Int(object), in: objects) != nil else {
                    isSettled = false
                    return
                }
                keyed.append(object)
                if plan.unsettled.contains(Int(object)) { isSettled = false }
            }
            for object in objects.recordObjects(ofFile: file) { bears(on: object) }
            for object in byFile[otherStarts[file]..<otherStarts[file + 1]] { bears(on: object) }
            let keys = Keys(objects: keyed, of: objects.objects, ownedKeys: plan.insertions.ownedKeys)
            self.files.append(File(path: path, isSettled: isSettled, keys: keys))
        }
    }
}
