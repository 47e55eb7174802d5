import SeedKitSQLite

/// What the seeder last wrote to a store, kept in the store's own tables and written in the same transaction as the
/// objects: the template set's fingerprint, each file's hash, and each seeded object's key and value hash.
///
///     let ledger = try SeedLedger.read(from: store.connection)
///     ledger.fingerprint        // nil before the first seed
///
/// The value hash is what lets a later seed tell an object the application changed (its stored values no longer
/// hash to what the seeder wrote: it is kept) from one it may update.
///
/// Tables: `_seedkit_seed_sets` (one row), `_seedkit_seed_files` (path, hash), `_seedkit_seed_packed_objects`
/// (entity, number of objects, entries), `_seedkit_seed_counts` (entity, number of objects, and the set row they
/// were counted for) and `_seedkit_seed_file_stamps` (path, and the ``TemplateSet/Stamp`` the file had when read,
/// for files not modified just before), which stores written before they were added lack.
///
/// The objects of one entity are one blob, so that writing 200,000 of them is a few statements, not 200,000 rows and
/// index entries. The blob's first byte is its hash form (`HashForm`): 1 when every hash of the entity is 16
/// lowercase hex digits, as ``StableHash`` writes them, else 2. Then, for each object in no particular order: the
/// key's UTF-8 byte count and bytes, the row id (as the bit pattern of an unsigned number), and the hash — in form 1
/// its value in 8 bytes, little-endian, in form 2 its UTF-8 byte count and bytes. Counts and row ids are LEB128
/// varints: seven bits a byte, low bits first, the high bit set on every byte but the last.
///
/// Stores written before the packed table kept one row per object in `_seedkit_seed_objects` (key, entity, row id,
/// hash). Such a store is read from it; writing a ledger drops it, so a store holds one ledger of objects, and a
/// store that has that table was last written by a SeedKit that knows no other.
public struct SeedLedger: Sendable {
    /// One seeded object.
    public struct Entry: Sendable, Hashable {
        /// The entity the object was seeded as.
        public var entity: String
        /// The object's row id in its root entity's table.
        public var rowID: Int64
        /// The hash of the values the seeder wrote.
        public var hash: String
    }

    public var fingerprint: String?
    /// When the set was last applied, as SQLite's `datetime('now')` in UTC.
    public var appliedAt: String?
    public var templates: String?
    /// File hashes by relative path.
    public var files: [String: String] = [:]
    /// The stamps the files had when read, by relative path: a later launch takes a file with the same stamp for
    /// one with the same hash, without reading it.
    var fileStamps: [String: String] = [:]
    /// Entries by object key: the root entity and identity values, or the owner's key and a position.
    public var objects: [String: Entry] = [:]
    /// Entries packed as they are to be written, by entity, in place of ``objects``: a first seed packs each row's
    /// entry as it inserts the row, instead of building a dictionary only to write it.
    var packedEntries: [String: EntityPacker] = [:]

    static let setsTable = "_seedkit_seed_sets"
    static let filesTable = "_seedkit_seed_files"
    static let packedObjectsTable = "_seedkit_seed_packed_objects"
    /// The objects of stores written before the packed table, one row each.
    static let objectRowsTable = "_seedkit_seed_objects"
    static let countsTable = "_seedkit_seed_counts"
    static let fileStampsTable = "_seedkit_seed_file_stamps"

