import Foundation
import SeedKit
@testable import SeedKitExport

/// The canonical export as it was written before it read rows: through managed objects and the graph encoder.
/// Tests hold the export from rows to it, byte for byte, so that exports already in repositories stay the same.
enum ReferenceExport {
    /// The `"objects"` lines of the export of every object of the context.
    static func lines(of context: ObjectContext) throws -> [[UInt8]] {
        var objects: [ManagedObject] = []
        for root in context.model.entities where root.parentName == nil { objects += try context.fetch(root.name) }
        var owned = Set<ObjectIdentifier>()
        for object in objects {
            for (index, relationship) in object.entity.relationships.enumerated() where relationship.owns {
                for child in object.related(at: index) { owned.insert(ObjectIdentifier(child)) }
            }
        }
        let candidates = canonicalOrder(objects.filter { !owned.contains(ObjectIdentifier($0)) })
            + canonicalOrder(objects.filter { owned.contains(ObjectIdentifier($0)) })
        var nested = Set<ObjectIdentifier>()
        var roots: [ManagedObject] = []
        for candidate in candidates where !nested.contains(ObjectIdentifier(candidate)) {
            roots.append(candidate)
            var pending = [candidate]
            nested.insert(ObjectIdentifier(candidate))
            while let object = pending.popLast() {
                for (index, relationship) in object.entity.relationships.enumerated() {
                    for member in object.related(at: index) where relationship.owns || !GraphWalk<JSONOutput>.hasIdentity(member) {
                        if nested.insert(ObjectIdentifier(member)).inserted { pending.append(member) }
                    }
                }
            }
        }
        return GraphEncoder(options: GraphEncodingOptions(nesting: .owned)).encode(roots).map { $0.serialized(style: .canonical) }
    }

    private static func canonicalOrder(_ objects: [ManagedObject]) -> [ManagedObject] {
        let byEntity = Dictionary(grouping: objects) { $0.entity.name }
        return byEntity.keys.sorted(by: JSONEmitter.precedes).flatMap { name in
            var sorted = GraphEncoder.canonicalOrder(byEntity[name]!)
            var start = 0
            while start < sorted.count {
                var end = start + 1
                while end < sorted.count, GraphEncoder.compare(sorted[start], sorted[end]) == .orderedSame { end += 1 }
                if end - start > 1 {
                    let tied = sorted[start..<end].map {
                        (form: GraphEncoder(options: GraphEncodingOptions(nesting: .owned)).encode([$0])[0].serialized(style: .canonical), object: $0)
                    }
                    sorted.replaceSubrange(start..<end, with: tied.sorted { $0.form.lexicographicallyPrecedes($1.form) }.map(\.object))
                }
                start = end
            }
            return sorted
        }
    }
}
