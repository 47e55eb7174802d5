import Foundation
import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore

/// Populates a store from a directory of `.template` files: once, atomically, and safely again on every later launch.
///
///     let report = try Seeder(storePath: storeURL.path).seed(templates: templatesURL)
///     switch report.status {
///     case .applied, .unchanged: break          // the store holds the templates
///     case .invalid: print(report.issues)       // nothing was written
///     }
///
/// A run reads and checks every template before it writes anything, then writes the whole set in one transaction
/// with the store's seed ledger, which makes a later launch with the same templates a no-op. The store path may be a
/// `postgresql://` URL. See <doc:SeedingFromTemplates> for what a run does.
public struct Seeder: Sendable {
    public let storePath: String

    public init(storePath: String) {
        self.storePath = storePath
    }

    /// Reads and checks the templates and their model, writing nothing and opening no store.
    ///
    ///     let report = try Seeder.validate(templates: templatesURL)   // .invalid, with every issue, or .applied
    ///
    /// - Returns: A report with status `applied` (the set is valid; counts are empty) or `invalid`.
    /// - Throws: ``SeedError`` for a missing directory or model file, or an unreadable file.
    /// - Complexity: O(*n*) in the size of the templates.
    public static func validate(templates: URL, options: SeedOptions = SeedOptions()) throws -> SeedReport {
        var input = try SeedInput(templates: templates, options: options)
        var report = input.report(options: options)
        guard let model = input.model else {
            report.issues = input.issues
            return report
        }
        let read = input.readLettingGo(schema: SeedSchema(model: model), progress: nil)
        let objects = try read.resolve(lookUp: nil)
        report.issues = (input.issues + objects.issues).sorted()
        report.status = report.issues.isEmpty ? .applied : .invalid
        return report
    }

    /// Seeds the store from the templates (see <doc:SeedingFromTemplates> for the steps).
    ///
    /// - Returns: The report: `invalid` with every issue (nothing written), `unchanged`, or `applied` with counts,
    ///   conflicts and what the templates no longer hold.
    /// - Throws: ``SeedError`` for a missing directory or model file, a ledger that cannot be read, or a store path
    ///   that names no file (empty, `:memory:` or a `file:` URI); ``StoreError`` or ``DatabaseError`` when the store
    ///   cannot be opened, migrated or written. The store is unchanged then.
    /// - Complexity: O(*n*) in the size of the templates and the number of seeded objects; an unchanged set costs a
    ///   `stat` per file whose stamp the ledger recorded, reading the others, and reading the ledger's fingerprint.
    public func seed(templates: URL, options: SeedOptions = SeedOptions()) throws -> SeedReport {
        try run(templates: templates, options: options).report
    }

    /// A dry run: the report of what seeding would do, and a preview of what it would change, writing nothing.
    ///
    ///     let (report, preview) = try Seeder(storePath: "seed.sqlite").preview(templates: templatesURL)
    ///     if let preview { print(try GraphDiff(preview).text()) }       // in the form of `seed diff`
    ///
    /// - Returns: The report, as ``seed(templates:options:)`` gives with ``SeedOptions/dryRun``; the preview when the
    ///   report's status is `applied`.
    /// - Throws: As ``seed(templates:options:)``.
    package func preview(
        templates: URL, options: SeedOptions = SeedOptions()
    ) throws -> (report: SeedReport, preview: SeedPreview?) {
        var options = options
        options.dryRun = true
        return try run(templates: templates, options: options)
    }

