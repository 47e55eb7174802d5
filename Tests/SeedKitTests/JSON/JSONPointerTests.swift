import Testing
import SeedKit

@Suite("JSON pointers and locations")
struct JSONPointerTests {
    @Test func parsesAndDescribesPointers() throws {
        #expect(try JSONPointer(parsing: "") == .root)
        #expect(JSONPointer.root.description == "")
        #expect(try JSONPointer(parsing: "/a~1b/m~0n/").tokens == ["a/b", "m~n", ""])
        let pointer = JSONPointer.root.appending("department").appending("employees").appending(2).appending("nmae")
        #expect(pointer.description == "/department/employees/2/nmae")
        #expect(JSONPointer(tokens: ["a/b", "~"]).description == "/a~1b/~0")
        #expect(try JSONPointer(parsing: pointer.description) == pointer)
        #expect(pointer.parent?.description == "/department/employees/2")
        #expect(JSONPointer.root.parent == nil)
    }

    @Test func rejectsInvalidPointerText() {
        #expect(throws: JSONPointerSyntaxError.self) { try JSONPointer(parsing: "a") }
        #expect(throws: JSONPointerSyntaxError.self) { try JSONPointer(parsing: "/a~2") }
        #expect(throws: JSONPointerSyntaxError.self) { try JSONPointer(parsing: "/a~") }
    }

    @Test func ordersPointers() {
        let pointers = [
            JSONPointer(tokens: ["a", "10"]), JSONPointer(tokens: ["a", "2"]), JSONPointer(tokens: ["a"]),
            JSONPointer(tokens: ["B"]), .root,
        ]
        #expect(pointers.sorted().map(\.description) == ["", "/B", "/a", "/a/2", "/a/10"])
    }

    @Test func findsValuesInJSON() throws {
        let json: JSON = ["employees": [["name": "Ada"], ["name": "Grace"]], "a/b": 1]
        #expect(json[try JSONPointer(parsing: "/employees/1/name")] == "Grace")
        #expect(json[try JSONPointer(parsing: "/a~1b")] == 1)
        #expect(json[try JSONPointer(parsing: "/employees/01")] == nil)
        #expect(json[try JSONPointer(parsing: "/employees/2")] == nil)
        #expect(json[JSONPointer.root] == json)
    }

    private let text = """
        {
          "department": {
            "name": "Sales",
            "employees": [
              {"name": "Ada", "age": 36},
              {"name": "Grace", "nmae": "typo", "tags": ["x", "y"]},
              {"name": "Zoë \\"Z\\"", "age": 41}
            ]
          },
          "a/b": [[1, 2], {"": true}],
          "last": null
        }
        """

    @Test func locatesValuesAndKeys() throws {
        let document = try JSONDocument(parsing: text, file: "sales.json")
        func location(_ pointer: String) throws -> String? {
            document.location(of: try JSONPointer(parsing: pointer))?.description
        }
        #expect(try location("") == "sales.json:1:1")
        #expect(try location("/department") == "sales.json:2:17")
        #expect(try location("/department/name") == "sales.json:3:13")
        #expect(try location("/department/employees/0") == "sales.json:5:7")
        #expect(try location("/department/employees/1/nmae") == "sales.json:6:33")
        #expect(try location("/department/employees/1/tags/1") == "sales.json:6:55")
        #expect(try location("/department/employees/2/age") == "sales.json:7:36")
        #expect(try location("/a~1b/0/1") == "sales.json:10:15")
        #expect(try location("/a~1b/1/") == "sales.json:10:24")
        #expect(try location("/last") == "sales.json:11:11")
        #expect(try location("/department/employees/3") == nil)
        #expect(try location("/department/missing") == nil)
        #expect(try location("/department/name/x") == nil)

        let typo = try JSONPointer(parsing: "/department/employees/1/nmae")
        #expect(document.locationOfKey(typo)?.description == "sales.json:6:25")
        #expect(document.locationOfKey(try JSONPointer(parsing: "/department/employees/1")) == nil)
        #expect(document.locationOfKey(.root) == nil)
    }

    @Test func locatesManyPointersInOnePass() throws {
        let document = try JSONDocument(parsing: text)
        let pointers = try [
            "/department/employees/1/nmae", "/last", "/department/name", "/a~1b/1/", "/nowhere", "",
        ].map { try JSONPointer(parsing: $0) }
        let locations = document.locations(of: pointers)
        #expect(locations.count == 5)
        for pointer in pointers {
            #expect(locations[pointer] == document.location(of: pointer))
        }
        #expect(locations[pointers[0]] == SourceLocation(file: nil, line: 6, column: 33))
    }

    @Test func locatesInDeepDocuments() throws {
        let depth = 2_000
        let document = try JSONDocument(
            parsing: String(repeating: "[", count: depth) + "7" + String(repeating: "]", count: depth), maxDepth: depth)
        let pointer = JSONPointer(tokens: Array(repeating: "0", count: depth))
        #expect(document.location(of: pointer) == SourceLocation(file: nil, line: 1, column: depth + 1))
        #expect(document.value[pointer] == 7)
    }

    @Test func comparesLocations() {
        let a = SourceLocation(file: "a.json", line: 2, column: 9)
        let b = SourceLocation(file: "a.json", line: 10, column: 1)
        #expect(a < b)
        #expect(SourceLocation(file: nil, line: 5, column: 5) < a)
        #expect(SourceLocation(file: nil, line: 3, column: 4).description == "3:4")
    }
}
