import SeedKitModel
import SeedKitSupport

/// The changes ``GraphDiff/Options/ignoredProperties`` leaves out, matched by root entity and property.
struct IgnoredProperties {
    /// Root entity name (nil for `*`) and property (nil for the whole object).
    private var patterns: [(root: String?, property: String?)] = []

    /// - Throws: ``ExportError`` for a pattern naming an entity neither model has.
    init(_ texts: [String], models: [EntityModel]) throws(ExportError) {
        for text in texts {
            let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
            let property = parts.count == 2 ? parts[1] : nil
            guard parts[0] != "*" else {
                guard let property, !property.isEmpty else { throw ExportError("ignore '\(text)': give '*.property'") }
                patterns.append((nil, property))
                continue
            }
            guard let entity = models.lazy.compactMap({ $0.entity(named: parts[0]) }).first else {
                let names = Set(models.flatMap(\.entityNames)).sorted()
                throw ExportError(
                    "ignore '\(text)': unknown entity '\(parts[0])'\(Suggestion.didYouMean(parts[0], among: names)); "
                        + "give Entity.property, *.property or Entity")
            }
            patterns.append((entity.rootName, property))
        }
    }

    /// Whether a change is of an ignored property, or of an object of an ignored entity.
    func contains(_ change: GraphChange) -> Bool {
        guard change.kind != .model, !patterns.isEmpty else { return false }
        // `Employee[email=a@b].addresses[0]`: the root entity, then the properties the path goes through.
        let root = String(change.object.prefix { $0 != "[" && $0 != "@" })
        return patterns.contains { pattern in
            if let patternRoot = pattern.root, patternRoot != root { return false }
            guard let property = pattern.property else { return true }
            return change.property == property || change.object.contains(".\(property)[")
                || change.object.hasSuffix(".\(property)")
        }
    }
}
