import Foundation
import Testing
import SeedKit

@Suite("SQLite statement")
struct SQLiteStatementTests {
    /// A table without type affinity, so every value keeps the storage class it was bound with.
    private func makeConnection() throws -> SQLiteConnection {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute(sql: "CREATE TABLE t (v)")
        return connection
    }

    static let roundTripValues: [SQLiteValue] = [
        .null,
        .integer(0), .integer(-1), .integer(.min), .integer(.max),
        .real(0), .real(-0.5), .real(.pi), .real(.greatestFiniteMagnitude), .real(.leastNonzeroMagnitude),
        .real(.infinity), .real(-.infinity),
        .text(""), .text("Sales"), .text("nul\u{0}inside"), .text("\u{0}"), .text("😀 emoji, e\u{301}, 日本語"),
        .text("quote ' and \" and ; DROP TABLE t; --"),
        .blob([]), .blob([0]), .blob([0, 1, 2, 0xFF]), .blob(Array(repeating: 0xAB, count: 100_000)),
    ]

    @Test("Every kind of value survives binding and reading", arguments: roundTripValues)
    func roundTrip(value: SQLiteValue) throws {
        let connection = try makeConnection()
        let insert = try connection.prepare(sql: "INSERT INTO t (v) VALUES (?)")
        try insert.bind(value, at: 1)
        try insert.execute()
        let select = try connection.prepare(sql: "SELECT v, typeof(v) FROM t")
        #expect(try select.step())
        #expect(select.value(at: 0) == value)
        #expect(select.isNull(at: 0) == (value == .null))
        #expect(try !select.step())
    }

    @Test("A value's optional text is nil for NULL alone, and otherwise the text text(at:) reads", arguments: roundTripValues)
    func optionalText(value: SQLiteValue) throws {
        let connection = try makeConnection()
        let insert = try connection.prepare(sql: "INSERT INTO t (v) VALUES (?)")
        try insert.bind(value, at: 1)
        try insert.execute()
        // The value twice, so that each reader converts a column of its own.
        let select = try connection.prepare(sql: "SELECT v, v FROM t")
        #expect(try select.step())
        #expect(select.optionalText(at: 0) == (value == .null ? nil : select.text(at: 1)))
    }

    @Test("Typed binders and readers round-trip their values")
    func typedRoundTrip() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute(sql: "CREATE TABLE t (a, b, c, d, e, f, g)")
        let insert = try connection.prepare(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)")
        try insert.bind(Int64.min, at: 1)
        try insert.bind(Int.max, at: 2)
        try insert.bind(2.5, at: 3)
        try insert.bind("a\u{0}b😀", at: 4)
        try insert.bind([0xCA, 0xFE] as [UInt8], at: 5)
        try insert.bind(Data([0xBE, 0xEF]), at: 6)
        try insert.bindNull(at: 7)
        try insert.execute()

