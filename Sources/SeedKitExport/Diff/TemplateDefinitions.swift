import Foundation
import SeedKitSupport
import SeedKitJSON
import SeedKitModel
import SeedKitSeeding

/// Where the objects of a template set are written, looked up only for the objects a diff reports.
///
///     let definitions = TemplateDefinitions(set: set, model: model)
///     definitions.locations(of: ["Employee[\"ann@example.com\"]"])   // ["Employee[…]": staff/ann.template:3:5]
///
/// A drift check that finds nothing to report never reads the files again, and one that reports a few objects keeps
/// the locations of those alone: the set's contents are let go while the set is read, and each file is read again,
/// scanned and let go, only here.
struct TemplateDefinitions: Sendable {
    private let directoryPath: String
    /// The set's files, without their contents.
    private let files: [TemplateSet.File]
    private let keyer: ObjectKeyer

    init(set: TemplateSet, model: EntityModel) {
        directoryPath = set.directory.path
        files = set.files.map {
            var file = $0
            file.bytes = []
            return file
        }
        keyer = ObjectKeyer(model: model)
    }

    /// Where each of `keys` (``ObjectKeyer`` keys) is written in full in the set, else where it is first referenced;
    /// keys of objects the set does not write, and files changed since the set was read, are left out. Only objects
    /// with identity are looked for: an `"$id"` names an object in one export, not where a template writes it.
    ///
    /// - Complexity: Nothing without identity keys; else O(*n*) in the size of the set, its files scanned on all
    ///   cores.
    func locations(of keys: Set<String>) -> [String: SourceLocation] {
        let keys = keys.filter(ObjectKeyer.isIdentityKey)
        guard !keys.isEmpty else { return [:] }
        let found = Locked([[Definition]](repeating: [], count: files.count))
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let definitions = definitions(inFile: index, of: keys)
            found.withLock { $0[index] = definitions }
        }
        var locations: [String: SourceLocation] = [:]
        for definition in found.withLock({ $0 }).joined() where definition.isFull || locations[definition.key] == nil {
            locations[definition.key] = definition.location
        }
        return locations
    }

    /// An object of the set where a file writes it: in full, or only its identity (a reference).
    private struct Definition: Sendable {
        let key: String
        let location: SourceLocation
        let isFull: Bool
    }

    /// The places in a file of the objects with `keys`, in the order they are in the file.
    private func definitions(inFile index: Int, of keys: Set<String>) -> [Definition] {
        let file = files[index]
        guard let bytes = TemplateSet.contentsAgain(of: file, in: directoryPath),
            let document = try? JSONDocument(parsing: bytes, file: file.displayPath)
        else { return [] }
        var found: [(key: String, pointer: JSONPointer, isFull: Bool)] = []
        // Objects to visit, with the entity a nested object without "class" has.
        var pending: [(JSON, JSONPointer, Entity?)] = [(document.value, .root, nil)]
        while let (value, pointer, expected) = pending.popLast() {
            switch value {
            case .array(let elements):
                for (index, element) in elements.enumerated() { pending.append((element, pointer.appending(index), expected)) }
            case .object(let members):
                guard let entity = members["class"]?.stringValue.flatMap(keyer.model.entity(named:)) ?? expected else { continue }
                // Templates write keys in the entity's key style.
                let identityKeys = entity.identityIndices.map { entity.attributeKeys[$0] }
                if let key = keyer.key(of: value, entity: entity, identityKeys: identityKeys), keys.contains(key) {
                    let isFull = members.keys.contains { $0 != "class" && !identityKeys.contains($0) }
                    found.append((key, pointer, isFull))
                }
                for (name, member) in members {
                    guard let index = entity.relationshipIndex(forKey: name) else { continue }
                    let relationship = entity.relationships[index]
                    pending.append((member, pointer.appending(name), keyer.model.entity(named: relationship.destination)))
                }
            default:
                continue
            }
        }
        let locations = document.locations(of: found.map(\.pointer))
        return found.sorted { $0.pointer < $1.pointer }.compactMap { key, pointer, isFull in
            locations[pointer].map { Definition(key: key, location: $0, isFull: isFull) }
        }
    }
}
