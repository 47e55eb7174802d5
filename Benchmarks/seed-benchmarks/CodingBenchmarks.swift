import Foundation
import SeedKit

// toDictionary on a graph with back references, against a hand-written walker per class and a Mirror walker.

private final class CodingDepartment: ManagedObject {
    @Attribute var name: String
    @Attribute var budget: Int
    @Relationship(inverse: "department") var employees: [CodingEmployee]
    override class var entityName: String { "Department" }
    override class var identity: [String] { ["name"] }
}

private final class CodingEmployee: ManagedObject {
    @Attribute var name: String
    @Attribute var email: String
    @Attribute var salary: Int
    @Relationship(inverse: "employees") var department: CodingDepartment?
    override class var entityName: String { "Employee" }
    override class var identity: [String] { ["email"] }
}

/// Plain classes with the same shape and a back reference, for the peers.
private final class PlainDepartment {
    let name: String
    let budget: Int
    var employees: [PlainEmployee] = []
    init(name: String, budget: Int) {
        self.name = name
        self.budget = budget
    }
}

private final class PlainEmployee {
    let name: String
    let email: String
    let salary: Int
    unowned let department: PlainDepartment
    init(name: String, email: String, salary: Int, department: PlainDepartment) {
        self.name = name
        self.email = email
        self.salary = salary
        self.department = department
    }
}

/// The hand-written peer: one function per class that knows its keys, skipping the back reference, and writing the
/// employees in the order SeedKit gives an unordered relationship (by identity), so that both write the same thing.
private func handWritten(_ department: PlainDepartment) -> [String: Any] {
    [
        "class": "Department", "name": department.name, "budget": department.budget,
        "employees": department.employees.sorted { $0.email < $1.email }.map { employee -> [String: Any] in
            ["class": "Employee", "name": employee.name, "email": employee.email, "salary": employee.salary]
        },
    ]
}

/// The hand-written peer without the sort, in insertion order: a floor for building the dictionaries alone.
private func handWrittenUnsorted(_ department: PlainDepartment) -> [String: Any] {
    [
        "class": "Department", "name": department.name, "budget": department.budget,
        "employees": department.employees.map { employee -> [String: Any] in
            ["class": "Employee", "name": employee.name, "email": employee.email, "salary": employee.salary]
        },
    ]
}

/// The Mirror peer: reflects every object to find its properties, as reflection-based serializers do.
private func mirrored(_ object: AnyObject, skipping parent: AnyObject?) -> [String: Any] {
    var result: [String: Any] = ["class": String(describing: type(of: object))]
    for child in Mirror(reflecting: object).children {
        guard let label = child.label else { continue }
        switch child.value {
        case let related as [AnyObject]: result[label] = related.map { mirrored($0, skipping: object) }
        case let related as AnyObject where related === parent: continue
        default: result[label] = child.value
        }
    }
    return result
}

private let departmentCount = 1_000
private let employeesPerDepartment = 199

var codingBenchmarks: [Benchmark] { [
    Benchmark(name: "to-dictionary", summary: "toDictionary objects/s on 200,000 objects with back references vs a hand-written walker and a Mirror walker") {
        let context = ObjectContext(model: try EntityModel(classes: [CodingDepartment.self, CodingEmployee.self]))
        var departments: [CodingDepartment] = []
        var plainDepartments: [PlainDepartment] = []
        for index in 0..<departmentCount {
            let department = CodingDepartment(context: context)
            department.name = "D\(index)"
            department.budget = index * 1_000
            let plain = PlainDepartment(name: department.name, budget: department.budget)
            for number in 0..<employeesPerDepartment {
                let employee = CodingEmployee(context: context)
                employee.name = "E\(index)-\(number)"
                employee.email = "e\(index)-\(number)@example.com"
                employee.salary = number * 10
                employee.department = department
                plain.employees.append(
                    PlainEmployee(name: employee.name, email: employee.email, salary: employee.salary, department: plain))
            }
            departments.append(department)
            plainDepartments.append(plain)
        }
        let objectCount = Double(departmentCount * (employeesPerDepartment + 1))
        let encoder = GraphEncoder()
        // The peer is only a peer if it writes the same dictionaries.
        guard try encoder.encodeDictionaries(departments).map(JSON.init(any:)) == plainDepartments.map(handWritten).map(JSON.init(any:))
        else { throw BenchmarkFailure(description: "the hand-written walker and SeedKit write different dictionaries") }
        let seedKit = objectCount / (fastest(repetitions: 3) { blackHole(encoder.encodeDictionaries(departments)) })
        let hand = objectCount / (fastest(repetitions: 3) { blackHole(plainDepartments.map(handWritten)) })
        let unsorted = objectCount / (fastest(repetitions: 3) { blackHole(plainDepartments.map(handWrittenUnsorted)) })
        let mirror = objectCount / (fastest(repetitions: 3) { blackHole(plainDepartments.map { mirrored($0, skipping: nil) }) })
        detail("SeedKit toDictionary:  \(format(seedKit / 1e6)) M objects/s")
        detail("hand-written walker:   \(format(hand / 1e6)) M objects/s")
        detail("same, without sorting: \(format(unsorted / 1e6)) M objects/s (insertion order: not the same output)")
        detail("Mirror per object:     \(format(mirror / 1e6)) M objects/s (\(format(seedKit / mirror))x slower than SeedKit)")
        report("to-dictionary", value: seedKit / 1e6, unit: "M-objects/s", ratio: seedKit / hand, peer: "hand-written-walker")
        withExtendedLifetime(context) {}
    },
] }
