import Foundation
import Testing
import SeedKit
@testable import SeedKitCoding

@Suite("fromDictionary / decode: upserts, references, errors")
struct DictionaryDecodingTests {
    /// The errors decoding `text` throws; the context must be left unchanged.
    private func errors(decoding text: String, file: String? = "t.json", into context: ObjectContext? = nil) throws -> [GraphDecodingError] {
        let context = try context ?? Fixtures.companyContext()
        let before = context.registeredObjects.count
        let hadChanges = context.hasChanges
        do {
            try context.decode(text: text, file: file)
        } catch {
            #expect(context.registeredObjects.count == before, "nothing is inserted on error")
            #expect(context.hasChanges == hadChanges, "nothing is changed on error")
            return error.errors
        }
        Issue.record("expected errors")
        return []
    }

    @Test func nestedDictionariesUpsertByIdentity() throws {
        let context = try Fixtures.companyContext()
        let existing = Department(context: context)
        existing.name = "Sales"
        let employee = try context.fromDictionary([
            "class": "Employee", "name": "Ann", "email": "ann@example.com",
            "department": ["class": "Department", "name": "Sales", "budget": 10],
            "projects": [["class": "Project", "code": "A"], ["code": "B"]],
        ])
        let ann = try #require(employee as? Employee)
        #expect(ann.department === existing)
        #expect(existing.budget == 10)
        #expect(Set(ann.projects.map(\.code)) == ["A", "B"])
        // Upserting again adds nothing new.
        try context.fromDictionary(["class": "Employee", "email": "ann@example.com", "projects": [["code": "A"]]])
        #expect(try context.fetch("Employee").count == 1)
        #expect(try context.fetch("Project").count == 2)
    }

