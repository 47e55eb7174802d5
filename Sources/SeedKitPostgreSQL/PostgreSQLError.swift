/// An error from PostgreSQL, or from reaching it, with the context that produced it.
///
/// Callers test ``kind``; ``sqlState`` is there for the codes no kind names. The description is one line, ready to
/// follow `seed: `:
///
///     could not connect to PostgreSQL at 127.0.0.1:5433: connection refused
///     PostgreSQL error 23505 (unique violation): duplicate key value violates unique constraint "Department_name_key";
///     Key (name)=(Sales) already exists. - while executing "INSERT INTO "Department" (name) VALUES ($1)"
///
/// (the second on one line). No password appears in an error: connection errors name the server by its host and port.
public struct PostgreSQLError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in the terms a caller acts on.
    public package(set) var kind: Kind
    /// The five-character SQLSTATE the server reported, such as `23505`; nil for errors found on the client (an
    /// unreachable server, a lost connection, a refused value).
    public package(set) var sqlState: String?
    /// The server's primary message, or libpq's or SeedKit's: `duplicate key value violates unique constraint "…"`.
    public package(set) var message: String
    /// The server's detail: `Key (name)=(Sales) already exists.`
    public package(set) var detail: String?
    /// The server's hint, when it gives one.
    public package(set) var hint: String?
    /// The constraint a violation is about, such as `Department_name_key`.
    public package(set) var constraint: String?
    /// The table a violation is about.
    public package(set) var table: String?
    /// The SQL that failed.
    public package(set) var statement: String?
    /// The server as `host:port` (`[::1]:5432`, `/run/postgresql:5432` for a Unix socket), for connection errors.
    public package(set) var server: String?

    package init(
        kind: Kind,
        sqlState: String? = nil,
        message: String,
        detail: String? = nil,
        hint: String? = nil,
        statement: String? = nil,
        server: String? = nil
    ) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.hint = hint
        self.statement = statement
        self.server = server
    }

    public var description: String {
        if let server {
            return "could not connect to PostgreSQL at \(server): \(Self.singleLine(message))"
        }
        var description = "PostgreSQL error"
        if let sqlState { description += " \(sqlState)" }
        if kind != .other { description += " (\(kind))" }
        description += ": " + Self.singleLine(message)
        if let detail { description += "; " + Self.singleLine(detail) }
        if let statement { description += " - while executing \"\(Self.singleLine(statement))\"" }
        return description
    }

    /// `text` on one line: runs of whitespace (SQL's line breaks and indentation) become one space, and other control
    /// characters are escaped as in JSON strings.
    static func singleLine(_ text: String) -> String {
        var line = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar == "\n" || scalar == "\t" || scalar == "\r" {
                pendingSpace = !line.isEmpty
                continue
            }
            if pendingSpace {
                line.unicodeScalars.append(" ")
                pendingSpace = false
            }
            if scalar.value < 0x20 || scalar.value == 0x7F {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                line += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                line.unicodeScalars.append(scalar)
            }
        }
        return line
    }
}
