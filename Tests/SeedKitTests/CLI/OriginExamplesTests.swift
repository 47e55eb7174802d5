import Foundation
import Testing

import SeedKit
import SeedKitSupport

/// The origin post's two template forms (an Employee with its Department nested; a Department with its Employees
/// nested), alone and together, with and without a model file, through the real `seed` binary: one John Johnson, two
/// employees in Boring Department, and the model their author would have written.
@Suite("seed command: the origin's examples")
struct OriginExamplesTests {
    enum Form: String, CaseIterable, Sendable {
        case employee, department, both
    }

    /// A directory with the form's templates in Templates/, and the model file when `withModel`.
    private func templates(_ form: Form, withModel: Bool) throws -> URL {
        let directory = try Fixtures.temporaryDirectory()
        if form != .department {
            try Fixtures.write(Fixtures.originEmployeeTemplate, to: "Templates/john.template", in: directory)
        }
        if form != .employee {
            try Fixtures.write(Fixtures.originDepartmentTemplate, to: "Templates/boring.template", in: directory)
        }
        if withModel { try Fixtures.write(Fixtures.originModelText, to: "Templates/model.json", in: directory) }
        return directory
    }

    /// Each employee of the store's export, by name, with the name of its department: its own `department`, or the
    /// department whose `employees` name it (a form alone states only one of the two).
    private func employees(in directory: URL) throws -> [String: String] {
        let export = try Fixtures.runSeed(["export"], in: directory)
        try #require(export.status == 0, "\(export.stderr)")
        let objects = try JSONDocument(parsing: Array(export.stdout.utf8)).value["objects"]?.arrayValue ?? []
        var found: [String: String] = [:]
        for object in objects where object["class"] == "Employee" {
            let name = try #require(object["name"]?.stringValue)
            #expect(found[name] == nil, "\(name) is stored once")
            found[name] = object["department"]?["name"]?.stringValue ?? "none"
        }
        for department in objects where department["class"] == "Department" {
            for member in department["employees"]?.arrayValue ?? [] {
                let name = try #require(member["name"]?.stringValue)
                #expect(
                    found[name] == "none" || found[name] == department["name"]?.stringValue, "\(name): one department")
                found[name] = department["name"]?.stringValue
            }
        }
        return found
    }

    @Test(arguments: Form.allCases, [false, true])
    func eachFormSeedsWhatItSays(form: Form, withModel: Bool) throws {
        let directory = try templates(form, withModel: withModel)
        defer { try? FileManager.default.removeItem(at: directory) }
        let seeded = try Fixtures.runSeed([], in: directory)
        #expect(seeded.status == 0)
        #expect(seeded.stderr.isEmpty == withModel, "a warning exactly when the model is inferred")
        #expect(seeded.stdout.contains("\nDepartment         1        0"))
        #expect(seeded.stdout.contains("\nEmployee           \(form == .employee ? 1 : 2)        0"))
        switch form {
        case .employee:
            #expect(try employees(in: directory) == ["John Johnson": "Boring Department"])
        case .department, .both:
            // The employees nested in the department belong to it, through the inverse of Department.employees.
            #expect(
                try employees(in: directory) == [
                    "John Johnson": "Boring Department", "Jane Jansen": "Boring Department",
                ])
        }
        #expect(try Fixtures.runSeed([], in: directory).stdout.hasPrefix("seed: unchanged"))
    }

    /// Without a model file, both forms together give the model the post's author would have written; each form
    /// alone, the part of it that its template shows.
    @Test func theInferredModelIsTheOneHeWouldHaveWritten() throws {
        let written = try EntityModel(json: JSONDocument(parsing: Fixtures.originModelText).value)
        for form in Form.allCases {
            let directory = try templates(form, withModel: false)
            defer { try? FileManager.default.removeItem(at: directory) }
            let printed = try Fixtures.runSeed(["model"], in: directory)
            #expect(printed.status == 0 && printed.stderr.isEmpty)
            let model = try EntityModel(json: JSONDocument(parsing: Array(printed.stdout.utf8)).value)
            var expected = written.declarations
            for index in expected.indices {
                // Only the Employee form alone names its Department without stating it.
                if form != .employee { expected[index].isCreatedByReference = false }
                // A form alone states one direction of the relationship only, so no inverse.
                expected[index].relationships = expected[index].relationships.compactMap { relationship in
                    var relationship = relationship
                    if form != .both { relationship.inverse = nil }
                    if form == .employee && relationship.name == "employees" { return nil }
                    if form == .department && relationship.name == "department" { return nil }
                    return relationship
                }
            }
            #expect(model.declarations == expected, "\(form)")
        }
        let directory = try templates(.both, withModel: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let warning = try Fixtures.runSeed(["validate"], in: directory).stderr
        #expect(
            warning == "seed: warning: no model.json in Templates; using a model inferred from the templates (it takes "
                + "Department.employees and Employee.department as inverses) — run 'seed model --write' to write it to "
                + "Templates/model.json, and 'seed model --summary' for why\n")
        let summary = try Fixtures.runSeed(["model", "--summary"], in: directory).stdout
        #expect(
            summary.contains(
                "\n  Employee identity(name): named like an identifier and stated by every object; its values "
                    + #"differ but where one object is stated more than once, alike ("John Johnson" 2 times: "#
                    + "Templates/boring.template:5:9, Templates/john.template:1:1)\n"))
        #expect(
            summary.contains(
                "\n  Department.employees and Employee.department inverses: the only relationships between "
                    + "Department and Employee, one each way\n"))
    }
}