    // The stages: TemplateReader (files into records), SeedResolver (records into objects, references resolved),
    // SeedPlanner (each object against the ledger and its row), SeedWriter (the plan through the RowStore interface);
    // ChangedFiles picks the files a later launch reads, and SQLiteStore.create(atomicallyAt:…) builds a new store.
    private func run(templates: URL, options: SeedOptions) throws -> (report: SeedReport, preview: SeedPreview?) {
        if let problem = Self.problem(withStorePath: storePath) { throw SeedError("store \(problem)") }
        let isServer = Self.isServerURL(storePath)
        let repeatable = !options.force && !options.prune
        // A server's store is opened once, to read its ledger and then to write; a file's is checked by its path.
        let serverStore = isServer ? try existingServerStore() : nil
        let storeExists = isServer ? serverStore != nil : FileManager.default.fileExists(atPath: storePath)
        // Creating a store removes these itself; a creation killed after linking its store leaves one beside it.
        if storeExists && !isServer && !options.dryRun { SQLiteStore.removeAbandonedTemporaries(of: storePath) }
        // The ledger's summary. A file store's is read on another thread while the templates are listed, which need
        // its files only to compare stamps; a server's store is confined to this thread, and its summary is one
        // round trip.
        let serverSummary = repeatable ? serverStore.flatMap { try? SeedLedger.summary(from: $0) } : nil
        let fileSummary = repeatable && storeExists && !isServer
            ? BackgroundValue { [self] in fileLedgerSummary(options: options) } : nil
        var input = try SeedInput(
            templates: templates, options: options, known: (serverSummary ?? fileSummary?.value)?.fileRecords ?? [])
        let summary = serverSummary ?? fileSummary?.value
        var report = input.report(options: options)
        guard let model = input.model else {
            report.issues = input.issues
            return (report, nil)
        }
        // The usual later launch: the ledger, read without the write lock, says the store holds this set already.
        if input.issues.isEmpty, let summary, summary.fingerprint == report.fingerprint {
            let unchanged = Self.unchangedReport(report, summary: summary)
            // A record of each file, three times over: freeing them would take the run's last tenth, which the caller
            // need not wait for.
            releaseInBackground((consume input, fileSummary))
            return (unchanged, nil)
        }
        let changed = options.readsOnlyChangedFiles && !input.isModelInferred ? summary.flatMap(input.changedFiles) : nil
        if changed == nil, let set = input.set, !set.isRead {
            // Changed: every file is read.
            input = try SeedInput(templates: templates, options: options)
            report = input.report(options: options)
        }
        let schema = SeedSchema(model: model)
        // The set goes, its files' contents as they are read: they are in the records then.
        let read = input.readLettingGo(schema: schema, progress: options.progress, only: changed?.indices)
        report.readFileCount = read.paths.count
        // The ledger's files section needs the files alone: packed on a core that resolving and planning leave free.
        let filesSection = BackgroundValue { [fileRecords = input.fileRecords] in SeedLedger.filesBytes(of: fileRecords) }

        do {
            if options.dryRun {
                return try dryRun(
                    read, input: input, report: report, options: options, changed: changed, found: serverStore,
                    filesSection: filesSection)
            }
        } catch is ReadEveryFile {
            return try run(templates: templates, options: options.readingEveryFile)
        }
        if !storeExists && !isServer {
            // Nil: another process created the store meanwhile; the run starts again, on that store.
            guard let created = try seedNewStore(read, input: input, report: report, options: options, filesSection: filesSection)
            else {
                return try run(templates: templates, options: options)
            }
            releaseInBackground(consume input)
            return (created, nil)
        }
        // The schema is created or migrated in the run's transaction.
        let store = try isServer
            ? serverStoreForRun(found: serverStore, model: model, options: options) : openStore(model: model, options: options)
        do {
            let applied = try apply(
                read, input: input, report: report, options: options, to: store, changed: changed,
                filesSection: filesSection)
            // As above: the records of every file, and those of the files not read, freed without waiting.
            releaseInBackground((consume input, changed, fileSummary))
            return (applied, nil)
        } catch is ReadEveryFile {
            return try run(templates: templates, options: options.readingEveryFile)
        }
    }

    // MARK: Stores

