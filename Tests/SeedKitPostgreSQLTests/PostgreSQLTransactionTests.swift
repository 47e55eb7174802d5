import Dispatch
import PostgreSQLTestServer
import Testing

@testable import SeedKitPostgreSQL

extension PostgreSQLServerTests {
    @Suite struct Transactions {
        struct Refusal: Error {}

        /// A connection to a new database with a table `t (id bigint PRIMARY KEY)`.
        static func connectionWithTable() throws -> (PostgreSQLTestDatabase, PostgreSQLConnection) {
            let database = try PostgreSQLServerTests.makeDatabase()
            let connection = try database.connect()
            try connection.execute(sql: "CREATE TABLE t (id bigint PRIMARY KEY)")
            return (database, connection)
        }

        static func ids(_ connection: PostgreSQLConnection) throws -> [Int64?] {
            try connection.query(sql: "SELECT id FROM t ORDER BY id").map { try $0.int64(at: 0) }
        }

        @Test func commitsWhenTheBodyReturnsAndRollsBackWhenItThrows() throws {
            let (_, connection) = try Self.connectionWithTable()
            let value = try connection.inTransaction {
                try connection.execute(sql: "INSERT INTO t VALUES (1)")
                return 42
            }
            #expect(value == 42)
            #expect(throws: Refusal.self) {
                try connection.inTransaction {
                    try connection.execute(sql: "INSERT INTO t VALUES (2)")
                    throw Refusal()
                }
            }
            #expect(!connection.isInsideTransaction)
            #expect(try Self.ids(connection) == [1])
        }

        @Test func aCaughtStatementErrorRollsBackInsteadOfCommittingPartOfTheTransaction() throws {
            let (_, connection) = try Self.connectionWithTable()
            let error = #expect(throws: PostgreSQLError.self) {
                try connection.inTransaction {
                    try connection.execute(sql: "INSERT INTO t VALUES (1)")
                    _ = try? connection.execute(sql: "INSERT INTO t VALUES (1)")
                }
            }
            #expect(error?.kind == .transactionAborted)
            #expect(!connection.isInsideTransaction)
            #expect(try Self.ids(connection) == [])
        }

        // Errors are caught with do-catch here, not #expect(throws:): with Swift 6.3.1 an #expect(throws:) closure
        // nested in the closure of a generic method was called in place of another closure of the test.
        @Test func aSavepointUndoesItsOwnWorkAndTheTransactionGoesOn() throws {
            let (_, connection) = try Self.connectionWithTable()
            var duplicate: PostgreSQLError?
            var refusal: (any Error)?
            try connection.inTransaction {
                try connection.execute(sql: "INSERT INTO t VALUES (1)")
                do {
                    try connection.inSavepoint {
                        try connection.execute(sql: "INSERT INTO t VALUES (2)")
                        try connection.execute(sql: "INSERT INTO t VALUES (1)")
                    }
                } catch let error as PostgreSQLError {
                    duplicate = error
                }
                try connection.inSavepoint {
                    try connection.execute(sql: "INSERT INTO t VALUES (3)")
                    do {
                        try connection.inSavepoint {
                            try connection.execute(sql: "INSERT INTO t VALUES (4)")
                            throw Refusal()
                        }
                    } catch {
                        refusal = error
                    }
                }
            }
            #expect(duplicate?.kind == .uniqueViolation)
            #expect(refusal is Refusal)
            #expect(try Self.ids(connection) == [1, 3])
        }

        @Test func aSavepointOutsideATransactionIsOne() throws {
            let (_, connection) = try Self.connectionWithTable()
            try connection.inSavepoint { try connection.execute(sql: "INSERT INTO t VALUES (1)") }
            #expect(throws: Refusal.self) {
                try connection.inSavepoint {
                    try connection.execute(sql: "INSERT INTO t VALUES (2)")
                    throw Refusal()
                }
            }
            #expect(!connection.isInsideTransaction)
            #expect(try Self.ids(connection) == [1])
        }

        @Test func transactionsDoNotNest() throws {
            let (_, connection) = try Self.connectionWithTable()
            var nested: PostgreSQLError?
            try connection.inTransaction {
                do { try connection.inTransaction {} } catch let error as PostgreSQLError { nested = error }
            }
            #expect(nested?.kind == .misuse)
        }

        @Test func aFailingCommitLeavesNoTransactionOpen() throws {
            let (_, connection) = try Self.connectionWithTable()
            try connection.execute(sql: """
                CREATE TABLE child (parent bigint REFERENCES t (id) DEFERRABLE INITIALLY DEFERRED)
                """)
            let error = #expect(throws: PostgreSQLError.self) {
                try connection.inTransaction { try connection.execute(sql: "INSERT INTO child VALUES (7)") }
            }
            #expect(error?.kind == .foreignKeyViolation)
            #expect(error?.statement == "COMMIT")
            #expect(!connection.isInsideTransaction)
            #expect(try connection.query(sql: "SELECT count(*) FROM child")[0].int64(at: 0) == 0)
        }

        @Test func aSerializationConflictHasItsKind() throws {
            let (database, first) = try Self.connectionWithTable()
            let second = try database.connect()
            try second.execute(sql: "BEGIN ISOLATION LEVEL SERIALIZABLE; SELECT count(*) FROM t")
            try first.inTransaction(.serializable) {
                _ = try first.query(sql: "SELECT count(*) FROM t")
                try first.execute(sql: "INSERT INTO t VALUES (1)")
            }
            // PostgreSQL finds the conflict at the insert or at the commit.
            let error = #expect(throws: PostgreSQLError.self) {
                try second.execute(sql: "INSERT INTO t VALUES (2)")
                try second.execute(sql: "COMMIT")
            }
            #expect(error?.kind == .serializationFailure)
            #expect(error?.sqlState == "40001")
        }

        @Test func anAdvisoryLockSerializesTwoConnections() throws {
            let (database, holder) = try Self.connectionWithTable()
            let other = try database.connect()
            let key: Int64 = 0x5EED_0001
            let acquired = DispatchSemaphore(value: 0)
            let finished = DispatchSemaphore(value: 0)
            try holder.execute(sql: "BEGIN")
            try holder.lockAdvisory(key: key)
            let url = database.url
            DispatchQueue.global().async {
                defer { finished.signal() }
                guard let waiter = try? PostgreSQLConnection(url: url) else { return }
                _ = try? waiter.inTransaction {
                    try waiter.lockAdvisory(key: key)
                    acquired.signal()
                    try waiter.execute(sql: "INSERT INTO t VALUES (2)")
                }
            }
            #expect(acquired.wait(timeout: .now() + 0.3) == .timedOut)
            try other.execute(sql: "BEGIN")
            #expect(try other.tryLockAdvisory(key: key) == false)
            try other.execute(sql: "ROLLBACK")
            try holder.execute(sql: "INSERT INTO t VALUES (1); COMMIT")
            #expect(acquired.wait(timeout: .now() + 10) == .success)
            #expect(finished.wait(timeout: .now() + 10) == .success)
            #expect(try Self.ids(holder) == [1, 2])
            try other.execute(sql: "BEGIN")
            #expect(try other.tryLockAdvisory(key: key))
            try other.execute(sql: "ROLLBACK")
        }

        @Test func anAdvisoryTransactionLockNeedsATransaction() throws {
            let (_, connection) = try Self.connectionWithTable()
            let error = #expect(throws: PostgreSQLError.self) { try connection.lockAdvisory(key: 1) }
            #expect(error?.kind == .misuse)
            #expect(error?.message == "lockAdvisory(key:) takes a transaction-scoped lock: call it inside inTransaction")
        }
    }
}
