import Foundation
import SeedKit

// A runnable tour of SeedKit's object layer: `swift run company-example`.
// Typed classes and a model file give the same model; contexts are scratchpads with identity-aware inserts.

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
    override class var identity: [String] { ["email"] }
}

final class Manager: Employee {
    @Attribute var level: Int
}

final class Project: ManagedObject {
    @Attribute var code: String
    @Relationship(inverse: "projects") var members: [Employee]
    override class var identity: [String] { ["code"] }
}

do {
    let model = try EntityModel(classes: [Department.self, Employee.self, Manager.self, Project.self])
    let context = ObjectContext(model: model)

    let sales = Department(context: context)
    sales.name = "Sales"
    sales.budget = Decimal(string: "1250000.50")
    let ann = Manager(context: context)
    ann.name = "Ann"
    ann.email = "ann@example.com"
    ann.level = 2
    ann.department = sales
    let bob = Employee(context: context)
    bob.name = "Bob"
    bob.email = "bob@example.com"
    sales.employees.append(bob)                    // either side of an inverse keeps the other consistent
    let apollo = Project(context: context)
    apollo.code = "APOLLO"
    apollo.members = [ann, bob]                    // many-to-many
    try context.save()

    print("Sales employees:", sales.employees.map(\.name))
    print("Bob's department:", try bob.value(forKeyPath: "department.name") ?? "none")
    print("Bob's projects:", bob.projects.map(\.code))

    // Uniqued by identity: upsert finds the saved department instead of creating a second one.
    let (found, inserted) = try context.upsert("Department", identity: ["name": "Sales"])
    print("upsert Sales:", found === sales ? "the existing department" : "a new one", "(inserted: \(inserted))")
    do {
        try context.insert("Department", values: ["name": "Sales"])
    } catch {
        print("insert Sales again:", error)
    }

    // The cancel button: rollback discards every unsaved change.
    sales.name = "Renamed"
    try context.delete(bob)
    context.rollback()
    print("after rollback:", sales.name, sales.employees.map(\.name))

    // The same model as a model file, which reads back as an equal model.
    let text = model.json.text(style: .pretty)
    print("model file round trip equal:", try EntityModel(json: JSONDocument(parsing: text).value) == model)
} catch {
    FileHandle.standardError.write(Data("company-example: \(error)\n".utf8))
    exit(1)
}
