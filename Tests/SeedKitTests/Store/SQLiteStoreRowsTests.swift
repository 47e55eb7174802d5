import Foundation
import Testing
import SeedKit
import SeedKitStore

/// The store's row interface, as the seeder writes through it: here, the ledger's sections.
@Suite("SQLiteStore: rows and ledger")
struct SQLiteStoreRowsTests {
    /// Each replacement leaves exactly its sections, byte for byte, whether a section keeps its length (rewritten
    /// where it differs), changes it, goes or comes — and a replacement rolled back leaves the one before.
    @Test func theLedgerReadsBackAsLastReplaced() throws {
        struct Abort: Error {}
        let store = try SQLiteStore.inMemory(model: try Fixtures.sampleModel())
        let objects = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 11) }
        var replacements: [[String: [UInt8]]] = [["set": [1, 2, 3], "objects": objects, "files": []]]
        var edited = objects
        for offset in [0, 8_191, 8_192, 49_999] { edited[offset] &+= 1 }
        replacements.append(["set": [1, 2, 4], "objects": edited, "files": [9]])
        replacements.append(["set": [1, 2, 4], "objects": Array(edited.dropLast(10))])
        replacements.append(["set": [], "objects": Array(edited.dropLast(10)), "layouts": [5, 6]])
        for sections in replacements {
            try store.write { try store.replaceLedger(sections) }
            #expect(try store.ledgerSections(named: nil) == sections)
        }
        #expect(throws: Abort.self) {
            try store.write {
                try store.replaceLedger(["set": [7], "objects": objects])
                throw Abort()
            }
        }
        #expect(try store.ledgerSections(named: nil) == replacements.last!)
        #expect(try store.ledgerSections(named: ["layouts"]) == ["layouts": [5, 6]])
    }

    /// A root entity's row count is the rows of its table, which what an export reads them into is sized for; a root
    /// the store has no table for has none.
    @Test func aRootEntityCountsTheRowsOfItsTable() throws {
        let (store, context) = try Fixtures.savedCompany()
        #expect(try store.rowCount(root: "Department") == 1)
        #expect(try store.rowCount(root: "Employee") == 1)
        for name in ["Support", "Research"] {
            let department = Department(context: context)
            (department.name, department.budget) = (name, 10)
        }
        try context.save()
        #expect(try store.rowCount(root: "Department") == 3)
        #expect(try store.rowCount(root: "Project") == 0)
    }

    /// Updates of many rows, in statements of many rows and a shorter last one: each row gets its own values in the
    /// slots the update names and a new version; the slots it does not name, and the rows it does not, stay.
    @Test func updatesOfManyRowsChangeTheirSlotsAndVersionsOnly() throws {
        let model = try Fixtures.companyModel()
        let store = try SQLiteStore.inMemory(model: model)
        let department = try #require(model.entity(named: "Department")), employee = try #require(model.entity(named: "Employee"))
        let manager = try #require(model.entity(named: "Manager"))
        func index(_ name: String, of entity: Entity) -> Int { entity.attributes.firstIndex { $0.name == name }! }
        func budget(_ value: Int) -> AttributeValue { .decimal(ScaledDecimal(exactly: "\(value)")!) }
        let toDepartment = employee.relationships.firstIndex { $0.name == "department" }!
        /// A batch of rows of `entity`: each its id, the values it gives by name, and an employee's department row.
        func batch(of entity: Entity, _ rows: [(id: Int64, values: [String: AttributeValue], department: Int64?)]) -> RowBatch {
            var batch = RowBatch(entity: entity)
            for row in rows {
                var targets = [Int64?](repeating: nil, count: entity.relationships.count)
                if entity !== department { targets[toDepartment] = row.department }
                batch.append(
                    rowID: row.id, values: entity.attributes.map { row.values[$0.name] }, targets: targets,
                    positions: [Int64?](repeating: nil, count: entity.relationships.count))
            }
            return batch
        }
        try store.write {
            try store.insert(batch(of: department, (1...150).map { (Int64($0), ["name": .string("D\($0)"), "budget": budget(1)], nil) }))
            try store.insert(batch(of: employee, (1...150).map {
                (Int64($0), ["name": .string("E\($0)"), "email": .string("e\($0)@example.com"), "address": .string("")], Int64($0))
            }))
        }
        try store.write {
            // Only the budget is given: the names are not in the batch, and must stay.
            try store.update(
                batch(of: department, (1...130).map { (Int64($0), ["budget": budget($0)], nil) }),
                attributes: [index("budget", of: department)], toOnes: [], entityChanges: false)
            try store.update(
                batch(of: employee, (1...70).map { (Int64($0), [:], Int64(151 - $0)) }),
                attributes: [], toOnes: [toDepartment], entityChanges: false)
            try store.update(
                batch(of: manager, [5, 6].map { ($0, ["level": .integer(3)], 146) }),
                attributes: [index("level", of: manager)], toOnes: [], entityChanges: true)
        }
        let departments = try store.allRows(root: "Department")
        for (offset, stored) in departments.enumerated() {
            let id = offset + 1
            #expect(stored.values[index("name", of: department)] == .string("D\(id)"))
            #expect(stored.values[index("budget", of: department)] == budget(id <= 130 ? id : 1))
        }
        let employees = try store.allRows(root: "Employee")
        for (offset, stored) in employees.enumerated() {
            let id = offset + 1
            #expect(stored.entity == (id == 5 || id == 6 ? "Manager" : "Employee"))
            #expect(stored.targets[toDepartment] == Int64(id <= 70 ? 151 - id : id))
            #expect(stored.values[index("email", of: employee)] == .string("e\(id)@example.com"))
        }
        #expect(employees[4].values[index("level", of: manager)] == .integer(3))
        let versions = try store.connection.prepare(sql: "SELECT _id, _version FROM Department ORDER BY _id")
        var expected: Int64 = 1
        while try versions.step() {
            #expect(versions.int64(at: 1) == (expected <= 130 ? 2 : 1))
            expected += 1
        }
        #expect(expected == 151)
    }
}
