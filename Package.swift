// swift-tools-version:6.0
import PackageDescription

// SeedKit has no package dependencies by design: the outside pieces are system libraries, SQLite and libpq
// (PostgreSQL's client), reached through the CSQLite and CPostgreSQL system-library targets.
//
// The library is a stack of layers, each a target that may depend only on the ones listed before it (.ci/check-layers
// checks the imports too); `SeedKit` re-exports them all, so users import that one module.
let package = Package(
    name: "SeedKit",
    // Duration and ContinuousClock set the floor; Observation support is marked available from macOS 14 and iOS 17.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "SeedKit", targets: ["SeedKit"]),
        .executable(name: "seed", targets: ["seed"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]),
        // libpq's header only: the library is loaded when a program first reaches PostgreSQL (LibPQ.swift), so
        // nothing links it (pkg-config would add -lpq).
        .systemLibrary(
            name: "CPostgreSQL",
            path: "Sources/CPostgreSQL",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        // Locks, the stable hash, did-you-mean suggestions, terminal text: package-level helpers every layer may use.
        .target(name: "SeedKitSupport"),
        // Our JSON reader and writer, JSON Pointer and Patch, source locations and diagnostics.
        .target(name: "SeedKitJSON", dependencies: ["SeedKitSupport"]),
        // The SQLite connection layer; knows nothing of the model.
        .target(name: "SeedKitSQLite", dependencies: ["CSQLite", "SeedKitSupport"]),
        // The PostgreSQL connection layer: a leaf like the SQLite one, knowing nothing of the model.
        .target(name: "SeedKitPostgreSQL", dependencies: ["CPostgreSQL"]),
        // The entity model: entities, attribute values, model files, validation.
        .target(name: "SeedKitModel", dependencies: ["SeedKitJSON"]),
        // Managed objects, contexts, class reflection, and the PersistentStore protocol contexts talk to.
        .target(name: "SeedKitObjects", dependencies: ["SeedKitModel"]),
        // toDictionary / fromDictionary / populate.
        .target(name: "SeedKitCoding", dependencies: ["SeedKitObjects"]),
        // The SQLite store: every line of SQL of saves, fetches, faults, schema and migration.
        .target(name: "SeedKitStore", dependencies: ["SeedKitCoding", "SeedKitSQLite"]),
        // The PostgreSQL store: the same layout, ledger and row interface on a shared server.
        .target(name: "SeedKitPostgreSQLStore", dependencies: ["SeedKitCoding", "SeedKitPostgreSQL"]),
        // Template sets, the seeding pipeline and its ledger, model inference, the template schema.
        // The PostgreSQL store comes where libpq does: not on iOS, tvOS, watchOS or visionOS.
        .target(
            name: "SeedKitSeeding",
            dependencies: [
                "SeedKitStore",
                .target(name: "SeedKitPostgreSQLStore", condition: .when(platforms: [.linux, .macOS, .windows])),
            ]),
        // Canonical exports, export documents, the semantic graph diff and its formats.
        .target(name: "SeedKitExport", dependencies: ["SeedKitSeeding"]),
        .target(name: "SeedKit", dependencies: ["SeedKitExport"]),
        .executableTarget(name: "seed", dependencies: ["SeedKit", "SeedKitSupport"]),
        .executableTarget(name: "company-example", dependencies: ["SeedKit"], path: "Examples/Company"),
        .executableTarget(name: "edit-screen-example", dependencies: ["SeedKit"], path: "Examples/EditScreen"),
        .executableTarget(
            name: "seed-benchmarks",
            dependencies: ["SeedKit", "CSQLite", "SeedKitPostgreSQL", "CPostgreSQL", "PostgreSQLTestServer"],
            path: "Benchmarks/seed-benchmarks"),
        .testTarget(name: "SeedKitTests", dependencies: ["SeedKit", "seed", "PostgreSQLTestServer"]),
        // A throwaway PostgreSQL server for tests and benchmarks; in no product.
        .target(name: "PostgreSQLTestServer", dependencies: ["SeedKitPostgreSQL"], path: "Tests/PostgreSQLTestServer"),
        .testTarget(name: "SeedKitPostgreSQLTests", dependencies: ["SeedKitPostgreSQL", "PostgreSQLTestServer"]),
        .testTarget(name: "SeedKitPostgreSQLStoreTests", dependencies: ["SeedKitPostgreSQLStore", "PostgreSQLTestServer"]),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer targets of Fuzz/ (Fuzz/Targets/NAME, run by Fuzz/run): declared only when SEEDKIT_FUZZ is set,
// since libFuzzer supplies their `main` and they link only with -sanitize=fuzzer; `swift build` and `swift test` never
// see them. The fuzz build has no other executables or tests, so that one `swift build` builds every target.
if Context.environment["SEEDKIT_FUZZ"] != nil {
    package.products.removeAll { $0.name == "seed" }
    package.targets.removeAll { $0.type == .executable || $0.type == .test }
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["SeedKit"], path: "Fuzz/Support"))
    // The layers whose internals the targets check (built with -enable-testing).
    let layers: [Target.Dependency] = ["SeedKitSupport", "SeedKitJSON", "SeedKitModel", "SeedKitSeeding", "SeedKitExport"]
    for name in ["decode", "export", "json", "model", "patch", "seed"] {
        package.targets.append(
            .executableTarget(
                name: "fuzz-\(name)", dependencies: ["SeedKit", "FuzzSupport"] + layers, path: "Fuzz/Targets/\(name)",
                swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
    }
}
