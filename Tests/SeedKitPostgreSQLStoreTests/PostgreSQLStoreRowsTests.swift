import Foundation
import PostgreSQLTestServer
import SeedKitModel
import SeedKitObjects
import SeedKitPostgreSQL
import Testing

@testable import SeedKitPostgreSQLStore

/// A row's attribute values in the entity's attribute order, from values by name.
private func values(_ entity: Entity, _ named: [String: AttributeValue]) -> [AttributeValue?] {
    entity.attributes.map { named[$0.name] }
}

/// A department row: its name, and budget when given.
private func appendDepartment(_ rows: inout RowBatch, _ rowID: Int64, _ name: String, budget: String? = nil) {
    var named: [String: AttributeValue] = ["name": .string(name)]
    if let budget { named["budget"] = .decimal(ScaledDecimal(exactly: budget)!) }
    rows.append(rowID: rowID, values: values(rows.entity, named), targets: [nil], positions: [nil])
}

extension PostgreSQLStoreServerTests {
    @Suite struct Rows {
        @Test func insertedRowsReadBackExactly() throws {
            let database = try PostgreSQLStoreServerTests.makeDatabase()
            let model = try PostgreSQLStoreServerTests.sampleModel()
            let store = try PostgreSQLStore(url: database.url.description, model: model)
            let department = try #require(model.entity(named: "Department"))
            let manager = try #require(model.entity(named: "Manager"))
            let address = try #require(model.entity(named: "Address"))
            let hired = Timestamp(seconds: -86_401, nanoseconds: 123_456_789)
            try store.write {
                var departments = RowBatch(entity: department)
                appendDepartment(&departments, 1, "Café", budget: "1250000.50")
                try store.insert(departments)
                var managers = RowBatch(entity: manager)
                let managerValues = values(
                    manager, ["name": .string("Ann"), "email": .string("ann@example.com"), "hired": .date(hired), "level": .integer(3)])
                let targets = manager.relationships.map { $0.name == "department" ? Int64(1) : nil }
                managers.append(rowID: 7, values: managerValues, targets: targets, positions: targets.map { _ in nil })
                try store.insert(managers)
                var addresses = RowBatch(entity: address)
                let residentIndex = try #require(address.relationships.firstIndex { $0.name == "resident" })
                for (row, city) in ["Oslo", "Bergen"].enumerated() {
                    var targets: [Int64?] = address.relationships.map { _ in nil }
                    var positions = targets
                    targets[residentIndex] = 7
                    positions[residentIndex] = Int64(row)
                    addresses.append(
                        rowID: Int64(row + 1), values: values(address, ["city": .string(city), "street": .string("Main")]),
                        targets: targets,
                        positions: positions)
                }
                try store.insert(addresses)
                try store.replaceLedger(["set": [1, 2, 3], "entity Department": []])
            }
            let stored = try #require(try store.rows(root: "Employee", rowIDs: [7, 8]).first ?? nil)
            #expect(stored.entity == "Manager")
            #expect(stored.values[manager.attributes.firstIndex { $0.name == "hired" }!] == .date(hired))
            #expect(stored.targets[manager.relationships.firstIndex { $0.name == "department" }!] == 1)
            #expect(try store.rows(root: "Employee", rowIDs: [8])[0] == nil)
            let departments = try store.allRows(root: "Department")
            #expect(
                departments.map(\.values)
                    == [values(department, ["name": .string("Café"), "budget": .decimal(ScaledDecimal(exactly: "1250000.50")!)])])
            #expect(try store.allRows(root: "Address").map(\.positions) == [[0], [1]])
            #expect(try store.ledgerSections(named: ["set"]) == ["set": [1, 2, 3]])
            #expect(try store.ledgerSections(named: nil).count == 2)
            #expect(try store.largestRowID(root: "Employee") == 7)
            #expect(try store.rowCount(root: "Employee") == 1 && store.rowCount(root: "Address") == 2)
        }

        @Test func identitiesCompareAsExactBytes() throws {
            let database = try PostgreSQLStoreServerTests.makeDatabase()
            let model = try PostgreSQLStoreServerTests.sampleModel()
            let store = try PostgreSQLStore(url: database.url.description, model: model)
            let department = try #require(model.entity(named: "Department"))
            let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
            try store.write {
                var rows = RowBatch(entity: department)
                appendDepartment(&rows, 1, composed)
                try store.insert(rows)
            }
            let found = try store.lookUp(identities: [[.string(composed)], [.string(decomposed)]], root: "Department")
            #expect(found.map { $0?.rowID } == [1, nil])
            // Many at once take the other path, one read of every identity.
            let many = try store.lookUp(
                identities: [[.string(decomposed)]] + (0..<20).map { [.string("D\($0)")] } + [[.string(composed)]],
                root: "Department")
            #expect(many.first! == nil && many.last!?.rowID == 1)
        }

