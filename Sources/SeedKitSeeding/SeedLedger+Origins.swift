import SeedKitSupport
import SeedKitJSON
import SeedKitModel

extension SeedLedger {
    /// Which objects each file of the applied set bears on, by their ledger keys: what a later launch that reads only
    /// the changed files takes from the ledger for the others.
    ///
    ///     let origins = ledger.origins                   // nil for a ledger written before origins were recorded
    ///     origins?.files["teams.template"]?.keys         // [Team[name=Core], Person[email=a@example.com], …]
    ///
    /// A file bears on the objects its records state, those its links decide something of (an inverse's slot, a
    /// list's order, what is owned: ``SeedObjects/touches``) and those it names that no record states
    /// (``SeedObjects/references``). It is *settled* when every such object's ledger entry
    /// is what its statements hash to, so that reading the file again, unchanged, would leave them all alone.
    struct Origins: Sendable {
        struct File: Sendable {
            var isSettled: Bool
            var keys: [SeedKey]
        }

        /// The fingerprint of the model the run planned with: the keys and hashes hold for that model only.
        var modelFingerprint: String
        /// By relative path.
        var files: [String: File] = [:]
    }

    static let originsSection = "origins"

    /// Reads the origins section: the model's fingerprint, the number of files, and per file its path, whether it
    /// is settled (1 or 0), its number of keys and each key's kind, root and text.
    static func origins(_ bytes: [UInt8]) throws -> Origins {
        var reader = LedgerReader(bytes: bytes, section: originsSection)
        var origins = Origins(modelFingerprint: try reader.text())
        let count = try reader.count()
        origins.files.reserveCapacity(count)
        for _ in 0..<count {
            let path = try reader.text()
            let isSettled = try reader.byte() == 1
            let keyCount = try reader.count()
            var keys: [SeedKey] = []
            keys.reserveCapacity(keyCount)
            for _ in 0..<keyCount {
                let kind = try reader.byte()
                guard let keyKind = SeedKey.Kind(rawValue: kind) else { throw unreadable("an unknown kind of key \(kind)") }
                keys.append(SeedKey(kind: keyKind, root: try reader.text(), text: try reader.text()))
            }
            origins.files[path] = Origins.File(isSettled: isSettled, keys: keys)
        }
        guard reader.isAtEnd else { throw unreadable("bytes after the last file of \(originsSection)") }
        return origins
    }

    /// The origins section, as ``origins(_:)`` reads it.
    static func originsBytes(_ origins: Origins) -> [UInt8] {
        var size = LedgerBuffer.size(ofText: origins.modelFingerprint) + LedgerBuffer.size(ofCount: origins.files.count)
        for (path, file) in origins.files {
            size += LedgerBuffer.size(ofText: path) + 1 + LedgerBuffer.size(ofCount: file.keys.count)
            for key in file.keys { size += 1 + LedgerBuffer.size(ofText: key.root) + LedgerBuffer.size(ofText: key.text) }
        }
        return LedgerBuffer.bytes(size: size) { out in
            out.append(text: origins.modelFingerprint)
            out.append(count: origins.files.count)
            for (path, file) in origins.files {
                out.append(text: path)
                out.append(byte: file.isSettled ? 1 : 0)
                out.append(count: file.keys.count)
                for key in file.keys {
                    out.append(byte: key.kind.rawValue)
                    out.append(text: key.root)
                    out.append(text: key.text)
                }
            }
        }
    }
}

extension SeedLedger.Origins {
    /// The origins a run leaves: for each file it read (`files`, by index in `objects`' records), the keys of the
    /// objects the file bears on as `plan` settled them; for the files it did not, what `carried` had.
    ///
    /// - Complexity: O(*n*) in the objects, their statements and what they bear on.
    init(
        files: [String], objects: SeedObjects, plan: SeedPlan, modelFingerprint: String,
        carrying carried: (origins: SeedLedger.Origins, paths: [String])?
    ) {
        self.init(modelFingerprint: modelFingerprint)
        var bearing = objects.recordObjects
        for touch in objects.touches + objects.references { bearing[Int(touch.file)].append(touch.object) }
        for (index, object) in objects.objects.enumerated() where object.storedRowID == nil {
            // Created by a reference: the first file that names it states it.
            if let definition = object.definition, objects.recordObjects[Int(definition.file)][Int(definition.record)] != Int32(index) {
                bearing[Int(definition.file)].append(Int32(index))
            }
        }
        self.files.reserveCapacity(files.count + (carried?.paths.count ?? 0))
        for (file, path) in files.enumerated() {
            var seen = Set<Int32>(), keys: [SeedKey] = [], isSettled = true
            for object in bearing[file] where object >= 0 && seen.insert(object).inserted {
                guard let key = plan.keys[Int(object)] else {
                    isSettled = false
                    continue
                }
                keys.append(key)
                if plan.unsettled.contains(Int(object)) { isSettled = false }
            }
            self.files[path] = File(isSettled: isSettled, keys: keys)
        }
        if let carried {
            for path in carried.paths { self.files[path] = carried.origins.files[path] }
        }
    }
}
