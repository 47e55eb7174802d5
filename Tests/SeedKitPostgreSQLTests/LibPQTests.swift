import Testing

@testable import SeedKitPostgreSQL

/// libpq is loaded when PostgreSQL is first reached, not linked: a program runs without it, and says what is missing
/// when a PostgreSQL store is asked for.
@Suite struct LibPQTests {
    @Test func theInstalledLibraryLoadsWithEveryFunction() throws {
        try LibPQ.load()
        #expect((try? LibPQ.load(from: LibPQ.names).functions.get()) != nil)
        // A function of the table, called: the connection parameters libpq knows.
        let defaults = libpq.PQconndefaults()
        #expect(defaults != nil)
        libpq.PQconninfoFree(defaults)
    }

    @Test func aMissingLibraryOrFunctionIsSaidNotCalled() {
        // What a run with a postgresql:// store says where libpq is not installed: each name's failure, what to install.
        let missing = Self.failure(LibPQ.load(from: ["libseedkit-no-such-library.so.5", "/no/such/dir/libpq.so.5"]))
        #expect(missing?.kind == .other)
        #expect(missing?.message.contains("libseedkit-no-such-library.so.5") == true)
        #expect(missing?.message.contains("/no/such/dir/libpq.so.5") == true)
        #expect(missing?.message.contains("install it (Debian and Ubuntu: libpq5, Homebrew: libpq)") == true)
        // A library that loads but is not libpq: the first function it lacks is named.
        #if canImport(Darwin)
        let other = "libsqlite3.dylib"
        #else
        let other = "libsqlite3.so.0"
        #endif
        let wrong = Self.failure(LibPQ.load(from: [other]))
        #expect(wrong?.message.contains("PQbackendPID") == true, "\(String(describing: wrong))")
    }

    private static func failure(_ outcome: LibPQ.Outcome) -> PostgreSQLError? {
        guard case .failure(let error) = outcome.functions else { return nil }
        return error
    }
}
