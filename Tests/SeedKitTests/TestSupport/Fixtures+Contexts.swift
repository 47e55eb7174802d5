import SeedKit

extension Fixtures {
    /// A store in memory holding the saved "Sales" department (budget 100) with Ann (ann@example.com) in it, and a
    /// fresh context over it.
    static func savedCompany() throws -> (store: SQLiteStore, context: ObjectContext) {
        let store = try SQLiteStore.inMemory(model: try companyModel())
        let setup = store.newContext()
        let sales = Department(context: setup)
        (sales.name, sales.budget) = ("Sales", 100)
        let ann = Employee(context: setup)
        (ann.name, ann.email, ann.department) = ("Ann", "ann@example.com", sales)
        try setup.save()
        return (store, store.newContext())
    }
}
