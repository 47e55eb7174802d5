import Foundation
import PostgreSQLTestServer
import Testing

@testable import SeedKitPostgreSQL

extension PostgreSQLServerTests {
    @Suite struct Copy {
        struct Refusal: Error {}

        static let awkwardTexts = [
            "", "plain", "tab\there", "line\nbreak", "carriage\rreturn", #"back\slash"#, #"\N"#, #"\."#, "🙂 Zoë ß 中文",
            "trailing space ", String(repeating: "long ", count: 20_000), "quote \" and ' and ,",
        ]

        @Test func awkwardTextAndEveryTypeRoundTripThroughCopyInAndOut() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            try connection.execute(sql: """
                CREATE TABLE t (
                    id integer, name text, label varchar(200000), price numeric, moment timestamptz, bytes bytea,
                    flag boolean, key uuid, ratio double precision, document jsonb, small smallint)
                """)
            let key = UUID()
            let moment = PostgreSQLTimestamp(seconds: 1_709_285_400, microseconds: 7)
            let loaded = try connection.copy(into: "t") { writer in
                for (index, text) in Self.awkwardTexts.enumerated() {
                    try writer.append(Int64(index))
                    try writer.append(text)
                    try writer.append(text)
                    try writer.append(numeric: "\(index).50")
                    try writer.append(moment)
                    try writer.append(bytes: Array(text.utf8) + [0])
                    try writer.append(index % 2 == 0)
                    try writer.append(key)
                    try writer.append(Double(index) / 3)
                    try writer.append(#"{"text": "x"}"#)
                    try writer.append(.null)
                    try writer.endRow()
                }
            }
            #expect(loaded == Self.awkwardTexts.count)
            // The server's own reading agrees: the text is stored as given, not unescaped.
            let lengths = try connection.query(sql: "SELECT octet_length(name) FROM t ORDER BY id").map { try $0.int64(at: 0) }
            #expect(lengths == Self.awkwardTexts.map { Int64($0.utf8.count) })
            var read: [String] = []
            let count = try connection.copy(from: "SELECT id, name, label, price, moment, bytes, flag, key, ratio, document, small FROM t ORDER BY id;") { row in
                let index = Int(try row.int64(at: 0)!)
                read.append(try row.text(at: 1)!)
                #expect(try row.text(at: 2) == Self.awkwardTexts[index])
                #expect(try row.numeric(at: 3) == "\(index).50")
                #expect(try row.timestamp(at: 4) == moment)
                #expect(try row.bytes(at: 5) == Array(Self.awkwardTexts[index].utf8) + [0])
                #expect(try row.bool(at: 6) == (index % 2 == 0))
                #expect(try row.uuid(at: 7) == key)
                #expect(try row.double(at: 8) == Double(index) / 3)
                #expect(try row.text(at: 9) == #"{"text": "x"}"#)
                #expect(try row.value(at: 10) == .null)
            }
            #expect(count == Self.awkwardTexts.count)
            #expect(read == Self.awkwardTexts)
        }

