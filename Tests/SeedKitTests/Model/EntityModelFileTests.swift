import Foundation
import Testing
import SeedKit
import SeedKitSupport

@Suite("Model files")
struct EntityModelFileTests {
    private func model(_ text: String) throws -> EntityModel {
        try EntityModel(json: JSONDocument(parsing: text).value)
    }

    /// The errors of reading `text` as a model file, and the file's URL (gone by the time they are returned).
    private func errorsReading(_ text: String) throws -> (file: URL, errors: [ModelError]) {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("model.json")
        try Data(text.utf8).write(to: file)
        return (file, try #require(throws: ModelErrors.self) { try EntityModel(contentsOf: file) }.errors)
    }

    @Test func readsTheDocumentedFormatExactlyAsWritten() throws {
        let fromFile = try model(Fixtures.modelFileText)
        #expect(fromFile == (try EntityModel(Fixtures.fileModelDeclarations)))
        let employee = try #require(fromFile.entity(named: "Employee"))
        #expect(employee.attribute(named: "address")?.defaultValue == .string(""))
        #expect(employee.attribute(named: "hired")?.isOptional == true)
    }

    @Test func everyModelWrittenReadsBackEqual() throws {
        let company = try Fixtures.companyModel()
        let reread = try EntityModel(json: JSONDocument(parsing: company.json.text(style: .pretty)).value)
        #expect(reread == company)
        let rich = try EntityModel([
            EntityDescription(
                "Event", identity: ["code"],
                attributes: [
                    AttributeDescription("code", .uuid), AttributeDescription("at", .date, defaultValue: .date(Timestamp(seconds: 1_700_000_000, nanoseconds: 123_456_789))),
                    AttributeDescription("price", .decimal, isOptional: true, defaultValue: .decimal(ScaledDecimal(exactly: "0.1")!)),
                    AttributeDescription("blob", .data, isOptional: true, defaultValue: .data(Data([0, 1, 2]))),
                    AttributeDescription("meta", .json, isOptional: true, defaultValue: .json(["a": [1, 2.5, nil]])),
                    AttributeDescription("home", .url, isOptional: true, aliases: ["site"]),
                ],
                relationships: [RelationshipDescription("next", to: "Event", deleteRule: .deny, aliases: ["following"])],
                aliases: ["Happening"]),
        ])
        #expect(try EntityModel(json: JSONDocument(parsing: rich.json.text(style: .canonical)).value) == rich)
    }

    @Test func writtenFilesAreByteStable() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("a.json"), second = directory.appendingPathComponent("b.json")
        try Fixtures.companyModel().write(to: first)
        try EntityModel(contentsOf: first).write(to: second)
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
        #expect(try EntityModel(contentsOf: second) == Fixtures.companyModel())
    }

