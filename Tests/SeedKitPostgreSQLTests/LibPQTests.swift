import Testing

@testable import SeedKitPostgreSQL

/// libpq is loaded when PostgreSQL is first reached, not linked: a program runs without it, and says what is missing
/// when a PostgreSQL store is asked for.
@Suite struct LibPQTests {
    @Test func theInstalledLibraryLoadsWithEveryFunction() throws {
        try LibPQ.load()
        let loaded = LibPQ.load(from: LibPQ.names)
        #expect(loaded.functions != nil)
        #expect(loaded.failure.isEmpty)
        // A function of the table, called: the connection parameters libpq knows.
        let defaults = libpq.PQconndefaults()
        #expect(defaults != nil)
        libpq.PQconninfoFree(defaults)
    }

    @Test func aMissingLibraryOrFunctionIsSaidNotCalled() {
        let missing = LibPQ.load(from: ["libseedkit-no-such-library.so.5", "/no/such/dir/libpq.so.5"])
        #expect(missing.functions == nil)
        #expect(missing.failure.contains("libseedkit-no-such-library.so.5"))
        #expect(missing.failure.contains("/no/such/dir/libpq.so.5"))
        // A library that loads but is not libpq: the first function it lacks is named.
        #if canImport(Darwin)
        let other = "libsqlite3.dylib"
        #else
        let other = "libsqlite3.so.0"
        #endif
        let wrong = LibPQ.load(from: [other])
        #expect(wrong.functions == nil)
        #expect(wrong.failure.contains("PQbackendPID"), "\(wrong.failure)")
    }
}
