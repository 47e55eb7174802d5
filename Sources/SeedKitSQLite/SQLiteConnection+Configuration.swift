import CSQLite

extension SQLiteConnection {
    /// How a connection opens its database and sets it up.
    ///
    ///     var configuration = SQLiteConnection.Configuration()
    ///     configuration.openMode = .readOnly
    ///     let connection = try SQLiteConnection(path: "seed.sqlite", configuration: configuration)
    public struct Configuration: Sendable {
        /// Whether the database file may be created or written. The default is ``OpenMode/create``.
        public var openMode: OpenMode = .create

        /// How long a statement waits for another connection's lock before failing with ``SQLiteResultCode/busy``.
        /// The default is 5 seconds; zero fails at once.
        public var busyTimeout: Duration = .seconds(5)

        /// Whether a database file opened for writing is switched to write-ahead logging, with `synchronous = NORMAL`.
        /// The default is true.
        ///
        /// In WAL mode, readers and one writer don't block each other, and NORMAL synchronization keeps the database
        /// consistent after a crash (a power loss may only undo the last transactions). The mode is stored in the
        /// file, so it stays on for every later connection. In-memory and read-only databases keep their mode.
        public var usesWriteAheadLog: Bool = true

        /// Whether foreign key constraints are enforced; SQLite's own default is off. The default is true.
        public var foreignKeysEnabled: Bool = true

        public init() {}
    }

    /// Whether a connection may create or write its database file.
    public enum OpenMode: Sendable, Hashable {
        /// Read and write, creating the file if it is absent.
        case create
        /// Read and write a file that must exist.
        case readWrite
        /// Read a file that must exist; every write fails with ``SQLiteResultCode/readOnly``.
        case readOnly

        var flags: Int32 {
            switch self {
            case .create: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            case .readWrite: SQLITE_OPEN_READWRITE
            case .readOnly: SQLITE_OPEN_READONLY
            }
        }
    }
}