    @Test func shapeErrorsCarryPointersAndLocations() throws {
        let (file, errors) = try errorsReading("""
            {
              "entities": {
                "Employee": {
                  "attributes": { "name": "strin", "hired": { "type": "date", "default": "yesterday" } },
                  "relationships": { "department": { "too": "Department" } },
                  "idenity": ["name"]
                }
              }
            }
            """)
        let lines = errors.map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "?") \($0.pointer?.description ?? "") \($0.message)" }
        #expect(lines == [
            #"4:31 /entities/Employee/attributes/name unknown type 'strin'; did you mean 'string'?; types are: string, integer, double, bool, decimal, date, data, uuid, url, json, with '?' for optional"#,
            #"4:78 /entities/Employee/attributes/hired/default invalid default: "yesterday" is not an ISO 8601 date: expected a digit in the year at character 1, found 'y'"#,
            "5:40 /entities/Employee/relationships/department missing \"to\": the destination entity's name",
            "5:42 /entities/Employee/relationships/department/too unknown key 'too'; did you mean 'to'?; keys are: to, many, ordered, inverse, owns, deleteRule, aliases, byIdentity",
            "6:7 /entities/Employee/idenity unknown key 'idenity'; did you mean 'identity'?; keys are: parent, identity, attributes, relationships, aliases, createdByReference, keyStyle",
        ])
        #expect(errors.allSatisfy { $0.description.hasPrefix(file.path + ":") })
    }

    @Test func validationErrorsInAFileAreLocatedAtTheirDeclaration() throws {
        let (file, errors) = try errorsReading("""
            {"entities": {
              "Employee": {
                "identity": ["email"],
                "attributes": {"email": "string?"},
                "relationships": {"department": {"to": "Dept"}}
              }
            }}
            """)
        #expect(errors.map(\.description) == [
            "\(file.path):4:29: /entities/Employee/attributes/email: Employee.email: identity attribute must be required, "
                + "not optional",
            "\(file.path):5:37: /entities/Employee/relationships/department: Employee.department: destination 'Dept' "
                + "is not an entity; entities are: Employee",
        ])
    }

    @Test func shapeAndModelErrorsAreReportedTogetherWithDidYouMeans() throws {
        let (file, errors) = try errorsReading("""
            {"entities": {
              "Department": {"identity": ["code"], "attributes": {"code": "strng"}},
              "Employee": {
                "parent": "Persn",
                "relationships": {"department": {"to": "Departmnt"}, "desk": {"to": "Desk", "inverse": "owner"}}
              },
              "Person": {"attributes": {"name": "string"}},
              "Desk": 7
            }}
            """)
        let lines = errors.map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "?") \($0.message)" }
        // Department's identity and Employee.desk name what couldn't be read: no second error for them.
        #expect(lines == [
            "2:63 unknown type 'strng'; did you mean 'string'?; types are: string, integer, double, bool, decimal, date, "
                + "data, uuid, url, json, with '?' for optional",
            "3:15 parent 'Persn' is not an entity; did you mean 'Person'?; entities are: Department, Employee, Person",
            "5:37 destination 'Departmnt' is not an entity; did you mean 'Department'?; entities are: Department, "
                + "Employee, Person",
            "8:11 an entity must be an object, not a number",
        ])
        #expect(errors.allSatisfy { $0.description.hasPrefix(file.path + ":") })
    }

    @Test func templateConventionsReadAndWriteBack() throws {
        let text = """
            {"keyStyle": "snake_case", "entities": {
              "Department": {"identity": ["name"], "attributes": {"name": "string"}},
              "Employee": {
                "keyStyle": "propertyNames",
                "attributes": {"hiredAt": {"type": "date", "dateFormat": "millisecondsSince1970"}},
                "relationships": {"department": {"to": "Department", "byIdentity": true}}
              },
              "Manager": {"parent": "Employee", "attributes": {"teamSize": "integer"}}
            }}
            """
        let read = try model(text)
        #expect(read.keyStyle == .snakeCase)
        let employee = try #require(read.entity(named: "Employee"))
        #expect(employee.declaration.keyStyle == .propertyNames && employee.keyStyle == .propertyNames)
        #expect(employee.attribute(named: "hiredAt")?.dateFormat == .millisecondsSince1970)
        #expect(employee.relationship(named: "department")?.isByIdentity == true)
        // A subentity writes keys as its parent does; an entity without a style, as the model does.
        #expect(read.entity(named: "Manager")?.keyStyle == .propertyNames)
        #expect(read.entity(named: "Department")?.keyStyle == .snakeCase)
        #expect(read.json["keyStyle"] == "snake_case")
        #expect(read.json["entities"]?["Employee"]?["attributes"]?["hiredAt"]
            == ["type": "date", "dateFormat": "millisecondsSince1970"])
        #expect(try model(read.json.text(style: .pretty)) == read)
        // Without conventions the file is as before: nothing new is written, and the fingerprint stays.
        #expect(try Fixtures.companyModel().json.text(style: .canonical).contains("keyStyle") == false)
        #expect(read != (try model(text.replacingOccurrences(of: #""keyStyle": "snake_case", "#, with: ""))))
    }

    /// The fingerprint, worked out as a model is made, is the hash of its canonical JSON: the same for the same model
    /// however it is made, another for another.
    @Test func theFingerprintIsTheHashOfTheCanonicalJSON() throws {
        let company = try Fixtures.companyModel()
        let snakeCase = try EntityModel(company.declarations, keyStyle: .snakeCase)
        for made in [company, snakeCase] {
            #expect(made.fingerprint == StableHash.hex(of: made.json.serialized(style: .canonical)))
            #expect(try model(made.json.text(style: .pretty)).fingerprint == made.fingerprint)
        }
        #expect(snakeCase.fingerprint != company.fingerprint)
    }

    @Test func templateConventionProblemsAreLocatedWithWhatIsValid() throws {
        let (_, errors) = try errorsReading("""
            {"keyStyle": "snakecase", "entities": {
              "Badge": {"identity": ["a", "b"], "attributes": {"a": "string", "b": "string"}},
              "Employee": {
                "keyStyle": "snake_case",
                "identity": ["email"],
                "attributes": {
                  "email": "string", "homeURL": "url?", "home_url": "string?",
                  "since": {"type": "string", "dateFormat": "secondsSince1970"},
                  "at": {"type": "date", "dateFormat": "epoch"}
                },
                "relationships": {
                  "badge": {"to": "Badge", "byIdentity": true},
                  "desk": {"to": "Desk", "owns": true, "byIdentity": true}
                }
              },
              "Desk": {"identity": ["code"], "attributes": {"code": "string"}}
            }}
            """)
        let lines = errors.map { "\($0.location.map { "\($0.line):\($0.column)" } ?? "?") \($0.kind) \($0.message)" }
        #expect(lines == [
            "1:14 invalidFile unknown key style 'snakecase'; did you mean 'snake_case'?; key styles are: propertyNames, snake_case",
            "7:57 duplicateName 'home_url' and 'homeURL' are both written 'home_url' in keyStyle snake_case",
            "8:16 invalidDateFormat dateFormat 'secondsSince1970' is for date attributes; this one is string",
            "9:44 invalidFile unknown date format 'epoch'; date formats are: iso8601, secondsSince1970, millisecondsSince1970",
            "12:16 invalidByIdentity byIdentity needs a destination identified by one attribute; Badge's identity is a, b",
            "13:15 invalidByIdentity byIdentity names objects that exist on their own; an owned relationship's members are "
                + "written in full",
        ])
    }

    @Test func notAnObject() throws {
        let errors = try #require(throws: ModelErrors.self) { try model("[1]") }.errors
        #expect(errors.map(\.description) == ["/: the model file must be an object with an \"entities\" object, not an array"])
        let missing = try #require(throws: ModelErrors.self) { try model("{}") }.errors
        #expect(missing.map(\.description) == ["/: missing \"entities\": an object of entity names to entity declarations"])
    }

    @Test func syntaxErrorsAreLocated() throws {
        let error = try #require(throws: JSONSyntaxError.self) { try model("{\"entities\": {,}}") }
        #expect(error.location.line == 1 && error.location.column == 15)
    }
}
