import Testing
import SeedKit

@Suite("JSON patches")
struct JSONPatchTests {
    private func json(_ text: String) throws -> JSON {
        try JSONDocument(parsing: text).value
    }

    /// Reads `patchText` as an RFC 6902 document and applies it to `documentText`.
    private func apply(_ patchText: String, to documentText: String) throws -> JSON {
        try JSONPatch(json: json(patchText)).apply(to: json(documentText))
    }

    private func applyingError(_ patchText: String, to documentText: String) throws -> JSONPatchError? {
        let patch = try JSONPatch(json: json(patchText))
        let document = try json(documentText)
        do {
            _ = try patch.apply(to: document)
            return nil
        } catch {
            return error
        }
    }

    private func readingError(_ patchText: String) throws -> JSONPatchError? {
        let document = try json(patchText)
        do {
            _ = try JSONPatch(json: document)
            return nil
        } catch {
            return error
        }
    }

    // MARK: RFC 6902 appendix A, with our own values

    @Test func addsObjectMembersAndArrayElements() throws {
        #expect(try apply(#"[{"op":"add","path":"/size","value":"L"}]"#, to: #"{"colour":"red"}"#)
            == json(#"{"colour":"red","size":"L"}"#))
        #expect(try apply(#"[{"op":"add","path":"/sizes/1","value":"M"}]"#, to: #"{"sizes":["S","L"]}"#)
            == json(#"{"sizes":["S","M","L"]}"#))
        #expect(try apply(#"[{"op":"add","path":"/sizes/2","value":"XL"}]"#, to: #"{"sizes":["S","L"]}"#)
            == json(#"{"sizes":["S","L","XL"]}"#))
        #expect(try apply(#"[{"op":"add","path":"/sizes/-","value":"XL"}]"#, to: #"{"sizes":["S","L"]}"#)
            == json(#"{"sizes":["S","L","XL"]}"#))
        // An object value is added as one member (A.10); an array value as one element (A.16).
        #expect(try apply(#"[{"op":"add","path":"/stock","value":{"north":3}}]"#, to: #"{"sku":"k1"}"#)
            == json(#"{"sku":"k1","stock":{"north":3}}"#))
        #expect(try apply(#"[{"op":"add","path":"/sizes/-","value":["XS","XXL"]}]"#, to: #"{"sizes":["S"]}"#)
            == json(#"{"sizes":["S",["XS","XXL"]]}"#))
        // "add" on an existing member replaces it; on the root it replaces the document.
        #expect(try apply(#"[{"op":"add","path":"/colour","value":"blue"}]"#, to: #"{"colour":"red"}"#)
            == json(#"{"colour":"blue"}"#))
        #expect(try apply(#"[{"op":"add","path":"","value":[1]}]"#, to: #"{"colour":"red"}"#) == [1])
    }

    @Test func removesAndReplaces() throws {
        #expect(try apply(#"[{"op":"remove","path":"/size"}]"#, to: #"{"colour":"red","size":"L"}"#)
            == json(#"{"colour":"red"}"#))
        #expect(try apply(#"[{"op":"remove","path":"/sizes/1"}]"#, to: #"{"sizes":["S","M","L"]}"#)
            == json(#"{"sizes":["S","L"]}"#))
        #expect(try apply(#"[{"op":"replace","path":"/colour","value":"green"}]"#, to: #"{"colour":"red","n":1}"#)
            == json(#"{"colour":"green","n":1}"#))
        #expect(try apply(#"[{"op":"replace","path":"/a/0/b","value":null}]"#, to: #"{"a":[{"b":[1,2]}]}"#)
            == json(#"{"a":[{"b":null}]}"#))
        #expect(try apply(#"[{"op":"replace","path":"","value":"all"}]"#, to: #"{"colour":"red"}"#) == "all")
    }

    @Test func movesAndCopies() throws {
        #expect(try apply(
            #"[{"op":"move","from":"/draft/title","path":"/published/title"}]"#,
            to: #"{"draft":{"title":"Q3","body":"…"},"published":{"date":"today"}}"#)
            == json(#"{"draft":{"body":"…"},"published":{"date":"today","title":"Q3"}}"#))
        // Within one array the element is removed first, then inserted at the target index.
        #expect(try apply(#"[{"op":"move","from":"/steps/1","path":"/steps/3"}]"#, to: #"{"steps":["a","b","c","d"]}"#)
            == json(#"{"steps":["a","c","d","b"]}"#))
        #expect(try apply(#"[{"op":"move","from":"/steps/3","path":"/steps/0"}]"#, to: #"{"steps":["a","b","c","d"]}"#)
            == json(#"{"steps":["d","a","b","c"]}"#))
        #expect(try apply(#"[{"op":"move","from":"/x","path":"/x"}]"#, to: #"{"x":1}"#) == json(#"{"x":1}"#))
        #expect(try apply(#"[{"op":"copy","from":"/a/0","path":"/b"}]"#, to: #"{"a":[{"k":1}]}"#)
            == json(#"{"a":[{"k":1}],"b":{"k":1}}"#))
    }

    @Test func testsCompareValues() throws {
        let document = #"{"name":"Ada","ids":[1,2.0],"meta":{"a":1,"b":[true,null]},"~1":"tilde one","/":"slash"}"#
        // Numbers compare by value and objects whatever their member order.
        #expect(try apply(
            #"""
            [{"op":"test","path":"/name","value":"Ada"},
             {"op":"test","path":"/ids","value":[1.0,2]},
             {"op":"test","path":"/meta","value":{"b":[true,null],"a":1e0}},
             {"op":"test","path":"/~01","value":"tilde one"},
             {"op":"test","path":"/~1","value":"slash"}]
            """#, to: document) == json(document))
        let failure = try #require(try applyingError(#"[{"op":"test","path":"/ids/0","value":"1"}]"#, to: document))
        #expect(failure.operationIndex == 0)
        #expect(failure.pointer == JSONPointer(tokens: ["ids", "0"]))
        #expect(failure.description == #"operation 0 at "/ids/0": test failed: the value is 1, expected "1""#)
        #expect(try applyingError(#"[{"op":"test","path":"/meta","value":{"a":1}}]"#, to: document) != nil)
    }

    @Test func ignoresMembersAnOperationDoesNotUse() throws {
        #expect(try apply(#"[{"op":"add","path":"/b","value":2,"from":"/a","note":"x"}]"#, to: #"{"a":1}"#)
            == json(#"{"a":1,"b":2}"#))
    }

    // MARK: Errors

    @Test func refusesOperationsThatDoNotFit() throws {
        func message(_ patch: String, _ document: String) throws -> String? {
            try applyingError(patch, to: document)?.description
        }
        #expect(try message(#"[{"op":"add","path":"/a/b","value":1}]"#, #"{"c":{}}"#)
            == #"operation 0 at "/a": no member "a"; its members are "c""#)
        #expect(try message(#"[{"op":"add","path":"/l/3","value":1}]"#, #"{"l":[0,1]}"#)
            == #"operation 0 at "/l/3": index 3 is past the end of 2 elements; an insertion index must be within 0...2, or "-" to append"#)
        #expect(try message(#"[{"op":"add","path":"/l/01","value":1}]"#, #"{"l":[0,1]}"#)
            == #"operation 0 at "/l/01": "01" is not an array index (decimal digits without leading zeros); an insertion index must be within 0...2, or "-" to append"#)
        #expect(try message(#"[{"op":"remove","path":"/l/-"}]"#, #"{"l":[0,1]}"#)
            == #"operation 0 at "/l/-": "-" names the position after the last element, which holds no value; valid indices are 0...1"#)
        #expect(try message(#"[{"op":"replace","path":"/l/0","value":1}]"#, #"{"l":[]}"#)
            == #"operation 0 at "/l/0": index 0 is past the end of 0 elements; the array is empty, so no index is valid"#)
        #expect(try message(#"[{"op":"replace","path":"/missing","value":1}]"#, #"{}"#)
            == #"operation 0 at "/missing": no member "missing"; the object is empty"#)
        #expect(try message(#"[{"op":"remove","path":"/n/x"}]"#, #"{"n":5}"#)
            == #"operation 0 at "/n/x": "/n" is a number, which has no members or elements; a path can only go through objects and arrays"#)
        #expect(try message(#"[{"op":"remove","path":""}]"#, #"{}"#)
            == #"operation 0 at "": cannot remove the whole document; "replace" it at path "" instead"#)
        #expect(try message(#"[{"op":"move","from":"/a","path":"/a/b"}]"#, #"{"a":{}}"#)
            == #"operation 0 at "/a/b": cannot move "/a" into its own child; the target must be outside the moved value"#)
        #expect(try message(#"[{"op":"copy","from":"/z","path":"/a"}]"#, #"{"a":1}"#)
            == #"operation 0 at "/z": no member "z"; its members are "a""#)
    }

    @Test func failingPatchNamesTheOperationAndLeavesTheDocument() throws {
        let document: JSON = ["a": [1, 2]]
        let patch = JSONPatch([
            .add(path: JSONPointer(tokens: ["b"]), value: true),
            .remove(path: JSONPointer(tokens: ["a", "0"])),
            .test(path: JSONPointer(tokens: ["a", "0"]), value: 1),
        ])
        #expect(throws: JSONPatchError(
            stage: .applying, operationIndex: 2, pointer: JSONPointer(tokens: ["a", "0"]),
            message: "test failed: the value is 2, expected 1")
        ) { try patch.apply(to: document) }
        #expect(document == ["a": [1, 2]])
    }

    @Test func refusesMalformedPatchDocuments() throws {
        #expect(try readingError(#"{"op":"add"}"#)?.description
            == "patch document: a JSON patch must be an array of operation objects, not an object")
        #expect(try readingError(#"[{"op":"add","path":"","value":1}, 7]"#)?.description
            == #"/1: an operation must be an object with "op" and "path", not a number"#)
        #expect(try readingError(#"[{"path":"/a"}]"#)?.description
            == #"/0/op: missing; expected "add", "remove", "replace", "move", "copy" or "test""#)
        #expect(try readingError(#"[{"op":"delete","path":"/a"}]"#)?.description
            == #"/0/op: "delete" is not an operation; expected "add", "remove", "replace", "move", "copy" or "test""#)
        let fourth = #"[{"op":"test","path":"","value":1},{"op":"remove","path":""},{"op":"remove","path":""},"#
        #expect(try readingError(fourth + #"{"op":"replace","value":2}]"#)?.description
            == #"/3/path: missing; "replace" needs a JSON pointer string to the value to replace"#)
        #expect(try readingError(#"[{"op":"remove","path":5}]"#)?.description
            == "/0/path: expected a JSON pointer string, not a number")
        #expect(try readingError(#"[{"op":"remove","path":"a"}]"#)?.description
            == #"/0/path: invalid JSON pointer "a": a JSON pointer must be empty or start with '/'"#)
        #expect(try readingError(#"[{"op":"add","path":"/a"}]"#)?.description
            == #"/0/value: missing; "add" needs the value to add"#)
        #expect(try readingError(#"[{"op":"copy","path":"/a"}]"#)?.description
            == #"/0/from: missing; "copy" needs a JSON pointer string to the value to copy"#)
        let error = try #require(try readingError(#"[{"op":"move","from":"/a","path":"/b~"}]"#))
        #expect(error.operationIndex == 0)
        #expect(error.pointer == JSONPointer(tokens: ["0", "path"]))
    }

    @Test func writesAndReadsBackRFC6902Documents() throws {
        let patch = JSONPatch([
            .add(path: JSONPointer(tokens: ["a/b", "-"]), value: ["k": [1, nil]]),
            .remove(path: JSONPointer(tokens: ["x", "0"])),
            .replace(path: .root, value: "whole"),
            .move(from: JSONPointer(tokens: ["m~n"]), path: JSONPointer(tokens: ["o"])),
            .copy(from: JSONPointer(tokens: ["o"]), path: JSONPointer(tokens: ["p"])),
            .test(path: JSONPointer(tokens: ["p"]), value: 1.5),
        ])
        #expect(try JSONPatch(json: patch.json) == patch)
        #expect(try JSONPatch(json: json(patch.json.text())) == patch)
        #expect(patch.json.arrayValue?[3] == ["op": "move", "from": "/m~0n", "path": "/o"])
        #expect(patch.json.arrayValue?[0] == ["op": "add", "path": "/a~1b/-", "value": ["k": [1, nil]]])
    }

    // MARK: Differences

    @Test func differenceEditsObjectsMemberByMember() throws {
        let old: JSON = ["name": "Sales", "size": 3, "tags": ["a"], "boss": ["name": "Ada", "age": 36]]
        let new: JSON = ["name": "Sales", "size": 4, "open": true, "boss": ["name": "Ada", "age": 37]]
        let patch = JSONPatch.difference(from: old, to: new)
        #expect(patch.operations == [
            .remove(path: JSONPointer(tokens: ["tags"])),
            .replace(path: JSONPointer(tokens: ["boss", "age"]), value: 37),
            .add(path: JSONPointer(tokens: ["open"]), value: true),
            .replace(path: JSONPointer(tokens: ["size"]), value: 4),
        ])
        #expect(try patch.apply(to: old) == new)
        #expect(JSONPatch.difference(from: old, to: old).operations.isEmpty)
        // Equal numbers in different storage are no change; a change of kind replaces the value.
        #expect(JSONPatch.difference(from: ["n": 1], to: ["n": 1.0]).operations.isEmpty)
        #expect(JSONPatch.difference(from: ["n": 1], to: ["n": "1"]).operations
            == [.replace(path: JSONPointer(tokens: ["n"]), value: "1")])
        #expect(JSONPatch.difference(from: 1, to: [1]).operations == [.replace(path: .root, value: [1])])
    }

    @Test func differencePrefixesPathsWithTheBase() throws {
        let base = JSONPointer(tokens: ["exports", "0"])
        let patch = JSONPatch.difference(from: ["a": [1, 2]], to: ["a": [2]], at: base)
        #expect(patch.operations == [.remove(path: JSONPointer(tokens: ["exports", "0", "a", "0"]))])
        #expect(try patch.apply(to: ["exports": [["a": [1, 2]]]]) == ["exports": [["a": [2]]]])
    }

    @Test func differenceMatchesArrayElementsOnKeys() throws {
        func record(_ id: Int, _ age: Int? = nil) -> JSON {
            var members: JSONObject = ["id": .number(JSONNumber(id))]
            if let age { members["age"] = .number(JSONNumber(age)) }
            return .object(members)
        }
        let old: JSON = .array([record(1, 30), record(2), record(3), record(4)])
        let new: JSON = .array([record(1, 31), record(3), record(5), record(4)])
        let byID = JSONPatch.difference(from: old, to: new) { $0["id"]?.text() }
        #expect(byID.operations == [
            .replace(path: JSONPointer(tokens: ["0", "age"]), value: 31),
            .remove(path: JSONPointer(tokens: ["1"])),
            .add(path: JSONPointer(tokens: ["2"]), value: record(5)),
        ])
        #expect(try byID.apply(to: old) == new)
        // Record 1 changed, so without keys it is matched by position and edited member by member too.
        let byContent = JSONPatch.difference(from: old, to: new)
        #expect(try byContent.apply(to: old) == new)
        // A record moved to the front is one removal and one insertion, the others untouched.
        let moved: JSON = .array([record(4), record(1, 30), record(2), record(3)])
        let move = JSONPatch.difference(from: old, to: moved) { $0["id"]?.text() }
        #expect(move.operations == [
            .add(path: JSONPointer(tokens: ["0"]), value: record(4)),
            .remove(path: JSONPointer(tokens: ["4"])),
        ])
        #expect(try move.apply(to: old) == moved)
    }

    @Test func differenceOfAHundredThousandElementsWithThreeChangesIsThreeOperations() throws {
        let count = 100_000
        let old = JSON.array((0..<count).map { .number(JSONNumber($0)) })
        var elements = old.arrayValue!
        elements.remove(at: 10)
        elements.insert("new", at: 50_000)
        elements[90_000] = -1
        let new = JSON.array(elements)

        let clock = ContinuousClock()
        let start = clock.now
        let patch = JSONPatch.difference(from: old, to: new)
        let elapsed = clock.now - start
        #expect(patch.operations == [
            .remove(path: JSONPointer(tokens: ["10"])),
            .add(path: JSONPointer(tokens: ["50000"]), value: "new"),
            .replace(path: JSONPointer(tokens: ["90000"]), value: -1),
        ])
        #expect(try patch.apply(to: old) == new)
        // Linear work takes well under a second even in debug builds; a quadratic search would take minutes.
        #expect(elapsed < .seconds(20))

        let records = JSON.array(
            (0..<count).map { (index: Int) -> JSON in ["code": .string("I\(index)"), "price": 1.5] })
        var changed = records.arrayValue!
        changed.remove(at: 70_000)
        changed[5] = ["code": "I5", "price": 2]
        changed.append(["code": "I-new", "price": 3])
        let recordPatch = JSONPatch.difference(from: records, to: .array(changed)) { $0["code"]?.stringValue }
        #expect(recordPatch.operations.count == 3)
        #expect(try recordPatch.apply(to: records) == .array(changed))
    }

    @Test func differenceOfArraysReorderedThroughoutStillApplies() throws {
        // Reversed, then with every tenth element dropped: beyond the search limit, so the array is split greedily.
        let old = JSON.array((0..<3_000).map { .number(JSONNumber($0)) })
        let new = JSON.array(old.arrayValue!.reversed().enumerated().filter { $0.offset % 10 != 0 }.map(\.element))
        let patch = JSONPatch.difference(from: old, to: new)
        #expect(try patch.apply(to: old) == new)
        // The most any patch needs is removing every old element and adding every new one.
        #expect(patch.operations.count <= 3_000 + 2_700)
    }

    // MARK: Property test

    @Test func differenceAppliedToOldGivesNewForSeededRandomPairs() throws {
        var random = SeededGenerator(seed: 6902)
        for round in 0..<400 {
            let old = RandomJSON.value(depth: 3, using: &random)
            // Mostly edits of `old` (realistic diffs), sometimes an unrelated value.
            let new = round % 5 == 0 ? RandomJSON.value(depth: 3, using: &random) : RandomJSON.edit(old, using: &random)
            let patch = JSONPatch.difference(from: old, to: new)
            #expect(try patch.apply(to: old) == new, "round \(round): \(patch.json.text())")
            #expect(try JSONPatch(json: patch.json) == patch)
        }
        for round in 0..<300 {
            let old = RandomJSON.records(count: Int.random(in: 0...30, using: &random), using: &random)
            let new = RandomJSON.editRecords(old, using: &random)
            let keyed = JSONPatch.difference(from: old, to: new) { $0["id"]?.text() }
            #expect(try keyed.apply(to: old) == new, "round \(round): \(keyed.json.text())")
            let unkeyed = JSONPatch.difference(from: old, to: new)
            #expect(try unkeyed.apply(to: old) == new, "round \(round): \(unkeyed.json.text())")
        }
    }
}

/// Deterministic random JSON for the property test.
private enum RandomJSON {
    static func value(depth: Int, using random: inout SeededGenerator) -> JSON {
        switch Int.random(in: 0..<(depth > 0 ? 7 : 4), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .number(JSONNumber(Int.random(in: -3...3, using: &random)))
        case 3: return .string(["a", "b", "~", "/", "x/y~z"].randomElement(using: &random)!)
        case 4, 5:
            let count = Int.random(in: 0...6, using: &random)
            return .array((0..<count).map { _ in value(depth: depth - 1, using: &random) })
        default:
            var members: JSONObject = [:]
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                members[["a", "b", "c", "d/e", "~f"].randomElement(using: &random)!] =
                    value(depth: depth - 1, using: &random)
            }
            return .object(members)
        }
    }

    /// `value` with a few random changes at random depths.
    static func edit(_ value: JSON, using random: inout SeededGenerator) -> JSON {
        switch value {
        case .array(var elements):
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    let index = Int.random(in: 0...elements.count, using: &random)
                    elements.insert(self.value(depth: 1, using: &random), at: index)
                case 1 where !elements.isEmpty: elements.remove(at: Int.random(in: 0..<elements.count, using: &random))
                case 2 where !elements.isEmpty:
                    let index = Int.random(in: 0..<elements.count, using: &random)
                    elements[index] = edit(elements[index], using: &random)
                default: break
                }
            }
            return .array(elements)
        case .object(var members):
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let key = ["a", "b", "c", "d/e", "~f"].randomElement(using: &random)!
                switch Int.random(in: 0..<3, using: &random) {
                case 0: members[key] = nil
                case 1:
                    members[key] =
                        members[key].map { edit($0, using: &random) } ?? self.value(depth: 1, using: &random)
                default: members[key] = self.value(depth: 1, using: &random)
                }
            }
            return .object(members)
        default:
            return Int.random(in: 0..<3, using: &random) == 0 ? self.value(depth: 1, using: &random) : value
        }
    }

    static func records(count: Int, using random: inout SeededGenerator) -> JSON {
        .array((0..<count).map { id in record(id: id, using: &random) })
    }

    private static func record(id: Int, using random: inout SeededGenerator) -> JSON {
        ["id": .number(JSONNumber(id)), "v": .number(JSONNumber(Int.random(in: 0...2, using: &random)))]
    }

    /// Insertions, deletions, moves and value changes of records with unique ids.
    static func editRecords(_ records: JSON, using random: inout SeededGenerator) -> JSON {
        var elements = records.arrayValue!
        var nextID = 1000
        for _ in 0..<Int.random(in: 0...8, using: &random) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                let index = Int.random(in: 0...elements.count, using: &random)
                elements.insert(record(id: nextID, using: &random), at: index)
                nextID += 1
            case 1 where !elements.isEmpty:
                elements.remove(at: Int.random(in: 0..<elements.count, using: &random))
            case 2 where !elements.isEmpty:
                let moved = elements.remove(at: Int.random(in: 0..<elements.count, using: &random))
                elements.insert(moved, at: Int.random(in: 0...elements.count, using: &random))
            case 3 where !elements.isEmpty:
                let index = Int.random(in: 0..<elements.count, using: &random)
                elements[index] = [
                    "id": elements[index]["id"]!, "v": .number(JSONNumber(Int.random(in: 0...2, using: &random))),
                ]
            default: break
            }
        }
        return .array(elements)
    }
}