    /// The templates of `input` seeded into a temporary store (``SQLiteStore/temporary(model:)``), as a first launch
    /// into a new store would seed them: the same pipeline, the same objects. No store when the set has issues, which
    /// are all returned. The set is let go (nil after), each file's contents once its records are made.
    package static func scratchStore(seeding input: inout SeedInput) throws -> (store: SQLiteStore?, issues: [Diagnostic]) {
        guard let model = input.model else { return (nil, input.issues) }
        let read = input.readLettingGo(schema: SeedSchema(model: model), progress: nil)
        let objects = try read.resolve(lookUp: nil)
        let issues = (input.issues + objects.issues).sorted()
        guard issues.isEmpty else { return (nil, issues) }
        // In a file rather than in memory: a diff holds it beside two exports.
        let store = try SQLiteStore.temporary(model: model)
        try fill(store, with: objects, read: read)
        return (store, [])
    }

    /// Writes the objects into `store`, which is empty, as a first launch into a new store would write them.
    static func fill(_ store: SQLiteStore, with objects: SeedObjects, read: SeedRead) throws {
        let plan = try SeedPlanner.plan(objects, schema: read.schema, ledger: SeedLedger(), store: store, options: SeedOptions())
        try store.write {
            var writer = SeedWriter(schema: read.schema, resolved: objects, plan: plan)
            try writer.write(to: store, ledger: { [:] })
        }
    }

    /// Seeds a store that does not exist yet: built beside its path and linked there when complete. Nil when another
    /// process created the store meanwhile, for the caller to seed that one.
    private func seedNewStore(
        _ read: SeedRead, input: SeedInput, report: SeedReport, options: SeedOptions, filesSection: BackgroundValue<[UInt8]>
    ) throws -> SeedReport? {
        // A new store holds nothing to find: the templates are resolved first, and a set with problems creates nothing.
        var objects = try read.resolve(lookUp: nil)
        let issues = (input.issues + objects.issues).sorted()
        guard issues.isEmpty else {
            var report = report
            report.issues = issues
            return report
        }
        // The rows' references were resolved by the pipeline: checking each row's foreign keys would cost SQLite a
        // look-up per reference and find nothing.
        let creation = try SQLiteStore.create(atomicallyAt: storePath, model: read.schema.model, checkingForeignKeys: false) {
            store -> SeedReport? in
            let plan = try SeedPlanner.plan(objects, schema: read.schema, ledger: SeedLedger(), store: store, options: options)
            try write(
                plan, objects: &objects, read: read, input: input, options: options, to: store, bulkLoading: true,
                filesSection: filesSection)
            return appliedReport(report, plan: plan)
        }
        switch creation {
        case .created(let report): return report
        case .preempted, .abandoned: return nil
        }
    }

    /// Resolves, plans and writes in one transaction on `store`, creating or migrating its schema first
    /// (``RowStore/prepareSchema()``): a set with problems, or any failure, leaves it as it was.
    ///
    /// With `changed`, only the changed files were read: the others' objects are carried over from the ledger, or,
    /// where that would not be what reading them gives, ``ReadEveryFile`` is thrown (the transaction rolled back).
    ///
    /// - Parameter filesSection: The ledger's files section, when the run packs it meanwhile; else it is packed with
    ///   the rest of the ledger.
    func apply(
        _ read: SeedRead, input: SeedInput, report: SeedReport, options: SeedOptions, to store: RowStore,
        changed: ChangedFiles? = nil, filesSection: BackgroundValue<[UInt8]>? = nil
    ) throws -> SeedReport {
        do {
            return try store.write {
                try store.prepareSchema()
                // Checked under the write lock: another seeder may have applied this set meanwhile.
                let setRecord = !options.force && !options.prune ? try? SeedLedger.setRecord(from: store) : nil
                if let setRecord, setRecord.fingerprint == input.fingerprint {
                    return Self.unchangedReport(report, summary: setRecord)
                }
                let ledger = try readLedger(
                    of: store, schema: read.schema, options: options, carrying: changed?.unchanged.map(\.path),
                    files: changed?.recordedFiles(ifFingerprintIs: setRecord?.fingerprint))
                var objects = try read.resolve(lookUp: SeedResolver.StoreLookup(store: store, schema: read.schema))
                let issues = (input.issues + objects.issues).sorted()
                // A problem of a file read alone may be one of the set: reading them all says where.
                if changed != nil, !issues.isEmpty { throw ReadEveryFile() }
                guard issues.isEmpty else { throw InvalidTemplates(issues: issues) }
                try changed?.check(ledger, objects: objects, input: input, schema: read.schema)
                let plan = try SeedPlanner.plan(
                    objects, schema: read.schema, ledger: ledger, store: store, options: options)
                if changed != nil, plan.losesNamedObjects || !plan.deletedByApplication.isEmpty || !plan.consumedEntries.isEmpty {
                    // Rows files not read may name, gone or moving: those files' plans could change.
                    throw ReadEveryFile()
                }
                let isEmpty = try ledger.entries.isEmpty && read.schema.roots.allSatisfy { try store.largestRowID(root: $0) == 0 }
                try write(
                    plan, objects: &objects, read: read, input: input, options: options, to: store, bulkLoading: isEmpty,
                    filesSection: filesSection, carrying: isEmpty ? nil : ledger.origins?.carried)
                return appliedReport(report, plan: plan)
            }
        } catch let invalid as InvalidTemplates {
            var report = report
            report.issues = invalid.issues
            return report
        }
    }

