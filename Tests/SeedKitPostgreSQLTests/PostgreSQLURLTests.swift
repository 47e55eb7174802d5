import Testing

@testable import SeedKitPostgreSQL

@Suite struct PostgreSQLURLTests {
    @Test func parsesEveryPart() throws {
        let url = try PostgreSQLURL(
            parsing: "postgresql://seed:s3cret@db.example.com:5433/app?sslmode=require&connect_timeout=5")
        #expect(url.hosts == [.init("db.example.com", port: 5433)])
        #expect(url.user == "seed")
        #expect(url.password == "s3cret")
        #expect(url.database == "app")
        #expect(url.parameters == [.init("sslmode", "require"), .init("connect_timeout", "5")])
        #expect(url[parameter: "sslmode"] == "require")
    }

    @Test func acceptsBothSchemesAndLeavesOutWhatIsNotGiven() throws {
        let url = try PostgreSQLURL(parsing: "postgres://")
        #expect(url == PostgreSQLURL())
        #expect(try PostgreSQLURL(parsing: "postgres://h/d") == PostgreSQLURL(parsing: "postgresql://h/d"))
        #expect(try PostgreSQLURL(parsing: "postgresql://localhost").hosts == [.init("localhost")])
    }

    @Test func percentDecodesUserPasswordHostAndDatabase() throws {
        let url = try PostgreSQLURL(parsing: "postgresql://J%C3%BCrgen:p%40ss%2Fw%3Ford@%2Frun%2Fpostgresql/my%20db")
        #expect(url.user == "Jürgen")
        #expect(url.password == "p@ss/w?ord")
        #expect(url.hosts == [.init("/run/postgresql")])
        #expect(url.hosts[0].isUnixSocket)
        #expect(url.database == "my db")
    }

    @Test func takesARawAtSignInThePassword() throws {
        let url = try PostgreSQLURL(parsing: "postgresql://seed:p@ss@localhost/app")
        #expect(url.user == "seed")
        #expect(url.password == "p@ss")
        #expect(url.hosts == [.init("localhost")])
    }

    @Test func parsesIPv6AddressesAndHostLists() throws {
        #expect(try PostgreSQLURL(parsing: "postgresql://[::1]:5433/app").hosts == [.init("::1", port: 5433)])
        #expect(try PostgreSQLURL(parsing: "postgresql://[fe80::1%25eth0]/app").hosts == [.init("fe80::1%eth0")])
        let list = try PostgreSQLURL(parsing: "postgresql://a.example:5433,[::1],b.example:5434/app")
        #expect(list.hosts == [.init("a.example", port: 5433), .init("::1"), .init("b.example", port: 5434)])
    }

    @Test func parametersFillTheFieldsTheyName() throws {
        let url = try PostgreSQLURL(
            parsing: "postgresql:///?host=/tmp/pg%20dir&port=5433&user=u&password=p%26q&dbname=d&application_name=a%3Db")
        #expect(url.hosts == [.init("/tmp/pg dir", port: 5433)])
        #expect(url.user == "u")
        #expect(url.password == "p&q")
        #expect(url.database == "d")
        #expect(url.parameters == [.init("application_name", "a=b")])
        let list = try PostgreSQLURL(parsing: "postgresql://?host=a,b&port=1,2")
        #expect(list.hosts == [.init("a", port: 1), .init("b", port: 2)])
    }

    @Test(arguments: [
        ("mysql://localhost/app", "it must start with postgresql:// or postgres://"),
        ("postgresql://localhost:0/app", "a port must be a number from 1 to 65535"),
        ("postgresql://localhost:99999/app", "a port must be a number from 1 to 65535"),
        ("postgresql://[::1/app", "an IPv6 address must be closed by ]"),
        ("postgresql://localhost/app?sslmod=require", "unknown connection parameter \"sslmod\""),
        ("postgresql://localhost/app?sslmode", "a parameter has no value"),
        ("postgresql://localhost/app%zz", "the database name has a % not followed by two hexadecimal digits"),
        ("postgresql://localhost/%FF", "the database name is not UTF-8 once percent-decoded"),
        ("postgresql://a,,b/app", "a host in the list is empty"),
        ("postgresql://?host=a,b&port=1,2,3", "the port parameter lists 3 ports for 2 hosts"),
        ("postgresql://localhost/app?client_encoding=LATIN1", "client_encoding must be UTF8"),
    ])
    func refusesWhatLibpqWouldMisread(text: String, reason: String) {
        let error = #expect(throws: PostgreSQLError.self) { try PostgreSQLURL(parsing: text) }
        #expect(error?.kind == .invalidURL)
        #expect(error?.description.hasPrefix("PostgreSQL error (invalid URL): invalid PostgreSQL URL: \(reason)") == true)
    }

    @Test func descriptionAndReflectionNeverShowThePassword() throws {
        let url = try PostgreSQLURL(
            parsing: "postgresql://seed:hunter2@[::1]:5433,%2Ftmp%2Fs/app?sslpassword=hunter3&sslmode=require")
        #expect(url.description == "postgresql://seed:***@[::1]:5433,%2Ftmp%2Fs/app?sslpassword=***&sslmode=require")
        var dumped = ""
        dump(url, to: &dumped)
        for text in [url.description, url.debugDescription, String(reflecting: url), "\(url)", dumped] {
            #expect(!text.contains("hunter"))
        }
        #expect(dumped.contains("***"))
        // The description is a URL that parses back to the same server, user and database.
        let reparsed = try PostgreSQLURL(parsing: url.description)
        #expect(reparsed.hosts == url.hosts && reparsed.user == url.user && reparsed.database == url.database)
    }

    @Test func aBadlyEncodedPasswordDoesNotShowInTheError() {
        // An unencoded / ends the authority early: the password becomes part of the host and port.
        let error = #expect(throws: PostgreSQLError.self) {
            try PostgreSQLURL(parsing: "postgresql://seed:hun/ter2@localhost/app")
        }
        #expect(error.map { !$0.description.contains("hun") } == true)
    }
}
