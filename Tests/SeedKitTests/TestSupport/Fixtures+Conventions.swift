import Foundation
import SeedKit

// A model with every template convention on, and a template set written in it: shared by the coding, seeding and
// command tests of the conventions.
extension Fixtures {
    /// snake_case keys for the model, a date in seconds and one in milliseconds since 1970, and both sides of the
    /// department–employee pair, and a many-to-many, given by identity.
    static let conventionsModelText = """
        {
          "keyStyle": "snake_case",
          "entities": {
            "Department": {
              "identity": ["name"],
              "attributes": { "name": "string", "budgetTotal": "decimal?" },
              "relationships": {
                "employees": { "to": "Employee", "many": true, "inverse": "department", "byIdentity": true }
              }
            },
            "Employee": {
              "identity": ["emailAddress"],
              "attributes": {
                "fullName": "string", "emailAddress": "string",
                "hiredAt": { "type": "date", "optional": true, "dateFormat": "secondsSince1970" },
                "lastLogin": { "type": "date", "optional": true, "dateFormat": "millisecondsSince1970" }
              },
              "relationships": {
                "department": { "to": "Department", "inverse": "employees", "byIdentity": true },
                "projectCodes": { "to": "Project", "many": true, "inverse": "members", "byIdentity": true }
              }
            },
            "Project": {
              "identity": ["code"],
              "attributes": { "code": "string" },
              "relationships": { "members": { "to": "Employee", "many": true, "inverse": "projectCodes" } }
            }
          }
        }
        """

    static func conventionsModel() throws -> EntityModel {
        try EntityModel(json: JSONDocument(parsing: conventionsModelText).value)
    }

    /// Templates in the conventions: bare identity values for a to-one and a to-many, epoch dates, snake_case keys.
    static let conventionsTemplates: [(path: String, text: String)] = [
        ("departments.template", """
            [
              { "class": "Department", "name": "Sales", "budget_total": "480000.00" },
              { "class": "Department", "name": "Boring", "employees": ["john@example.com"] }
            ]
            """),
        ("staff.template", """
            [
              { "class": "Employee", "full_name": "Ann Lee", "email_address": "ann@example.com",
                "hired_at": 1714555800.25, "last_login": 1714555800123, "department": "Sales",
                "project_codes": ["APOLLO", "ORBIT"] },
              { "class": "Employee", "full_name": "John Johnson", "email_address": "john@example.com", "hired_at": -0.5 }
            ]
            """),
        ("projects.template", #"[{ "class": "Project", "code": "APOLLO" }, { "class": "Project", "code": "ORBIT" }]"#),
    ]

    /// A fresh directory holding the conventions model as `model.json` and ``conventionsTemplates``.
    static func conventionsTemplateSet() throws -> URL {
        let directory = try temporaryDirectory()
        try write(conventionsModelText, to: "model.json", in: directory)
        for (path, text) in conventionsTemplates { try write(text, to: path, in: directory) }
        return directory
    }
}
