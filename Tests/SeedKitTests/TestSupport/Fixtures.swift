import Foundation
import SeedKit

// Typed classes of the sample company: departments, employees, a manager subentity, projects shared many-to-many,
// and addresses an employee owns.

final class Department: ManagedObject {
    @Attribute var name: String
    @Attribute var budget: Decimal?
    @Relationship(inverse: "department") var employees: [Employee]
    override class var identity: [String] { ["name"] }
}

class Employee: ManagedObject {
    @Attribute var name: String
    @Attribute var email: String
    @Attribute var hired: Date?
    @Attribute var address: String = ""
    @Relationship(inverse: "employees") var department: Department?
    @Relationship(inverse: "members") var projects: Set<Project>
    @Relationship(inverse: "resident", ordered: true, owns: true) var addresses: [Address]
    override class var identity: [String] { ["email"] }
}

final class Manager: Employee {
    @Attribute var level: Int
    @Relationship(inverse: "manager", deleteRule: .deny) var reports: [Report]
}

final class Project: ManagedObject {
    @Attribute var code: String
    @Relationship(inverse: "projects") var members: [Employee]
    override class var identity: [String] { ["code"] }
}

final class Address: ManagedObject {
    @Attribute var street: String
    @Relationship(inverse: "addresses") var resident: Employee?
}

final class Report: ManagedObject {
    @Attribute var title: String
    @Relationship(inverse: "reports") var manager: Manager?
}

/// Shared fixtures for the test suite: one place for sample models, graphs and temporary files.
enum Fixtures {
    /// The company model, from the typed classes above.
    static func companyModel() throws -> EntityModel {
        try EntityModel(classes: [Department.self, Employee.self, Manager.self, Project.self, Address.self, Report.self])
    }

    /// A context over the company model.
    static func companyContext() throws -> ObjectContext {
        ObjectContext(model: try companyModel())
    }

    /// The model of the issue's model file, as declarations (no Swift classes).
    static let fileModelDeclarations: [EntityDescription] = [
        EntityDescription(
            "Department", identity: ["name"],
            attributes: [AttributeDescription("name", .string), AttributeDescription("budget", .decimal, isOptional: true)],
            relationships: [RelationshipDescription("employees", to: "Employee", isToMany: true, inverse: "department")]),
        EntityDescription(
            "Employee", identity: ["email"],
            attributes: [
                AttributeDescription("name", .string), AttributeDescription("email", .string),
                AttributeDescription("hired", .date, isOptional: true),
                AttributeDescription("address", .string, isOptional: true, defaultValue: .string("")),
            ],
            relationships: [RelationshipDescription("department", to: "Department", inverse: "employees")]),
        EntityDescription("Manager", parent: "Employee", attributes: [AttributeDescription("level", .integer)]),
    ]

    /// The issue's model file text, exactly as written there.
    static let modelFileText = """
        {
          "entities": {
            "Department": {
              "identity": ["name"],
              "attributes": { "name": "string", "budget": "decimal?" },
              "relationships": { "employees": { "to": "Employee", "many": true, "inverse": "department" } }
            },
            "Employee": {
              "identity": ["email"],
              "attributes": {
                "name": "string", "email": "string", "hired": "date?",
                "address": { "type": "string", "optional": true, "default": "" }
              },
              "relationships": { "department": { "to": "Department", "inverse": "employees" } }
            },
            "Manager": { "parent": "Employee", "attributes": { "level": "integer" } }
          }
        }
        """

    /// A fresh temporary directory, removed by the caller with `removeTemporaryDirectory`.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("seedkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

// Store fixtures: a model with one attribute of every type, and temporary store files.
extension Fixtures {
    /// One entity with an attribute of every type, all optional, identified by `key`.
    static func everyTypeModel() throws -> EntityModel {
        try EntityModel([
            EntityDescription(
                "Sample", identity: ["key"],
                attributes: [AttributeDescription("key", .string)]
                    + AttributeType.allCases.filter { $0 != .string }.map { AttributeDescription("\($0)Value", $0, isOptional: true) }),
        ])
    }

    /// A path for a new store file in a fresh temporary directory.
    static func temporaryStorePath() throws -> String {
        try temporaryDirectory().appendingPathComponent("store.sqlite").path
    }
}

// Seeding fixtures: a private copy of the sample template set, and the store a seed run wrote.
extension Fixtures {
    /// A fresh directory holding a copy of the repository's Templates/ as `Templates`.
    static func sampleTemplatesCopy() throws -> URL {
        let directory = try temporaryDirectory()
        try FileManager.default.copyItem(
            at: packageRoot.appendingPathComponent("Templates"), to: directory.appendingPathComponent("Templates"))
        return directory
    }

    /// A copy of the sample set (as ``sampleTemplatesCopy()``) seeded into its `seed.sqlite`, whose templates then
    /// gained Project ZEUS: a store that no longer holds what its templates say.
    static func seededSampleWithANewProject() throws -> URL {
        let directory = try sampleTemplatesCopy()
        let seeded = try runSeed(["--quiet"], in: directory)
        guard seeded.status == 0 else { throw SeedError("the sample set did not seed: \(seeded.stderr)") }
        try write(#"{"class": "Project", "code": "ZEUS", "title": "Zeus"}"#, to: "Templates/projects/zeus.template", in: directory)
        return directory
    }

    /// The sample set's model, read from Templates/model.json.
    static func sampleModel() throws -> EntityModel {
        try EntityModel(contentsOf: packageRoot.appendingPathComponent("Templates/model.json"))
    }

    /// Writes `text` to `path` below `directory`, creating folders.
    static func write(_ text: String, to path: String, in directory: URL) throws {
        let url = directory.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
}
