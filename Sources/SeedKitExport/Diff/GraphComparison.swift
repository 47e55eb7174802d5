import SeedKitJSON
import SeedKitSeeding

/// Compares two flattened graphs object by object and link by link.
struct GraphComparison {
    let old: FlatGraph
    let new: FlatGraph
    let options: GraphDiff.Options
    /// Where a change's object is written: its key, and the offset of its top-level object in the new document, or
    /// in the old one for a removal.
    struct Place {
        var key: String
        var offset: Int
        var inOld: Bool
    }

    private(set) var changes: [(GraphChange, place: Place)] = []
    private(set) var ignoredObjects = 0
    /// Objects in one graph only: their links are part of their export form, shown with their addition or removal.
    private var unmatched: Set<String> = []

    init(old: FlatGraph, new: FlatGraph, options: GraphDiff.Options) {
        self.old = old
        self.new = new
        self.options = options
    }

    /// Objects added and removed, class and attribute changes.
    mutating func compareObjects() {
        for key in Set(old.records.keys).union(new.records.keys) {
            switch (old.records[key], new.records[key]) {
            case let (before?, after?):
                let place = Place(key: key, offset: after.offset, inOld: false)
                if before.className != after.className {
                    add(.classChanged, after.display, old: .string(before.className), new: .string(after.className), place)
                }
                for name in Set(before.attributes.keys).union(after.attributes.keys).sorted()
                where before.attributes[name] != after.attributes[name]
                    && !(options.ignoresValuesOnlyInNew && before.attributes[name] == nil)
                {
                    add(.attribute, after.display, name, old: before.attributes[name], new: after.attributes[name], place)
                }
            case let (before?, nil):
                unmatched.insert(key)
                changes.append((GraphChange(kind: .removed, object: before.display, old: before.json), Place(key: key, offset: before.offset, inOld: true)))
            case let (nil, after?):
                unmatched.insert(key)
                if options.ignoresObjectsOnlyInNew {
                    ignoredObjects += 1
                } else {
                    add(.added, after.display, new: after.json, Place(key: key, offset: after.offset, inOld: false))
                }
            case (nil, nil):
                break
            }
        }
    }

    /// Links of objects read on both sides. (An object read on neither side has the same links on both: each object
    /// writes its own, and a link it leaves out because it is nested is in the same top-level object.)
    mutating func compareLinks() {
        for key in Set(old.records.keys).intersection(new.records.keys) {
            let place = Place(key: key, offset: new.records[key]!.offset, inOld: false)
            let before = old.links[key] ?? [:]
            let after = new.links[key] ?? [:]
            let object = name(of: key)
            for relationship in Set(before.keys).union(after.keys).sorted() {
                compare(before[relationship], after[relationship], object: object, property: relationship, at: place)
            }
        }
        changes.sort { lhs, rhs in
            (lhs.0.object, lhs.0.property ?? "", Self.rank[lhs.0.kind]!) < (rhs.0.object, rhs.0.property ?? "", Self.rank[rhs.0.kind]!)
        }
    }

    private static let rank: [GraphChange.Kind: Int] = Dictionary(
        uniqueKeysWithValues: GraphChange.Kind.allCases.enumerated().map { ($1, $0) })

    private func name(of key: String) -> String {
        new.names[key] ?? old.names[key] ?? new.keyer.display(ofKey: key) ?? old.keyer.display(ofKey: key) ?? key
    }

