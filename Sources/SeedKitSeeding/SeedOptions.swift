import Foundation

/// How a seed run treats the store.
///
///     var options = SeedOptions()
///     options.prune = true      // delete seeded objects the templates no longer hold
public struct SeedOptions: Sendable {
    /// The model file; nil for `model.json` in the template directory.
    public var modelURL: URL?
    /// Work out the report without writing any object or ledger row; an absent store is not created. (Opening an
    /// existing store whose model changed still migrates its schema, as every open of a ``SQLiteStore`` does.)
    public var dryRun = false
    /// Delete seeded objects no longer in the templates, when the application has not changed them.
    public var prune = false
    /// Overwrite objects the application changed since they were seeded, and restore ones it deleted.
    public var force = false
    /// Let the store's migration drop the columns and tables of properties and entities the model no longer has
    /// (``SQLiteStore/Options/allowsDataLoss``); without it such a model change is refused and nothing is written.
    public var allowsDataLoss = false
    /// How long to wait for another process that holds the store before failing with
    /// ``SQLiteResultCode/busy``. The default is 5 seconds.
    public var busyTimeout: Duration = .seconds(5)
    /// Called as the run checks template files and writes objects (see ``SeedProgress``), on the run's thread.
    public var progress: (@Sendable (SeedProgress) -> Void)?
    /// Whether a later launch reads only the files changed since the ledger's run, taking the others' objects from
    /// the ledger (see ``Seeder``); off, every file is read, as `force` and `prune` always do. The result is the same.
    package var readsOnlyChangedFiles = true

    public init(
        modelURL: URL? = nil, dryRun: Bool = false, prune: Bool = false, force: Bool = false,
        allowsDataLoss: Bool = false, busyTimeout: Duration = .seconds(5),
        progress: (@Sendable (SeedProgress) -> Void)? = nil
    ) {
        self.modelURL = modelURL
        self.dryRun = dryRun
        self.prune = prune
        self.force = force
        self.allowsDataLoss = allowsDataLoss
        self.busyTimeout = busyTimeout
        self.progress = progress
    }
}
