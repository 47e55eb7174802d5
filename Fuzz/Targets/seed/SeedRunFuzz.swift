import Foundation
import FuzzSupport
import SeedKit
@testable import SeedKitSeeding

/// Template text seeded with the fixed model (whose folders and nodes own their own kind) the way `seed` runs: read,
/// resolved against the store, planned against its ledger and written with it, into a store in memory. A first
/// launch either finds problems, each located inside the text, or applies the set, and then:
/// - idempotence: a second launch finds the set unchanged, and one forced past the ledger's fingerprint plans no
///   insert, update, deletion or conflict and leaves the store's export as it was;
/// - path equivalence: a later launch onto a store seeded from another set (one object of every entity, some with the
///   identities and places the unit's text may give its own), pruning what only that set held, ends with the store's
///   export byte for byte the first launch's.
///
/// Each unit's stores are copies of two made once, an empty one and one seeded with the other set: the same pages a
/// new store and that set's seeding make, for less than making them again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSeedRun(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = input(data, size)
    do {
        let store = try SQLiteStore.inMemory(copying: emptyStore)
        let first = try seed(bytes, into: store)
        guard first.status == .applied else {
            invariant(first.status == .invalid && !first.issues.isEmpty, "a first launch \(first.status) without issues")
            checkSeedingIssues(first.issues, in: bytes, file: templatePath)
            return 0
        }
        let export = try GraphExport().document(of: store)

        let second = try seed(bytes, into: store)
        invariant(second.status == .unchanged, "a second launch of the same set is \(second.status)")
        let forced = try seed(bytes, into: store, options: SeedOptions(force: true))
        let changes = forced.entities.values.reduce(0) { $0 + $1.inserted + $1.updated + $1.kept + $1.deleted }
        invariant(
            forced.status == .applied && changes == 0 && forced.conflicts.isEmpty && forced.removedFromTemplates.isEmpty,
            "seeding the same set again changes \(changes) objects:\n\(forced.table)")
        let again = try GraphExport().document(of: store)
        invariant(again == export, "seeding the same set again changes the store")

        let later = try SQLiteStore.inMemory(copying: earlierStore)
        let update = try seed(bytes, into: later, options: SeedOptions(prune: true))
        invariant(update.status == .applied, "a later launch of a set a first launch applies is \(update.status): \(update.issues)")
        let updated = try GraphExport().document(of: later)
        if updated != export {
            let difference = try GraphDiff(
                from: ExportDocument(bytes: export, file: "first.json"), to: ExportDocument(bytes: updated, file: "later.json"))
            invariant(false, "a later launch ends with another store than a first launch:\n\(difference.text())")
        }
    } catch {
        invariant(false, "a run of a template set failed: \(error)")
    }
    return 0
}

/// This process's template directory: the fixed model, and `fuzz.template`, the text of the unit being run.
private let directoryPath = FileManager.default.temporaryDirectory.appendingPathComponent("seedkit-fuzz-seed-\(getpid())").path

private let directory: URL = {
    let url = URL(fileURLWithPath: directoryPath)
    do {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data(fuzzModelText.utf8).write(to: url.appendingPathComponent("model.json"))
    } catch {
        fatalError("cannot make the fuzz template directory: \(error)")
    }
    atexit { try? FileManager.default.removeItem(atPath: directoryPath) }
    return url
}()

private let templatePath = directory.appendingPathComponent("fuzz.template").path

private let schema = SeedSchema(model: fuzzModel)

/// The model of ``directory``, read once: it is the same for every unit.
private let model: SeedModel = {
    do {
        let model = try SeedModel(templates: directory)
        invariant(model.model == fuzzModel && !model.isInferred, "the template directory's model is not the fixed one: \(model.issues)")
        return model
    } catch {
        fatalError("cannot read the fuzz template directory's model: \(error)")
    }
}()

/// A store of the fixed model holding nothing, made once: each unit's first launch seeds a copy of it, which costs
/// less than creating the schema.
nonisolated(unsafe) private let emptyStore: SQLiteStore = {
    do {
        return try SQLiteStore.inMemory(model: fuzzModel)
    } catch {
        fatalError("cannot make the fuzz store: \(error)")
    }
}()

/// The store seeded from ``earlierSet``, made once: each unit's later launch seeds a copy of it.
nonisolated(unsafe) private let earlierStore: SQLiteStore = {
    do {
        let store = try SQLiteStore.inMemory(model: fuzzModel)
        let earlier = try seed(earlierSet, into: store)
        invariant(earlier.status == .applied, "the earlier set is \(earlier.status): \(earlier.issues)")
        return store
    } catch {
        fatalError("cannot seed the earlier set: \(error)")
    }
}()

/// The set seeded before the unit's for the later launch: the unit's objects update these where they share an
/// identity, an `"$id"` or a place, and the others are pruned.
private let earlierSet = Array(
    """
    [{"class": "Department", "name": "Sales", "budget": 1},
     {"class": "Employee", "email": "ann@example.com", "name": "Ann", "department": {"class": "Department", "name": "Sales"},
      "addresses": [{"city": "Oslo", "street": "1 Main"}], "projects": [{"class": "Project", "code": "APOLLO"}]},
     {"class": "Manager", "email": "dev@example.com", "name": "Dev", "level": 2,
      "reports": [{"class": "Employee", "email": "ann@example.com"}]},
     {"class": "Project", "code": "APOLLO", "title": "Apollo"},
     {"class": "Folder", "$id": "c", "name": "a", "sub": [{"name": "b", "sub": [{"name": "c"}]}]},
     {"class": "Node", "name": "n0", "next": {"class": "Node", "name": "n1", "next": {"class": "Node", "name": "n2"}}}]
    """.utf8)

/// `fuzz.template`, open for writing while the process runs.
private let templateDescriptor: Int32 = {
    let descriptor = open(templatePath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { fatalError("cannot open \(templatePath): \(String(cString: strerror(errno)))") }
    return descriptor
}()

/// The bytes `fuzz.template` holds, once written.
nonisolated(unsafe) private var templateBytes: [UInt8]?

/// Makes `fuzz.template` hold `bytes`, writing it only when it holds others: a unit's launches read one text.
///
/// Written over and cut to length, not truncated first, nor written by Data.write: ext4 writes a file truncated to
/// nothing out to the disk when it is closed, and Data.write flushes it to the disk, neither of which the reads that
/// follow need.
private func writeTemplate(_ bytes: [UInt8]) {
    guard bytes != templateBytes else { return }
    bytes.withUnsafeBytes { buffer in
        var written = 0
        while written < buffer.count {
            let count = pwrite(templateDescriptor, buffer.baseAddress! + written, buffer.count - written, off_t(written))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { fatalError("cannot write \(templatePath): \(String(cString: strerror(errno)))") }
            written += count
        }
    }
    guard ftruncate(templateDescriptor, off_t(bytes.count)) == 0 else {
        fatalError("cannot cut \(templatePath) to length: \(String(cString: strerror(errno)))")
    }
    templateBytes = bytes
}

/// Seeds `bytes`, the set's one template, into `store` as a run of `seed` does.
private func seed(_ bytes: [UInt8], into store: SQLiteStore, options: SeedOptions = SeedOptions()) throws -> SeedReport {
    writeTemplate(bytes)
    let input = try SeedInput(templates: directory, options: options, model: model)
    return try Seeder(storePath: ":memory:").apply(
        input.read(schema: schema, progress: nil), input: input, report: input.report(options: options),
        options: options, to: store)
}