    /// The ledger of the store on `connection`; empty when nothing was ever seeded.
    ///
    /// - Complexity: O(*n*) in the number of seeded objects and files.
    public static func read(from connection: SQLiteConnection) throws -> SeedLedger {
        var ledger = SeedLedger()
        guard try hasTables(connection) else { return ledger }
        let sets = try connection.prepare(sql: "SELECT \"fingerprint\", \"applied_at\", \"templates\" FROM \"\(setsTable)\" LIMIT 1")
        if try sets.step() {
            ledger.fingerprint = sets.text(at: 0)
            ledger.appliedAt = sets.text(at: 1)
            ledger.templates = sets.text(at: 2)
        }
        let files = try connection.prepare(sql: "SELECT \"path\", \"hash\" FROM \"\(filesTable)\"")
        while try files.step() { ledger.files[files.text(at: 0)] = files.text(at: 1) }
        if try hasTable(objectRowsTable, connection) {
            let objects = try connection.prepare(sql: "SELECT \"key\", \"entity\", \"row_id\", \"hash\" FROM \"\(objectRowsTable)\"")
            while try objects.step() {
                ledger.objects[objects.text(at: 0)] = Entry(entity: objects.text(at: 1), rowID: objects.int64(at: 2), hash: objects.text(at: 3))
            }
        } else if try hasTable(packedObjectsTable, connection) {
            let total = try connection.prepare(sql: "SELECT total(\"objects\") FROM \"\(packedObjectsTable)\"")
            if try total.step() { ledger.objects.reserveCapacity(Int(total.double(at: 0))) }
            let packed = try connection.prepare(sql: "SELECT \"entity\", \"objects\", \"entries\" FROM \"\(packedObjectsTable)\"")
            while try packed.step() {
                try ledger.unpack(packed.bytes(at: 2), entity: packed.text(at: 0), count: packed.int(at: 1))
            }
        }
        return ledger
    }

    /// The fingerprint of the set last applied to the store on `connection`, reading nothing else; nil when nothing
    /// was ever seeded.
    ///
    /// - Complexity: O(1): the later launch that finds its set applied needs no more.
    static func fingerprint(in connection: SQLiteConnection) throws -> String? {
        guard try hasTables(connection) else { return nil }
        let sets = try connection.prepare(sql: "SELECT \"fingerprint\" FROM \"\(setsTable)\" LIMIT 1")
        return try sets.step() ? sets.text(at: 0) : nil
    }

    /// The stamp and hash of each file of the set last applied that has a stamp, by relative path; empty when
    /// nothing was seeded, or by a SeedKit that kept no stamps.
    ///
    /// - Complexity: O(*f*) in the number of files.
    static func knownFiles(in connection: SQLiteConnection) throws -> [String: (stamp: String, hash: String)] {
        guard try hasTables(connection), try hasTable(fileStampsTable, connection) else { return [:] }
        let files = try connection.prepare(sql: """
            SELECT s."path", s."stamp", f."hash" FROM "\(fileStampsTable)" s JOIN "\(filesTable)" f ON s."path" = f."path"
            """)
        var known: [String: (stamp: String, hash: String)] = [:]
        while try files.step() { known[files.text(at: 0)] = (files.text(at: 1), files.text(at: 2)) }
        return known
    }

    /// The number of seeded objects of each entity: the counts written with the ledger, else counted by the store.
    ///
    /// The written counts hold the fingerprint and time of the set row they were written with: a ledger rewritten
    /// since by an older SeedKit, which does not know the counts table, no longer matches them, and neither does
    /// the ledger of a store written before the table existed. Those are counted.
    ///
    /// - Complexity: O(*e*) for *e* entities; O(*n* log *n*) in the number of seeded objects, inside SQLite, for a
    ///   store whose counts do not match and whose objects are one row each.
    static func objectCounts(in connection: SQLiteConnection) throws -> [String: Int] {
        guard try hasTables(connection) else { return [:] }
        var result: [String: Int] = [:]
        if try hasTable(countsTable, connection) {
            let written = try connection.prepare(sql: """
                SELECT c."entity", c."objects" FROM "\(countsTable)" c JOIN "\(setsTable)" s
                ON c."fingerprint" = s."fingerprint" AND c."applied_at" = s."applied_at"
                """)
            while try written.step() { result[written.text(at: 0)] = Int(written.int64(at: 1)) }
            if !result.isEmpty { return result }
        }
        let counts: Statement
        if try hasTable(objectRowsTable, connection) {
            counts = try connection.prepare(sql: "SELECT \"entity\", count(*) FROM \"\(objectRowsTable)\" GROUP BY \"entity\"")
        } else if try hasTable(packedObjectsTable, connection) {
            counts = try connection.prepare(sql: "SELECT \"entity\", \"objects\" FROM \"\(packedObjectsTable)\"")
        } else {
            return result
        }
        while try counts.step() { result[counts.text(at: 0)] = Int(counts.int64(at: 1)) }
        return result
    }

