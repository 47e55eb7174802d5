import Foundation
import SeedKitJSON
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitSupport

/// A canonical export of a context's object graph: one JSON document that gives the same bytes for the same data,
/// whatever order the objects were inserted in and whichever store file they were read from.
///
///     let store = try SQLiteStore(existingAt: "company.sqlite")
///     try GraphExport().write(store.newContext(), toFileAtPath: "company.export.json")
///
/// The document holds the model and the objects:
///
///     {
///       "format": "seedkit-export",
///       "formatVersion": 1,
///       "model": { "entities": { … } },
///       "objects": [
///         {"budget":1250000.5,"class":"Department","name":"Sales"},
///         {"class":"Employee","department":{"class":"Department","name":"Sales"},"email":"ann@example.com",…}
///       ]
///     }
///
/// Each top-level object is one line of canonical JSON (keys sorted by code point, one number form per value),
/// so a version-control diff of two exports shows the objects that changed. Top-level objects are sorted by entity
/// name, then by identity (else by attribute values, then by what they own and reference); owned children are nested
/// under their owner; other objects are referenced by identity stub, or by a deterministic `$id` (see
/// ``GraphEncoder``). One order is left to the data: members of an unordered to-many without identity whose
/// attributes are equal keep their stored order (see ``GraphEncoder/canonicalOrder(_:)``). The objects are exactly what
/// ``GraphDecoder`` and the seeder read, so an export is also a template set (see ``writeTemplates(_:to:)``).
///
/// An export reads objects: use it in the isolation domain of their context.
public struct GraphExport {
    /// The `"format"` of every export document.
    public static let format = "seedkit-export"
    /// The `"formatVersion"` this SeedKit writes and reads.
    public static let formatVersion = 1

    /// The entities whose objects are exported, with their subentities; nil exports every object.
    ///
    /// Owned children of exported objects are always exported, nested; objects of other entities that exported
    /// objects reference appear as references.
    public var entityNames: [String]?

    public init(entityNames: [String]? = nil) {
        self.entityNames = entityNames
    }

