import SeedKitSeeding

extension GraphDiff {
    /// What a dry run's plan would change, in the form of `seed diff`: the store's objects now against the same
    /// objects after the run.
    ///
    ///     let (_, plan) = try Seeder(storePath: "seed.sqlite").plan(templates: templatesURL)
    ///     if let plan { print(try GraphDiff(plan).text()) }
    ///
    /// - Throws: The store's errors when reading it fails.
    /// - Complexity: Two exports of the store's objects, then their comparison.
    public init(_ plan: SeedPlan) throws {
        try self.init(from: ExportDocument(exporting: plan.before), to: ExportDocument(exporting: plan.after))
    }
}
