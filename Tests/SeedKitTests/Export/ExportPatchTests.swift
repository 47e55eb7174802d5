import Foundation
import Testing
import SeedKit
@testable import SeedKitExport

/// `seed diff --format json-patch`: applied to the old export, the patch gives the new export.
@Suite struct ExportPatchTests {
    /// A random company in the sample model: departments, employees and managers, projects shared many-to-many,
    /// and ordered owned addresses without identity.
    private func randomCompany(_ generator: inout SeededGenerator) throws -> ObjectContext {
        let context = ObjectContext(model: try Fixtures.sampleModel())
        let departments = try (0..<Int.random(in: 1...4, using: &generator)).map {
            try context.insert("Department", values: ["name": "D\($0)", "budget": Decimal($0 * 1000)])
        }
        let projects = try (0..<Int.random(in: 0...4, using: &generator)).map {
            try context.insert("Project", values: ["code": "P\($0)", "title": "Project \($0)"])
        }
        for index in 0..<Int.random(in: 0...12, using: &generator) {
            let isManager = Bool.random(using: &generator)
            var values: [String: Any] = ["email": "e\(index)@example.com", "name": "Person \(index)"]
            if isManager { values["level"] = Int64(index % 3) }
            let employee = try context.insert(isManager ? "Manager" : "Employee", values: values)
            try employee.setValue(departments.randomElement(using: &generator)!, forKey: "department")
            for project in projects where Bool.random(using: &generator) { try employee.add(project, to: "projects") }
            for street in 0..<Int.random(in: 0...3, using: &generator) {
                let address = try context.insert("Address", values: ["street": "\(street) Road", "city": "C\(street % 2)"])
                try employee.add(address, to: "addresses")
            }
        }
        return context
    }

    /// A few random edits of every kind the diff reports.
    private func edit(_ context: ObjectContext, _ generator: inout SeededGenerator) throws {
        let employees = try context.fetch("Employee")
        let departments = try context.fetch("Department")
        let projects = try context.fetch("Project")
        for _ in 0..<Int.random(in: 1...5, using: &generator) {
            switch Int.random(in: 0..<7, using: &generator) {
            case 0:
                if let employee = employees.randomElement(using: &generator), employee.context != nil {
                    try employee.setValue("Renamed \(Int.random(in: 0..<100, using: &generator))", forKey: "name")
                }
            case 1:
                if let employee = employees.randomElement(using: &generator), employee.context != nil { try context.delete(employee) }
            case 2:
                let employee = try context.insert(
                    "Employee", values: ["email": "new\(Int.random(in: 0..<1000, using: &generator))@example.com", "name": "New"])
                try employee.setValue(departments.randomElement(using: &generator)!, forKey: "department")
            case 3:
                if let employee = employees.randomElement(using: &generator), employee.context != nil {
                    try employee.setValue(departments.randomElement(using: &generator)!, forKey: "department")
                }
            case 4:
                if let employee = employees.randomElement(using: &generator), employee.context != nil,
                    let project = projects.randomElement(using: &generator)
                {
                    let members = try #require(employee.value(forKey: "projects") as? [ManagedObject])
                    if members.contains(where: { $0 === project }) {
                        try employee.remove(project, from: "projects")
                    } else {
                        try employee.add(project, to: "projects")
                    }
                }
            case 5:
                if let employee = employees.randomElement(using: &generator), employee.context != nil {
                    let addresses = try #require(employee.value(forKey: "addresses") as? [ManagedObject])
                    try employee.setValue(Array(addresses.reversed()), forKey: "addresses")
                    if let address = addresses.first { try address.setValue("Elsewhere", forKey: "city") }
                }
            default:
                if let department = departments.randomElement(using: &generator) {
                    try department.setValue(Decimal(Int.random(in: 0..<10_000, using: &generator)), forKey: "budget")
                }
            }
        }
    }

    @Test func applyingThePatchToTheOldExportGivesTheNewOne() throws {
        var generator = SeededGenerator(seed: 6)
        var nonEmpty = 0
        for _ in 0..<150 {
            let context = try randomCompany(&generator)
            let oldBytes = try GraphExport().document(of: context)
            try edit(context, &generator)
            let newBytes = try GraphExport().document(of: context)
            let patch = JSONPatch(from: try ExportDocument(bytes: oldBytes), to: try ExportDocument(bytes: newBytes))
            let patched = try patch.apply(to: JSONDocument(parsing: oldBytes).value)
            #expect(patched == (try JSONDocument(parsing: newBytes).value))
            #expect(patch.operations.isEmpty == (oldBytes == newBytes))
            if !patch.operations.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty > 100)
    }

    @Test func aPatchTouchesOnlyWhatChanged() throws {
        var generator = SeededGenerator(seed: 7)
        let context = try randomCompany(&generator)
        let department = try #require(try context.fetch("Department").first)
        let oldBytes = try GraphExport().document(of: context)
        try department.setValue(Decimal(string: "12345678901234567890.123")!, forKey: "budget")
        let newBytes = try GraphExport().document(of: context)
        let patch = JSONPatch(from: try ExportDocument(bytes: oldBytes), to: try ExportDocument(bytes: newBytes))
        #expect(patch.json.text(style: .canonical)
            == #"[{"op":"replace","path":"/objects/0/budget","value":12345678901234567890.123}]"#)
    }

    @Test func aModelChangeReplacesTheModel() throws {
        let context = ObjectContext(model: try Fixtures.sampleModel())
        _ = try context.insert("Department", values: ["name": "Sales"])
        let oldBytes = try GraphExport().document(of: context)
        var declarations = context.model.declarations
        let index = try #require(declarations.firstIndex { $0.name == "Project" })
        declarations[index].attributes.append(AttributeDescription("note", .string, isOptional: true))
        let newContext = ObjectContext(model: try EntityModel(declarations))
        _ = try newContext.insert("Department", values: ["name": "Sales"])
        let newBytes = try GraphExport().document(of: newContext)
        let patch = JSONPatch(from: try ExportDocument(bytes: oldBytes), to: try ExportDocument(bytes: newBytes))
        #expect(patch.operations.map(\.name) == ["replace"])
        #expect(try patch.apply(to: JSONDocument(parsing: oldBytes).value) == JSONDocument(parsing: newBytes).value)
    }

    @Test func longestIncreasingRunKeepsTheMostObjectsInPlace() {
        #expect(JSONPatch.longestIncreasingRun([]) == [])
        #expect(JSONPatch.longestIncreasingRun([0, 1, 2]) == [0, 1, 2])
        #expect(JSONPatch.longestIncreasingRun([2, 0, 1]) == [1, 2])
        #expect(JSONPatch.longestIncreasingRun([3, 1, 2, 0, 4]).map { [3, 1, 2, 0, 4][$0] } == [1, 2, 4])
    }
}
