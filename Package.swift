// swift-tools-version:6.0
import PackageDescription

// SeedKit has no package dependencies by design: the one outside piece is the system SQLite library, reached through
// the CSQLite system-library target.
//
// The library is a stack of layers, each a target that may depend only on the ones listed before it (.ci/check-layers
// checks the imports too); `SeedKit` re-exports them all, so users import that one module.
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
        // Locks, the stable hash, did-you-mean suggestions: package-level helpers every layer may use.
        .target(name: "SeedKitSupport"),
        // Our JSON reader and writer, JSON Pointer and Patch, source locations and diagnostics.
        .target(name: "SeedKitJSON", dependencies: ["SeedKitSupport"]),
        // The SQLite connection layer; knows nothing of the model.
        .target(name: "SeedKitSQLite", dependencies: ["CSQLite", "SeedKitSupport"]),
        // The entity model: entities, attribute values, model files, validation.
        .target(name: "SeedKitModel", dependencies: ["SeedKitJSON"]),
        // Managed objects, contexts, class reflection, and the PersistentStore protocol contexts talk to.
        .target(name: "SeedKitObjects", dependencies: ["SeedKitModel"]),
        // toDictionary / fromDictionary / populate.
        .target(name: "SeedKitCoding", dependencies: ["SeedKitObjects"]),
        // The SQLite store: every line of SQL of saves, fetches, faults, schema and migration.
        .target(name: "SeedKitStore", dependencies: ["SeedKitCoding", "SeedKitSQLite"]),
        // Template sets, the seeder and its ledger, model inference, the template schema.
        .target(name: "SeedKitSeeding", dependencies: ["SeedKitStore"]),
        // Canonical exports, export documents, the semantic graph diff and its formats.
        .target(name: "SeedKitExport", dependencies: ["SeedKitSeeding"]),
        .target(name: "SeedKit", dependencies: ["SeedKitExport"]),
        .executableTarget(name: "seed", dependencies: ["SeedKit"]),
        .executableTarget(name: "company-example", dependencies: ["SeedKit"], path: "Examples/Company"),
        .executableTarget(
            name: "seed-benchmarks",
            dependencies: ["SeedKit", "CSQLite"],
            path: "Benchmarks/seed-benchmarks"),
        .testTarget(name: "SeedKitTests", dependencies: ["SeedKit", "seed"]),
    ],
    swiftLanguageModes: [.v6]
)
