import Foundation

/// How a seed run treats the store.
///
///     var options = SeedOptions()
///     options.prune = true      // delete seeded objects the templates no longer hold
public struct SeedOptions: Sendable {
    /// The model file; nil for `model.json` in the template directory.
    public var modelURL: URL?
    /// Work out the report and the plan without writing anything: an absent store is not created, and a store whose
    /// model changed is not migrated (the plan is made on a copy).
    public var dryRun = false
    /// Delete seeded objects no longer in the templates, when the application has not changed them.
    public var prune = false
    /// Overwrite objects the application changed since they were seeded, and restore ones it deleted.
    public var force = false
    /// Whether migrating the store to a changed model may drop or retype columns and tables, losing their values
    /// (the command's `--allow-data-loss`; see ``SQLiteStore/Options/allowsDataLoss``). The default is false.
    public var allowsDataLoss = false
    /// How long a run waits for another process writing the store before it gives up. The default is 5 seconds.
    public var busyTimeout: Duration = .seconds(5)
    /// Called as the run checks template files and writes objects (see ``SeedProgress``), on the run's thread.
    public var progress: (@Sendable (SeedProgress) -> Void)?

    public init(
        modelURL: URL? = nil, dryRun: Bool = false, prune: Bool = false, force: Bool = false, allowsDataLoss: Bool = false,
        progress: (@Sendable (SeedProgress) -> Void)? = nil
    ) {
        self.modelURL = modelURL
        self.dryRun = dryRun
        self.prune = prune
        self.force = force
        self.allowsDataLoss = allowsDataLoss
        self.progress = progress
    }
}
