// SeedKit, the library: `import SeedKit` gives everything a user of SeedKit needs, from every layer.
//
// The layers are targets of their own, each importing only those below it (see Package.swift and
// .ci/check-layers): Support, JSON, SQLite, PostgreSQL, Model, Objects, Coding, Store, PostgreSQLStore, Seeding, Export.
// The PostgreSQL store comes where libpq does (see Package.swift).
@_exported import SeedKitCoding
@_exported import SeedKitExport
@_exported import SeedKitJSON
@_exported import SeedKitModel
@_exported import SeedKitObjects
@_exported import SeedKitSQLite
@_exported import SeedKitSeeding
@_exported import SeedKitStore
#if canImport(SeedKitPostgreSQLStore)
@_exported import SeedKitPostgreSQL
@_exported import SeedKitPostgreSQLStore
#endif
