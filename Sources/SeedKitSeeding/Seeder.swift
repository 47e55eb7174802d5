import Foundation
import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore

/// Populates a SQLite store from a directory of `.template` files: once, atomically, and safely again on every
/// later launch.
///
///     let seeder = Seeder(storePath: storeURL.path)
///     let report = try seeder.seed(templates: Bundle.main.url(forResource: "Templates", withExtension: nil)!)
///     switch report.status {
///     case .applied, .unchanged: break          // the store holds the templates
///     case .invalid: print(report.issues)       // nothing was written
///     }
///
/// A run reads every template and the model and checks them all before it opens the store: an invalid set leaves
/// the store untouched (not even created). A later launch reads only the templates whose stamps (size, modification
/// time, inode) differ from those the ledger recorded; when the set's fingerprint is then unchanged, it is done. Then, in one `BEGIN IMMEDIATE` transaction, it compares the set's
/// fingerprint with the store's ``SeedLedger``: an unchanged set ends the run. Otherwise objects are upserted by
/// identity (or, into a store with nothing to meet, inserted as read: ``SeedInsertion``) and the ledger rewritten in
/// the same transaction. Concurrent seeders on one store serialize on that
/// transaction: the first applies, the later ones find the fingerprint and do nothing.
///
/// A first launch of a flat set (``SeedRows``: objects at the top level, with identity, referring to each other by
/// identity) into a store that does not exist yet goes faster: the files are read straight into rows on two threads,
/// and each file's rows are written as soon as they are numbered, into a new store beside the path that is linked
/// there only when complete (``SQLiteStore/create(atomicallyAt:model:checkingForeignKeys:_:)``). A problem found on
/// the way throws that store away, and the set is then checked like any other, with every problem reported. Of
/// concurrent first launches, the one whose store is linked first applies; the others find it and its fingerprint.
public struct Seeder {
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
    public static func validate(templates: URL, options: SeedOptions = SeedOptions()) throws(SeedError) -> SeedReport {
        var input = try SeedInput(templates: templates, options: options)
        var report = SeedReport(status: .applied, fingerprint: input.fingerprint)
        report.isModelInferred = input.isModelInferred
        report.fileCount = input.set?.files.count ?? 0
        let issues = input.decode().issues
        if !issues.isEmpty {
            report.status = .invalid
            report.issues = issues
        }
        return report
    }

    /// Seeds the store from the templates; see the type's description for the steps.
    ///
    /// - Returns: The report: `invalid` with every issue (nothing written), `unchanged`, or `applied` with counts.
    /// - Throws: ``SeedError`` for a missing directory or model file; ``StoreError`` or ``DatabaseError`` when the
    ///   store cannot be opened or written; ``SaveErrors`` when the templates contradict data already in the store.
    ///   The store is unchanged then.
    /// - Complexity: O(*n*) in the size of the templates and the number of seeded objects; an unchanged set costs a
    ///   `stat` per file whose stamp the ledger recorded (see ``TemplateSet/Stamp``), reading the others, and reading
    ///   the ledger's fingerprint.
    public func seed(templates: URL, options: SeedOptions = SeedOptions()) throws -> SeedReport {
        var plan: SeedPlan?
        return try seed(templates: templates, options: options, plan: &plan)
    }

    /// A dry run: the report of what seeding would do, and the plan of what it would change, writing nothing.
    ///
    ///     let (report, plan) = try Seeder(storePath: "seed.sqlite").plan(templates: templatesURL)
    ///     if let plan { print(try GraphDiff(plan).text()) }       // in the form of `seed diff`
    ///
    /// - Returns: The report, as ``seed(templates:options:)`` gives with ``SeedOptions/dryRun``; the plan when the
    ///   report's status is `applied`.
    /// - Throws: As ``seed(templates:options:)``.
    public func plan(templates: URL, options: SeedOptions = SeedOptions()) throws -> (report: SeedReport, plan: SeedPlan?) {
        var options = options
        options.dryRun = true
        var plan: SeedPlan?
        let report = try seed(templates: templates, options: options, plan: &plan)
        return (report, plan)
    }

