import Testing
import SeedKit

@Suite("SQLite transactions")
struct SQLiteTransactionTests {
    private struct Abort: Error {}

    private func makeConnection() throws -> SQLiteConnection {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute(sql: "CREATE TABLE t (v UNIQUE)")
        return connection
    }

    private func values(_ connection: SQLiteConnection) throws -> [Int] {
        let select = try connection.prepare(sql: "SELECT v FROM t ORDER BY v")
        var values: [Int] = []
        while try select.step() { values.append(select.int(at: 0)) }
        return values
    }

    @Test("A transaction commits when its body returns", arguments: [
        SQLiteConnection.TransactionKind.deferred, .immediate, .exclusive,
    ])
    func commits(kind: SQLiteConnection.TransactionKind) throws {
        let connection = try makeConnection()
        let rowID = try connection.inTransaction(kind) {
            #expect(connection.isInsideTransaction)
            try connection.execute(sql: "INSERT INTO t VALUES (1)")
            return connection.lastInsertedRowID
        }
        #expect(rowID == 1)
        #expect(!connection.isInsideTransaction)
        #expect(try values(connection) == [1])
    }

    @Test("A transaction rolls back when its body throws, and the connection stays usable")
    func rollsBack() throws {
        let connection = try makeConnection()
        #expect(throws: Abort.self) {
            try connection.inTransaction {
                try connection.execute(sql: "INSERT INTO t VALUES (1)")
                throw Abort()
            }
        }
        #expect(!connection.isInsideTransaction)
        #expect(try values(connection) == [])

        let error = try #require(throws: DatabaseError.self) {
            try connection.inTransaction {
                try connection.execute(sql: "INSERT INTO t VALUES (2)")
                try connection.execute(sql: "INSERT INTO t VALUES (2)")
            }
        }
        #expect(error.extendedResultCode == .constraintUnique)
        #expect(!connection.isInsideTransaction)

        try connection.inTransaction { try connection.execute(sql: "INSERT INTO t VALUES (3)") }
        #expect(try values(connection) == [3])
    }

    @Test("A commit that fails rolls back and throws the commit's error")
    func failedCommit() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute(sql: """
            CREATE TABLE Department (id INTEGER PRIMARY KEY);
            CREATE TABLE Employee (
                id INTEGER PRIMARY KEY,
                departmentID INTEGER REFERENCES Department(id) DEFERRABLE INITIALLY DEFERRED);
            """)
        let error = try #require(throws: DatabaseError.self) {
            try connection.inTransaction {
                try connection.execute(sql: "INSERT INTO Employee (departmentID) VALUES (99)")
            }
        }
        #expect(error.extendedResultCode == .constraintForeignKey)
        #expect(error.sql == "COMMIT TRANSACTION")
        #expect(!connection.isInsideTransaction)
        #expect(try SQLiteTesting.firstValue(connection, "SELECT count(*) FROM Employee") == .integer(0))
    }

    @Test("Transactions don't nest: the inner one throws and the outer one goes on")
    func noNesting() throws {
        let connection = try makeConnection()
        try connection.inTransaction {
            try connection.execute(sql: "INSERT INTO t VALUES (1)")
            let error = try #require(throws: DatabaseError.self) {
                try connection.inTransaction {}
            }
            #expect(error.message.contains("within a transaction"))
            #expect(connection.isInsideTransaction)
        }
        #expect(try values(connection) == [1])
    }

    @Test("A savepoint that throws undoes its own changes only")
    func savepointRollsBack() throws {
        let connection = try makeConnection()
        try connection.inTransaction {
            try connection.execute(sql: "INSERT INTO t VALUES (1)")
            #expect(throws: Abort.self) {
                try connection.inSavepoint {
                    try connection.execute(sql: "INSERT INTO t VALUES (2)")
                    throw Abort()
                }
            }
            try connection.inSavepoint {
                try connection.execute(sql: "INSERT INTO t VALUES (3)")
                try? connection.inSavepoint {
                    try connection.execute(sql: "INSERT INTO t VALUES (4)")
                    try connection.execute(sql: "INSERT INTO t VALUES (1)")  // UNIQUE fails
                }
            }
            #expect(connection.isInsideTransaction)
        }
        #expect(try values(connection) == [1, 3])
    }

    @Test("A savepoint outside a transaction is one: it commits or rolls back")
    func savepointAsTransaction() throws {
        let connection = try makeConnection()
        try connection.inSavepoint {
            #expect(connection.isInsideTransaction)
            try connection.execute(sql: "INSERT INTO t VALUES (1)")
        }
        #expect(!connection.isInsideTransaction)
        #expect(throws: Abort.self) {
            try connection.inSavepoint {
                try connection.execute(sql: "INSERT INTO t VALUES (2)")
                throw Abort()
            }
        }
        #expect(!connection.isInsideTransaction)
        #expect(try values(connection) == [1])
    }
}