    /// Thrown inside the write transaction to roll it back when the templates have problems.
    private struct InvalidTemplates: Error {
        let issues: [Diagnostic]
    }

    /// The ledger of the store, whole or without the parts of the files `carrying` names (its files section then
    /// `files` when given); an unreadable one is an error, unless the run is forced (then it starts anew).
    private func readLedger(
        of store: RowStore, schema: SeedSchema, options: SeedOptions, carrying: [String]?,
        files: [TemplateSet.FileRecord]?
    ) throws -> SeedLedger {
        do {
            if let carrying { return try SeedLedger.read(from: store, schema: schema, carrying: carrying, files: files) }
            return try SeedLedger.read(from: store, schema: schema)
        } catch let error as LedgerStorageError {
            guard options.force else { throw SeedLedger.unreadable(error.reason) }
        } catch let error as SeedError {
            guard options.force else { throw error }
        }
        return SeedLedger()
    }

    /// Writes the plan and the ledger — the rows as a bulk load when `bulkLoading` (the tables are empty); `carrying`
    /// gives the parts of the files not read, as the ledger had them. `objects` are taken: the writer and the packer
    /// of the ledger each let them go once done with them, so that the store's indexes and the ledger's pages can have
    /// their room.
    private func write(
        _ plan: SeedPlan, objects: inout SeedObjects, read: SeedRead, input: SeedInput, options: SeedOptions, to store: RowStore,
        bulkLoading: Bool, filesSection: BackgroundValue<[UInt8]>?, carrying carried: SeedLedger.Carried? = nil
    ) throws {
        var ledger = plan.ledger
        ledger.fingerprint = input.fingerprint
        ledger.templates = input.templatesPath
        ledger.appliedAt = Self.now()
        ledger.fileRecords = input.fileRecords
        var writer = SeedWriter(schema: read.schema, resolved: objects, plan: plan)
        writer.progress = options.progress.map { report in
            { (written: Int, total: Int) in report(SeedProgress(phase: .writing, completed: written, total: total)) }
        }
        // The ledger is packed on another thread while the rows are written.
        let sections = Locked<[String: [UInt8]]>([:])
        let packed = DispatchSemaphore(value: 0)
        let schema = read.schema, paths = read.paths
        DispatchQueue.global().async { [ledger, objects] in
            let templates = TemplateSlots(objects: objects, schema: schema, rowIDs: plan.rowIDs)
            var finished = ledger
            finished.origins = SeedLedger.Origins(
                files: paths, objects: objects, plan: plan, modelFingerprint: schema.model.fingerprint, carried: carried)
            let packing = finished.sections(
                schema: schema, adding: plan.insertions, templates: templates, filesSection: filesSection?.value)
            sections.withLock { $0 = packing }
            packed.signal()
        }
        objects = SeedObjects()
        try writer.write(to: store, bulkLoading: bulkLoading) {
            packed.wait()
            return sections.withLock { $0 }
        }
    }

