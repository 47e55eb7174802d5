import Foundation
import PostgreSQLTestServer
import Testing

@testable import SeedKitPostgreSQL

extension PostgreSQLServerTests {
    @Suite struct Connections {
        @Test func typedValuesRoundTripThroughTheirColumns() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            try connection.execute(sql: """
                CREATE TABLE sample (
                    id bigint PRIMARY KEY, name text, small smallint, medium integer, ratio double precision,
                    price numeric, moment timestamptz, local timestamp, bytes bytea, flag boolean, key uuid,
                    document jsonb)
                """)
            let moment = PostgreSQLTimestamp(seconds: -1, microseconds: 999_999)
            let key = UUID()
            let digits = "-123456789012345678901234567890123456789.000000000000000000000000000000000000001"
            try connection.execute(
                sql: "INSERT INTO sample VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                arguments: [
                    .integer(.max), "Zoë\t\"quoted\"\n🙂", 7, -8, .double(0.1), .numeric(digits), .timestamp(moment),
                    .timestamp(moment), .bytes([0, 1, 0xFF, 0x5C]), true, .uuid(key), #"{"b": [1, 2.50], "a": null}"#,
                ])
            let row = try #require(connection.query(sql: "SELECT * FROM sample").first)
            #expect(try row.int64(at: 0) == .max)
            #expect(try row.text(at: 1) == "Zoë\t\"quoted\"\n🙂")
            #expect(try row.int64(at: 2) == 7)
            #expect(try row.int64(at: 3) == -8)
            #expect(try row.double(at: 4) == 0.1)
            #expect(try row.numeric(at: 5) == digits)
            #expect(try row.timestamp(at: 6) == moment)
            #expect(try row.timestamp(at: 7) == moment)
            #expect(try row.bytes(at: 8) == [0, 1, 0xFF, 0x5C])
            #expect(try row.bool(at: 9) == true)
            #expect(try row.uuid(at: 10) == key)
            #expect(try row.text(at: 11) == #"{"a": null, "b": [1, 2.50]}"#)
            #expect(try row.value(at: 5) == .numeric(digits))
        }

        @Test func nullReadsAsNilFromEveryAccessor() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            let row = try #require(
                connection.query(sql: "SELECT NULL::bigint, NULL::text, NULL::numeric, NULL::timestamptz, NULL::bytea")
                    .first)
            #expect(row.isNull(at: 0))
            #expect(try row.int64(at: 0) == nil)
            #expect(try row.text(at: 1) == nil)
            #expect(try row.numeric(at: 2) == nil)
            #expect(try row.timestamp(at: 3) == nil)
            #expect(try row.bytes(at: 4) == nil)
            #expect(try row.value(at: 0) == .null)
            try connection.execute(sql: "CREATE TABLE t (a bigint, b text)")
            try connection.execute(sql: "INSERT INTO t VALUES ($1, $2)", arguments: [nil, nil])
            #expect(try connection.query(sql: "SELECT count(*) FROM t WHERE a IS NULL AND b IS NULL")[0].int64(at: 0) == 1)
        }

        @Test(arguments: [
            "0", "-0.5", "1.50", "10000", "9999.9999", "0.0001", "0.00001", "123456789.123456789", "1E+5", "1.5e-7",
            "-1000000000000000000000000000000000000000", "NaN", "Infinity", "-Infinity", "00012.3400",
        ])
        func numericsKeepEveryDigitAndTheirScale(text: String) throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            // The server's own reading of the text is the reference: the binary form must say the same.
            let expected = try connection.query(sql: "SELECT $1::numeric::text", arguments: [.text(text)])[0].text(at: 0)
            try connection.execute(sql: "CREATE TABLE t (n numeric)")
            try connection.copy(into: "t") { writer in
                try writer.append(numeric: text)
                try writer.endRow()
            }
            #expect(try connection.query(sql: "SELECT n::text FROM t")[0].text(at: 0) == expected)
            #expect(try connection.query(sql: "SELECT n FROM t")[0].numeric(at: 0) == expected)
            #expect(try connection.query(sql: "SELECT $1::numeric", arguments: [.numeric(text)])[0].numeric(at: 0) == expected)
        }

        @Test func timestampsKeepMicrosecondsAcrossTheEpochs() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            let cases: [(PostgreSQLTimestamp, String)] = [
                (PostgreSQLTimestamp(seconds: 0), "1970-01-01 00:00:00+00"),
                (PostgreSQLTimestamp(seconds: -1, microseconds: 500_000), "1969-12-31 23:59:59.5+00"),
                (PostgreSQLTimestamp(seconds: 946_684_800, microseconds: 1), "2000-01-01 00:00:00.000001+00"),
                (PostgreSQLTimestamp(seconds: 1_709_285_400, microseconds: 123_456), "2024-03-01 09:30:00.123456+00"),
                (PostgreSQLTimestamp(seconds: -62_135_596_800), "0001-01-01 00:00:00+00"),
            ]
            try connection.execute(sql: "SET TimeZone = 'UTC'")
            for (timestamp, text) in cases {
                let row = try connection.query(sql: "SELECT $1::text, $2::timestamptz", arguments: [.timestamp(timestamp), .text(text)])[0]
                #expect(try row.text(at: 0) == text)
                #expect(try row.timestamp(at: 1) == timestamp)
            }
            #expect(PostgreSQLTimestamp(seconds: -1, microseconds: 500_000).description == "1969-12-31T23:59:59.5Z")
        }

        @Test func anAccessorRefusesAColumnOfAnotherTypeByName() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            let row = try connection.query(sql: "SELECT 1.5::numeric AS price, interval '1 day' AS span")[0]
            let mismatch = #expect(throws: PostgreSQLError.self) { try row.int64(at: 0) }
            #expect(mismatch?.kind == .misuse)
            #expect(mismatch?.message.hasPrefix("column 0 (\"price\") is numeric, which int64(at:) doesn't read") == true)
            let unknown = #expect(throws: PostgreSQLError.self) { try row.value(at: 1) }
            #expect(unknown?.message.contains("(span::text)") == true)
            #expect(try connection.query(sql: "SELECT interval '1 day'::text")[0].text(at: 0) == "1 day")
        }

        @Test func cachedStatementsArePreparedOnceAndTakeArgumentsOfOtherTypesAsText() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            try connection.execute(sql: "CREATE TABLE t (id integer PRIMARY KEY, price numeric, key uuid)")
            let insert = try connection.cachedStatement(sql: "INSERT INTO t VALUES ($1, $2, $3)")
            #expect(insert.parameterTypes == [.int4, .numeric, .uuid])
            try insert.execute(arguments: [1, .numeric("2.50"), "6ba7b810-9dad-11d1-80b4-00c04fd430c8"])
            try connection.cachedStatement(sql: "INSERT INTO t VALUES ($1, $2, $3)")
                .execute(arguments: [.text("2"), 3, .uuid(UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c9")!)])
            #expect(connection.statementCache.count == 1)
            let rows = try connection.query(sql: "SELECT id, price, key::text FROM t ORDER BY id")
            #expect(try rows.map { try $0.numeric(at: 1) } == ["2.50", "3"])
            #expect(try rows[1].text(at: 2) == "6ba7b810-9dad-11d1-80b4-00c04fd430c9")
            let outOfRange = #expect(throws: PostgreSQLError.self) { try insert.execute(arguments: [.integer(1 << 40), nil, nil]) }
            #expect(outOfRange?.kind == .invalidValue)
            let wrongCount = #expect(throws: PostgreSQLError.self) { try insert.execute(arguments: [1]) }
            #expect(wrongCount?.kind == .misuse)
            #expect(wrongCount?.message == "wrong number of arguments: the statement has 3 parameters, got 1")
        }

        @Test func anArgumentOfAnotherTypeThanItsParameterGoesAsTheTextPostgreSQLReads() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            let echo = try connection.cachedStatement(sql: "SELECT $1::text")
            #expect(echo.parameterTypes == [.text])
            let cases: [(PostgreSQLValue, String)] = [
                (true, "t"), (-42, "-42"), (.double(-.infinity), "-Infinity"), (.double(.nan), "NaN"), (0.5, "0.5"),
                (.bytes([0xCA, 0xFE, 0x01]), "\\xcafe01"),
                (.timestamp(PostgreSQLTimestamp(seconds: 1_709_285_400, microseconds: 120_000)), "2024-03-01T09:30:00.12Z"),
                (.uuid(UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!), "6BA7B810-9DAD-11D1-80B4-00C04FD430C8"),
            ]
            for (value, text) in cases {
                #expect(try echo.query(arguments: [value])[0].text(at: 0) == text)
            }
            // And the text reads back as the value in a column of the value's type.
            let timestamp = try connection.cachedStatement(sql: "SELECT $1::text::timestamptz")
            let moment = PostgreSQLTimestamp(seconds: -1, microseconds: 5)
            #expect(try timestamp.query(arguments: [.timestamp(moment)])[0].timestamp(at: 0) == moment)
        }

        @Test func aCachedStatementWhoseColumnsChangedIsPreparedAgain() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            try connection.execute(sql: "CREATE TABLE t (a integer); INSERT INTO t VALUES (1)")
            #expect(try connection.cachedStatement(sql: "SELECT * FROM t").query().columnCount == 1)
            try connection.execute(sql: "ALTER TABLE t ADD COLUMN b text")
            #expect(throws: PostgreSQLError.self) { try connection.cachedStatement(sql: "SELECT * FROM t").query() }
            #expect(try connection.cachedStatement(sql: "SELECT * FROM t").query().columnCount == 2)
        }

        @Test func textWithNULIsRefusedBeforeItIsSent() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            let error = #expect(throws: PostgreSQLError.self) {
                try connection.query(sql: "SELECT $1::text", arguments: ["a\u{0}b"])
            }
            #expect(error?.kind == .invalidValue)
            #expect(error?.message == "the argument for $1 contains U+0000, which PostgreSQL text can't hold")
            #expect(connection.isConnected)
        }

        @Test func aScriptRunsEveryStatementAndUpdatesCountTheirRows() throws {
            let connection = try PostgreSQLServerTests.makeDatabase().connect()
            try connection.execute(sql: """
                CREATE TABLE t (id bigint PRIMARY KEY, name text);
                INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c');
                """)
            #expect(try connection.execute(sql: "UPDATE t SET name = upper(name) WHERE id > $1", arguments: [1]) == 2)
            #expect(try connection.query(sql: "SELECT name FROM t ORDER BY id").map { try $0.text(at: 0) } == ["a", "B", "C"])
        }

        @Test(.enabled(if: PostgreSQLTestServer.isThrowaway, "needs the throwaway cluster's socket"))
        func aUnixSocketHostConnects() throws {
            let server = try PostgreSQLTestServer.shared()
            let directory = try #require(server.socketDirectory)
            let port = try #require(server.url.hosts.first?.port)
            let text = "postgresql:///postgres?host=\(directory)&port=\(port)&user=postgres"
            let connection = try PostgreSQLConnection(url: text)
            #expect(try connection.query(sql: "SELECT inet_server_addr() IS NULL")[0].bool(at: 0) == true)
            #expect(connection.serverDescription == "\(directory)/.s.PGSQL.\(port)")
            #expect(try connection.query(sql: "SELECT current_setting('application_name')")[0].text(at: 0) == "seedkit")
        }
    }
}
