import Foundation
import PostgreSQLTestServer
import SeedKitModel
import SeedKitObjects
import SeedKitPostgreSQL
import Testing

@testable import SeedKitPostgreSQLStore

extension PostgreSQLStoreServerTests {
    /// Opening a store from a URL, as an app does: the schema made once, the model kept, bad places refused.
    @Suite struct Opening {
        @Test func aStoreKeepsItsModelAndReopensWithoutChangingIt() throws {
            let database = try PostgreSQLStoreServerTests.makeDatabase()
            let url = database.url.description
            let model = try PostgreSQLStoreServerTests.sampleModel()
            #expect(try PostgreSQLStore.storedModel(url: url) == nil)
            let store = try PostgreSQLStore(url: url, model: model)
            let context = ObjectContext(model: model, store: store)
            try context.insert("Department", values: ["name": "Sales"])
            try context.save()
            #expect(try PostgreSQLStore.storedModel(url: url) == model)
            let reopened = try PostgreSQLStore(url: url, model: model).newContext()
            #expect(try reopened.count(FetchRequest("Department")) == 1)
        }

        @Test func aDatabaseWithOtherTablesIsNoStore() throws {
            let database = try PostgreSQLStoreServerTests.makeDatabase()
            try database.connect().execute(sql: "CREATE TABLE notes (body text)")
            let error = #expect(throws: StoreError.self) {
                try PostgreSQLStore(url: database.url.description, model: PostgreSQLStoreServerTests.sampleModel())
            }
            #expect(error?.kind == .notAStore)
            #expect(error?.path == database.url.description)
        }

        @Test func anUnreachableServerIsOneErrorWithoutThePassword() throws {
            let port = try #require(PostgreSQLTestServer.unusedLoopbackPort())
            let url = "postgresql://app:s3cret@127.0.0.1:\(port)/catalog?connect_timeout=5"
            let error = #expect(throws: PostgreSQLError.self) {
                try PostgreSQLStore(url: url, model: PostgreSQLStoreServerTests.sampleModel())
            }
            #expect(error?.kind == .unreachable)
            #expect(error.map { !"\($0)".contains("s3cret") } == true)
        }
    }
}