    /// A dry run: the same stages, applied to a store whose changes never stand — a copy of a file (or an empty store
    /// in memory), a PostgreSQL store's transaction that is rolled back — beside the store as it was (see
    /// ``SeedPreview``). The store is not written, nor migrated.
    ///
    /// - Parameter found: The PostgreSQL store the run found at ``storePath``, with the model it holds.
    private func dryRun(
        _ read: SeedRead, input: SeedInput, report: SeedReport, options: SeedOptions, changed: ChangedFiles?,
        found: (any RowStore)?, filesSection: BackgroundValue<[UInt8]>
    ) throws -> (report: SeedReport, preview: SeedPreview?) {
        let model = read.schema.model
        let preview: SeedPreview
        if Self.isServerURL(storePath) {
            preview = try serverPreview(found: found, model: model, options: options)
        } else if FileManager.default.fileExists(atPath: storePath) {
            preview = try SeedPreview(copying: storePath, busyTimeout: options.busyTimeout) { path in
                try openStore(model: model, options: options, path: path)
            }
        } else {
            preview = try SeedPreview(empty: model)
        }
        let report = try apply(
            read, input: input, report: report, options: options, to: preview.after, changed: changed,
            filesSection: filesSection)
        return (report, report.status == .applied ? preview : nil)
    }

    /// Opens the store for a run, leaving any migration to the run's transaction.
    func openStore(model: EntityModel, options: SeedOptions, path: String? = nil) throws -> SQLiteStore {
        var storeOptions = SQLiteStore.Options()
        storeOptions.allowsDataLoss = options.allowsDataLoss
        storeOptions.defersSchemaChanges = true
        storeOptions.connection.busyTimeout = options.busyTimeout
        return try SQLiteStore(path: path ?? storePath, model: model, options: storeOptions)
    }

    /// The store opened for reading only, as it is: no schema change, no write.
    private func readOnlyStore(model: EntityModel, options: SeedOptions) throws -> SQLiteStore {
        var storeOptions = SQLiteStore.Options()
        storeOptions.defersSchemaChanges = true
        storeOptions.connection.openMode = .readOnly
        storeOptions.connection.busyTimeout = options.busyTimeout
        return try SQLiteStore(path: storePath, model: model, options: storeOptions)
    }

    // MARK: Reports

    static func unchangedReport(_ report: SeedReport, summary: SeedLedger) -> SeedReport {
        var report = report
        report.status = .unchanged
        for (entity, count) in summary.objectCounts { report.entities[entity, default: .init()].unchanged = count }
        return report
    }

    func appliedReport(_ report: SeedReport, plan: SeedPlan) -> SeedReport {
        var report = report
        report.status = .applied
        report.entities = plan.counts
        report.keptObjects = plan.keptObjects
        report.conflicts = plan.conflicts
        report.removedFromTemplates = plan.removedFromTemplates
        return report
    }

    /// The summary of the store file's ledger (the set's fingerprint and counts, its files' hashes and stamps), read
    /// only; nil when it cannot be read: every file is then read, and the run says what is wrong with the store.
    private func fileLedgerSummary(options: SeedOptions) -> SeedLedger? {
        guard let model = try? SQLiteStore.storedModel(atPath: storePath), let store = try? readOnlyStore(model: model, options: options)
        else { return nil }
        return try? SeedLedger.summary(from: store)
    }

    /// The ledger of the store at ``storePath``, without its objects.
    ///
    /// - Throws: ``SeedError`` when there is no store file or its ledger cannot be read; ``DatabaseError`` when it
    ///   cannot be opened.
    package func ledger() throws -> SeedLedger {
        let store: any RowStore
        if Self.isServerURL(storePath) {
            store = try Self.openServerStore(url: storePath)
        } else {
            guard FileManager.default.fileExists(atPath: storePath) else { throw SeedError("no store at \(storePath)") }
            store = try readOnlyStore(model: SQLiteStore.storedModel(atPath: storePath), options: SeedOptions())
        }
        do {
            return try SeedLedger.summary(from: store)
        } catch let error as LedgerStorageError {
            throw SeedLedger.unreadable(error.reason)
        }
    }

