import CPostgreSQL

extension PostgreSQLError {
    /// The error of a failed statement: the server's fields from `result`, or libpq's message when there is no result
    /// or it carries no SQLSTATE (the connection broke, the client refused something).
    init(result: OpaquePointer?, connection: OpaquePointer, statement: String?) {
        func field(_ code: UInt8) -> String? {
            guard let result, let value = libpq.PQresultErrorField(result, Int32(code)) else { return nil }
            return String(cString: value)
        }
        let sqlState = field(UInt8(ascii: "C"))
        let connectionBroke = libpq.PQstatus(connection) == CONNECTION_BAD
        // For a broken connection, the connection's message also has what the server said before closing it
        // (`FATAL:  terminating connection due to administrator command`); the result's has only libpq's part.
        let message = field(UInt8(ascii: "M"))
            ?? Self.reasons(in: LibPQ.text(connectionBroke || result == nil
                ? libpq.PQerrorMessage(connection) : libpq.PQresultErrorMessage(result)))
        var kind: Kind
        switch sqlState {
        // A protocol violation is the client's mistake (the wrong number of arguments), not a broken connection.
        case "08P01"?: kind = .misuse
        case let sqlState?: kind = Kind(sqlState: sqlState)
        case nil: kind = .other
        }
        if connectionBroke { kind = .connectionLost }
        self.init(
            kind: kind, sqlState: sqlState, message: message.isEmpty ? "unknown error" : message,
            detail: field(UInt8(ascii: "D")), hint: field(UInt8(ascii: "H")), statement: statement)
        constraint = field(UInt8(ascii: "n"))
        table = field(UInt8(ascii: "t"))
    }

    /// The error of a connection that failed to open.
    ///
    /// libpq reports no SQLSTATE for these, only a message: one line per address it tried, such as
    /// `connection to server at "127.0.0.1", port 5433 failed: Connection refused`, each followed by tab-indented
    /// hints; a refusal by the server itself reads `…failed: FATAL:  password authentication failed for user "seed"`.
    /// The reasons are kept, without the repeated prefix and hints, and classified by their (English) text.
    init(connectionFailureOf connection: OpaquePointer, url: PostgreSQLURL) {
        let reasons = Self.reasons(in: LibPQ.text(libpq.PQerrorMessage(connection)))
        let message = reasons.isEmpty ? "connection failed" : reasons
        let host = libpq.PQhost(connection).map { String(cString: $0) } ?? ""
        let port = libpq.PQport(connection).map { String(cString: $0) } ?? ""
        self.init(
            kind: Self.connectionFailureKind(message),
            message: message,
            server: host.isEmpty ? url.serverDescription : PostgreSQLURL.serverDescription(host: host, port: port))
    }

    private static func connectionFailureKind(_ message: String) -> Kind {
        let text = message.lowercased()
        func mentions(_ phrases: String...) -> Bool { phrases.contains { text.contains($0) } }
        if mentions("database \"") && mentions("does not exist") { return .databaseMissing }
        if mentions(
            "password authentication failed", "no password supplied", "authentication failed", "no pg_hba.conf entry",
            "role \"")
        {
            return .authenticationFailed
        }
        if mentions(
            "connection refused", "no such file or directory", "timeout expired", "could not translate host name",
            "no route to host", "network is unreachable", "host is unreachable", "connection timed out",
            "the database system is starting up", "the database system is shutting down")
        {
            return .unreachable
        }
        return .other
    }

    /// `Connection refused` → `connection refused`, but `SSL error` stays: only a capital before lowercase letters.
    private static func lowercasingFirstWord(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars.prefix(2))
        guard scalars.count == 2, scalars[0].properties.isUppercase, scalars[1].properties.isLowercase else {
            return text
        }
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// The distinct reasons in a libpq message, joined by `; `: its lines without their tab-indented hints, the
    /// `connection to server at … failed: ` prefix and the severity (`FATAL:  `).
    private static func reasons(in message: String) -> String {
        var reasons: [String] = []
        for line in message.split(separator: "\n") where !line.hasPrefix("\t") {
            var reason = line[...]
            if let failed = reason.range(of: " failed: ") { reason = reason[failed.upperBound...] }
            if let severityEnd = reason.range(of: ":  "), reason[..<severityEnd.lowerBound].allSatisfy(\.isUppercase) {
                reason = reason[severityEnd.upperBound...]
            }
            let text = lowercasingFirstWord(String(reason))
            if !text.isEmpty && !reasons.contains(text) { reasons.append(text) }
        }
        return reasons.joined(separator: "; ")
    }
}
