import Testing
import SeedKit

@Suite("SQLite errors")
struct SQLiteErrorTests {
    @Test("A constraint error carries its codes, message, SQL and arguments")
    func constraintError() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute(sql: "CREATE TABLE Department (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
        let insert = try connection.prepare(sql: "INSERT INTO Department (name) VALUES (?)")
        try insert.execute(arguments: ["Sales"])

        let error = try #require(throws: DatabaseError.self) { try insert.execute(arguments: ["Sales"]) }
        #expect(error.resultCode == .constraint)
        #expect(error.extendedResultCode == .constraintUnique)
        #expect(error.message == "UNIQUE constraint failed: Department.name")
        #expect(error.sql == "INSERT INTO Department (name) VALUES (?)")
        #expect(error.arguments == ["Sales"])
        #expect(error.path == nil)
        #expect(error.description == """
            SQLite error 19: UNIQUE constraint failed: Department.name - while executing \
            "INSERT INTO Department (name) VALUES (?)" with arguments ['Sales']
            """)

        // The failed statement is reset and runs again.
        try insert.execute(arguments: ["R&D"])
    }

    @Test("An error from step() after manual binding carries the SQL, without arguments")
    func stepError() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute(sql: "CREATE TABLE t (v NOT NULL)")
        let insert = try connection.prepare(sql: "INSERT INTO t (v) VALUES (?)")
        try insert.bindNull(at: 1)
        let error = try #require(throws: DatabaseError.self) { try insert.step() }
        #expect(error.extendedResultCode == .constraintNotNull)
        #expect(error.description == """
            SQLite error 19: NOT NULL constraint failed: t.v - while executing "INSERT INTO t (v) VALUES (?)"
            """)
    }

    @Test("A syntax error carries the SQL")
    func syntaxError() throws {
        let connection = try SQLiteConnection.inMemory()
        let error = try #require(throws: DatabaseError.self) { try connection.prepare(sql: "SELEC 1") }
        #expect(error.resultCode == .error)
        #expect(error.message == #"near "SELEC": syntax error"#)
        #expect(error.sql == "SELEC 1")
    }

    @Test("A script error carries the SQL from the failing statement on")
    func scriptError() throws {
        let connection = try SQLiteConnection.inMemory()
        let error = try #require(throws: DatabaseError.self) {
            try connection.execute(sql: "CREATE TABLE t (v); INSERT INTO missing VALUES (1); SELECT 1;")
        }
        #expect(error.message == "no such table: missing")
        #expect(error.sql == " INSERT INTO missing VALUES (1); SELECT 1;")
        // Statements before the failing one ran.
        #expect(try SQLiteTesting.firstValue(connection, "SELECT count(*) FROM t") == .integer(0))
    }

    @Test("Result codes describe themselves and know their family")
    func resultCodes() {
        #expect(SQLiteResultCode.constraintUnique.rawValue == 2067)
        #expect(SQLiteResultCode.constraintUnique.primary == .constraint)
        #expect(SQLiteResultCode.constraint.description == "19 (constraint failed)")
        #expect(DatabaseError(resultCode: .busy).message == "database is locked")
    }

    @Test("Values describe themselves as SQL literals")
    func valueDescriptions() {
        #expect(SQLiteValue.null.description == "NULL")
        #expect(SQLiteValue.integer(-3).description == "-3")
        #expect(SQLiteValue.real(1.5).description == "1.5")
        #expect(SQLiteValue.text("O'Brien").description == "'O''Brien'")
        #expect(SQLiteValue.blob([0x0A, 0xFF]).description == "X'0AFF'")
        #expect(SQLiteValue.blob(Array(repeating: 0, count: 40)).description
            == "X'\(String(repeating: "00", count: 32))…' (40 bytes)")
    }
}