    @Test func referencesResolveForwardAcrossFiles() throws {
        let context = try Fixtures.companyContext()
        var decoder = GraphDecoder(context: context)
        decoder.add(text: #"[{"class": "Employee", "email": "a@x", "name": "A", "addresses": [{"$ref": "home"}]}]"#, file: "staff.json")
        decoder.add(text: #"{"class": "Address", "$id": "home", "street": "Main"}"#, file: "places.json")
        decoder.add(text: #"{"class": "Department", "name": "Ops", "employees": [{"class": "Employee", "email": "a@x"}]}"#, file: "departments.json")
        let objects = try decoder.decode()
        let employee = try #require(objects.first as? Employee)
        #expect(employee.addresses.map(\.street) == ["Main"])
        #expect(employee.department?.name == "Ops")
    }

    /// A decode of many files lets each text go once read and reads it again only to locate a problem found later:
    /// the location comes from the text read again, and without one (the file went or changed), only the pointer.
    @Test func textsReadAgainLocateProblemsFoundAfterReading() throws {
        let staff = Array("[\n  {\"class\": \"Employee\", \"email\": \"a@x\", \"name\": \"A\",\n   \"addresses\": [{\"$ref\": \"hom\"}]}\n]".utf8)
        let places = Array(#"{"class": "Address", "$id": "home", "street": "Main"}"#.utf8)
        for reloads in [true, false] {
            var decoder = GraphDecoder(context: try Fixtures.companyContext())
            var reloaded = 0
            decoder.add(bytes: staff, file: "staff.json") {
                reloaded += 1
                return reloads ? staff : nil
            }
            decoder.add(bytes: places, file: "places.json") { places }
            let errors = try #require(throws: GraphDecodingErrors.self) { try decoder.decodeReleasingInputs() }.errors
            #expect(errors.count == 1)
            #expect(errors.first?.pointer.description == "/0/addresses/0/$ref")
            #expect(errors.first?.file == "staff.json")
            #expect(errors.first?.location.map { [$0.line, $0.column] } == (reloads ? [3, 27] : nil))
            #expect(reloaded == 1, "only the file with a problem is read again")
        }
    }

    /// Stated to-ones are kept in a bit mask below index 64 and in a set above: both apply, whatever order they come.
    @Test func toOnesBeyondTheSixtyFourthAreApplied() throws {
        let model = try EntityModel([
            EntityDescription(
                "Hub", attributes: [AttributeDescription("name", .string)],
                relationships: (0..<70).map { RelationshipDescription("r\($0)", to: "Leaf") }),
            EntityDescription("Leaf", identity: ["name"], attributes: [AttributeDescription("name", .string)]),
        ])
        let context = ObjectContext(model: model)
        let linked = [69, 3, 64, 0, 65]
        var hub: [String: Any] = ["class": "Hub", "name": "h"]
        for index in linked { hub["r\(index)"] = ["class": "Leaf", "name": "l\(index)"] }
        let object = try context.fromDictionary(hub)
        for index in 0..<70 {
            let target = try object.value(forKey: "r\(index)") as? ManagedObject
            #expect(try target?.value(forKey: "name") as? String == (linked.contains(index) ? "l\(index)" : nil), "r\(index)")
        }
    }

    @Test func factsAccumulateAndMustAgree() throws {
        let context = try Fixtures.companyContext()
        let objects = try context.fromJSON([
            ["class": "Project", "code": "P", "members": [["class": "Employee", "email": "a@x", "name": "A"]]],
            ["class": "Project", "code": "P", "members": [["class": "Employee", "email": "b@x", "name": "B"]]],
        ])
        #expect(objects[0] === objects[1])
        #expect((objects[0] as? Project)?.members.count == 2)

        let text = """
            [{"class": "Department", "name": "S", "budget": 1},
             {"class": "Department", "name": "S", "budget": 2}]
            """
        let found = try errors(decoding: text)
        #expect(found.count == 1)
        #expect(found.first?.kind == .identityConflict)
        #expect(found.first?.pointer.description == "/1/budget")
        #expect(found.first?.location?.description == "t.json:2:49")
        #expect(found.first?.relatedPointer?.description == "/0/budget")
        #expect(found.first?.message == "Department[name=S].budget is 2 here but 1 at /0/budget")
    }

    @Test func everyErrorOfTheInputIsReportedWithPointerAndLocation() throws {
        let text = """
            {"class": "Department", "name": "Sales",
             "employees": [
               {"class": "Employee", "name": "A", "email": "a@x"},
               {"class": "Employee", "name": "B", "email": "b@x", "hired": "yesterday"},
               {"class": "Manager", "nmae": "C", "email": "c@x", "level": 1e30},
               {"class": "Emplyee", "email": "d@x"},
               {"class": "Employee", "email": "e@x", "name": "E", "department": [], "projects": {"code": "X"}},
               {"$ref": "nowhere"},
               {"class": "Employee", "email": "f@x", "name": null}
             ]}
            """
        let found = try errors(decoding: text)
        let summary = found.map { "\($0.kind) \($0.pointer) \($0.location.map { "\($0.line):\($0.column)" } ?? "-")" }
        #expect(summary == [
            "typeMismatch /employees/1/hired 4:64",
            "missingValue /employees/2 5:4",
            "unknownKey /employees/2/nmae 5:25",
            "outOfRange /employees/2/level 5:63",
            "unknownClass /employees/3/class 6:14",
            "cardinalityMismatch /employees/4/department 7:69",
            "cardinalityMismatch /employees/4/projects 7:85",
            "unresolvedReference /employees/5/$ref 8:13",
            "missingValue /employees/6/name 9:50",
        ])
        #expect(found.contains { $0.message == "unknown attribute 'nmae' of Manager; did you mean 'name'?" })
        #expect(found.contains { $0.message.hasPrefix("unknown class 'Emplyee'; did you mean 'Employee'?; valid classes for a Employee: Employee, Manager") })
        #expect(found.contains { $0.description.hasPrefix("t.json:4:64: /employees/1/hired: attribute 'hired' of Employee: \"yesterday\" is not an ISO 8601 date") })
    }

    /// An integer attribute takes the integer the text's digits say, however it is written, and refuses a text that
    /// is not an exact integer in range with a located error.
    @Test func integerAttributesComeFromTheDigitsOrAreRefused() throws {
        let context = try Fixtures.companyContext()
        let objects = try context.decode(text: """
            [{"class": "Manager", "name": "A", "email": "a@x", "level": 77777770007170700.0},
             {"class": "Manager", "name": "B", "email": "b@x", "level": 7.77777700071707e16},
             {"class": "Manager", "name": "C", "email": "c@x", "level": -9.2233720368547e18}]
            """)
        #expect(objects.compactMap { ($0 as? Manager)?.level } == [77_777_770_007_170_700, 77_777_770_007_170_700, -9_223_372_036_854_700_000])
        let found = try errors(decoding: """
            [{"class": "Manager", "name": "A", "email": "a@x", "level": 77777770007170700.5},
             {"class": "Manager", "name": "B", "email": "b@x", "level": 9.3e18}]
            """)
        #expect(found.map { "\($0.kind) \($0.pointer) \($0.location.map { "\($0.line):\($0.column)" } ?? "-")" } == [
            "typeMismatch /0/level 1:61", "outOfRange /1/level 2:61",
        ])
    }

