/// Where and how to connect to a PostgreSQL server: a `postgresql://` URL, parsed, with its password kept out of
/// every description.
///
///     let url = try PostgreSQLURL(parsing: "postgresql://seed:s3cret@db.example.com:5433/app?sslmode=require")
///     url.description  // postgresql://seed:***@db.example.com:5433/app?sslmode=require
///
/// The syntax is libpq's (<https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING-URIS>):
/// `postgresql://[user[:password]@][host[:port][,...]][/database][?name=value&...]`, with `postgres://` as a synonym.
/// Components are percent-decoded; an IPv6 address goes between brackets (`[::1]:5432`); a Unix-socket directory is
/// a host starting with `/`, percent-encoded in the authority (`postgresql://%2Frun%2Fpostgresql/app`) or given as a
/// parameter (`postgresql:///app?host=/run/postgresql`). The parameters `host`, `port`, `user`, `password` and
/// `dbname` fill the fields of the same meaning; any other parameter must be one of libpq's (`sslmode`,
/// `connect_timeout`, `application_name`, `options`, …) and is passed to it as is. What the URL leaves out, libpq
/// takes from the environment (`PGHOST`, `PGPASSWORD`, …) and `~/.pgpass`, as `psql` does.
///
/// Descriptions, debug descriptions and reflection (`dump`) show a password, and the `sslpassword` parameter, as
/// `***`.
package struct PostgreSQLURL: Sendable, Hashable {
    /// One server to try, in order.
    package struct Host: Sendable, Hashable {
        /// A host name, an IPv4 or IPv6 address (without brackets), or the directory of a Unix socket (starting with
        /// `/`); empty for libpq's default.
        package var name: String
        /// The TCP port, or the number in the socket's file name (`.s.PGSQL.5432`); nil for the default, 5432.
        package var port: Int?

        package init(_ name: String, port: Int? = nil) {
            self.name = name
            self.port = port
        }

        /// Whether `name` is the directory of a Unix socket rather than a network address.
        package var isUnixSocket: Bool {
            name.hasPrefix("/")
        }
    }

    /// A libpq connection parameter other than host, port, user, password and database.
    package struct Parameter: Sendable, Hashable {
        package var name: String
        package var value: String

        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The servers to try, in order; empty for libpq's default (`PGHOST`, else the local Unix socket).
    package var hosts: [Host]
    package var user: String?
    /// Never shown: see the type's documentation.
    package var password: String?
    package var database: String?
    package var parameters: [Parameter]

    package init(
        hosts: [Host] = [],
        user: String? = nil,
        password: String? = nil,
        database: String? = nil,
        parameters: [Parameter] = []
    ) {
        self.hosts = hosts
        self.user = user
        self.password = password
        self.database = database
        self.parameters = parameters
    }

    /// The value of the parameter `name`, if the URL sets it.
    package subscript(parameter name: String) -> String? {
        parameters.last { $0.name == name }?.value
    }

    /// Parameters whose values are secrets, shown as `***`.
    static let secretParameters: Set<String> = ["password", "sslpassword"]
}

extension PostgreSQLURL: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The URL with any password as `***`: `postgresql://seed:***@db.example.com:5433/app?sslmode=require`.
    package var description: String {
        var text = "postgresql://"
        if let user { text += Self.percentEncoded(user) }
        if password != nil { text += ":***" }
        if user != nil || password != nil { text += "@" }
        text += hosts.map { host in
            var spelled = host.name.contains(":") ? "[\(host.name)]" : Self.percentEncoded(host.name)
            if let port = host.port { spelled += ":\(port)" }
            return spelled
        }.joined(separator: ",")
        if let database { text += "/" + Self.percentEncoded(database) }
        if !parameters.isEmpty {
            text += "?" + parameters.map { parameter in
                let isSecret = Self.secretParameters.contains(parameter.name)
                let value = isSecret ? "***" : Self.percentEncoded(parameter.value)
                return Self.percentEncoded(parameter.name) + "=" + value
            }.joined(separator: "&")
        }
        return text
    }

    package var debugDescription: String {
        "PostgreSQLURL(\(description))"
    }

    /// The fields, with the password and secret parameters as `***`, so that `dump` shows no secret either.
    package var customMirror: Mirror {
        let redactedParameters = parameters.map { parameter in
            Self.secretParameters.contains(parameter.name) ? Parameter(parameter.name, "***") : parameter
        }
        return Mirror(
            self,
            children: [
                "hosts": hosts, "user": user as Any, "password": password.map { _ in "***" } as Any,
                "database": database as Any, "parameters": redactedParameters,
            ],
            displayStyle: .struct)
    }

    /// The server as errors name it: the first host and its port, `db.example.com:5433`, `[::1]:5432`.
    var serverDescription: String {
        guard let host = hosts.first else { return "the default server" }
        return Self.serverDescription(host: host.name, port: host.port.map(String.init) ?? "5432")
    }

    /// `host:port` for a network address, the socket file for a directory: `/run/postgresql/.s.PGSQL.5432`.
    static func serverDescription(host: String, port: String) -> String {
        if host.hasPrefix("/") {
            return (host.hasSuffix("/") ? host : host + "/") + ".s.PGSQL.\(port)"
        }
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// `text` with every byte outside the URL's unreserved set (letters, digits, `-._~`) percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += byte < 0x10 ? "%0" + hex : "%" + hex
            }
        }
        return encoded
    }
}
