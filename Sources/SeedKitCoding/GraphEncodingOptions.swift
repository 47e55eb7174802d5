/// How ``ManagedObject/toJSON(options:)`` and ``GraphEncoder`` write the objects related to the ones they export.
///
///     employee.toJSON()                                   // every reachable object nested
///     employee.toJSON(options: .init(nesting: .owned))    // owned objects nested, stubs for the rest
public struct GraphEncodingOptions: Sendable, Hashable {
    /// Which related objects are written in full where they are first met.
    public enum Nesting: Sendable, Hashable {
        /// Every reachable object, once; later meetings are references.
        case all
        /// Only objects of owned relationships (see ``RelationshipDescription/owns``); an object with identity met
        /// through any other relationship is written as its identity stub and not followed. An object without
        /// identity cannot be named by a stub, so it is nested wherever it is met first.
        case owned
    }

    public var nesting: Nesting

    public init(nesting: Nesting = .all) {
        self.nesting = nesting
    }
}