    /// A run's pending objects point at each other through inverses and cycles; they go with the run, whether it
    /// applies or is refused, instead of leaking with every decoding.
    @Test func pendingObjectsGoWithTheirRun() throws {
        let model = try EntityModel(json: JSONDocument(parsing: """
            {"entities": {"Folder": {"attributes": {"name": "string"}, "relationships": {
              "sub": {"to": "Folder", "many": true, "owns": true, "inverse": "up"}, "up": {"to": "Folder", "inverse": "sub"}}}}}
            """).value)
        let texts = [
            #"{"class": "Folder", "name": "root", "sub": [{"name": "child"}]}"#,
            #"{"class": "Folder", "name": "root", "$id": "r", "sub": [{"name": "child", "sub": [{"$ref": "r"}]}]}"#,
            #"{"class": "Folder", "name": "root", "sub": [{"name": 1}]}"#,
        ]
        for text in texts {
            weak var pending: GraphReading.PendingObject?
            do {
                let input = DecoderInput(value: nil, document: nil, file: nil, text: Array(text.utf8))
                let reading = GraphReading(context: ObjectContext(model: model), inputs: [input])
                _ = try? reading.run()
                pending = reading.pendingObjects.first
                #expect(pending != nil)
            }
            #expect(pending == nil, "\(text)")
        }
    }

