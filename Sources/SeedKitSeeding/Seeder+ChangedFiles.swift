import SeedKitSupport
import SeedKitModel

/// The files a later launch reads: those whose hash is not the one the ledger recorded, and new ones. The objects
/// of the others are carried over from the ledger (``carriedEntries(of:objects:input:schema:)``), as reading them
/// again would leave them.
///
///     let changed = input.changedFiles(since: summary)     // nil: read every file
///     let read = input.read(schema: schema, progress: nil, only: changed?.indices)
struct ChangedFiles {
    /// Where the files to read are among the set's files.
    let indices: [Int]
    /// The relative paths and hashes of the set's other files, unchanged since the ledger's run.
    let unchanged: [(path: String, hash: UInt64)]

    /// The ledger entries of the unchanged files' objects, to carry over as they are.
    ///
    /// - Throws: ``ReadEveryFile`` where carrying them could differ from reading every file: a ledger without origins,
    ///   of another model or template directory; an unchanged file the ledger does not record as settled (a conflict, a kept object); an
    ///   object both an unchanged file and a changed one (as it is now or as it was) bear on.
    /// - Complexity: O(*n*) in the ledger's entries and the objects read.
    func carriedEntries(
        of ledger: SeedLedger, objects: SeedObjects, input: SeedInput, schema: SeedSchema
    ) throws(ReadEveryFile) -> [Int32] {
        // Objects without identity are known by where they are, which names the template directory.
        guard let origins = ledger.origins, origins.modelFingerprint == schema.model.fingerprint,
            ledger.templates == input.templatesPath
        else { throw ReadEveryFile() }
        var carried = Set<SeedKey>()
        let recorded = TemplateSet.FileRecord.indices(of: unchanged.lazy.map(\.path), in: ledger.fileRecords)
        for ((path, hash), record) in zip(unchanged, recorded) {
            guard let record, ledger.fileRecords[record].hash == hash, let file = origins.files[path], file.isSettled else {
                throw ReadEveryFile()
            }
            carried.formUnion(file.keys)
        }
        // What the changed files bear on now (naming an object of an unchanged file by identity is no bearing: its
        // row is found in the store)…
        var stated = Set<SeedKey>()
        for records in objects.recordObjects {
            for object in records where object >= 0 {
                guard let key = objects.objects[Int(object)].key else { continue }
                if carried.contains(key) { throw ReadEveryFile() }
                stated.insert(key)
            }
        }
        for touch in objects.touches {
            if let key = objects.objects[Int(touch.object)].key, carried.contains(key) { throw ReadEveryFile() }
        }
        for reference in objects.references {
            if let key = objects.objects[Int(reference.object)].key { stated.insert(key) }
        }
        // …and bore on before. An object named by identity or "$id" that the templates no longer state: the files
        // not read may name it, and what they make of it is then the store's row, not the ledger's entry.
        let unchangedPaths = Set(unchanged.map(\.path))
        for (path, file) in origins.files where !unchangedPaths.contains(path) {
            for key in file.keys {
                if carried.contains(key) { throw ReadEveryFile() }
                if key.kind == .identity || key.kind == .id, !stated.contains(key) { throw ReadEveryFile() }
            }
        }
        return ledger.entries.indices.lazy.filter { carried.contains(ledger.entries[$0].key) }.map { Int32($0) }
    }
}

/// Thrown when a launch that read only the changed files finds it must read them all; nothing was written.
struct ReadEveryFile: Error {}

extension SeedInput {
    /// The files changed since the run `summary` (a ledger's summary) records; nil when it records none, or none is
    /// unchanged.
    func changedFiles(since summary: SeedLedger) -> ChangedFiles? {
        guard let set, !summary.fileRecords.isEmpty else { return nil }
        var indices: [Int] = [], unchanged: [(path: String, hash: UInt64)] = []
        let recorded = TemplateSet.FileRecord.indices(of: set.files.lazy.map(\.relativePath), in: summary.fileRecords)
        for (index, file) in set.files.enumerated() {
            if let record = recorded[index], summary.fileRecords[record].hash == file.contentHash {
                unchanged.append((file.relativePath, file.contentHash))
            } else {
                indices.append(index)
            }
        }
        // With every file changed, there is nothing to carry over.
        return unchanged.isEmpty ? nil : ChangedFiles(indices: indices, unchanged: unchanged)
    }
}

extension SeedOptions {
    /// These options, reading every file.
    var readingEveryFile: SeedOptions {
        var options = self
        options.readsOnlyChangedFiles = false
        return options
    }
}
