import Foundation

// The template sets the seeder benchmarks run on, shaped the way people write them: each a model, a generator of
// its files, and an edit of a tenth of its files for a later launch. The Python peer (`scripts/orjson_seed.py`)
// knows each shape by name and writes the same rows.

/// One shape of template set.
struct SeedShape {
    let name: String
    let summary: String
    /// The number of objects the templates state.
    let objectCount: Int
    let model: String
    /// Every file, by relative path.
    let files: () -> [(path: String, text: String)]
    /// The files a later launch finds changed: a tenth of them, each edited as a person would.
    let changedFiles: () -> [(path: String, text: String)]

    /// Writes the model and every file under `directory`.
    func write(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(model.utf8).write(to: directory.appendingPathComponent("model.json"))
        try Self.write(files(), to: directory)
    }

    /// Rewrites a tenth of the files; returns how many.
    func change(in directory: URL) throws -> Int {
        let changed = changedFiles()
        try Self.write(changed, to: directory)
        return changed.count
    }

    private static func write(_ files: [(path: String, text: String)], to directory: URL) throws {
        var made = Set<String>()
        for (path, text) in files {
            let url = directory.appendingPathComponent(path)
            let folder = url.deletingLastPathComponent().path
            if made.insert(folder).inserted {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            try Data(text.utf8).write(to: url)
        }
    }
}

private func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

/// A date in February 2024 that varies with `index`.
private func date(_ index: Int) -> String {
    let second = index % 60, minute = index / 60 % 60, hour = index / 3600 % 24, day = index / 86400 % 28 + 1
    return "2024-02-\(twoDigits(day))T\(twoDigits(hour)):\(twoDigits(minute)):\(twoDigits(second))Z"
}

private func numbered(_ prefix: String, _ index: Int, width: Int) -> String {
    let digits = String(index)
    return prefix + String(repeating: "0", count: max(0, width - digits.count)) + digits
}

// MARK: Flat: 2,000 files of 100 objects

/// 1,000 groups in the first 10 files, then 199,000 items naming their group by identity stub: what exports look like.
private var flatShape: SeedShape {
    let fileCount = 2_000, perFile = 100, groupFiles = 10
    let groupCount = groupFiles * perFile
    func file(_ number: Int, edited: Bool) -> (path: String, text: String) {
        var text = "[\n"
        for position in 0..<perFile {
            let index = number * perFile + position
            if position > 0 { text += ",\n" }
            if number < groupFiles {
                text += #"  { "class": "Group", "name": "g\#(index)", "title": "Group number \#(index)\#(edited ? " (renamed)" : "")" }"#
            } else {
                text += #"  { "class": "Item", "code": "item-\#(index)", "name": "Item \#(index) of the catalogue", "#
                    + #""quantity": \#(index % 977 + (edited ? 1 : 0)), "price": \#(index % 10_000).25, "#
                    + #""created": "\#(date(index))", "group": { "class": "Group", "name": "g\#(index % groupCount)" } }"#
            }
        }
        return (numbered("part-", number, width: 4) + ".template", text + "\n]\n")
    }
    return SeedShape(
        name: "flat", summary: "2,000 files of 100 flat objects naming their group by identity",
        objectCount: fileCount * perFile,
        model: """
            {
              "entities": {
                "Group": { "identity": ["name"], "attributes": { "name": "string", "title": "string" } },
                "Item": {
                  "identity": ["code"],
                  "attributes": { "code": "string", "name": "string", "quantity": "integer", "price": "double", "created": "date" },
                  "relationships": { "group": { "to": "Group" } }
                }
              }
            }
            """,
        files: { (0..<fileCount).map { file($0, edited: false) } },
        changedFiles: { stride(from: 5, to: fileCount, by: 10).map { file($0, edited: true) } })
}

// MARK: Nested, as the origin writes it

/// One Department per file with its Employees nested, each owning a nested Address (to-one) and naming Projects by
/// identity stub (many-to-many); the projects in a file of their own.
private var nestedShape: SeedShape {
    let departmentCount = 2_000, perDepartment = 50, projectCount = 500
    func department(_ number: Int, edited: Bool) -> (path: String, text: String) {
        var text = """
            {
              "class": "Department", "name": "Department \(number)", "budget": \(100_000 + number * 10 + (edited ? 5 : 0)).5,
              "employees": [

            """
        for position in 0..<perDepartment {
            let index = number * perDepartment + position
            if position > 0 { text += ",\n" }
            let salary = 30_000 + index % 20_000 + (edited ? 500 : 0)
            text += """
                    {
                      "class": "Employee", "email": "e\(index)@example.com", "name": "Employee \(index)",
                      "salary": \(salary).5, "hired": "\(date(index))",
                      "address": { "street": "\(index % 300) Main Street", "city": "City \(index % 97)", "postcode": "\(10_000 + index % 80_000)" },
                      "projects": [ { "class": "Project", "code": "p\(index % projectCount)" }, { "class": "Project", "code": "p\((index * 7 + 3) % projectCount)" } ]
                    }
                """
        }
        return (numbered("departments/d", number, width: 4) + ".template", text + "\n  ]\n}\n")
    }
    let projects = (0..<projectCount).map { #"  { "class": "Project", "code": "p\#($0)", "title": "Project \#($0)" }"# }
    return SeedShape(
        name: "nested",
        summary: "2,000 files of one Department with 50 Employees nested, each owning an Address and naming 2 Projects",
        objectCount: departmentCount * (1 + 2 * perDepartment) + projectCount,
        model: """
            {
              "entities": {
                "Department": {
                  "identity": ["name"], "attributes": { "name": "string", "budget": "double" },
                  "relationships": { "employees": { "to": "Employee", "many": true, "inverse": "department" } }
                },
                "Employee": {
                  "identity": ["email"],
                  "attributes": { "email": "string", "name": "string", "salary": "double", "hired": "date" },
                  "relationships": {
                    "department": { "to": "Department", "inverse": "employees" },
                    "address": { "to": "Address", "owns": true, "inverse": "employee" },
                    "projects": { "to": "Project", "many": true, "inverse": "members" }
                  }
                },
                "Address": {
                  "attributes": { "street": "string", "city": "string", "postcode": "string" },
                  "relationships": { "employee": { "to": "Employee", "inverse": "address" } }
                },
                "Project": {
                  "identity": ["code"], "attributes": { "code": "string", "title": "string" },
                  "relationships": { "members": { "to": "Employee", "many": true, "inverse": "projects" } }
                }
              }
            }
            """,
        files: { [("projects.template", "[\n" + projects.joined(separator: ",\n") + "\n]\n")] + (0..<departmentCount).map { department($0, edited: false) } },
        changedFiles: { stride(from: 5, to: departmentCount, by: 10).map { department($0, edited: true) } })
}

// MARK: One object per file, as the origin lays them out

/// 1,000 departments and 199,000 employees naming theirs by identity stub, each object in a file of its own, a
/// thousand files to a directory.
private var filePerObjectShape: SeedShape {
    let departmentCount = 1_000, employeeCount = 199_000
    func department(_ number: Int, edited: Bool) -> (path: String, text: String) {
        (numbered("departments/d", number, width: 4) + ".template",
         #"{ "class": "Department", "name": "Department \#(number)", "budget": \#(100_000 + number + (edited ? 7 : 0)).5 }"# + "\n")
    }
    func employee(_ index: Int, edited: Bool) -> (path: String, text: String) {
        (numbered("employees/", index / 1000, width: 3) + numbered("/e", index, width: 6) + ".template", """
            {
              "class": "Employee", "email": "e\(index)@example.com", "name": "Employee \(index)",
              "salary": \(30_000 + index % 20_000 + (edited ? 500 : 0)).5, "hired": "\(date(index))",
              "department": { "class": "Department", "name": "Department \(index % departmentCount)" }
            }

            """)
    }
    return SeedShape(
        name: "files", summary: "200,000 files of one object each: 1,000 departments, 199,000 employees naming theirs",
        objectCount: departmentCount + employeeCount,
        model: """
            {
              "entities": {
                "Department": {
                  "identity": ["name"], "attributes": { "name": "string", "budget": "double" },
                  "relationships": { "employees": { "to": "Employee", "many": true, "inverse": "department" } }
                },
                "Employee": {
                  "identity": ["email"],
                  "attributes": { "email": "string", "name": "string", "salary": "double", "hired": "date" },
                  "relationships": { "department": { "to": "Department", "inverse": "employees" } }
                }
              }
            }
            """,
        files: { (0..<departmentCount).map { department($0, edited: false) } + (0..<employeeCount).map { employee($0, edited: false) } },
        changedFiles: {
            stride(from: 5, to: departmentCount, by: 10).map { department($0, edited: true) }
                + stride(from: 5, to: employeeCount, by: 10).map { employee($0, edited: true) }
        })
}

var seedShapes: [SeedShape] { [flatShape, nestedShape, filePerObjectShape] }
