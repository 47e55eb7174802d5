import SeedKitSeeding

extension GraphDiff {
    /// What a dry run would change, in the form of `seed diff`: the store's objects before the run against the
    /// same objects after it, read alike from an SQLite or a PostgreSQL store.
    ///
    ///     let (_, preview) = try Seeder(storePath: "seed.sqlite").preview(templates: templatesURL)
    ///     if let preview { print(try GraphDiff(preview).text()) }
    ///
    /// - Throws: The store's errors when reading it fails.
    /// - Complexity: Two exports of the store's rows, then their comparison.
    package init(_ preview: SeedPreview) throws {
        try self.init(
            from: ExportDocument(bytes: GraphExport().document(ofRows: preview.before), file: nil),
            to: ExportDocument(bytes: GraphExport().document(ofRows: preview.after), file: nil))
    }
}
