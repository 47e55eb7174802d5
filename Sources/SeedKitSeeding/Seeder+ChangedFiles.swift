import SeedKitSupport
import SeedKitModel

/// The files a later launch reads: those whose hash is not the one the ledger recorded, and new ones. The objects
/// of the others are left as the ledger has them, their parts of it carried over as they are (``SeedLedger/Carried``),
/// where ``check(_:objects:input:schema:)`` finds that is what reading them again would do.
///
///     let changed = input.changedFiles(since: summary)     // nil: read every file
///     let read = input.read(schema: schema, progress: nil, only: changed?.indices)
struct ChangedFiles {
    /// Where the files to read are among the set's files.
    let indices: [Int]
    /// The relative paths and hashes of the set's other files, unchanged since the ledger's run.
    let unchanged: [(path: String, hash: UInt64)]
    /// The ledger's files as the summary these were found against recorded them, and that summary's fingerprint: a
    /// ledger read later with the same fingerprint records the same paths and hashes (the fingerprint is made of
    /// them), so its files section need not be decoded again.
    let recorded: (fingerprint: String?, files: [TemplateSet.FileRecord])

    /// The ledger's files, when `fingerprint` is the one of the summary these were found against.
    func recordedFiles(ifFingerprintIs fingerprint: String?) -> [TemplateSet.FileRecord]? {
        fingerprint != nil && fingerprint == recorded.fingerprint ? recorded.files : nil
    }

    /// Checks that leaving the unchanged files' objects as the ledger has them (``SeedLedger/Carried``) is what
    /// reading them would do, `ledger` being read without their parts (``SeedLedger/read(from:schema:carrying:)``).
    ///
    /// - Throws: ``ReadEveryFile`` where it could differ: a ledger without parts (read whole), of another model or
    ///   template directory; an unchanged file the ledger does not record as settled (a conflict, a kept
    ///   object) or with another hash; an object both an unchanged file and a changed one (as it is now or as it was)
    ///   bear on.
    /// - Complexity: O(*n* log *m*) in the objects read and the keys their files bore on, against the bearer index.
    func check(_ ledger: SeedLedger, objects: SeedObjects, input: SeedInput, schema: SeedSchema) throws(ReadEveryFile) {
        // Objects without identity are known by where they are, which names the template directory.
        guard let origins = ledger.origins, let carried = origins.carried,
            origins.modelFingerprint == schema.model.fingerprint, ledger.templates == input.templatesPath
        else { throw ReadEveryFile() }
        let recorded = TemplateSet.FileRecord.indices(of: unchanged.count, in: ledger.fileRecords) { unchanged[$0].path }
        for ((_, hash), record) in zip(unchanged, recorded) {
            guard let record, ledger.fileRecords[record].hash == hash, carried.isSettled[record] else {
                throw ReadEveryFile()
            }
        }
        // What the changed files bear on now (naming an object of an unchanged file by identity is no bearing: its
        // row is found in the store)…
        var stated = Set<SeedKey>()
        do {
            for object in objects.recordObjects where object >= 0 {
                guard let key = objects.objects[Int(object)].key else { continue }
                if carried.isBorneByCarriedFile(key) { throw ReadEveryFile() }
                stated.insert(key)
            }
        }
        for touch in objects.touches {
            if let key = objects.objects[Int(touch.object)].key, carried.isBorneByCarriedFile(key) {
                throw ReadEveryFile()
            }
        }
        for reference in objects.references {
            if let key = objects.objects[Int(reference.object)].key { stated.insert(key) }
        }
        // …and bore on before, changed or removed since. An object named by identity or "$id" that the templates no
        // longer state: the files not read may name it, and what they make of it is then the store's row, not the
        // ledger's entry.
        for file in origins.files {
            for key in file.keys {
                if carried.isBorneByCarriedFile(key) { throw ReadEveryFile() }
                if key.kind == .identity || key.kind == .id, !stated.contains(key) { throw ReadEveryFile() }
            }
        }
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
        let recorded = TemplateSet.FileRecord.indices(of: set.files.count, in: summary.fileRecords) {
            set.files[$0].relativePath
        }
        for (index, file) in set.files.enumerated() {
            if let record = recorded[index], summary.fileRecords[record].hash == file.contentHash {
                unchanged.append((file.relativePath, file.contentHash))
            } else {
                indices.append(index)
            }
        }
        // With every file changed, there is nothing to carry over.
        return unchanged.isEmpty
            ? nil
            : ChangedFiles(
                indices: indices, unchanged: unchanged, recorded: (summary.fingerprint, summary.fileRecords))
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
