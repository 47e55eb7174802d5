// swift-tools-version:6.0
import PackageDescription

// SeedKit has no package dependencies by design: the one outside piece is the system SQLite library,
// reached through the CSQLite system-library target.
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
        .target(name: "SeedKit", dependencies: ["CSQLite"]),
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

// The libFuzzer targets of Fuzz/ (Fuzz/Targets/NAME, run by Fuzz/run): declared only when SEEDKIT_FUZZ is set,
// since libFuzzer supplies their `main` and they link only with -sanitize=fuzzer; `swift build` and `swift test` never
// see them.
if Context.environment["SEEDKIT_FUZZ"] != nil {
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["SeedKit"], path: "Fuzz/Support"))
    for name in ["decode", "export", "json", "model", "patch"] {
        package.targets.append(
            .executableTarget(
                name: "fuzz-\(name)", dependencies: ["SeedKit", "FuzzSupport"], path: "Fuzz/Targets/\(name)",
                swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
    }
}
