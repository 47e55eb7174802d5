import CPostgreSQL
import Foundation

/// A connection to a PostgreSQL server: the low-level layer under a PostgreSQL store.
///
///     let connection = try PostgreSQLConnection(url: "postgresql://seed@127.0.0.1:5432/app")
///     try connection.execute(sql: "CREATE TABLE IF NOT EXISTS Department (id bigint PRIMARY KEY, name text NOT NULL)")
///     try connection.inTransaction {
///         try connection.execute(sql: "INSERT INTO Department VALUES ($1, $2)", arguments: [1, "Sales"])
///     }
///
/// A connection is one libpq connection and one server session, used by one thread or isolation domain at a time:
/// it is not `Sendable`. Open one per thread; they see each other's committed transactions. Statements run
/// synchronously, one at a time; results come back in binary format and are read through ``PostgreSQLRow``.
///
/// The connection always talks UTF-8 (`client_encoding`), names itself `seedkit` to the server unless the URL sets
/// `application_name`, and never prints the server's notices. It closes when deinitialized.
package final class PostgreSQLConnection {
    /// The URL the connection was opened with; its description hides the password.
    package let url: PostgreSQLURL
    /// The libpq `PGconn`.
    let handle: OpaquePointer
    /// Statements prepared by ``cachedStatement(sql:)``, keyed by their SQL.
    var statementCache: [String: PreparedStatement] = [:]
    /// How many statements this connection has prepared, for their names.
    var preparedStatementCount = 0

    /// Connects to the server `url` names and authenticates.
    ///
    /// - Throws: ``PostgreSQLError`` of kind ``PostgreSQLError/Kind/other`` when libpq cannot be loaded (``LibPQ``);
    ///   else with ``PostgreSQLError/server`` set and one of the kinds
    ///   ``PostgreSQLError/Kind/unreachable``, ``PostgreSQLError/Kind/authenticationFailed``,
    ///   ``PostgreSQLError/Kind/databaseMissing``, or ``PostgreSQLError/Kind/other`` for the rest (a refused TLS
    ///   handshake, too many connections, a bad parameter value). The kind comes from libpq's English message: with
    ///   a server whose `lc_messages` is another language, server-side refusals read as `other`.
    package init(url: PostgreSQLURL) throws {
        try LibPQ.load()
        var settings: [(String, String)] = []
        if !url.hosts.isEmpty {
            settings.append(("host", url.hosts.map(\.name).joined(separator: ",")))
            if url.hosts.contains(where: { $0.port != nil }) {
                settings.append(("port", url.hosts.map { $0.port.map(String.init) ?? "" }.joined(separator: ",")))
            }
        }
        if let user = url.user { settings.append(("user", user)) }
        if let password = url.password { settings.append(("password", password)) }
        if let database = url.database { settings.append(("dbname", database)) }
        settings += url.parameters.map { ($0.name, $0.value) }
        settings += [("client_encoding", "UTF8"), ("fallback_application_name", "seedkit")]
        let handle = Self.withCStrings(settings.map(\.0)) { keywords in
            Self.withCStrings(settings.map(\.1)) { values in
                libpq.PQconnectdbParams(keywords, values, 0)
            }
        }
        guard let handle else {
            throw PostgreSQLError(kind: .other, message: "out of memory", server: url.serverDescription)
        }
        guard libpq.PQstatus(handle) == CONNECTION_OK else {
            let error = PostgreSQLError(connectionFailureOf: handle, url: url)
            libpq.PQfinish(handle)
            throw error
        }
        _ = libpq.PQsetNoticeProcessor(handle, { _, _ in }, nil)
        self.url = url
        self.handle = handle
    }

    /// Parses `url` and connects to the server it names.
    ///
    /// - Throws: ``PostgreSQLError``, of kind ``PostgreSQLError/Kind/invalidURL`` for a URL that doesn't parse.
    package convenience init(url: String) throws {
        try self.init(url: PostgreSQLURL(parsing: url))
    }

    deinit {
        libpq.PQfinish(handle)
    }

    /// Whether the connection still works: false once the server closed it or the network broke.
    package var isConnected: Bool {
        libpq.PQstatus(handle) == CONNECTION_OK
    }

    /// Whether a transaction is open, including one an error aborted (it waits for `ROLLBACK`).
    package var isInsideTransaction: Bool {
        let status = libpq.PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// The process ID of the server backend serving this connection, as `pg_stat_activity.pid` shows it.
    package var backendProcessID: Int32 {
        libpq.PQbackendPID(handle)
    }

    /// The server's version as a number: 150004 for 15.4, 90624 for 9.6.24.
    package var serverVersion: Int {
        Int(libpq.PQserverVersion(handle))
    }

    /// The server as errors and logs name it, `127.0.0.1:5432` (the host libpq connected to).
    package var serverDescription: String {
        PostgreSQLURL.serverDescription(host: LibPQ.text(libpq.PQhost(handle)), port: LibPQ.text(libpq.PQport(handle)))
    }

    /// Calls `body` with `strings` as a NULL-terminated array of C strings, as libpq's keyword and value lists are.
    private static func withCStrings<Result>(
        _ strings: [String],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result
    ) -> Result {
        let copies = strings.map { UnsafePointer(strdup($0)) } + [nil]
        defer { copies.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

// A connection must stay on one thread or isolation domain at a time: see the type's documentation.
@available(*, unavailable)
extension PostgreSQLConnection: Sendable {}
