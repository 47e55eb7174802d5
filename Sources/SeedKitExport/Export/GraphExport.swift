import Foundation
import SeedKitJSON
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore
import SeedKitSupport

/// A canonical export of an object graph: one JSON document that gives the same bytes for the same data, whatever
/// order the objects were inserted in and whichever store file they were read from.
///
///     let store = try SQLiteStore(existingAt: "company.sqlite")
///     try GraphExport().write(store: store, toFileAtPath: "company.export.json")
///
/// The document holds the model, then one line of canonical JSON per top-level object, sorted by entity and identity,
/// owned children nested, other objects referenced; an export is also a template set the seeder reads. See
/// <doc:ExportAndDiff> for the format.
/// Keys are property names and dates ISO 8601 whatever the model's template conventions, so exports compare across
/// models; ``writeTemplates(_:to:)`` writes the same objects as a template set, in the model's conventions.
///
/// An export reads objects: use it in the isolation domain of their context.
public struct GraphExport {
    /// The `"format"` of every export document.
    package static let format = "seedkit-export"
    /// The `"formatVersion"` this SeedKit writes and reads.
    package static let formatVersion = 1

    /// The entities whose objects are exported, with their subentities; nil exports every object.
    ///
    /// Owned children of exported objects are always exported, nested; objects of other entities that exported
    /// objects reference appear as references.
    public var entityNames: [String]?

    public init(entityNames: [String]? = nil) {
        self.entityNames = entityNames
    }

    /// How many levels an exported object may reach with the objects it nests, itself counting as one (a to-one's
    /// object one more, a to-many's two, a JSON attribute value its own depth): an object that would reach deeper is
    /// written at the top level and referenced where it would have nested. Far within ``JSON/maxNestingDepth``, so
    /// that JSON attribute values have room, and pretty template files stay readable (their indentation grows with
    /// depth).
    package static let nestingLimit = 64

    /// How deeply a top-level object may reach: the export document's object and its `"objects"` array take two of
    /// the levels every SeedKit reader accepts.
    static let objectDepthLimit = JSON.maxNestingDepth - 2

    /// The export document of every object the context holds or its store has (with unsaved changes applied).
    ///
    /// - Throws: ``ExportError`` for an entity name the model lacks or an object whose JSON attribute value nests
    ///   deeper than any exported object may (``JSON/maxNestingDepth`` in all); the store's errors when fetching fails.
    /// - Complexity: O(*n* log *n*) for *n* objects.
    public func document(of context: ObjectContext) throws -> [UInt8] {
        try document(writtenBy: lineWriter(of: context), model: context.model)
    }

    /// Writes the export document of a context to a file, replacing it only once the whole document is written.
    ///
    /// - Complexity: as ``document(of:)-(ObjectContext)``.
    public func write(_ context: ObjectContext, toFileAtPath path: String) throws {
        try write(lineWriter(of: context), model: context.model, toFileAtPath: path)
    }

    /// The export document of a store, read from its rows in one snapshot, without managed objects.
    ///
    ///     let store = try SQLiteStore(existingAt: "company.sqlite")
    ///     try GraphExport().write(store: store, toFileAtPath: "company.export.json")
    ///
    /// The same bytes as ``document(of:)-(ObjectContext)`` of a context of the store.
    ///
    /// - Complexity: O(*n* log *n*) for *n* rows.
    public func document(of store: SQLiteStore) throws -> [UInt8] {
        try document(ofRows: store)
    }

    /// The export document of any store's rows (an SQLite or a PostgreSQL store), read in one snapshot.
    package func document(ofRows store: RowStore) throws -> [UInt8] {
        try document(writtenBy: lineWriter(of: store), model: store.model)
    }

    /// Writes the export document of a store to a file (see ``document(of:)-(SQLiteStore)``), replacing it only once
    /// the whole document is written.
    ///
    /// - Complexity: as ``document(of:)-(SQLiteStore)``; the document is never whole in memory.
    public func write(store: SQLiteStore, toFileAtPath path: String) throws {
        try write(rows: store, toFileAtPath: path)
    }

    /// Writes the export document of any store's rows to a file, replacing it only once the whole document is written.
    package func write(rows store: RowStore, toFileAtPath path: String) throws {
        try write(lineWriter(of: store), model: store.model, toFileAtPath: path)
    }

    /// The canonical line of each top-level object of a context's objects, in document order.
    ///
    /// In template form the lines follow the model's template conventions (see ``CanonicalExportWriter``).
    func lines(of context: ObjectContext, templateForm: Bool = false) throws -> [[UInt8]] {
        let lines = try lineWriter(of: context, templateForm: templateForm)
        return try lines.writer.lines(of: lines.roots)
    }

