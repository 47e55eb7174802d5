/// A refused store operation: a database that is not a store, a model the store can't migrate to, a save that
/// conflicts with a newer row, or a model whose names can't be laid out as tables. Every store, SQLite or PostgreSQL,
/// throws these, so code tests ``kind`` whichever store it runs on.
///
///     Employee[email=ann@example.com]: conflict on name, title: the row changed in the store since it was fetched
///     (version 3, fetched at 2) - store "company.sqlite"
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// The database is not a SeedKit store (an SQLite file without SeedKit's metadata), or a store of a newer
        /// schema version.
        case notAStore
        /// The model can't be stored: a name is not an SQL identifier, or two entities of one tree give one column
        /// two types.
        case invalidSchema
        /// Opening with this model needs a migration that would lose data, and the options don't allow it.
        case migrationRefused
        /// A saved object's row changed or went in the store since the context fetched it.
        case conflict
        /// The store file could not be written to disk or moved into place.
        case io
    }

    public var kind: Kind
    public var message: String
    /// The object concerned, as `Entity[identity]` or `Entity#number`.
    public var object: String?
    /// The properties concerned: the conflicting keys, or the attribute a migration would lose.
    public var keys: [String]
    /// The store file.
    public var path: String?
    /// For a refused migration: whether ``SQLiteStore/Options/allowsDataLoss`` would let it go ahead, every refusal
    /// being a drop of what the new model no longer has (not a type change, nor a value required of old rows).
    public var migratesWithDataLoss = false

    package init(_ kind: Kind, object: String? = nil, keys: [String] = [], path: String? = nil, _ message: String) {
        self.kind = kind
        self.message = message
        self.object = object
        self.keys = keys
        self.path = path
    }

    public var description: String {
        var text = object.map { "\($0): " } ?? ""
        if !keys.isEmpty { text += "\(kind == .conflict ? "conflict on " : "")\(keys.joined(separator: ", ")): " }
        text += message
        if let path { text += " - store \"\(path)\"" }
        return text
    }
}
