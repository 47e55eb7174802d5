import CPostgreSQL

extension PostgreSQLURL {
    /// Parses a `postgresql://` or `postgres://` URL.
    ///
    ///     try PostgreSQLURL(parsing: "postgres://seed@[::1]:5433/app?connect_timeout=5")
    ///     try PostgreSQLURL(parsing: "postgresql:///app?host=/run/postgresql")  // a Unix socket
    ///
    /// A raw `@` in a password is accepted (the last `@` before the path ends the user information); `/`, `?` and `#`
    /// must be percent-encoded.
    ///
    /// - Throws: ``PostgreSQLError`` of kind ``PostgreSQLError/Kind/invalidURL``. Its message names the part that is
    ///   wrong and never quotes the user information or the hosts, where a badly encoded password would show.
    package init(parsing text: String) throws {
        let schemes = ["postgresql://", "postgres://"]
        guard let scheme = schemes.first(where: { text.utf8.starts(with: $0.utf8) }) else {
            throw Self.invalid("it must start with postgresql:// or postgres://")
        }
        var rest = Substring(text.dropFirst(scheme.count))
        var query: Substring = ""
        var path: Substring?
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        // The user information ends at the last @ before the path: passwords often hold a raw @.
        let userInfoEnd = rest[..<authorityEnd].lastIndex(of: "@")
        if let questionMark = rest[(userInfoEnd ?? rest.startIndex)...].firstIndex(of: "?") {
            query = rest[rest.index(after: questionMark)...]
            rest = rest[..<questionMark]
        }
        let hostsStart = userInfoEnd.map { rest.index(after: $0) } ?? rest.startIndex
        if let slash = rest[hostsStart...].firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        self.init()
        if let userInfoEnd {
            let userInfo = rest[..<userInfoEnd]
            let colon = userInfo.firstIndex(of: ":")
            let user = try Self.decoded(userInfo[..<(colon ?? userInfo.endIndex)], "the user name")
            self.user = user.isEmpty ? nil : user
            if let colon {
                password = try Self.decoded(userInfo[userInfo.index(after: colon)...], "the password")
            }
        }
        hosts = try Self.hosts(in: rest[hostsStart...])
        if let path {
            let database = try Self.decoded(path, "the database name")
            self.database = database.isEmpty ? nil : database
        }
        if !query.isEmpty {
            for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
                guard let equals = pair.firstIndex(of: "=") else {
                    throw Self.invalid("a parameter has no value: write name=value (a ? in a password must be %3F)")
                }
                let name = try Self.decoded(pair[..<equals], "a parameter name")
                try apply(parameter: name, value: try Self.decoded(pair[pair.index(after: equals)...], "a value"))
            }
        }
    }

    /// Parses `host[:port][,...]`.
    private static func hosts(in hostList: Substring) throws -> [Host] {
        if hostList.isEmpty { return [] }
        let entries = hostList.split(separator: ",", omittingEmptySubsequences: false)
        return try entries.map { entry in
            var name: Substring
            var port: Substring?
            if entry.hasPrefix("[") {
                guard let close = entry.firstIndex(of: "]") else {
                    throw invalid("an IPv6 address must be closed by ]")
                }
                name = entry[entry.index(after: entry.startIndex)..<close]
                let after = entry[entry.index(after: close)...]
                if !after.isEmpty {
                    guard after.hasPrefix(":") else {
                        throw invalid("an IPv6 address in [] may only be followed by :port")
                    }
                    port = after.dropFirst()
                }
            } else if let colon = entry.lastIndex(of: ":") {
                name = entry[..<colon]
                port = entry[entry.index(after: colon)...]
            } else {
                name = entry
            }
            if name.isEmpty && entries.count > 1 { throw invalid("a host in the list is empty") }
            return Host(try decoded(name, "a host"), port: try port.map(parsePort))
        }
    }

    private static func parsePort(_ text: some StringProtocol) throws -> Int {
        let isDecimal = text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard isDecimal, let port = Int(text), (1...65535).contains(port) else {
            throw invalid(
                "a port must be a number from 1 to 65535 (a password holding /, ?, # or : must be percent-encoded: "
                    + "%2F, %3F, %23, %3A)")
        }
        return port
    }

    /// Sets the field a parameter names, or appends it to ``parameters`` once libpq is known to accept it.
    private mutating func apply(parameter name: String, value: String) throws {
        switch name {
        case "host":
            hosts = value.isEmpty ? [] : value.split(separator: ",", omittingEmptySubsequences: false).map {
                Host(String($0), port: hosts.first?.port)
            }
        case "port":
            let ports = try value.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.isEmpty ? nil : try Self.parsePort($0)
            }
            if hosts.isEmpty { hosts = [Host("")] }
            guard ports.count == 1 || ports.count == hosts.count else {
                throw Self.invalid("the port parameter lists \(ports.count) ports for \(hosts.count) hosts")
            }
            for index in hosts.indices { hosts[index].port = ports.count == 1 ? ports[0] : ports[index] }
        case "user": user = value
        case "password": password = value
        case "dbname": database = value
        case "client_encoding" where value.lowercased().filter { $0 != "-" } != "utf8":
            throw Self.invalid("client_encoding must be UTF8: SeedKit reads and writes text as UTF-8")
        default:
            try LibPQ.load()
            guard Self.libpqParameters.contains(name) else {
                throw Self.invalid(
                    "unknown connection parameter \"\(name)\"; libpq's parameters include sslmode, connect_timeout, "
                        + "application_name, options, target_session_attrs")
            }
            parameters.append(Parameter(name, value))
        }
    }

    /// The names libpq accepts, from `PQconndefaults`.
    static let libpqParameters: Set<String> = {
        guard let options = libpq.PQconndefaults() else { return [] }
        defer { libpq.PQconninfoFree(options) }
        var names: Set<String> = []
        var option = options
        while let keyword = option.pointee.keyword {
            names.insert(String(cString: keyword))
            option += 1
        }
        return names
    }()

    /// `text` percent-decoded, as UTF-8.
    private static func decoded(_ text: Substring, _ what: String) throws -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw invalid("\(what) has a % not followed by two hexadecimal digits")
            }
            bytes.append(high << 4 | low)
        }
        let decoded = String(decoding: bytes, as: UTF8.self)
        guard decoded.utf8.elementsEqual(bytes) else { throw invalid("\(what) is not UTF-8 once percent-decoded") }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func invalid(_ reason: String) -> PostgreSQLError {
        PostgreSQLError(kind: .invalidURL, message: "invalid PostgreSQL URL: \(reason)")
    }
}