    /// The canonical line of each top-level object of a store's rows, read in one snapshot.
    func lines(of store: RowStore, templateForm: Bool = false) throws -> [[UInt8]] {
        let lines = try lineWriter(of: store, templateForm: templateForm)
        return try lines.writer.lines(of: lines.roots)
    }

    /// A writer of an export's lines, and the top-level objects it writes.
    private typealias LineWriter = (writer: CanonicalExportWriter, roots: [Int32])

    /// The writer of a context's objects: read in one transaction when the context has a store, so that the export
    /// is one snapshot even while others write.
    private func lineWriter(of context: ObjectContext, templateForm: Bool = false) throws -> LineWriter {
        func read() throws -> ExportGraph {
            var objects: [ManagedObject] = []
            for root in context.model.entities where root.parentName == nil { objects += try context.fetch(root.name) }
            return ExportGraph(objects: objects, model: context.model)
        }
        return try lineWriter(of: context.store.map { try $0.read(read) } ?? read(), templateForm: templateForm)
    }

    /// The writer of a store's rows, read in one snapshot.
    private func lineWriter(of store: RowStore, templateForm: Bool = false) throws -> LineWriter {
        try lineWriter(of: store.read { try ExportGraph(store: store) }, templateForm: templateForm)
    }

    private func lineWriter(of graph: ExportGraph, templateForm: Bool) throws -> LineWriter {
        let writer = CanonicalExportWriter(graph: graph, templateForm: templateForm)
        return (writer, try writer.topLevel(selecting: selectedEntities(of: graph.model)))
    }

    /// The whole document, each line put into it as it is written: kept apart until the end, a large graph's lines
    /// would take about twice the document's bytes.
    private func document(writtenBy lines: LineWriter, model: EntityModel) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try write(model: model, lines: { line in try lines.writer.write(lines.roots, line: line) }) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Writes the document to a file, each line as it is written, replacing the file only once the whole is written.
    private func write(_ lines: LineWriter, model: EntityModel, toFileAtPath path: String) throws {
        try FileReplacement.write(toPath: path) { handle in
            try write(model: model, lines: { line in try lines.writer.write(lines.roots, line: line) }, to: handle)
        }
    }

    /// The selected entities with their subentities; nil for every entity.
    ///
    /// - Throws: ``ExportError`` for a name the model lacks.
    private func selectedEntities(of model: EntityModel) throws -> Set<String>? {
        guard let entityNames else { return nil }
        var names = Set<String>()
        for name in entityNames {
            guard let entity = model.entity(named: name) else {
                throw ExportError(
                    "unknown entity '\(TerminalText.escaped(name))'\(Suggestion.didYouMean(name, among: model.entityNames)); "
                        + "the model has \(model.entityNames.joined(separator: ", "))")
            }
            names.formUnion(entity.kinds)
        }
        return names
    }

    /// Writes the document to a file handle, in pieces.
    private func write(
        model: EntityModel, lines: (_ line: ([UInt8]) throws -> Void) throws -> Void, to handle: FileHandle
    ) throws {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 17)
        try write(model: model, lines: lines) { chunk in
            buffer.append(contentsOf: chunk)
            if buffer.count >= 1 << 16 {
                try handle.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: buffer)
    }

    /// Writes the document around the lines `lines` gives, one at a time, handing the bytes to `sink` in pieces.
    private func write(
        model: EntityModel, lines: (_ line: ([UInt8]) throws -> Void) throws -> Void, to sink: ([UInt8]) throws -> Void
    ) throws {
        // The model, pretty, indented one level to sit inside the document.
        var modelText: [UInt8] = []
        for byte in model.json.serialized(style: .pretty) {
            modelText.append(byte)
            if byte == UInt8(ascii: "\n") { modelText.append(contentsOf: [0x20, 0x20]) }
        }
        try sink(Array("{\n  \"format\": \"\(Self.format)\",\n  \"formatVersion\": \(Self.formatVersion),\n  \"model\": ".utf8))
        try sink(modelText)
        var count = 0
        let first = Array(",\n  \"objects\": [\n    ".utf8), between = Array(",\n    ".utf8)
        try withoutActuallyEscaping(sink) { sink in
            try lines { line in
                try sink(count == 0 ? first : between)
                try sink(line)
                count += 1
            }
        }
        try sink(Array((count == 0 ? ",\n  \"objects\": []\n}\n" : "\n  ]\n}\n").utf8))
    }
}

/// Writes a file through a temporary sibling that replaces it at the end, so that a failure leaves the old file.
enum FileReplacement {
    static func write(toPath path: String, _ body: (FileHandle) throws -> Void) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw ExportError("cannot create \(temporary.path): check that the directory exists and is writable")
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try body(handle)
            try handle.synchronize()
            if rename(temporary.path, url.path) != 0 {
                throw ExportError("cannot write \(path): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}