        @Test func updatesAndDeletesChangeOnlyTheirRows() throws {
            let database = try PostgreSQLStoreServerTests.makeDatabase()
            let model = try PostgreSQLStoreServerTests.sampleModel()
            let store = try PostgreSQLStore(url: database.url.description, model: model)
            let department = try #require(model.entity(named: "Department"))
            try store.write {
                var rows = RowBatch(entity: department)
                for id in 1...3 { appendDepartment(&rows, Int64(id), "D\(id)") }
                try store.insert(rows)
            }
            try store.write {
                var changed = RowBatch(entity: department)
                appendDepartment(&changed, 2, "D2", budget: "0.10")
                let budget = department.attributes.firstIndex { $0.name == "budget" }!
                try store.update(changed, attributes: [budget], toOnes: [], entityChanges: false)
                try store.delete(root: "Department", rowIDs: [3])
            }
            let rows = try store.allRows(root: "Department")
            #expect(rows.map(\.rowID) == [1, 2])
            #expect(rows[1].values == values(department, ["name": .string("D2"), "budget": .decimal(ScaledDecimal(exactly: "0.10")!)]))
            #expect(rows[0].values == values(department, ["name": .string("D1")]))
        }

        @Test func aThrowingWriteLeavesNothing() throws {
            let database = try PostgreSQLStoreServerTests.makeDatabase()
            let model = try PostgreSQLStoreServerTests.sampleModel()
            let store = try PostgreSQLStore(url: database.url.description, model: model)
            let department = try #require(model.entity(named: "Department"))
            struct Stop: Error {}
            #expect(throws: Stop.self) {
                try store.write {
                    var rows = RowBatch(entity: department)
                    appendDepartment(&rows, 1, "D")
                    try store.insert(rows)
                    try store.replaceLedger(["set": [1]])
                    throw Stop()
                }
            }
            #expect(try store.allRows(root: "Department").isEmpty)
            #expect(try store.ledgerSections(named: nil).isEmpty)
        }

        /// A bulk load drops the tables' indexes, keys and references for the rows' sake, and ends with each as it was.
        @Test func bulkLoadEndsWithEveryIndexKeyAndReferenceAsBefore() throws {
            let database = try PostgreSQLStoreServerTests.makeDatabase()
            let model = try PostgreSQLStoreServerTests.sampleModel()
            let store = try PostgreSQLStore(url: database.url.description, model: model)
            let catalog = try database.connect()
            func definitions() throws -> [String] {
                let indexes = try catalog.query(sql: "SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'")
                let constraints = try catalog.query(sql: """
                    SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
                    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
                    """)
                return try (indexes.map { try $0.text(at: 0)! } + constraints.map { try $0.text(at: 0)! }).sorted()
            }
            let before = try definitions()
            #expect(before.contains { $0.hasPrefix(#""Employee" Employee_pkey PRIMARY KEY"#) })
            #expect(before.contains { $0.contains(#"INDEX "Employee_projects_target" ON public."Employee_projects""#) })
            let department = try #require(model.entity(named: "Department"))
            try store.bulkLoad {
                var rows = RowBatch(entity: department)
                for id in 1...3 { appendDepartment(&rows, Int64(id), "D\(id)") }
                try store.insert(rows)
            }
            #expect(try definitions() == before)
            #expect(try store.allRows(root: "Department").count == 3)
        }

        @Test func bulkLoadRefusesADuplicateIdentityWhenItBuildsTheIndex() throws {
            let database = try PostgreSQLStoreServerTests.makeDatabase()
            let model = try PostgreSQLStoreServerTests.sampleModel()
            let store = try PostgreSQLStore(url: database.url.description, model: model)
            let department = try #require(model.entity(named: "Department"))
            let error = #expect(throws: PostgreSQLError.self) {
                try store.bulkLoad {
                    var rows = RowBatch(entity: department)
                    for id in 1...2 { appendDepartment(&rows, Int64(id), "Same") }
                    try store.insert(rows)
                }
            }
            #expect(error?.kind == .uniqueViolation)
            #expect(try store.allRows(root: "Department").isEmpty)
            // The indexes came back with the rollback.
            let indexes = try database.connect().query(sql: "SELECT count(*) FROM pg_indexes WHERE tablename = 'Department'")
            #expect(try indexes[0].int64(at: 0) == 2)
        }

        @Test func bulkLoadRefusesADanglingReferenceWhenItChecksTheReferences() throws {
            let database = try PostgreSQLStoreServerTests.makeDatabase()
            let model = try PostgreSQLStoreServerTests.sampleModel()
            let store = try PostgreSQLStore(url: database.url.description, model: model)
            let employee = try #require(model.entity(named: "Employee"))
            let error = #expect(throws: PostgreSQLError.self) {
                try store.bulkLoad {
                    var rows = RowBatch(entity: employee)
                    let targets = employee.relationships.map { $0.name == "department" ? Int64(99) : nil }
                    rows.append(
                        rowID: 1, values: values(employee, ["name": .string("Ann"), "email": .string("a@example.com")]),
                        targets: targets, positions: targets.map { _ in nil })
                    try store.insert(rows)
                }
            }
            #expect(error?.kind == .foreignKeyViolation)
            #expect(try store.allRows(root: "Employee").isEmpty)
        }
    }
}
