import Foundation
import SeedKitModel
import SeedKitStore

extension Seeder {
    /// Seeds a flat set on a first launch, straight from rows (``SeedRows``) instead of decoding it; nil when the set
    /// is not flat or the store is not empty, for the caller to decode the set.
    ///
    /// Into a store that does not exist yet, each file's rows are written as soon as they are numbered, while the next
    /// files are read, into a new store beside the path that is linked there only when complete
    /// (``SQLiteStore/create(atomicallyAt:model:checkingForeignKeys:_:)``); a problem on the way throws that store away. Into an existing
    /// store whose tables are empty, the rows are read first, then inserted in one transaction.
    func seedFlatSet(
        _ files: [TemplateSet.File], input: SeedInput, model: EntityModel, storeExists: Bool, templates: URL,
        options: SeedOptions, report: SeedReport, filesChecked: ((Int) -> Void)?
    ) throws -> SeedReport? {
        let fileHashes = files.map { ($0.relativePath, $0.hash, $0.stamp) }
        guard !storeExists else {
            guard try SeedInsertion.tablesAreEmpty(in: openStore(model: model)),
                let rows = SeedRows(reading: files, model: model, fileRead: filesChecked)
            else { return nil }
            return try insert(
                rows, fileHashes: fileHashes, model: model, input: input, templates: templates, options: options, report: report)
        }
        // The rows' references were resolved by numbering, which gives up on any that names no row: checking each
        // row's foreign keys would cost SQLite a look-up per reference and find nothing.
        let creation = try SQLiteStore.create(atomicallyAt: storePath, model: model, checkingForeignKeys: false) {
            store -> [String: SeedReport.Counts]? in
            var writer = SeedRowWriter(store: store)
            let numbered = try store.withIndexesBuiltAfter(includingForeignKeys: true) {
                try SeedRows.read(files, model: model, fileRead: filesChecked) { rows in try writer.insert(rows[...]) }
            }
            guard let numbered else { return nil }
            try write(numbered.ledger, fingerprint: input.fingerprint, files: fileHashes, templates: templates, to: store)
            return numbered.counts
        }
        switch creation {
        case .created(let counts):
            var report = report
            report.entities = counts
            report.status = .applied
            return report
        case .preempted where !options.force && !options.prune:
            // Another seeder created the store first: most likely from this very set.
            let store = try openStore(model: model)
            guard try SeedLedger.fingerprint(in: store.connection) == input.fingerprint else { return nil }
            return try unchangedReport(report, store.connection)
        case .preempted, .abandoned:
            return nil
        }
    }

    /// Inserts the rows of a flat set into a store with nothing to meet, in one transaction with the ledger; nil
    /// when another seeder wrote to the store since it was found empty, so that the set must be decoded and upserted.
    private func insert(
        _ rows: SeedRows, fileHashes: [(path: String, hash: String, stamp: String?)], model: EntityModel, input: SeedInput, templates: URL, options: SeedOptions, report: SeedReport
    ) throws -> SeedReport? {
        let store = try openStore(model: model)
        return try store.connection.inTransaction(.immediate) { () throws -> SeedReport? in
            // Checked again under the write lock, as for any run.
            if !options.force && !options.prune, try SeedLedger.fingerprint(in: store.connection) == input.fingerprint {
                return try unchangedReport(report, store.connection)
            }
            guard try SeedInsertion.isPossible(in: store, ledger: SeedLedger.read(from: store.connection)) else { return nil }
            let insertion = try SeedInsertion(inserting: rows, into: store, progress: writingProgress(options))
            try write(
                insertion.ledger, fingerprint: input.fingerprint, files: fileHashes, templates: templates, to: store)
            var report = report
            report.entities = insertion.counts
            report.status = .applied
            return report
        }
    }
}
