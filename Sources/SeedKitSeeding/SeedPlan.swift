import SeedKitObjects

/// What a dry run would change in a store: its objects as they are, and the same objects with the templates applied
/// and not saved (see ``Seeder/plan(templates:options:)``).
///
///     let (report, plan) = try Seeder(storePath: "seed.sqlite").plan(templates: templatesURL)
///     if let plan { print(try GraphDiff(plan).text()) }       // what `seed --dry-run` shows
///
/// The two contexts read from the store, which stays open while the plan lives; like them, a plan is confined to
/// one isolation domain. Nothing of it is ever saved.
public struct SeedPlan {
    /// The store's objects now.
    public let before: ObjectContext
    /// The store's objects after the run: inserted, changed and deleted as seeding would, unsaved.
    public let after: ObjectContext
}