    /// Now, as the ledger records it: UTC, `2024-05-01 09:30:00`.
    private static func now() -> String {
        var time = time_t(Date().timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}

/// A template set and its model, read and checked for everything short of the pipeline's stages.
package struct SeedInput {
    package var model: EntityModel?
    package var set: TemplateSet?
    package var issues: [Diagnostic] = []
    var fingerprint = ""
    package var isModelInferred = false
    let templatesPath: String
    /// Each file's path, hash and stamp, in the set's order (the byte order of the paths), for the ledger: kept when
    /// ``set`` lets its contents go.
    let fileRecords: [TemplateSet.FileRecord]
    let fileCount: Int
    let ignoredFiles: [String]

    /// Reads the set and its model.
    package init(templates: URL, options: SeedOptions) throws(SeedError) {
        try self.init(templates: templates, options: options, known: [])
    }

    /// Reads the set, taking `model` for its model instead of reading the model file again: for a caller that reads
    /// several sets of one directory, whose model file does not change meanwhile.
    ///
    ///     let model = try SeedModel(templates: templates, options: options)
    ///     let input = try SeedInput(templates: templates, options: options, model: model)
    ///     // input.model, input.issues and input.fingerprint are those of SeedInput(templates:options:)
    ///
    /// - Precondition: `model` is read from a file, as ``SeedModel/init(templates:options:)`` reads it for
    ///   `templates` and `options`: an inferred model depends on the templates, and is inferred again with each set.
    /// - Complexity: O(*n*) in the size of the templates.
    package init(templates: URL, options: SeedOptions, model: SeedModel) throws(SeedError) {
        precondition(!model.isInferred, "an inferred model is inferred from each set: it cannot be given")
        try self.init(templates: templates, options: options, known: [], model: model)
    }

    /// Reads the set and its model.
    ///
    /// - Parameters:
    ///   - known: Stamps and hashes of files a ledger recorded: a file with the same stamp is not read (see
    ///     ``TemplateSet/Stamp``). Ignored when the model is inferred, which reads every file.
    ///   - given: The model read already, else nil to read or infer it.
    init(
        templates: URL, options: SeedOptions, known: @autoclosure () -> [TemplateSet.FileRecord],
        model given: SeedModel? = nil
    ) throws(SeedError) {
        templatesPath = templates.relativePath
        // Whether the model is inferred is asked of the directory only when there are known files to skip.
        let set = try TemplateSet(
            directory: templates,
            known: Self.skippable(known(), templates: templates, options: options))
        self.set = set
        fileRecords = set.files.map {
            TemplateSet.FileRecord(path: $0.relativePath, hash: $0.contentHash, stamp: $0.stamp)
        }
        fileCount = set.files.count
        ignoredFiles = set.ignoredFiles
        let source: SeedModel
        if let given { source = given } else { source = try SeedModel(set: set, options: options) }
        model = source.model
        isModelInferred = source.isInferred
        issues = (set.issues + source.issues).sorted()
        if let model { fingerprint = set.fingerprint(modelFingerprint: model.fingerprint) }
    }

    /// The known files a set may skip: none when the model is inferred, which reads every file.
    private static func skippable(
        _ known: [TemplateSet.FileRecord], templates: URL, options: SeedOptions
    ) -> [TemplateSet.FileRecord] {
        !known.isEmpty && SeedModel.isReadFromAFile(templates: templates, options: options) ? known : []
    }

    /// The report of a run over this input, before it does anything: status invalid, no counts.
    func report(options: SeedOptions) -> SeedReport {
        var report = SeedReport(status: .invalid, fingerprint: fingerprint)
        report.isModelInferred = isModelInferred
        if isModelInferred { report.inferredModel = model }
        report.isDryRun = options.dryRun
        report.fileCount = fileCount
        report.ignoredFiles = ignoredFiles
        return report
    }

    /// The read stage over the set's files (or those at `only`, in order), each file's records added to a resolver
    /// as soon as they are read; `progress` hears of each file checked.
    func read(schema: SeedSchema, progress: (@Sendable (SeedProgress) -> Void)?, only: [Int]? = nil) -> SeedRead {
        Self.read(set?.files ?? [], directory: set?.directory, schema: schema, progress: progress, only: only)
    }

    /// ``read(schema:progress:only:)``, the set let go first (nil after), so that each file's contents go as soon as
    /// its records are made.
    mutating func readLettingGo(
        schema: SeedSchema, progress: (@Sendable (SeedProgress) -> Void)?, only: [Int]? = nil
    ) -> SeedRead {
        let files = set?.files ?? [], directory = set?.directory
        set = nil
        return Self.read(consume files, directory: directory, schema: schema, progress: progress, only: only)
    }

    private static func read(
        _ files: consuming [TemplateSet.File], directory: URL?, schema: SeedSchema,
        progress: (@Sendable (SeedProgress) -> Void)?, only: [Int]?
    ) -> SeedRead {
        var files = consume files
        let total = files.count
        if let only {
            var chosen: [TemplateSet.File] = []
            chosen.reserveCapacity(only.count)
            for index in only { chosen.append(files[index]) }
            files = chosen
        }
        let count = files.count
        let directory = directory ?? URL(fileURLWithPath: ".")
        return SeedRead(files: files, directory: directory, schema: schema, keepsContents: false) { read in
            // Files not read count as checked: they are unchanged.
            progress?(SeedProgress(phase: .checking, completed: total - count + read, total: total))
        }
    }
}

/// The read stage's output: every file's records, added to a resolver, to be resolved once.
final class SeedRead {
    let schema: SeedSchema
    /// The relative paths of the files read, by their index in the records.
    let paths: [String]
    private var resolver: SeedResolver?

    /// The read stage over `files` of `directory`, each file's records added to a resolver as soon as they are read.
    ///
    /// - Parameters:
    ///   - keepsContents: Whether a problem is located in the files' contents as given, rather than in the file read
    ///     again (the contents are let go once they are records): for files that are in no directory.
    ///   - fileRead: Hears how many of the files are read, after each.
    init(
        files: consuming [TemplateSet.File], directory: URL, schema: SeedSchema, keepsContents: Bool,
        fileRead: ((Int) -> Void)? = nil
    ) {
        var files = consume files
        let locator = IssueLocator(files: files, directory: directory, keepsContents: keepsContents)
        var resolver = SeedResolver(schema: schema, locator: locator)
        let contents = FileContents(&files)
        TemplateReader.read(files, contents: contents, schema: schema) { records in
            resolver.add(records)
            fileRead?(records.file + 1)
        }
        self.schema = schema
        self.resolver = resolver
        self.paths = files.map(\.relativePath)
    }

    /// The resolve stage, finished against the store `lookUp` searches (nil: the templates alone). The records go
    /// with it: what follows needs only the objects.
    func resolve(lookUp: SeedResolver.StoreLookup?) throws -> SeedObjects {
        guard let resolver = resolver.take() else { preconditionFailure("a read is resolved once") }
        return try resolver.finish(lookUp: lookUp)
    }
}

extension SeedResolver.StoreLookup {
    /// Finds keys in the store's identity index; identities near a name for suggestions.
    init(store: RowStore, schema: SeedSchema) {
        self.init(
            objects: { keys in
                var byRoot: [String: [(index: Int, values: [AttributeValue])]] = [:]
                for (index, key) in keys.enumerated() where key.kind == .identity {
                    guard let root = schema.model.entity(named: key.root) else { continue }
                    byRoot[key.root, default: []].append((index, key.identityValues(of: root)))
                }
                var found = [StoredObject?](repeating: nil, count: keys.count)
                for (root, asked) in byRoot {
                    for (ask, row) in zip(asked, try store.lookUp(identities: asked.map(\.values), root: root)) {
                        guard let row, let entity = schema.ordinal(of: row.entity) else { continue }
                        found[ask.index] = StoredObject(entity: Int32(entity), rowID: row.rowID)
                    }
                }
                return found
            },
            identities: { root in
                try store.identities(root: root).map { SeedKey.identityText($0.values) }
            })
    }
}
