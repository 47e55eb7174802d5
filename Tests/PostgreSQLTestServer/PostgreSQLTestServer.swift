import Foundation
import SeedKitPostgreSQL

/// The PostgreSQL server tests and benchmarks run against: the one at `SEEDKIT_TEST_POSTGRES_URL` when that is set,
/// else a throwaway cluster this process starts on first use and that goes when the process does.
///
///     let database = try PostgreSQLTestServer.shared().makeDatabase()
///     let connection = try database.connect()
///
/// The throwaway cluster is made by `initdb` in a new directory under /tmp, listens on 127.0.0.1 only at a free
/// port (and on a Unix socket in its directory), runs with `fsync=off`, and, when the process runs as root, as the
/// user `nobody`, since PostgreSQL refuses to run as root. Its superuser `postgres` needs no password; the role in
/// ``passwordRole`` needs one, for tests of authentication. A watcher shell stops the server and deletes the
/// directory once the test process has gone, however it ended: it waits for end-of-file on a pipe only this
/// process holds. Directories that a killed watcher left behind are cleaned up at the next start.
package final class PostgreSQLTestServer: Sendable {
    /// A role and its password.
    package struct Credentials: Sendable {
        package let user: String
        package let password: String
    }

    /// The superuser's URL, to the `postgres` database.
    package let url: PostgreSQLURL
    /// A role that logs in with a password over TCP; nil for a server at `SEEDKIT_TEST_POSTGRES_URL`.
    package let passwordRole: Credentials?
    /// The directory of the throwaway cluster's Unix socket; nil for a server at `SEEDKIT_TEST_POSTGRES_URL`.
    package let socketDirectory: String?
    /// The server's version number, 150004 for 15.4.
    package let serverVersion: Int

    private init(url: PostgreSQLURL, passwordRole: Credentials?, socketDirectory: String?) throws {
        let connection = try PostgreSQLConnection(url: url)
        self.url = url
        self.passwordRole = passwordRole
        self.socketDirectory = socketDirectory
        self.serverVersion = connection.serverVersion
    }

    /// The environment variable that names a server to use instead of a throwaway cluster.
    package static let urlVariable = "SEEDKIT_TEST_POSTGRES_URL"

    /// Whether the server is a throwaway cluster of this process, not one at `SEEDKIT_TEST_POSTGRES_URL`: only then
    /// are there ``passwordRole`` and ``socketDirectory``.
    package static var isThrowaway: Bool {
        ProcessInfo.processInfo.environment[urlVariable] == nil
    }

    /// What to do when neither a server URL nor PostgreSQL's binaries are there.
    package static let howToEnable =
        "PostgreSQL tests skipped: install PostgreSQL's server (apt-get install postgresql: initdb, pg_ctl) or set "
        + "\(urlVariable)=postgresql://user@host:port/db"

    /// Whether there is a server to test against, without starting one: the URL is set or the binaries are found.
    ///
    /// When there is none, the first use prints ``howToEnable``, once, to the standard error.
    package static let isAvailable: Bool = {
        if ProcessInfo.processInfo.environment[urlVariable] != nil || ThrowawayCluster.binaryDirectory() != nil {
            return true
        }
        FileHandle.standardError.write(Data((howToEnable + "\n").utf8))
        return false
    }()

    private static let sharedServer = Result { () throws -> PostgreSQLTestServer in
        if let text = ProcessInfo.processInfo.environment[urlVariable] {
            return try PostgreSQLTestServer(url: PostgreSQLURL(parsing: text), passwordRole: nil, socketDirectory: nil)
        }
        let cluster = try ThrowawayCluster.start()
        return try PostgreSQLTestServer(
            url: cluster.url, passwordRole: cluster.passwordRole, socketDirectory: cluster.directory)
    }

    /// The process's server, started by the first call.
    ///
    /// - Throws: Why it couldn't start or be reached; every later call throws the same.
    package static func shared() throws -> PostgreSQLTestServer {
        try sharedServer.get()
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now, for tests of an unreachable server.
    package static func unusedLoopbackPort() -> Int? {
        ThrowawayCluster.freePort()
    }

    /// A new, empty database of its own, for one test or suite.
    ///
    /// On a server at `SEEDKIT_TEST_POSTGRES_URL` the databases are dropped when the process exits; a throwaway
    /// cluster goes with all of its databases.
    package func makeDatabase() throws -> PostgreSQLTestDatabase {
        let name = "seedkit_test_" + UUID().uuidString.lowercased().prefix(13).filter { $0 != "-" }
        let admin = try PostgreSQLConnection(url: url)
        // A file copy of the small template is faster than PostgreSQL 15's default, which logs every page.
        let strategy = socketDirectory != nil && serverVersion >= 150000 ? " STRATEGY FILE_COPY" : ""
        try admin.execute(sql: "CREATE DATABASE \(name)\(strategy)")
        if socketDirectory == nil { Self.databasesToDrop.add(name, on: self) }
        var databaseURL = url
        databaseURL.database = name
        return PostgreSQLTestDatabase(name: name, url: databaseURL)
    }

    /// The databases this process made on a server at `SEEDKIT_TEST_POSTGRES_URL`, dropped at exit.
    private static let databasesToDrop = DatabasesToDrop()

    private final class DatabasesToDrop: @unchecked Sendable {
        // Guarded by `lock`.
        private var names: [String] = []
        private var server: PostgreSQLTestServer?
        private let lock = NSLock()

        func add(_ name: String, on server: PostgreSQLTestServer) {
            lock.withLock {
                if self.server == nil {
                    self.server = server
                    atexit { PostgreSQLTestServer.databasesToDrop.dropAll() }
                }
                names.append(name)
            }
        }

        private func dropAll() {
            lock.withLock {
                guard let server, let admin = try? PostgreSQLConnection(url: server.url) else { return }
                let force = server.serverVersion >= 130000 ? " WITH (FORCE)" : ""
                for name in names { try? admin.execute(sql: "DROP DATABASE IF EXISTS \(name)\(force)") }
                names.removeAll()
            }
        }
    }
}

/// A database of one test: see ``PostgreSQLTestServer/makeDatabase()``.
package struct PostgreSQLTestDatabase: Sendable {
    package let name: String
    /// The superuser's URL to the database.
    package let url: PostgreSQLURL

    /// A new connection to the database, as the superuser.
    package func connect() throws -> PostgreSQLConnection {
        try PostgreSQLConnection(url: url)
    }
}