    /// The export document of every object the context holds or its store has (with unsaved changes applied).
    ///
    /// - Throws: ``ExportError`` for an entity name the model lacks; the store's errors when fetching fails.
    /// - Complexity: O(*n* log *n*) for *n* objects, and memory for their encoded form.
    public func document(of context: ObjectContext) throws -> [UInt8] {
        let roots = try topLevelObjects(of: context)
        var bytes: [UInt8] = []
        try write(roots, model: context.model) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Writes the export document to a file, replacing it only once the whole document is written.
    ///
    /// - Complexity: as ``document(of:)``.
    public func write(_ context: ObjectContext, toFileAtPath path: String) throws {
        let roots = try topLevelObjects(of: context)
        try FileReplacement.write(toPath: path) { handle in
            var buffer: [UInt8] = []
            buffer.reserveCapacity(1 << 17)
            try write(roots, model: context.model) { chunk in
                buffer.append(contentsOf: chunk)
                if buffer.count >= 1 << 16 {
                    try handle.write(contentsOf: buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            try handle.write(contentsOf: buffer)
        }
    }

    /// The objects written at the top level, in document order, and how each is written: read in one transaction
    /// when the context has a store, so that the export is one snapshot even while other connections write.
    func topLevelObjects(of context: ObjectContext) throws -> [JSON] {
        guard let store = context.store else { return try encodedTopLevelObjects(of: context) }
        return try store.read { try encodedTopLevelObjects(of: context) }
    }

    private func encodedTopLevelObjects(of context: ObjectContext) throws -> [JSON] {
        let objects = try selectedObjects(of: context)
        var owned = Set<ObjectIdentifier>()
        for object in objects {
            for (index, relationship) in object.entity.relationships.enumerated() where relationship.owns {
                for child in object.related(at: index) { owned.insert(ObjectIdentifier(child)) }
            }
        }
        // Owners before the objects they own, so that an owned child whose owner is not exported still appears.
        let candidates = Self.canonicalOrder(objects.filter { !owned.contains(ObjectIdentifier($0)) })
            + Self.canonicalOrder(objects.filter { owned.contains(ObjectIdentifier($0)) })
        var nested = Set<ObjectIdentifier>()
        var roots: [ManagedObject] = []
        for candidate in candidates where !nested.contains(ObjectIdentifier(candidate)) {
            roots.append(candidate)
            markNested(from: candidate, in: &nested)
        }
        return GraphEncoder(options: GraphEncodingOptions(nesting: .owned)).encode(roots)
    }

    /// Marks `root` and every object the encoder writes nested under it: those reached through owned
    /// relationships, and those without identity, which are written in full where first met.
    private func markNested(from root: ManagedObject, in nested: inout Set<ObjectIdentifier>) {
        var pending = [root]
        nested.insert(ObjectIdentifier(root))
        while let object = pending.popLast() {
            for (index, relationship) in object.entity.relationships.enumerated() {
                for member in object.related(at: index)
                where relationship.owns || !GraphWalk<JSONOutput>.hasIdentity(member) {
                    if nested.insert(ObjectIdentifier(member)).inserted { pending.append(member) }
                }
            }
        }
    }

    /// Every object of the selected entities, fetched by root entity.
    private func selectedObjects(of context: ObjectContext) throws -> [ManagedObject] {
        let model = context.model
        var selected: Set<String>?
        if let entityNames {
            var names = Set<String>()
            for name in entityNames {
                guard let entity = model.entity(named: name) else {
                    throw ExportError(
                        "unknown entity '\(name)'\(Suggestion.didYouMean(name, among: model.entityNames)); "
                            + "the model has \(model.entityNames.joined(separator: ", "))")
                }
                names.formUnion(entity.kinds)
            }
            selected = names
        }
        var objects: [ManagedObject] = []
        for root in model.entities where root.parentName == nil {
            for object in try context.fetch(root.name) where selected?.contains(object.entity.name) ?? true {
                objects.append(object)
            }
        }
        return objects
    }

    /// Sorted by entity name, then as ``GraphEncoder/canonicalOrder(_:)`` sorts the objects of one entity; objects
    /// without identity whose attributes are equal, which that order leaves as stored, by their encoded form.
    private static func canonicalOrder(_ objects: [ManagedObject]) -> [ManagedObject] {
        let byEntity = Dictionary(grouping: objects) { $0.entity.name }
        return byEntity.keys.sorted(by: JSONEmitter.precedes).flatMap { name in
            var sorted = GraphEncoder.canonicalOrder(byEntity[name]!)
            var start = 0
            while start < sorted.count {
                var end = start + 1
                while end < sorted.count, GraphEncoder.compare(sorted[start], sorted[end]) == .orderedSame { end += 1 }
                if end - start > 1 {
                    let tied = sorted[start..<end].map { (form: encodedForm(of: $0), object: $0) }
                    sorted.replaceSubrange(
                        start..<end, with: tied.sorted { $0.form.lexicographicallyPrecedes($1.form) }.map(\.object))
                }
                start = end
            }
            return sorted
        }
    }

    /// An object with what it owns and references, on its own: what tells apart objects whose attributes are equal.
    ///
    /// - Complexity: O(*n*) in the objects it reaches; used for ties only.
    private static func encodedForm(of object: ManagedObject) -> [UInt8] {
        GraphEncoder(options: GraphEncodingOptions(nesting: .owned)).encode([object])[0].serialized(style: .canonical)
    }

    /// Writes the document around `objects`, one canonical line each, handing the bytes to `sink` in pieces.
    private func write(_ objects: [JSON], model: EntityModel, to sink: ([UInt8]) throws -> Void) throws {
        // The model, pretty, indented one level to sit inside the document.
        var modelText: [UInt8] = []
        for byte in model.json.serialized(style: .pretty) {
            modelText.append(byte)
            if byte == UInt8(ascii: "\n") { modelText.append(contentsOf: [0x20, 0x20]) }
        }
        try sink(Array("{\n  \"format\": \"\(Self.format)\",\n  \"formatVersion\": \(Self.formatVersion),\n  \"model\": ".utf8))
        try sink(modelText)
        if objects.isEmpty {
            try sink(Array(",\n  \"objects\": []\n}\n".utf8))
            return
        }
        try sink(Array(",\n  \"objects\": [".utf8))
        for (index, object) in objects.enumerated() {
            try sink(Array((index == 0 ? "\n    " : ",\n    ").utf8))
            try sink(object.serialized(style: .canonical))
        }
        try sink(Array("\n  ]\n}\n".utf8))
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