    private func seed(templates: URL, options: SeedOptions, plan: inout SeedPlan?) throws -> SeedReport {
        let storeExists = FileManager.default.fileExists(atPath: storePath)
        let repeatable = !options.force && !options.prune
        // The usual later launch: files whose stamps the ledger knows are not read, the fingerprint is compared, done.
        var input = try SeedInput(templates: templates, options: options, known: repeatable && storeExists ? knownFiles() : [:])
        if let set = input.set, !set.isRead {
            if input.issues.isEmpty, let model = input.model {
                let store = try openStore(model: model)
                if try SeedLedger.fingerprint(in: store.connection) == input.fingerprint {
                    return try unchangedReport(Self.report(of: input, options: options), store.connection)
                }
            }
            // Changed, or with problems to report: everything is read after all.
            input = try SeedInput(templates: templates, options: options)
        }
        var report = Self.report(of: input, options: options)
        guard let model = input.model, let fileHashes = input.set.map(Self.hashes) else {
            report.issues = input.issues
            return report
        }
        if storeExists && repeatable && input.issues.isEmpty {
            let store = try openStore(model: model)
            if try SeedLedger.fingerprint(in: store.connection) == input.fingerprint {
                return try unchangedReport(report, store.connection)
            }
        }
        let total = report.fileCount
        // Each file is reported checked once: a flat reading that gives up has reported the files it read.
        let furthestChecked = Locked(0)
        let filesChecked = options.progress.map { report in
            { (checked: Int) in
                guard furthestChecked.withLock({ furthest in
                    defer { furthest = max(furthest, checked) }
                    return checked > furthest
                }) else { return }
                report(SeedProgress(phase: .checking, completed: checked, total: total))
            }
        }
        if !options.dryRun, input.issues.isEmpty, let files = input.set?.files,
            let flat = try seedFlatSet(
                files, input: input, model: model, storeExists: storeExists, templates: templates, options: options,
                report: report, filesChecked: filesChecked)
        {
            return flat
        }
        // The files' contents go to the decoder: the ledger needs only their paths and hashes.
        let (decoded, issues) = input.decode(filesChecked: filesChecked)
        guard issues.isEmpty, let templatesContext = decoded else {
            report.issues = issues
            return report
        }
        if options.dryRun {
            // An absent store would receive everything: an empty store in memory says the same without a file.
            let store = storeExists ? try openStore(model: model) : try SQLiteStore.inMemory(model: model)
            if repeatable, try SeedLedger.fingerprint(in: store.connection) == input.fingerprint {
                return try unchangedReport(report, store.connection)
            }
            let ledger = try SeedLedger.read(from: store.connection)
            let run = SeedRun(templates: templatesContext, context: store.newContext(), ledger: ledger, options: options)
            try run.apply()
            plan = SeedPlan(before: store.newContext(), after: run.context)
            report.status = .applied
            report.entities = run.counts
            report.keptObjects = run.keptKeys
            return report
        }
        let store = try openStore(model: model)
        return try store.connection.inTransaction(.immediate) {
            // Checked again under the write lock: another seeder may have applied this set meanwhile.
            if repeatable, try SeedLedger.fingerprint(in: store.connection) == input.fingerprint {
                return try unchangedReport(report, store.connection)
            }
            let ledger = try SeedLedger.read(from: store.connection)
            let writing = writingProgress(options)
            var newLedger: SeedLedger
            if try SeedInsertion.isPossible(in: store, ledger: ledger) {
                templatesContext.insertionProgress = writing
                let insertion = try SeedInsertion(saving: templatesContext, to: store)
                newLedger = insertion.ledger
                report.entities = insertion.counts
            } else {
                let run = SeedRun(templates: templatesContext, context: store.newContext(), ledger: ledger, options: options)
                try run.apply()
                run.context.insertionProgress = writing
                try run.context.save()
                newLedger = run.ledgerAfterSave()
                report.entities = run.counts
                report.keptObjects = run.keptKeys
            }
            try write(newLedger, fingerprint: input.fingerprint, files: fileHashes, templates: templates, to: store)
            report.status = .applied
            return report
        }
    }

    /// Completes a new ledger with the set's fingerprint and files, and writes it.
    func write(
        _ ledger: SeedLedger, fingerprint: String, files: [(path: String, hash: String, stamp: String?)], templates: URL,
        to store: SQLiteStore
    ) throws {
        var ledger = ledger
        ledger.fingerprint = fingerprint
        ledger.templates = templates.relativePath
        for (path, hash, stamp) in files {
            ledger.files[path] = hash
            ledger.fileStamps[path] = stamp
        }
        try ledger.write(to: store.connection)
    }

    /// The callback that reports objects written as `writing` progress, when the options ask for progress.
    func writingProgress(_ options: SeedOptions) -> ((Int, Int) -> Void)? {
        options.progress.map { report in
            { (written: Int, total: Int) in report(SeedProgress(phase: .writing, completed: written, total: total)) }
        }
    }

    /// Each file's path, hash and stamp, for the ledger.
    static func hashes(of set: TemplateSet) -> [(path: String, hash: String, stamp: String?)] {
        set.files.map { ($0.relativePath, $0.hash, $0.stamp) }
    }

