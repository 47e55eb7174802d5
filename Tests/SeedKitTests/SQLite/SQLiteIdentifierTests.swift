import Testing
import SeedKit

@Suite("SQL identifiers")
struct SQLiteIdentifierTests {
    @Test("Names made of ASCII letters, digits and underscores are valid", arguments: [
        "Department", "employee_id", "_private", "x", "Order", "select", "a1_B2",
    ])
    func valid(name: String) throws {
        let identifier = try SQLIdentifier(validating: name)
        #expect(identifier.name == name)
        #expect(identifier.quoted == "\"\(name)\"")
    }

    @Test("Other names are refused with a reason", arguments: [
        ("", "it is empty"),
        ("1st", "it must start with an ASCII letter or an underscore"),
        ("Department-Name", #"it contains "-", not an ASCII letter, digit or underscore"#),
        ("first name", #"it contains " ", not an ASCII letter, digit or underscore"#),
        ("café", #"it contains "é", not an ASCII letter, digit or underscore"#),
        (#"x"; DROP TABLE t; --"#, #"it contains "\"", not an ASCII letter, digit or underscore"#),
        ("SQLite_master", "names starting with sqlite_ are reserved by SQLite"),
    ])
    func invalid(name: String, reason: String) throws {
        let error = try #require(throws: InvalidSQLIdentifierError.self) { try SQLIdentifier(validating: name) }
        #expect(error.identifier == name)
        #expect(error.reason == reason)
        #expect(error.description == "\(name.debugDescription) is not a valid SQL identifier: \(reason)")
    }

    @Test("Quoting doubles inner double quotes")
    func quote() {
        #expect(SQLIdentifier.quote("plain") == #""plain""#)
        #expect(SQLIdentifier.quote(#"odd "name""#) == #""odd ""name""""#)
        #expect(SQLIdentifier.quote("") == #""""#)
    }

    @Test("Quoted identifiers work in SQL, keywords and quotes included")
    func quotedInSQL() throws {
        let connection = try SQLiteConnection.inMemory()
        let table = try SQLIdentifier(validating: "Order")
        let column = try SQLIdentifier(validating: "group")
        let odd = SQLIdentifier.quote(#"a "b""#)
        try connection.execute(sql: "CREATE TABLE \(table.quoted) (\(column.quoted) TEXT, \(odd) INTEGER)")
        try connection.execute(
            sql: "INSERT INTO \(table.quoted) (\(column.quoted), \(odd)) VALUES (?, ?)", arguments: ["g", 1])
        let select = try connection.prepare(sql: "SELECT \(column.quoted), \(odd) FROM \(table.quoted)")
        #expect(select.columnNames == ["group", #"a "b""#])
        #expect(try select.step())
        #expect(select.text(at: 0) == "g")
    }
}
