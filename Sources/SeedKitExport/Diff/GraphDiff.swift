import Foundation
import SeedKitJSON
import SeedKitSeeding

/// The semantic difference between two exported object graphs: objects matched by entity and identity, never by
/// position.
///
///     let old = try ExportDocument(contentsOf: URL(fileURLWithPath: "old.export.json"))
///     let new = try ExportDocument(exporting: store.newContext())
///     let diff = try GraphDiff(from: old, to: new)
///     print(diff.text())
///     // ~ Department[name=Sales].budget: 1250000.5 → 1300000
///     // + Employee[email=zoe@example.com] {"class":"Employee","email":"zoe@example.com","name":"Zoe"}
///     // 1 object added, 0 removed, 1 changed
///
/// A changed identity is a removal and an addition; each link of an inverse pair is reported once. See
/// <doc:ExportAndDiff> for every kind of change.
public struct GraphDiff: Sendable {
    /// What a diff compares.
    public struct Options: Sendable, Hashable {
        /// Leave out objects only in the new graph: "does the new graph still hold everything the old one says?",
        /// the question of a drift check of a store against its templates. They are counted in
        /// ``GraphDiff/objectsOnlyInNew``.
        public var ignoresObjectsOnlyInNew = false
        /// Leave out attribute values the old graph does not state (absent there, present in the new one): in a
        /// drift check, values the application set where the templates say nothing.
        public var ignoresValuesOnlyInNew = false

        /// Properties whose changes are left out, such as timestamps that differ on every run: `Employee.hired`
        /// (that attribute or relationship of employees and their subentities, and everything nested under it),
        /// `*.updatedAt` (of every entity), or `Project` (every change of projects, added and removed ones too).
        /// Model changes are always reported.
        public var ignoredProperties: [String] = []

        public init(ignoresObjectsOnlyInNew: Bool = false, ignoresValuesOnlyInNew: Bool = false, ignoredProperties: [String] = []) {
            self.ignoresObjectsOnlyInNew = ignoresObjectsOnlyInNew
            self.ignoresValuesOnlyInNew = ignoresValuesOnlyInNew
            self.ignoredProperties = ignoredProperties
        }

        /// The options of a drift check: does the new graph (a store) still hold what the old one (its templates)
        /// says?
        public static let driftCheck = Options(ignoresObjectsOnlyInNew: true, ignoresValuesOnlyInNew: true)
    }

    /// Every difference: model changes first, then by object and property.
    public let changes: [GraphChange]
    /// Objects only in the new graph that ``Options/ignoresObjectsOnlyInNew`` left out.
    public let objectsOnlyInNew: Int

    /// Whether the graphs differ.
    public var hasDifferences: Bool { !changes.isEmpty }

    /// Compares two exports.
    ///
    /// - Throws: ``ExportError``, located in its document, for an object the model cannot read; for an ignored
    ///   property of an entity neither model has.
    /// - Complexity: O(*n* log *n*) comparisons of keys for *n* top-level objects, plus parsing the objects whose bytes
    ///   differ.
    public init(from old: ExportDocument, to new: ExportDocument, options: Options = Options()) throws(ExportError) {
        let pairing = TopLevelPairing(old: old, new: new)
        var oldGraph = FlatGraph(model: old.model)
        var newGraph = FlatGraph(model: new.model)
        for index in pairing.oldIndicesToRead {
            try Self.add(old.entries[index], at: index, of: old, to: &oldGraph)
        }
        for index in pairing.newIndicesToRead {
            try Self.add(new.entries[index], at: index, of: new, to: &newGraph)
        }
        var comparison = GraphComparison(old: oldGraph, new: newGraph, options: options)
        comparison.compareObjects()
        comparison.compareLinks()
        var changes = Self.modelChanges(from: old.model, to: new.model)
        let ignored = try IgnoredProperties(options.ignoredProperties, models: [new.model, old.model])
        changes += Self.located(comparison.changes.filter { !ignored.contains($0.0) }, old: old, new: new)
        self.changes = changes
        self.objectsOnlyInNew = comparison.ignoredObjects
    }

    private static func add(
        _ entry: ExportDocument.Entry, at index: Int, of document: ExportDocument, to graph: inout FlatGraph
    ) throws(ExportError) {
        do throws(ExportError) {
            try graph.add(topLevel: document.object(at: entry), key: entry.key, offset: entry.start)
        } catch {
            var error = error
            error.location = document.location(ofOffset: entry.start)
            error.pointer = JSONPointer(tokens: ["objects", String(index)] + (error.pointer?.tokens ?? []))
            throw error
        }
    }

    /// The changes with their places turned into locations: in the new document, or the old for removals, else in
    /// the other; by offset in an export file, by object in a template set.
    private static func located(
        _ changes: [(GraphChange, place: GraphComparison.Place)], old: ExportDocument, new: ExportDocument
    ) -> [GraphChange] {
        let oldLocations = old.file == nil ? [:] : old.locations(ofOffsets: changes.filter(\.place.inOld).map(\.place.offset))
        let newLocations = new.file == nil ? [:] : new.locations(ofOffsets: changes.filter { !$0.place.inOld }.map(\.place.offset))
        // Objects of a template set, or of a store (which has no file) compared with one, are shown where the set
        // writes them: found for these changes alone.
        let unlocated = Set(
            changes.lazy.filter { ($0.place.inOld ? oldLocations : newLocations)[$0.place.offset] == nil }.map(\.place.key))
        let oldDefinitions = old.templateDefinitions?.locations(of: unlocated) ?? [:]
        let newDefinitions = new.templateDefinitions?.locations(of: unlocated) ?? [:]
        return changes.map { change, place in
            var change = change
            let (locations, definitions, others) =
                place.inOld ? (oldLocations, oldDefinitions, newDefinitions) : (newLocations, newDefinitions, oldDefinitions)
            change.location = locations[place.offset] ?? definitions[place.key] ?? others[place.key]
            return change
        }
    }
}

/// Which top-level objects of two documents must be read again: those whose bytes differ, and those on one side
/// only.
struct TopLevelPairing {
    var oldIndicesToRead: [Int] = []
    var newIndicesToRead: [Int] = []
    /// Pairs of entries with the same key, in old document order: (old index, new index).
    var pairs: [(old: Int, new: Int)] = []

    init(old: ExportDocument, new: ExportDocument) {
        let oldOrder = old.keyOrder
        let newOrder = new.keyOrder
        var o = 0
        var n = 0
        while o < oldOrder.count || n < newOrder.count {
            if n == newOrder.count || (o < oldOrder.count && old.entries[oldOrder[o]].key < new.entries[newOrder[n]].key) {
                oldIndicesToRead.append(oldOrder[o])
                o += 1
            } else if o == oldOrder.count || new.entries[newOrder[n]].key < old.entries[oldOrder[o]].key {
                newIndicesToRead.append(newOrder[n])
                n += 1
            } else {
                let (oldIndex, newIndex) = (oldOrder[o], newOrder[n])
                pairs.append((oldIndex, newIndex))
                if !old.hasSameBytes(old.entries[oldIndex], as: new.entries[newIndex], in: new) {
                    oldIndicesToRead.append(oldIndex)
                    newIndicesToRead.append(newIndex)
                }
                o += 1
                n += 1
            }
        }
        pairs.sort { $0.old < $1.old }
        oldIndicesToRead.sort()
        newIndicesToRead.sort()
    }
}
