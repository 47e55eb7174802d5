import Dispatch
import PostgreSQLTestServer
import Testing

@testable import SeedKitPostgreSQL

extension PostgreSQLServerTests {
    @Suite struct Errors {
        /// The description, debug description and dump of `error` hold no `secret`, and the description is one line.
        static func expectOneLineWithout(_ secret: String, in error: PostgreSQLError?) {
            guard let error else { return }
            var dumped = ""
            dump(error, to: &dumped)
            for text in [error.description, String(reflecting: error), dumped] {
                #expect(!text.contains(secret))
            }
            #expect(!error.description.contains("\n"))
        }

        @Test func anUnreachableServerIsNamedWithTheReason() throws {
            let port = try #require(PostgreSQLTestServer.unusedLoopbackPort())
            let error = #expect(throws: PostgreSQLError.self) {
                try PostgreSQLConnection(url: "postgresql://seed:hunter2@127.0.0.1:\(port)/app")
            }
            #expect(error?.kind == .unreachable)
            #expect(error?.description == "could not connect to PostgreSQL at 127.0.0.1:\(port): connection refused")
            Self.expectOneLineWithout("hunter2", in: error)
        }

        @Test(.enabled(if: PostgreSQLTestServer.isThrowaway, "needs the throwaway cluster's role with a password"))
        func aWrongOrMissingPasswordFailsAuthenticationWithoutShowingIt() throws {
            let server = try PostgreSQLTestServer.shared()
            let role = try #require(server.passwordRole)
            var url = server.url
            url.user = role.user
            url.password = "not-" + role.password
            let wrong = #expect(throws: PostgreSQLError.self) { try PostgreSQLConnection(url: url) }
            #expect(wrong?.kind == .authenticationFailed)
            #expect(
                wrong?.description == "could not connect to PostgreSQL at \(server.url.serverDescription): password "
                    + "authentication failed for user \"\(role.user)\"")
            Self.expectOneLineWithout(role.password, in: wrong)
            url.password = nil
            let missing = #expect(throws: PostgreSQLError.self) { try PostgreSQLConnection(url: url) }
            #expect(missing?.kind == .authenticationFailed)
            url.password = role.password
            #expect(try PostgreSQLConnection(url: url).query(sql: "SELECT current_user")[0].text(at: 0) == role.user)
        }

        @Test func aMissingDatabaseIsNamed() throws {
            var url = try PostgreSQLTestServer.shared().url
            url.database = "seedkit_no_such_database"
            url.password = "hunter2"
            let error = #expect(throws: PostgreSQLError.self) { try PostgreSQLConnection(url: url) }
            #expect(error?.kind == .databaseMissing)
            #expect(error?.description.hasSuffix(#": database "seedkit_no_such_database" does not exist"#) == true)
            Self.expectOneLineWithout("hunter2", in: error)
        }

        @Test func aConnectionTerminatedMidTransactionIsLostAndNothingOfItIsKept() throws {
            let database = try PostgreSQLServerTests.makeDatabase()
            let connection = try database.connect()
            let admin = try database.connect()
            try connection.execute(sql: "CREATE TABLE t (id bigint)")
            let error = #expect(throws: PostgreSQLError.self) {
                try connection.inTransaction {
                    try connection.execute(sql: "INSERT INTO t VALUES (1)")
                    try admin.execute(
                        sql: "SELECT pg_terminate_backend($1::integer)", arguments: [.integer(Int64(connection.backendProcessID))])
                    try connection.execute(sql: "INSERT INTO t VALUES (2)")
                }
            }
            #expect(error?.kind == .connectionLost)
            #expect(
                error?.description == "PostgreSQL error (connection lost): terminating connection due to administrator "
                    + "command; server closed the connection unexpectedly - while executing \"INSERT INTO t VALUES (2)\"")
            #expect(!connection.isConnected)
            let next = #expect(throws: PostgreSQLError.self) { try connection.execute(sql: "SELECT 1") }
            #expect(next?.kind == .connectionLost)
            let fresh = try database.connect()
            #expect(try fresh.query(sql: "SELECT count(*) FROM t")[0].int64(at: 0) == 0)
        }

        @Test func statementAndLockTimeoutsHaveTheirKinds() throws {
            let database = try PostgreSQLServerTests.makeDatabase()
            let connection = try database.connect()
            try connection.execute(sql: "CREATE TABLE t (id bigint); INSERT INTO t VALUES (1); SET statement_timeout = '50ms'")
            let slow = #expect(throws: PostgreSQLError.self) { try connection.execute(sql: "SELECT pg_sleep(5)") }
            #expect(slow?.kind == .statementTimeout)
            #expect(slow?.description == #"PostgreSQL error 57014 (statement timeout): canceling statement due to statement timeout - while executing "SELECT pg_sleep(5)""#)
            let holder = try database.connect()
            try holder.execute(sql: "BEGIN; LOCK TABLE t")
            try connection.execute(sql: "SET statement_timeout = 0; SET lock_timeout = '50ms'")
            let blocked = #expect(throws: PostgreSQLError.self) { try connection.execute(sql: "UPDATE t SET id = 2") }
            #expect(blocked?.kind == .lockTimeout)
            #expect(blocked?.sqlState == "55P03")
            try holder.execute(sql: "COMMIT")
            #expect(try connection.execute(sql: "UPDATE t SET id = 2", arguments: []) == 1)
        }

        @Test func constraintViolationsHaveTheirKindsAndName() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            try connection.execute(sql: """
                CREATE TABLE parent (id bigint PRIMARY KEY, name text NOT NULL UNIQUE, size integer CHECK (size > 0));
                CREATE TABLE child (parent bigint REFERENCES parent (id));
                INSERT INTO parent VALUES (1, 'a', 1);
                """)
            let cases: [(String, PostgreSQLError.Kind, String)] = [
                ("INSERT INTO parent VALUES (2, 'a', 1)", .uniqueViolation, "parent_name_key"),
                ("INSERT INTO child VALUES (9)", .foreignKeyViolation, "child_parent_fkey"),
                ("INSERT INTO parent VALUES (3, NULL, 1)", .notNullViolation, ""),
                ("INSERT INTO parent VALUES (4, 'd', 0)", .checkViolation, "parent_size_check"),
                ("INSERT INTO nowhere VALUES (1)", .undefinedTable, ""),
                ("SELECT nothing FROM parent", .undefinedColumn, ""),
                ("SELEC 1", .syntaxError, ""),
                ("SELECT no_such_function()", .other, ""),
                ("SELECT 1/0", .invalidValue, ""),
                ("SELECT 'x'::integer", .invalidValue, ""),
            ]
            for (sql, kind, constraint) in cases {
                let error = #expect(throws: PostgreSQLError.self) { try connection.execute(sql: sql, arguments: []) }
                #expect(error?.kind == kind, "\(sql)")
                #expect((error?.constraint ?? "") == constraint, "\(sql)")
                #expect(error?.statement == sql)
            }
            let unique = #expect(throws: PostgreSQLError.self) {
                try connection.execute(sql: "INSERT INTO parent VALUES ($1, $2, 1)", arguments: [5, "a"])
            }
            #expect(unique?.table == "parent")
            #expect(unique?.description == #"PostgreSQL error 23505 (unique violation): duplicate key value violates unique constraint "parent_name_key"; Key (name)=(a) already exists. - while executing "INSERT INTO parent VALUES ($1, $2, 1)""#)
        }

    }
}

@Suite struct PostgreSQLErrorDescriptionTests {
    @Test func descriptionsAreOneLineWithControlCharactersEscaped() {
        let error = PostgreSQLError(
            kind: .other, sqlState: "XX000", message: "bad\u{7}bell", detail: "two\nlines",
            statement: "SELECT 1\n  FROM t\tWHERE x")
        #expect(error.description == #"PostgreSQL error XX000: bad\u0007bell; two lines - while executing "SELECT 1 FROM t WHERE x""#)
    }
}
