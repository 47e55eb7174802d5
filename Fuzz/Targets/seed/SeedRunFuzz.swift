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
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSeedRun(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = input(data, size)
    do {
        let store = try SQLiteStore.inMemory(model: fuzzModel)
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

        let later = try SQLiteStore.inMemory(model: fuzzModel)
        let earlier = try seed(earlierSet, into: later)
        invariant(earlier.status == .applied, "the earlier set is \(earlier.status): \(earlier.issues)")
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

/// Seeds `bytes`, the set's one template, into `store` as a run of `seed` does.
private func seed(_ bytes: [UInt8], into store: SQLiteStore, options: SeedOptions = SeedOptions()) throws -> SeedReport {
    try Data(bytes).write(to: URL(fileURLWithPath: templatePath))
    let input = try SeedInput(templates: directory, options: options)
    return try Seeder(storePath: ":memory:").apply(
        input.read(schema: schema, progress: nil), input: input, report: input.report(options: options),
        options: options, to: store)
}