        let select = try connection.prepare(sql: "SELECT * FROM t")
        #expect(try select.step())
        #expect(select.int64(at: 0) == .min)
        #expect(select.int(at: 1) == .max)
        #expect(select.double(at: 2) == 2.5)
        #expect(select.text(at: 3) == "a\u{0}b😀")
        #expect(select.bytes(at: 4) == [0xCA, 0xFE])
        #expect(select.data(at: 5) == Data([0xBE, 0xEF]))
        #expect(select.isNull(at: 6))
        #expect(select.text(at: 6) == "")
        #expect(select.bytes(at: 6) == [])
    }

    @Test("An empty string and an empty blob are not NULL")
    func emptyIsNotNull() throws {
        let connection = try makeConnection()
        let insert = try connection.prepare(sql: "INSERT INTO t (v) VALUES (?)")
        try insert.execute(arguments: [.text("")])
        try insert.execute(arguments: [.blob([])])
        try insert.bind(Data(), at: 1)
        try insert.execute()
        try insert.execute(arguments: [.null])
        let select = try connection.prepare(sql: "SELECT typeof(v), length(v) FROM t ORDER BY rowid")
        var rows: [SQLiteValue] = []
        while try select.step() {
            rows.append(select.value(at: 0))
            rows.append(select.value(at: 1))
        }
        #expect(rows == ["text", 0, "blob", 0, "blob", 0, "null", nil])
    }

    @Test("Text bound in place is read where it lies when the statement runs: exact bytes, empty is not NULL")
    func textBoundInPlace() throws {
        let connection = try makeConnection()
        let insert = try connection.prepare(sql: "INSERT INTO t (v) VALUES (?)")
        var buffer = Array("a\u{0}é-second".utf8)
        try buffer.withUnsafeBytes { bytes in
            try insert.bind(unsafeText: UnsafeRawBufferPointer(rebasing: bytes[0..<4]), at: 1)
            try insert.execute()
            try insert.bind(unsafeText: UnsafeRawBufferPointer(rebasing: bytes[4..<4]), at: 1)
            try insert.execute()
        }
        try buffer.withUnsafeMutableBytes { bytes in
            try insert.bind(unsafeText: UnsafeRawBufferPointer(rebasing: bytes[5...]), at: 1)
            // Changed after binding, before running: SQLite reads the bytes only when it runs.
            bytes[5] = UInt8(ascii: "S")
            try insert.execute()
        }
        try insert.bind(unsafeText: UnsafeRawBufferPointer(start: nil, count: 0), at: 1)
        try insert.execute()
        let select = try connection.prepare(sql: "SELECT typeof(v), hex(v) FROM t ORDER BY rowid")
        var rows: [SQLiteValue] = []
        while try select.step() {
            rows.append(select.value(at: 0))
            rows.append(select.value(at: 1))
        }
        #expect(rows == ["text", "6100C3A9", "text", "", "text", .text(Self.hex("Second")), "text", ""])
    }

    private static func hex(_ text: String) -> String {
        text.utf8.map { String(format: "%02X", $0) }.joined()
    }

    @Test("Text keeps U+0000 and its exact UTF-8 bytes")
    func textBytes() throws {
        let connection = try makeConnection()
        try connection.execute(sql: "INSERT INTO t (v) VALUES (?)", arguments: ["a\u{0}é"])
        #expect(try SQLiteTesting.firstValue(connection, "SELECT hex(v) FROM t") == .text("6100C3A9"))
    }

    @Test("Named parameters bind by their full name")
    func namedParameters() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.execute(sql: "CREATE TABLE t (a, b, c, d, e, f, g, h)")
        let insert = try connection.prepare(sql: "INSERT INTO t VALUES (:a, @b, $c, :d, :e, :f, :g, :h)")
        #expect(insert.parameterCount == 8)
        #expect(try insert.parameterIndex(named: "@b") == 2)
        try insert.bind(Int64(1), named: ":a")
        try insert.bind(2, named: "@b")
        try insert.bind(3.5, named: "$c")
        try insert.bind("four", named: ":d")
        try insert.bind([5] as [UInt8], named: ":e")
        try insert.bind(Data([6]), named: ":f")
        try insert.bindNull(named: ":g")
        try insert.bind(SQLiteValue.text("eight"), named: ":h")
        try insert.execute()
        let select = try connection.prepare(sql: "SELECT * FROM t")
        #expect(try select.step())
        #expect((0..<8).map(select.value(at:)) == [1, 2, 3.5, "four", .blob([5]), .blob([6]), nil, "eight"])

        let error = try #require(throws: DatabaseError.self) { try insert.bind(1, named: "a") }
        #expect(error.resultCode == .range)
        #expect(error.message.contains("no parameter named a"))
    }

    @Test("Binding outside the parameters throws SQLITE_RANGE")
    func bindOutOfRange() throws {
        let connection = try makeConnection()
        let insert = try connection.prepare(sql: "INSERT INTO t (v) VALUES (?)")
        for index in [0, 2] {
            let error = try #require(throws: DatabaseError.self) { try insert.bind("x", at: index) }
            #expect(error.resultCode == .range)
            #expect(error.sql == "INSERT INTO t (v) VALUES (?)")
        }
    }

    @Test("execute(arguments:) wants one argument per parameter")
    func argumentCount() throws {
        let connection = try makeConnection()
        let insert = try connection.prepare(sql: "INSERT INTO t (v) VALUES (?)")
        let error = try #require(throws: DatabaseError.self) { try insert.execute(arguments: [1, 2]) }
        #expect(error.resultCode == .misuse)
        #expect(error.arguments == [1, 2])
    }

    @Test("A statement runs again after reset, with new bindings")
    func reuse() throws {
        let connection = try makeConnection()
        let insert = try connection.prepare(sql: "INSERT INTO t (v) VALUES (?)")
        for value in 1...3 {
            try insert.bind(value, at: 1)
            try insert.execute()
        }
        let select = try connection.prepare(sql: "SELECT v FROM t WHERE v >= ? ORDER BY v")
        try select.bind(2, at: 1)
        #expect(try select.step())
        #expect(select.int(at: 0) == 2)
        select.reset()  // midway: starts over with the same binding
        var values: [Int] = []
        while try select.step() { values.append(select.int(at: 0)) }
        #expect(values == [2, 3])
        select.clearBindings()
        select.reset()
        #expect(try !select.step())  // v >= NULL matches nothing
    }

    @Test("execute() and execute(arguments:) run a statement wherever a previous run left it")
    func executeAfterSteps() throws {
        let connection = try makeConnection()
        // Two rows per run, both inserted at the first step as RETURNING does.
        let insert = try connection.prepare(sql: "INSERT INTO t (v) SELECT ? UNION ALL SELECT 0 RETURNING v")
        try insert.bind(1, at: 1)
        #expect(try insert.step())  // midway: inserts 1, 0
        try insert.execute()  // 1, 0
        while try insert.step() {}  // 1, 0, and left at its end, not reset
        try insert.execute(arguments: [2])  // 2, 0
        #expect(try insert.step())  // midway again: 2, 0
        try insert.execute(arguments: [3])  // 3, 0
        let select = try connection.prepare(sql: "SELECT group_concat(v) FROM (SELECT v FROM t ORDER BY v)")
        #expect(try select.step())
        #expect(select.text(at: 0) == "0,0,0,0,0,0,1,1,1,2,2,3")
    }

    @Test("Columns have a count, names, and indexes by name")
    func columns() throws {
        let connection = try SQLiteConnection.inMemory()
        let select = try connection.prepare(sql: "SELECT 1 AS id, 'x' AS Name, 2.5")
        #expect(select.columnCount == 3)
        #expect(select.columnNames == ["id", "Name", "2.5"])
        #expect(select.columnIndex(named: "name") == 1)
        #expect(select.columnIndex(named: "missing") == nil)
        #expect(select.isReadOnly)
        #expect(try !connection.prepare(sql: "CREATE TABLE t (v)").isReadOnly)
        #expect(try connection.prepare(sql: "CREATE TABLE t (v)").columnCount == 0)
    }

    @Test("Readers convert between storage classes as SQLite does")
    func conversions() throws {
        let connection = try SQLiteConnection.inMemory()
        let select = try connection.prepare(sql: "SELECT 42, '7', 1.5, NULL")
        #expect(try select.step())
        #expect(select.text(at: 0) == "42")
        #expect(select.int(at: 1) == 7)
        #expect(select.int(at: 2) == 1)
        #expect(select.int(at: 3) == 0)
    }

    @Test("The statement cache returns one statement per SQL, reset and cleared")
    func statementCache() throws {
        let connection = try makeConnection()
        try connection.execute(sql: "INSERT INTO t VALUES (1); INSERT INTO t VALUES (2);")
        let first = try connection.cachedStatement(sql: "SELECT v FROM t WHERE v >= ?")
        try first.bind(1, at: 1)
        #expect(try first.step())

        let again = try connection.cachedStatement(sql: "SELECT v FROM t WHERE v >= ?")
        #expect(again === first)
        #expect(try !again.step())  // bindings were cleared: v >= NULL
        #expect(try connection.cachedStatement(sql: "SELECT v FROM t") !== first)
        #expect(try connection.prepare(sql: "SELECT v FROM t WHERE v >= ?") !== first)
    }

    @Test("prepare(sql:) takes exactly one statement")
    func prepareOneStatement() throws {
        let connection = try makeConnection()
        for sql in ["", "  ", "-- only a comment", "SELECT 1; SELECT 2", "SELECT 1; nonsense"] {
            #expect(throws: DatabaseError.self, "\(sql)") { try connection.prepare(sql: sql) }
        }
        #expect(try connection.prepare(sql: "SELECT 1; -- trailing comment").sql == "SELECT 1;")
    }
}