    /// The report of a run over `input`, before it does anything: status invalid, no counts.
    private static func report(of input: SeedInput, options: SeedOptions) -> SeedReport {
        var report = SeedReport(status: .invalid, fingerprint: input.fingerprint)
        report.isModelInferred = input.isModelInferred
        report.isDryRun = options.dryRun
        report.fileCount = input.set?.files.count ?? 0
        return report
    }

    /// The stamps and hashes of the files the store's ledger records. None when the ledger cannot be read: every file
    /// is then read, and opening the store reports what is wrong with it.
    private func knownFiles() -> [String: (stamp: String, hash: String)] {
        var configuration = SQLiteConnection.Configuration()
        configuration.openMode = .readOnly
        return (try? SeedLedger.knownFiles(in: SQLiteConnection(path: storePath, configuration: configuration))) ?? [:]
    }

    /// The ledger of the store at ``storePath``.
    ///
    /// - Throws: ``SeedError`` when there is no store file; ``DatabaseError`` when it cannot be read.
    public func ledger() throws -> SeedLedger {
        guard FileManager.default.fileExists(atPath: storePath) else { throw SeedError("no store at \(storePath)") }
        var configuration = SQLiteConnection.Configuration()
        configuration.openMode = .readOnly
        return try SeedLedger.read(from: SQLiteConnection(path: storePath, configuration: configuration))
    }

    /// Opens the store, creating it if absent. Of two first launches that both find the file empty, the later one
    /// finds the schema when it reads the file again under the write lock (see ``SQLiteStore/init(path:model:options:)``).
    func openStore(model: EntityModel) throws -> SQLiteStore {
        try SQLiteStore(path: storePath, model: model)
    }

    /// The report of a run that found its set applied: every seeded object unchanged, counted by the store.
    func unchangedReport(_ report: SeedReport, _ connection: SQLiteConnection) throws -> SeedReport {
        var report = report
        report.status = .unchanged
        for (entity, count) in try SeedLedger.objectCounts(in: connection) { report.entities[entity, default: .init()].unchanged = count }
        return report
    }
}

/// A template set and its model, read and checked for everything short of decoding.
package struct SeedInput {
    package var model: EntityModel?
    package var set: TemplateSet?
    var issues: [Diagnostic] = []
    var fingerprint = ""
    package var isModelInferred = false

    /// Reads the set and its model.
    ///
    /// - Parameter known: Stamps and hashes of files a ledger recorded: a file with the same stamp is not read (see
    ///   ``TemplateSet/Stamp``). Ignored when the model is inferred, which reads every file.
    package init(templates: URL, options: SeedOptions, known: [String: (stamp: String, hash: String)] = [:]) throws(SeedError) {
        let set = try TemplateSet(
            directory: templates, known: SeedModel.isReadFromAFile(templates: templates, options: options) ? known : [:])
        self.set = set
        let source = try SeedModel(set: set, options: options)
        model = source.model
        isModelInferred = source.isInferred
        issues = (set.issues + source.issues).sorted()
        if let model { fingerprint = set.fingerprint(modelFingerprint: model.fingerprint) }
    }

    /// The templates decoded into a context of their own, with every problem: syntax, types, references, and
    /// objects that could not be saved.
    ///
    /// The set's own issues (refused links) come first, but the files are decoded anyway: every problem at once. The
    /// files go to the decoder, which lets each one's contents go once it is read, and reads a file again only to
    /// locate a problem in it (when it still has the hash it was read with): ``set`` is nil afterwards, so read what
    /// is needed of it first.
    ///
    /// - Parameter filesChecked: Called with the number of files checked so far, after each one.
    package mutating func decode(filesChecked: ((Int) -> Void)? = nil) -> (context: ObjectContext?, issues: [Diagnostic]) {
        guard let model, let taken = set else { return (nil, issues) }
        set = nil
        let directory = taken.directory
        let files = (consume taken).files
        let context = ObjectContext(model: model)
        var decoder = GraphDecoder(context: context)
        for file in consume files {
            let path = directory.appendingPathComponent(file.relativePath).path, hash = file.hash
            decoder.add(bytes: file.bytes, file: file.displayPath) {
                (try? TemplateSet.contents(ofFile: path).get()).flatMap { StableHash.hex(of: $0) == hash ? $0 : nil }
            }
        }
        var issues = issues
        do {
            try decoder.decodeReleasingInputs(inputsRead: filesChecked)
        } catch {
            issues += error.errors.map(\.diagnostic)
        }
        if issues.isEmpty {
            issues += context.validationErrors().map { Diagnostic(Diagnostic.Code($0.kind), message: $0.description) }
        }
        return (context, issues.sorted())
    }
}
