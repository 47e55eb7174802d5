import Foundation
import Testing
import SeedKit
@testable import SeedKitObjects

@Suite("SQLiteStore: faults")
struct SQLiteStoreFaultTests {
    /// A store of `departments` departments and `employees` employees (every tenth a manager) where employee *i*
    /// works in department *i* mod `departments`, and every seventh has none.
    func companyStore(departments: Int, employees: Int) throws -> SQLiteStore {
        let store = try SQLiteStore(path: try Fixtures.temporaryStorePath(), model: try Fixtures.companyModel())
        let context = store.newContext()
        let all = (0..<departments).map { index -> Department in
            let department = Department(context: context)
            department.name = "d\(index)"
            return department
        }
        for index in 0..<employees {
            let employee: Employee
            if index % 10 == 0 {
                let manager = Manager(context: context)
                manager.level = index
                employee = manager
            } else {
                employee = Employee(context: context)
            }
            (employee.name, employee.email) = ("e\(index)", "e\(index)@example.com")
            if index % 7 != 0 { employee.department = all[index % departments] }
        }
        try context.save()
        return store
    }

    @Test func toOneFaultsLoadTheirSiblingsDestinationsInBatches() throws {
        let store = try companyStore(departments: 1_200, employees: 1_300)
        let context = store.newContext()
        let employees = try context.fetch(Employee.self).sorted { $0.objectID.number < $1.objectID.number }
        #expect(employees.count == 1_300)
        #expect(context.registeredObjects.count == 1_300)
        // The first fault loads a batch of the fetch's pending destinations, not its own alone.
        _ = employees[1].department
        #expect(context.registeredObjects.count == 1_300 + ObjectContext.destinationBatchSize)
        for (index, employee) in employees.enumerated() {
            #expect(employee.department?.name == (index % 7 == 0 ? nil : "d\(index % 1_200)"))
        }
        let referenced = Set((0..<1_300).filter { $0 % 7 != 0 }.map { $0 % 1_200 })
        #expect(context.registeredObjects.count == 1_300 + referenced.count)
        // Rows of a subentity among the fetched ones are decoded with their own layout.
        #expect((employees[10] as? Manager)?.level == 10)
    }

    @Test func batchedFaultsSkipDeletedDestinationsAndFireOutOfOrder() throws {
        let store = try companyStore(departments: 30, employees: 60)
        let context = store.newContext()
        let departmentThree = try #require(context.object("Department", identity: ["name": "d3"]))
        try context.delete(departmentThree)
        let employees = try context.fetch(Employee.self).sorted { $0.objectID.number < $1.objectID.number }
        // Last first: the batch starts past the object whose fault fired.
        for (index, employee) in employees.enumerated().reversed() {
            let expected = index % 7 == 0 || index % 30 == 3 ? nil : "d\(index % 30)"
            #expect(employee.department?.name == expected, "e\(index)")
        }
    }

    @Test func rowsFarApartInRowIDAreOneObjectEachAndFaultIn() throws {
        let store = try companyStore(departments: 3, employees: 9)
        // Row ids far from the others, as a store written by another program can have.
        try store.connection.execute(sql: """
            BEGIN;
            UPDATE "Employee" SET "department" = 9000000000
                WHERE "department" = (SELECT "_id" FROM "Department" WHERE "name" = 'd1');
            UPDATE "Department" SET "_id" = 9000000000 WHERE "name" = 'd1';
            UPDATE "Employee" SET "_id" = "_id" + 5000000 WHERE "_id" % 2 = 0;
            COMMIT;
            """)
        let context = store.newContext()
        let employees = try context.fetch(Employee.self)
        #expect(employees.count == 9)
        #expect(employees.contains { $0.objectID.number > 5_000_000 })
        let again = try context.fetch(Employee.self)
        #expect(again.count == 9 && zip(employees, again).allSatisfy { $0 === $1 })
        for employee in employees { #expect(context.object(with: employee.objectID) === employee) }
        let far = try #require(context.object("Department", identity: ["name": "d1"]))
        #expect(far.objectID.number == 9_000_000_000)
        let inFar = employees.filter { ($0.department as ManagedObject?) === far }
        #expect(inFar.map(\.name).sorted() == ["e1", "e4"])
        #expect(Set((far as! Department).employees.map(ObjectIdentifier.init)) == Set(inFar.map(ObjectIdentifier.init)))
        #expect(context.registeredObjects.count == 9 + 3)
    }

    @Test func anObjectRegisteredBeforeABigFetchIsTheOneTheFetchReturns() throws {
        let store = try companyStore(departments: 2, employees: 1_500)
        let context = store.newContext()
        let last = try #require(context.object("Employee", identity: ["email": "e1499@example.com"]))
        let employees = try context.fetch(Employee.self)
        #expect(employees.count == 1_500)
        #expect(employees.filter { $0 === last }.count == 1)
        #expect(context.object(with: last.objectID) === last)
        #expect(context.registeredObjects.count == 1_500)
    }
}
