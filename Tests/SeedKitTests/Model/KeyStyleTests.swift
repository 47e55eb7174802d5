import Testing
import SeedKit

@Suite("Key styles")
struct KeyStyleTests {
    @Test(arguments: [
        ("firstName", "first_name"), ("homeURL", "home_url"), ("URLString", "url_string"), ("employeeID", "employee_id"),
        ("address2", "address2"), ("address2Line", "address2_line"), ("name", "name"), ("already_snake", "already_snake"),
        ("a_B", "a_b"), ("ABC", "abc"), ("_private", "_private"), ("HTMLParser", "html_parser"),
    ])
    func snakeCaseSplitsWordsAtCapitals(name: String, key: String) {
        #expect(KeyStyle.snakeCase.key(for: name) == key)
        #expect(KeyStyle.propertyNames.key(for: name) == name)
    }

    @Test func anEntityFindsPropertiesByKeyAndKeepsItsNames() throws {
        let model = try EntityModel(
            [
                EntityDescription(
                    "Employee", identity: ["emailAddress"],
                    attributes: [AttributeDescription("emailAddress", .string), AttributeDescription("fullName", .string, aliases: ["displayName"])],
                    relationships: [RelationshipDescription("homeOffice", to: "Employee")]),
            ],
            keyStyle: .snakeCase)
        let employee = try #require(model.entity(named: "Employee"))
        #expect(employee.attributeKeys == ["emailAddress", "fullName"].map(KeyStyle.snakeCase.key(for:)))
        #expect(employee.attributeIndex(forKey: "full_name") == employee.attributeIndex(named: "fullName"))
        #expect(employee.attributeIndex(forKey: "display_name") == employee.attributeIndex(named: "fullName"))
        #expect(employee.attributeIndex(forKey: "fullName") == nil)
        #expect(employee.relationshipIndex(forKey: "home_office") == 0)
        // Key-value coding and object keys keep the declared names.
        #expect(employee.attribute(named: "fullName") != nil && employee.identity == ["emailAddress"])
    }
}