        @Test func textWithNULIsRefusedByRowAndColumnAndNothingIsLoaded() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            try connection.execute(sql: "CREATE TABLE t (id bigint, name text)")
            let error = #expect(throws: PostgreSQLError.self) {
                try connection.copy(into: "t", columns: ["id", "name"]) { writer in
                    for (id, name) in [(1, "fine"), (2, "nul\u{0}inside")] {
                        try writer.append(Int64(id))
                        // Caught, to show the COPY is abandoned all the same.
                        try? writer.append(name)
                        try? writer.endRow()
                    }
                }
            }
            #expect(error?.kind == .invalidValue)
            #expect(error?.description == #"PostgreSQL error (invalid value): row 2, column "name": the text contains U+0000, which PostgreSQL text can't hold"#)
            #expect(try connection.query(sql: "SELECT count(*) FROM t")[0].int64(at: 0) == 0)
        }

        @Test func aRowWithTooFewOrTooManyValuesIsRefused() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            try connection.execute(sql: "CREATE TABLE t (a bigint, b bigint)")
            let tooFew = #expect(throws: PostgreSQLError.self) {
                try connection.copy(into: "t") { writer in
                    try writer.append(Int64(1))
                    try writer.endRow()
                }
            }
            #expect(tooFew?.message == "row 1 has 1 values; the COPY has 2 columns (a, b)")
            let tooMany = #expect(throws: PostgreSQLError.self) {
                try connection.copy(into: "t") { writer in
                    for value in 1...3 { try writer.append(Int64(value)) }
                }
            }
            #expect(tooMany?.message == "row 1 has more values than the COPY's 2 columns; end each row with endRow()")
            let unended = #expect(throws: PostgreSQLError.self) {
                try connection.copy(into: "t") { writer in try writer.append(Int64(1)) }
            }
            #expect(unended?.message == "row 1 was not ended: call endRow() after its last value")
            #expect(try connection.query(sql: "SELECT count(*) FROM t")[0].int64(at: 0) == 0)
        }

        @Test func aValueOfAnotherTypeThanItsColumnIsRefusedByName() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            try connection.execute(sql: "CREATE TABLE t (amount integer, price numeric)")
            let mismatch = #expect(throws: PostgreSQLError.self) {
                try connection.copy(into: "t") { writer in try writer.append(true) }
            }
            #expect(mismatch?.kind == .misuse)
            #expect(mismatch?.message == #"row 1, column "amount" is integer; it can't take a Boolean"#)
            let range = #expect(throws: PostgreSQLError.self) {
                try connection.copy(into: "t") { writer in try writer.append(Int64(1) << 40) }
            }
            #expect(range?.message == #"row 1, column "amount": 1099511627776 is out of range for integer"#)
            let notANumber = #expect(throws: PostgreSQLError.self) {
                try connection.copy(into: "t") { writer in
                    try writer.append(Int64(1))
                    try writer.append(numeric: "1,5")
                }
            }
            #expect(notANumber?.message == #"row 1, column "price": "1,5" is not a decimal number"#)
        }

        @Test func aDuplicateKeyFailsTheWholeCopy() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            try connection.execute(sql: "CREATE TABLE t (id bigint PRIMARY KEY)")
            let error = #expect(throws: PostgreSQLError.self) {
                try connection.copy(into: "t") { writer in
                    for id in [1, 2, 3, 2, 4] as [Int64] {
                        try writer.append(id)
                        try writer.endRow()
                    }
                }
            }
            #expect(error?.kind == .uniqueViolation)
            #expect(error?.constraint == "t_pkey")
            #expect(error?.detail == "Key (id)=(2) already exists.")
            #expect(try connection.query(sql: "SELECT count(*) FROM t")[0].int64(at: 0) == 0)
            #expect(connection.isConnected && !connection.isInsideTransaction)
        }

        @Test func anErrorThrownByTheBodyAbandonsTheCopyAndIsRethrown() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            try connection.execute(sql: "CREATE TABLE t (id bigint)")
            #expect(throws: Refusal.self) {
                try connection.copy(into: "t") { writer in
                    for id in 0..<100_000 as Range<Int64> {
                        try writer.append(id)
                        try writer.endRow()
                    }
                    throw Refusal()
                }
            }
            #expect(try connection.query(sql: "SELECT count(*) FROM t")[0].int64(at: 0) == 0)
        }

        @Test func manyChunksArriveWholeAndACopyIsPartOfItsTransaction() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            try connection.execute(sql: "CREATE TABLE t (id bigint, name text)")
            let count: Int64 = 200_000
            #expect(throws: Refusal.self) {
                try connection.inTransaction {
                    try connection.copy(into: "t") { writer in
                        try writer.append(Int64(1))
                        try writer.append("rolled back")
                        try writer.endRow()
                    }
                    throw Refusal()
                }
            }
            try connection.inTransaction {
                let loaded = try connection.copy(into: "t") { writer in
                    for id in 1...count {
                        try writer.append(id)
                        try writer.append("name \(id)")
                        try writer.endRow()
                    }
                }
                #expect(loaded == Int(count))
            }
            let row = try connection.query(sql: "SELECT count(*), sum(id), count(DISTINCT name) FROM t")[0]
            #expect(try row.int64(at: 0) == count)
            #expect(try row.numeric(at: 1) == String(count * (count + 1) / 2))
            #expect(try row.int64(at: 2) == count)
        }

        @Test func anErrorThrownWhileReadingLeavesTheConnectionReady() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            var seen = 0
            #expect(throws: Refusal.self) {
                try connection.copy(from: "SELECT generate_series(1, 10000)") { _ in
                    seen += 1
                    if seen == 10 { throw Refusal() }
                }
            }
            #expect(seen == 10)
            #expect(try connection.query(sql: "SELECT 1")[0].int64(at: 0) == 1)
        }

        @Test func aMissingTableOrColumnIsNamed() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            try connection.execute(sql: "CREATE TABLE t (id bigint)")
            let table = #expect(throws: PostgreSQLError.self) { try connection.copy(into: "missing") { _ in } }
            #expect(table?.kind == .undefinedTable)
            let column = #expect(throws: PostgreSQLError.self) {
                try connection.copy(into: "t", columns: ["id", "nme"]) { _ in }
            }
            #expect(column?.kind == .undefinedColumn)
            #expect(column?.message == #"column "nme" of relation "t" does not exist"#)
        }
    }
}