    @Test func stubsOfUndefinedObjectsNeedTheirRequiredAttributes() throws {
        let found = try errors(decoding: #"{"class": "Employee", "email": "a@x", "name": "A", "projects": [{"class": "Report", "title": "x"}]}"#)
        #expect(found.map(\.kind) == [.unknownClass])
        #expect(found.first?.message == "class 'Report' is not a kind of Project; valid classes for a Project: Project")

        let context = ObjectContext(model: try EntityModel(Fixtures.fileModelDeclarations.map { declaration in
            var declaration = declaration
            if declaration.name == "Department" {
                declaration.attributes[declaration.attributes.firstIndex { $0.name == "budget" }!].isOptional = false
            }
            return declaration
        }))
        let missing = try errors(
            decoding: #"{"class": "Employee", "email": "a@x", "name": "A", "department": {"class": "Department", "name": "Sales"}}"#,
            into: context)
        #expect(missing.map(\.message) == ["Department[name=Sales] is referenced but never defined; it lacks required attribute 'budget'"])
        #expect(missing.first?.pointer.description == "/department")
    }

    @Test func duplicateIDsAndMissingClassAreErrors() throws {
        let found = try errors(decoding: """
            [{"class": "Address", "$id": "a", "street": "x"},
             {"class": "Address", "$id": "a", "street": "y"},
             {"street": "z"}]
            """)
        #expect(found.map(\.kind) == [.duplicateID, .missingValue])
        #expect(found[0].message == "duplicate \"$id\" 'a': Address at /0 at /0/$id has it already")
        #expect(found[0].location?.description == "t.json:2:30")
        #expect(found[0].relatedLocation?.description == "t.json:1:30")
    }

    /// A text that does not parse fails the decoding even when nothing else is wrong: alone, or beside valid texts
    /// (which are parsed ahead on another thread), and for a number no type can hold.
    @Test(arguments: [["{"], [#"{"class": "Department", "name": "D"}"#, "{"], [#"[{"class": "Department", "name": 1e400}]"#]])
    func aSyntaxErrorAloneFailsTheDecoding(texts: [String]) throws {
        var decoder = GraphDecoder(context: try Fixtures.companyContext())
        for (index, text) in texts.enumerated() { decoder.add(text: text, file: "\(index).json") }
        do {
            try decoder.decode()
            Issue.record("no error for \(texts)")
        } catch {
            #expect(error.errors.map(\.kind) == [.syntax])
            #expect(error.errors.first?.file == "\(texts.count - 1).json")
        }
    }

    @Test func syntaxErrorsOfSeveralFilesAreReportedTogether() throws {
        var decoder = GraphDecoder(context: try Fixtures.companyContext())
        decoder.add(text: "{", file: "a.json")
        decoder.add(text: #"{"class": "Nope"}"#, file: "b.json")
        #expect(throws: GraphDecodingErrors.self) { try decoder.decode() }
        do {
            try decoder.decode()
        } catch {
            #expect(error.errors.map(\.kind) == [.syntax, .unknownClass])
            #expect(error.errors.map { $0.file ?? "" } == ["a.json", "b.json"])
        }
    }

    @Test func theModelsTemplateConventionsApply() throws {
        let context = ObjectContext(model: try Fixtures.conventionsModel())
        let sales = try context.insert("Department", values: ["name": "Sales"])
        try context.insert("Project", values: ["code": "APOLLO"])
        let ann = try context.fromDictionary([
            "class": "Employee", "full_name": "Ann", "email_address": "ann@example.com", "hired_at": 1_714_555_800,
            "last_login": Decimal(string: "1714555800123.5")!, "department": "Sales", "project_codes": ["APOLLO"],
        ])
        #expect(try ann.value(forKey: "department") as? ManagedObject === sales)
        #expect(ann.attributeValue(at: ann.entity.attributeIndex(named: "hiredAt")!) == .date(Timestamp(seconds: 1_714_555_800)))
        #expect(
            ann.attributeValue(at: ann.entity.attributeIndex(named: "lastLogin")!)
                == .date(Timestamp(seconds: 1_714_555_800, nanoseconds: 123_500_000)))
        #expect(try ann.value(forKeyPath: "projectCodes.@count") as? Int == 1)
        // populate reads the same form.
        try ann.populate(fromDictionary: ["full_name": "Ann Lee", "department": NSNull()])
        #expect(try ann.value(forKey: "fullName") as? String == "Ann Lee")
        #expect(try ann.value(forKey: "department") == nil)
    }

    @Test func templateConventionProblemsAreLocated() throws {
        let context = ObjectContext(model: try Fixtures.conventionsModel())
        try context.insert("Department", values: ["name": "Sales"])
        let found = try errors(
            decoding: """
                {"class": "Employee", "fullName": "Ann", "email_address": "a@x", "hired_at": "2024-05-01T09:30:00Z",
                 "project_codes": [7]}
                """,
            into: context)
        #expect(found.map { "\($0.pointer) \($0.kind) \($0.message)" }.sorted() == [
            " missingValue Employee[emailAddress=a@x] lacks required attribute 'full_name'",
            "/fullName unknownKey Employee writes 'fullName' as 'full_name' (keyStyle snake_case)",
            "/hired_at typeMismatch attribute 'hiredAt' of Employee: expected a number of seconds since 1970 such as "
                + "1714555800 (dateFormat secondsSince1970), got a string",
            "/project_codes/0 typeMismatch reference to Project by code: expected a string, got a number",
        ])
    }

    /// The kinds of value a relationship takes without a problem, by its two flags: what the template reader checks
    /// each relationship's value against before it asks for the problem's message.
    @Test func aRelationshipTakesTheKindsOfValueItsFlagsSay() {
        let values: [(value: JSON, kind: String)] = [
            (.null, "null"), (.array([]), "array"), (.object(JSONObject()), "object"), (.string("P1"), "string"),
            (.number(JSONNumber(7)), "number"), (.bool(true), "bool"),
        ]
        var taken: [String] = []
        for isToMany in [false, true] {
            for isByIdentity in [false, true] {
                let kinds = values.filter { DictionaryRules.hasShape($0.value, isToMany: isToMany, isByIdentity: isByIdentity) }
                taken.append("\(isToMany ? "to-many" : "to-one")\(isByIdentity ? " by identity" : ""): \(kinds.map(\.kind).joined(separator: " "))")
            }
        }
        #expect(taken == [
            "to-one: null object", "to-one by identity: null object string number bool", "to-many: null array",
            "to-many by identity: null array",
        ])
    }

    @Test func anIdentityValueWhereTheModelTakesNoneSaysHowItCould() throws {
        let found = try errors(decoding: #"{"class": "Employee", "email": "a@x", "name": "A", "department": "Sales", "projects": ["P1"]}"#)
        #expect(found.map { "\($0.pointer) \($0.message)" }.sorted() == [
            "/department to-one relationship 'department' of Employee: expected a Department object or null, got a string; "
                + "\"byIdentity\": true on the relationship in the model file lets a Department be named by its name alone",
            "/projects/0 expected an object with \"class\" (a Project), got a string; \"byIdentity\": true on the "
                + "relationship in the model file lets a Project be named by its code alone",
        ])
    }
}
