import Foundation
import SeedKitSupport
import SeedKitJSON
import SeedKitModel
import SeedKitStore
import SeedKitSeeding

extension ExportDocument {
    /// The export of whatever is at `path`: a store (an SQLite file), a template directory, or an export file.
    ///
    ///     let old = try ExportDocument(path: "Templates")                  // what the templates say
    ///     let new = try ExportDocument(path: "seed.sqlite")                // what the store holds
    ///
    /// A store is read with the model it holds, and never written. A template directory is read like the seeder
    /// reads it (its `model.json`, or `modelURL`, or an inferred model) into a temporary store of its own.
    ///
    /// - Throws: ``ExportError`` for a missing path, invalid templates (every issue, located) or an invalid export;
    ///   the store's errors for a store that cannot be read.
    package init(path: String, modelURL: URL? = nil) throws {
        try self.init(path: path, source: Self.source(at: path), modelURL: modelURL)
    }

    /// The export at `path`, which names `source`.
    private init(path: String, source: Source, modelURL: URL?) throws {
        switch source {
        case .server: try self.init(bytes: GraphExport().document(ofRows: Seeder.openServerStore(url: path)), file: nil)
        case .templates: try self.init(templates: URL(fileURLWithPath: path), modelURL: modelURL)
        case .store: try self.init(storeAt: path)
        case .exportFile: try self.init(contentsOf: URL(fileURLWithPath: path))
        }
    }

    /// What a path names, which decides how its export is read.
    private enum Source {
        case server, templates, store, exportFile
    }

    /// What `path` names: a server's URL, a directory of templates, an SQLite file, or else an export file.
    ///
    /// - Throws: ``ExportError`` when nothing is at `path`.
    private static func source(at path: String) throws(ExportError) -> Source {
        if Seeder.isServerURL(path) { return .server }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ExportError("no such file or directory: \(path)")
        }
        return isDirectory.boolValue ? .templates : isSQLiteFile(atPath: path) ? .store : .exportFile
    }

    /// The exports at several paths (see ``init(path:modelURL:)``): template directories first, one at a time, then
    /// the others at the same time on separate threads.
    ///
    ///     let sides = try ExportDocument.read(paths: ["Templates", "seed.sqlite"])
    ///
    /// A template directory is seeded into a store before it is exported, which takes more memory than any export:
    /// read beside another side, the two peaks would add up. Exports and stores take the time of the larger.
    ///
    /// - Throws: The first path's error, when several fail.
    package static func read(paths: [String], modelURL: URL? = nil) throws -> [ExportDocument] {
        let results = Locked([Result<ExportDocument, any Error>?](repeating: nil, count: paths.count))
        // Each path looked at once: what it names decides both the order and how it is read.
        let sources = paths.map { path in Result { () throws(ExportError) in try source(at: path) } }
        @Sendable func read(_ index: Int) {
            let result = Result { try ExportDocument(path: paths[index], source: sources[index].get(), modelURL: modelURL) }
            results.withLock { $0[index] = result }
        }
        let templates = paths.indices.filter { (try? sources[$0].get()) == .templates }
        let others = paths.indices.filter { !templates.contains($0) }
        for index in templates { read(index) }
        DispatchQueue.concurrentPerform(iterations: others.count) { read(others[$0]) }
        return try results.withLock { $0 }.map { try $0!.get() }
    }

    /// The export of a store, read with the model it holds.
    ///
    /// - Complexity: O(*n* log *n*) for *n* stored objects, as ``GraphExport/document(of:)-(SQLiteStore)``.
    public init(storeAt path: String, entityNames: [String]? = nil) throws {
        var options = SQLiteStore.Options()
        options.connection.openMode = .readOnly
        let store = try SQLiteStore(existingAt: path, options: options)
        try self.init(
            bytes: Self.document(of: "the store \(TerminalText.quoted(path))") {
                try GraphExport(entityNames: entityNames).document(of: store)
            },
            file: nil)
    }

    /// The document `export` writes; an error in it names `source`, since the text is in no file.
    private static func document(of source: String, _ export: () throws -> [UInt8]) throws -> [UInt8] {
        do {
            return try export()
        } catch var error as ExportError {
            error.message = "cannot export \(source): \(error.message)"
            throw error
        }
    }

    /// The export of what a template set says: its objects seeded into a temporary store and exported.
    ///
    /// - Throws: ``ExportError`` listing every issue of an invalid set; ``SeedError`` for a missing directory.
    /// - Complexity: O(*n* log *n*) for *n* objects, plus reading the templates.
    public init(templates: URL, modelURL: URL? = nil) throws {
        var input = try SeedInput(templates: templates, options: SeedOptions(modelURL: modelURL))
        // Taken before the set is read and let go: the files are read again only to locate what a diff reports.
        let definitions = input.set.flatMap { set in input.model.map { TemplateDefinitions(set: set, model: $0) } }
        let (store, issues) = try Seeder.scratchStore(seeding: &input)
        guard let store else {
            throw ExportError(
                "the templates in \(TerminalText.quoted(templates.relativePath)) are invalid "
                    + "(seed validate shows the same):",
                issues: issues)
        }
        try self.init(
            bytes: Self.document(of: "the templates in \(TerminalText.quoted(templates.relativePath))") {
                try GraphExport().document(of: store)
            },
            file: nil)
        templateDefinitions = definitions
        isModelInferred = input.isModelInferred
    }

    /// Whether the file starts with SQLite's header.
    private static func isSQLiteFile(atPath path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        return header == Data("SQLite format 3\0".utf8)
    }
}
