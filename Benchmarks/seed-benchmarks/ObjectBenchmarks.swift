import Foundation
import SeedKit

// Property access on managed objects against plain Swift stored properties, and model reflection per class.

private final class PlainEmployee {
    var name: String
    var level: Int
    init(name: String, level: Int) {
        self.name = name
        self.level = level
    }
}

private final class BenchEmployee: ManagedObject {
    @Attribute var name: String
    @Attribute var level: Int
    @Attribute var email: String?
    @Attribute var hired: Date?
    @Relationship(inverse: "members") var team: BenchTeam?
}

private final class BenchTeam: ManagedObject {
    @Attribute var title: String
    @Relationship(inverse: "team") var members: [BenchEmployee]
}

/// A plain read the optimizer cannot fold away across the loop (a call per read, as a property access in another
/// module costs).
@inline(never)
private func level(of employee: PlainEmployee) -> Int { employee.level }

private let objectCount = 10_000
private let rounds = 100

/// Accesses per second of `body`, which makes `objectCount × rounds` accesses.
private func rate(_ body: () throws -> Void) rethrows -> Double {
    Double(objectCount * rounds) / (try fastest(body))
}

var objectBenchmarks: [Benchmark] { [
    Benchmark(name: "property-get", summary: "typed and key-value reads vs plain stored properties") {
        let context = ObjectContext(model: try EntityModel(classes: [BenchEmployee.self, BenchTeam.self]))
        let plain = (0..<objectCount).map { PlainEmployee(name: "e\($0)", level: $0) }
        let managed = (0..<objectCount).map { index -> BenchEmployee in
            let employee = BenchEmployee(context: context)
            employee.name = "e\(index)"
            employee.level = index
            return employee
        }
        var sink = 0
        let plainRate = rate {
            for round in 0..<rounds { for employee in plain { sink &+= level(of: employee) ^ round } }
        }
        let typedRate = rate {
            for round in 0..<rounds { for employee in managed { sink &+= employee.level ^ round } }
        }
        let keyValueRate = try rate {
            for round in 0..<rounds {
                for employee in managed { sink &+= Int(try employee.value(forKey: "level") as! Int64) ^ round }
            }
        }
        blackHole(sink)
        detail("plain stored property: \(format(plainRate / 1e6)) M reads/s")
        detail("typed @Attribute:      \(format(typedRate / 1e6)) M reads/s")
        detail("value(forKey:):        \(format(keyValueRate / 1e6)) M reads/s")
        report("property-get-typed", value: typedRate / 1e6, unit: "M/s", ratio: typedRate / plainRate, peer: "plain-stored-property")
        report("property-get-kvc", value: keyValueRate / 1e6, unit: "M/s", ratio: keyValueRate / plainRate, peer: "plain-stored-property")
    },
    Benchmark(name: "property-set", summary: "typed and key-value writes vs plain stored properties") {
        let context = ObjectContext(model: try EntityModel(classes: [BenchEmployee.self, BenchTeam.self]))
        let plain = (0..<objectCount).map { PlainEmployee(name: "e\($0)", level: $0) }
        let managed = (0..<objectCount).map { _ in BenchEmployee(context: context) }
        let plainRate = rate {
            for round in 0..<rounds { for employee in plain { employee.level = round } }
            blackHole(plain)
        }
        let typedRate = rate {
            for round in 0..<rounds { for employee in managed { employee.level = round } }
        }
        let keyValueRate = try rate {
            for round in 0..<rounds { for employee in managed { try employee.setValue(round, forKey: "level") } }
        }
        blackHole(plain)
        detail("plain stored property: \(format(plainRate / 1e6)) M writes/s")
        detail("typed @Attribute:      \(format(typedRate / 1e6)) M writes/s (with change tracking)")
        detail("setValue(_:forKey:):   \(format(keyValueRate / 1e6)) M writes/s")
        report("property-set-typed", value: typedRate / 1e6, unit: "M/s", ratio: typedRate / plainRate, peer: "plain-stored-property")
        report("property-set-kvc", value: keyValueRate / 1e6, unit: "M/s", ratio: keyValueRate / plainRate, peer: "plain-stored-property")
    },
    Benchmark(name: "model-reflection", summary: "building a model from classes (reflected once per class) vs one Mirror walk per object") {
        // The first build reflects each class once; later builds read the cache, so the cost per class is paid once.
        let first = once { _ = try? EntityModel(classes: [BenchEmployee.self, BenchTeam.self]) }
        let cached = try fastest { _ = try EntityModel(classes: [BenchEmployee.self, BenchTeam.self]) }
        // The peer: reflecting every object with Mirror, as per-object reflection does.
        let context = ObjectContext(model: try EntityModel(classes: [BenchEmployee.self, BenchTeam.self]))
        let managed = (0..<objectCount).map { _ in BenchEmployee(context: context) }
        let perObject = fastest {
            var count = 0
            for employee in managed { count += Mirror(reflecting: employee).children.count }
            blackHole(count)
        } / Double(objectCount)
        detail("first model build (2 classes): \(format(first * 1e6)) µs; cached build: \(format(cached * 1e6)) µs")
        detail("Mirror per object: \(format(perObject * 1e9)) ns/object")
        // The ratio: reflecting 10,000 objects one by one against reflecting their classes once.
        report("model-reflection", value: first * 1e6 / 2, unit: "µs/class", ratio: perObject * Double(objectCount) / first, peer: "mirror-per-object-x10000")
    },
] }
