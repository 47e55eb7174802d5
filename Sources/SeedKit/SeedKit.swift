// SeedKit, the library: `import SeedKit` gives everything a user of SeedKit needs, from every layer.
//
// The layers are targets of their own, each importing only those below it (see Package.swift and
// .ci/check-layers): Support, JSON, SQLite, Model, Objects, Coding, Store, Seeding, Export.
@_exported import SeedKitCoding
@_exported import SeedKitExport
@_exported import SeedKitJSON
@_exported import SeedKitModel
@_exported import SeedKitObjects
@_exported import SeedKitSQLite
@_exported import SeedKitSeeding
@_exported import SeedKitStore