    private static func hasTables(_ connection: SQLiteConnection) throws -> Bool {
        try hasTable(setsTable, connection)
    }

    private static func hasTable(_ name: String, _ connection: SQLiteConnection) throws -> Bool {
        let tables = try connection.prepare(sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(name)'")
        return try tables.step() && tables.int64(at: 0) == 1
    }

    /// Replaces the ledger in the store; call it inside the transaction that writes the objects.
    ///
    /// - Complexity: O(*n*) in the number of objects; one statement per file and per entity.
    func write(to connection: SQLiteConnection) throws {
        try connection.execute(sql: """
            CREATE TABLE IF NOT EXISTS "\(Self.setsTable)" ("fingerprint" TEXT NOT NULL, "applied_at" TEXT NOT NULL, "templates" TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS "\(Self.filesTable)" ("path" TEXT PRIMARY KEY, "hash" TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS "\(Self.packedObjectsTable)" ("entity" TEXT PRIMARY KEY, "objects" INTEGER NOT NULL, "entries" BLOB NOT NULL);
            DROP TABLE IF EXISTS "\(Self.objectRowsTable)";
            DELETE FROM "\(Self.setsTable)"; DELETE FROM "\(Self.filesTable)"; DELETE FROM "\(Self.packedObjectsTable)";
            """)
        try connection.execute(
            sql: "INSERT INTO \"\(Self.setsTable)\" VALUES (?, datetime('now'), ?)",
            arguments: [.text(fingerprint ?? ""), .text(templates ?? "")])
        // Rewritten with the files: a stamp never outlives the hash it stands for.
        try connection.execute(sql: """
            CREATE TABLE IF NOT EXISTS "\(Self.fileStampsTable)" ("path" TEXT PRIMARY KEY, "stamp" TEXT NOT NULL);
            DELETE FROM "\(Self.fileStampsTable)";
            """)
        let stamp = try connection.cachedStatement(sql: "INSERT INTO \"\(Self.fileStampsTable)\" VALUES (?, ?)")
        for (path, text) in fileStamps where files[path] != nil {
            try stamp.execute(arguments: [.text(path), .text(text)])
        }
        let file = try connection.cachedStatement(sql: "INSERT INTO \"\(Self.filesTable)\" VALUES (?, ?)")
        for (path, hash) in files.sorted(by: { $0.key < $1.key }) {
            try file.execute(arguments: [.text(path), .text(hash)])
        }
        let packed = packedObjects()
        let entity = try connection.cachedStatement(sql: "INSERT INTO \"\(Self.packedObjectsTable)\" VALUES (?, ?, ?)")
        for (name, count, bytes) in packed {
            try entity.bind(name, at: 1)
            try entity.bind(count, at: 2)
            try entity.bind(bytes, at: 3)
            try entity.execute()
        }
        try writeCounts(packed.map { ($0.entity, $0.count) }, to: connection)
    }

    /// Replaces the number of objects of each entity, for the set row just written: what a later launch that
    /// finds its set applied reports, without reading the objects.
    ///
    /// - Complexity: One row per entity.
    private func writeCounts(_ counts: [(entity: String, objects: Int)], to connection: SQLiteConnection) throws {
        try connection.execute(sql: """
            CREATE TABLE IF NOT EXISTS "\(Self.countsTable)" ("entity" TEXT PRIMARY KEY, "objects" INTEGER NOT NULL, "fingerprint" TEXT NOT NULL, "applied_at" TEXT NOT NULL);
            DELETE FROM "\(Self.countsTable)";
            """)
        let count = try connection.cachedStatement(sql: """
            INSERT INTO "\(Self.countsTable)" SELECT ?, ?, "fingerprint", "applied_at" FROM "\(Self.setsTable)"
            """)
        for (entity, objects) in counts { try count.execute(arguments: [.text(entity), .integer(Int64(objects))]) }
    }
}