    private mutating func compare(
        _ before: FlatGraph.Links?, _ after: FlatGraph.Links?, object: String, property: String, at place: Place
    ) {
        guard let shape = after ?? before else { return }
        let oldKeys = memberKeys(before)
        let newKeys = memberKeys(after)
        if !shape.isToMany, oldKeys.count <= 1, newKeys.count <= 1, oldKeys != newKeys,
            (before?.embedded.isEmpty ?? true) == (after?.embedded.isEmpty ?? true)
        {
            add(.target, object, property, old: oldKeys.first.map { .string(name(of: $0)) },
                new: newKeys.first.map { .string(name(of: $0)) }, place)
        } else if oldKeys != newKeys {
            let oldSet = Set(oldKeys)
            let newSet = Set(newKeys)
            for key in oldKeys where !newSet.contains(key) {
                add(.unlinked, object, property, old: .string(name(of: key)), place)
            }
            for key in newKeys where !oldSet.contains(key) {
                add(.linked, object, property, new: .string(name(of: key)), place)
            }
            // The members on both sides, in each side's order: moved, whatever else joined or left.
            if shape.isOrdered, oldKeys.filter(newSet.contains) != newKeys.filter(oldSet.contains) {
                add(.reordered, object, property, old: .array(oldKeys.map { .string(name(of: $0)) }),
                    new: .array(newKeys.map { .string(name(of: $0)) }), place)
            }
        }
        compareEmbedded(before?.embedded ?? [], after?.embedded ?? [], shape: shape, object: object, property: property, at: place)
    }

    /// The keys of the members to compare, each once: a link is met from both ends when both objects are read (an
    /// employee's department, and the department's employees). Members of a to-many that are on one side only are
    /// left out: the link is part of their export form, shown with their addition or removal (or, for objects only
    /// in the new graph when those are ignored, not compared).
    private func memberKeys(_ links: FlatGraph.Links?) -> [String] {
        guard let links else { return [] }
        var seen = Set<String>()
        return links.keys.filter { key in seen.insert(key).inserted && !(links.isToMany && unmatched.contains(key)) }
    }

    /// Members without identity or `$id`: equal ones matched first, the rest paired in order and compared key by key,
    /// the remainder added or removed.
    private mutating func compareEmbedded(
        _ before: [JSON], _ after: [JSON], shape: FlatGraph.Links, object: String, property: String, at place: Place
    ) {
        guard before != after else { return }
        var available: [JSON: [Int]] = [:]
        for (index, member) in after.enumerated() { available[member, default: []].append(index) }
        var unmatchedOld: [Int] = []
        var matchedNew: [Int] = []
        for (index, member) in before.enumerated() {
            if var indices = available[member], !indices.isEmpty {
                matchedNew.append(indices.removeFirst())
                available[member] = indices
            } else {
                unmatchedOld.append(index)
            }
        }
        let unmatchedNew = after.indices.filter { index in available[after[index]]?.contains(index) ?? false }
        for (oldIndex, newIndex) in zip(unmatchedOld, unmatchedNew) {
            let path = shape.isToMany ? "\(object).\(property)[\(newIndex)]" : "\(object).\(property)"
            compareMembers(of: before[oldIndex], after[newIndex], object: path, at: place)
        }
        for index in unmatchedOld.dropFirst(unmatchedNew.count) {
            add(.unlinked, object, property, old: before[index], place)
        }
        for index in unmatchedNew.dropFirst(unmatchedOld.count) {
            add(.linked, object, property, new: after[index], place)
        }
        // The equal members, in old order, are at these new positions: moved, whatever else joined, left or changed.
        if shape.isOrdered, matchedNew != matchedNew.sorted() {
            add(.reordered, object, property, old: .array(before), new: .array(after), place)
        }
    }

    private mutating func compareMembers(of before: JSON, _ after: JSON, object: String, at place: Place) {
        guard case .object(let oldMembers) = before, case .object(let newMembers) = after else { return }
        if oldMembers["class"] != newMembers["class"] {
            add(.classChanged, object, old: oldMembers["class"], new: newMembers["class"], place)
        }
        for key in Set(oldMembers.keys).union(newMembers.keys).sorted() where key != "class" && oldMembers[key] != newMembers[key] {
            add(.attribute, object, key, old: oldMembers[key], new: newMembers[key], place)
        }
    }

    private mutating func add(
        _ kind: GraphChange.Kind, _ object: String, _ property: String? = nil, old: JSON? = nil, new: JSON? = nil,
        _ place: Place
    ) {
        changes.append((GraphChange(kind: kind, object: object, property: property, old: old, new: new), place))
    }
}
