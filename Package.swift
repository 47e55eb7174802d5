// swift-tools-version:6.0
import PackageDescription

// SeedKit has no package dependencies by design: the outside pieces are system libraries, SQLite and libpq
// (PostgreSQL's client), reached through the CSQLite and CPostgreSQL system-library targets.
let package = Package(
    name: "SeedKit",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "SeedKit", targets: ["SeedKit"]),
        .executable(name: "seed", targets: ["seed"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]),
        .systemLibrary(
            name: "CPostgreSQL",
            path: "Sources/CPostgreSQL",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        .target(name: "SeedKit", dependencies: ["CSQLite"]),
        // The PostgreSQL connection layer: a leaf like the SQLite one, knowing nothing of the model.
        .target(name: "SeedKitPostgreSQL", dependencies: ["CPostgreSQL"]),
        .executableTarget(name: "seed", dependencies: ["SeedKit"]),
        .executableTarget(name: "company-example", dependencies: ["SeedKit"], path: "Examples/Company"),
        .executableTarget(
            name: "seed-benchmarks",
            dependencies: ["SeedKit", "CSQLite", "SeedKitPostgreSQL", "CPostgreSQL", "PostgreSQLTestServer"],
            path: "Benchmarks/seed-benchmarks"),
        .testTarget(name: "SeedKitTests", dependencies: ["SeedKit", "seed"]),
        // A throwaway PostgreSQL server for tests and benchmarks; in no product.
        .target(name: "PostgreSQLTestServer", dependencies: ["SeedKitPostgreSQL"], path: "Tests/PostgreSQLTestServer"),
        .testTarget(name: "SeedKitPostgreSQLTests", dependencies: ["SeedKitPostgreSQL", "PostgreSQLTestServer"]),
    ],
    swiftLanguageModes: [.v6]
)
