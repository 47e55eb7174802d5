/// A JSON Patch (RFC 6902): a list of operations that edit a JSON document in order.
///
///     let patch = JSONPatch([
///         .replace(path: JSONPointer(tokens: ["name"]), value: "Sales"),
///         .add(path: JSONPointer(tokens: ["employees", "-"]), value: ["name": "Ada"]),
///     ])
///     try patch.apply(to: ["name": "Sale", "employees": []])
///     // ["name": "Sales", "employees": [["name": "Ada"]]]
///     patch.json.text(style: .canonical)  // [{"op":"replace","path":"/name","value":"Sales"},{"op":"add",…}]
package struct JSONPatch: Sendable, Hashable {
    /// One edit; pointers follow RFC 6901, and "-" as the last token of an `add` path appends to an array.
    package enum Operation: Sendable, Hashable {
        /// Inserts into an array, or sets an object member (replacing any value it had), or replaces the document.
        case add(path: JSONPointer, value: JSON)
        /// Removes an existing array element or object member.
        case remove(path: JSONPointer)
        /// Replaces an existing value.
        case replace(path: JSONPointer, value: JSON)
        /// Removes the value at `from` and adds it at `path`; `path` must not be inside `from`.
        case move(from: JSONPointer, path: JSONPointer)
        /// Adds a copy of the value at `from` at `path`.
        case copy(from: JSONPointer, path: JSONPointer)
        /// Fails the patch unless the value at `path` equals `value` (numbers compare by value, objects by members).
        case test(path: JSONPointer, value: JSON)
    }

    package var operations: [Operation]

    package init(_ operations: [Operation] = []) {
        self.operations = operations
    }
}

extension JSONPatch.Operation {
    /// The RFC 6902 name of the operation: "add", "remove", …
    package var name: String {
        switch self {
        case .add: "add"
        case .remove: "remove"
        case .replace: "replace"
        case .move: "move"
        case .copy: "copy"
        case .test: "test"
        }
    }

    /// The pointer to the location the operation targets.
    package var path: JSONPointer {
        switch self {
        case .add(let path, _), .remove(let path), .replace(let path, _), .move(_, let path), .copy(_, let path),
            .test(let path, _):
            path
        }
    }

    /// The operation as an RFC 6902 object: `{"op": …, "path": …}` plus `"from"` or `"value"`.
    package var json: JSON {
        var members: JSONObject = ["op": .string(name), "path": .string(path.description)]
        switch self {
        case .add(_, let value), .replace(_, let value), .test(_, let value):
            members["value"] = value
        case .move(let from, _), .copy(let from, _):
            members["from"] = .string(from.description)
        case .remove:
            break
        }
        return .object(members)
    }
}

/// A patch that cannot be read, or an operation that cannot be applied.
package struct JSONPatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Whether the patch document was malformed or an operation failed on the target document.
    package enum Stage: Sendable, Hashable {
        case reading
        case applying
    }

    package var stage: Stage
    /// The index of the operation at fault; nil when the patch document is not an array at all.
    package var operationIndex: Int?
    /// Where the problem is: in the patch document when reading (such as `/3/path`), in the target document when
    /// applying (the prefix of the operation's path or `from` that could not be followed, or the path itself).
    package var pointer: JSONPointer
    /// What is wrong, and what would be valid instead.
    package var message: String

    package init(stage: Stage, operationIndex: Int?, pointer: JSONPointer, message: String) {
        self.stage = stage
        self.operationIndex = operationIndex
        self.pointer = pointer
        self.message = message
    }

    package var description: String {
        switch stage {
        case .reading:
            operationIndex == nil ? "patch document: \(message)" : "\(pointer): \(message)"
        case .applying:
            "operation \(operationIndex ?? 0) at \"\(pointer)\": \(message)"
        }
    }
}

// MARK: - Reading and writing RFC 6902 documents

extension JSONPatch {
    /// Reads an RFC 6902 patch document: an array of operation objects. Members an operation does not use are
    /// ignored, as the RFC asks.
    ///
    /// Errors name the operation and member, such as `/3/path: missing; …`.
    package init(json: JSON) throws(JSONPatchError) {
        guard case .array(let elements) = json else {
            throw JSONPatchError(
                stage: .reading, operationIndex: nil, pointer: .root,
                message: "a JSON patch must be an array of operation objects, not \(json.kindDescription)")
        }
        operations = []
        operations.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            operations.append(try Operation(json: element, index: index))
        }
    }

    /// The RFC 6902 document: an array with one object per operation.
    package var json: JSON {
        .array(operations.map(\.json))
    }
}

extension JSONPatch.Operation {
    fileprivate init(json: JSON, index: Int) throws(JSONPatchError) {
        func failure(_ member: String?, _ message: String) -> JSONPatchError {
            let pointer = JSONPointer.root.appending(index)
            return JSONPatchError(
                stage: .reading, operationIndex: index, pointer: member.map { pointer.appending($0) } ?? pointer,
                message: message)
        }
        guard case .object(let members) = json else {
            throw failure(nil, "an operation must be an object with \"op\" and \"path\", not \(json.kindDescription)")
        }
        let validNames = "\"add\", \"remove\", \"replace\", \"move\", \"copy\" or \"test\""
        guard let op = members["op"] else { throw failure("op", "missing; expected \(validNames)") }
        guard case .string(let name) = op else {
            throw failure("op", "expected a string: \(validNames), not \(op.kindDescription)")
        }
        func pointer(_ member: String, purpose: String) throws(JSONPatchError) -> JSONPointer {
            guard let value = members[member] else {
                throw failure(member, "missing; \"\(name)\" needs a JSON pointer string \(purpose)")
            }
            guard case .string(let text) = value else {
                throw failure(member, "expected a JSON pointer string, not \(value.kindDescription)")
            }
            do {
                return try JSONPointer(parsing: text)
            } catch {
                throw failure(member, "\(error)")
            }
        }
        func value(purpose: String) throws(JSONPatchError) -> JSON {
            guard let value = members["value"] else { throw failure("value", "missing; \"\(name)\" needs \(purpose)") }
            return value
        }
        switch name {
        case "add":
            self = .add(
                path: try pointer("path", purpose: "to the target"), value: try value(purpose: "the value to add"))
        case "remove":
            self = .remove(path: try pointer("path", purpose: "to the value to remove"))
        case "replace":
            self = .replace(
                path: try pointer("path", purpose: "to the value to replace"),
                value: try value(purpose: "the new value"))
        case "move":
            self = .move(
                from: try pointer("from", purpose: "to the value to move"),
                path: try pointer("path", purpose: "to the target"))
        case "copy":
            self = .copy(
                from: try pointer("from", purpose: "to the value to copy"),
                path: try pointer("path", purpose: "to the target"))
        case "test":
            self = .test(
                path: try pointer("path", purpose: "to the value to test"),
                value: try value(purpose: "the expected value"))
        default:
            throw failure("op", "\"\(name)\" is not an operation; expected \(validNames)")
        }
    }
}

// MARK: - Applying

extension JSONPatch {
    /// Applies the operations in order to `document` and returns the result.
    ///
    /// Follows RFC 6902: array indices are decimal without leading zeros; "-" as the last token of an `add` path
    /// appends; `add` on an existing object member replaces it; `test` compares values (numbers by value, objects
    /// whatever their member order); `move` into the moved value's own child is refused. Since `JSON` is a value,
    /// a failing operation leaves nothing half-done: the error is thrown and `document` is as it was.
    ///
    /// - Complexity: For each operation, O(*d*) along a path of depth *d*, plus O(*k*) to insert into or remove from
    ///   an array or object of *k* elements, plus the size of any value compared or copied. The first edit of a
    ///   container shared with `document` copies that container once.
    package func apply(to document: JSON) throws(JSONPatchError) -> JSON {
        var result = document
        for (index, operation) in operations.enumerated() {
            do {
                try operation.apply(to: &result)
            } catch {
                throw JSONPatchError(
                    stage: .applying, operationIndex: index, pointer: error.pointer, message: error.message)
            }
        }
        return result
    }
}

/// Why an operation failed, before it is tagged with the operation's index.
private struct OperationFailure: Error {
    var pointer: JSONPointer
    var message: String
}

extension JSONPatch.Operation {
    fileprivate func apply(to document: inout JSON) throws(OperationFailure) {
        switch self {
        case .add(let path, let value):
            try document.add(value, at: path)
        case .remove(let path):
            _ = try document.remove(at: path)
        case .replace(let path, let value):
            try document.replace(at: path, with: value)
        case .move(let from, let path):
            if from.tokens.count < path.tokens.count, Array(path.tokens.prefix(from.tokens.count)) == from.tokens {
                throw OperationFailure(
                    pointer: path,
                    message: "cannot move \"\(from)\" into its own child; the target must be outside the moved value")
            }
            // Moving a value onto itself changes nothing, but the value must still exist.
            if from == path {
                _ = try document.value(at: from)
            } else {
                try document.add(try document.remove(at: from), at: path)
            }
        case .copy(let from, let path):
            try document.add(try document.value(at: from), at: path)
        case .test(let path, let expected):
            let actual = try document.value(at: path)
            guard actual == expected else {
                throw OperationFailure(
                    pointer: path,
                    message: "test failed: the value is \(actual.patchSummary), expected \(expected.patchSummary)")
            }
        }
    }
}

extension JSON {
    /// The value at `pointer`, which must exist ("-" names no element).
    fileprivate func value(at pointer: JSONPointer) throws(OperationFailure) -> JSON {
        var value = self
        for depth in pointer.tokens.indices {
            let token = pointer.tokens[depth]
            switch value {
            case .object(let members):
                guard let member = members[token] else { throw Self.missingMember(token, in: members, pointer, depth) }
                value = member
            case .array(let elements):
                value = elements[try Self.existingIndex(token, count: elements.count, pointer, depth)]
            default:
                throw Self.notAContainer(value, pointer, depth)
            }
        }
        return value
    }

    /// RFC 6902 "add": inserts into an array (at an index up to its count, or "-"), sets an object member, or
    /// replaces the whole document for the root pointer.
    fileprivate mutating func add(_ newValue: JSON, at pointer: JSONPointer) throws(OperationFailure) {
        guard let last = pointer.tokens.last else {
            self = newValue
            return
        }
        try modifyParent(of: pointer, depth: 0) { (parent: inout JSON) throws(OperationFailure) in
            switch parent {
            case .object(var members):
                parent = .null  // Drops the second reference so that the members are edited in place.
                members[last] = newValue
                parent = .object(members)
            case .array(var elements):
                let index: Int
                if last == "-" {
                    index = elements.count
                } else if let given = JSONPointer.arrayIndex(last), given <= elements.count {
                    index = given
                } else {
                    throw OperationFailure(
                        pointer: pointer,
                        message: "\(Self.indexProblem(last, count: elements.count)); an insertion index must be "
                            + "\(elements.count == 0 ? "0" : "within 0...\(elements.count)"), or \"-\" to append")
                }
                parent = .null
                elements.insert(newValue, at: index)
                parent = .array(elements)
            default:
                throw Self.notAContainer(parent, pointer, pointer.tokens.count - 1)
            }
        }
    }

    /// RFC 6902 "remove": removes an existing member or element and returns it.
    fileprivate mutating func remove(at pointer: JSONPointer) throws(OperationFailure) -> JSON {
        guard let last = pointer.tokens.last else {
            throw OperationFailure(
                pointer: pointer, message: "cannot remove the whole document; \"replace\" it at path \"\" instead")
        }
        var removed = JSON.null
        try modifyParent(of: pointer, depth: 0) { (parent: inout JSON) throws(OperationFailure) in
            let depth = pointer.tokens.count - 1
            switch parent {
            case .object(var members):
                guard let member = members[last] else { throw Self.missingMember(last, in: members, pointer, depth) }
                removed = member
                parent = .null
                members[last] = nil
                parent = .object(members)
            case .array(var elements):
                let index = try Self.existingIndex(last, count: elements.count, pointer, depth)
                parent = .null
                removed = elements.remove(at: index)
                parent = .array(elements)
            default:
                throw Self.notAContainer(parent, pointer, depth)
            }
        }
        return removed
    }

    /// RFC 6902 "replace": the value at `pointer` must exist.
    fileprivate mutating func replace(at pointer: JSONPointer, with newValue: JSON) throws(OperationFailure) {
        guard let last = pointer.tokens.last else {
            self = newValue
            return
        }
        try modifyParent(of: pointer, depth: 0) { (parent: inout JSON) throws(OperationFailure) in
            let depth = pointer.tokens.count - 1
            switch parent {
            case .object(var members):
                guard members[last] != nil else { throw Self.missingMember(last, in: members, pointer, depth) }
                parent = .null
                members[last] = newValue
                parent = .object(members)
            case .array(var elements):
                let index = try Self.existingIndex(last, count: elements.count, pointer, depth)
                parent = .null
                elements[index] = newValue
                parent = .array(elements)
            default:
                throw Self.notAContainer(parent, pointer, depth)
            }
        }
    }

    /// Calls `body` with the value that holds the last token of `pointer` (which has at least one token), following
    /// the tokens from `depth` on, and edits each container on the way in place when it is not shared.
    private mutating func modifyParent(
        of pointer: JSONPointer, depth: Int, _ body: (inout JSON) throws(OperationFailure) -> Void
    ) throws(OperationFailure) {
        guard depth < pointer.tokens.count - 1 else {
            try body(&self)
            return
        }
        let token = pointer.tokens[depth]
        switch self {
        case .object(var members):
            guard var member = members[token] else { throw Self.missingMember(token, in: members, pointer, depth) }
            // Clear both references so that the member and the dictionary are uniquely held while edited.
            self = .null
            members[token] = .null
            defer {
                members[token] = member
                self = .object(members)
            }
            try member.modifyParent(of: pointer, depth: depth + 1, body)
        case .array(var elements):
            let index = try Self.existingIndex(token, count: elements.count, pointer, depth)
            self = .null
            var element = elements[index]
            elements[index] = .null
            defer {
                elements[index] = element
                self = .array(elements)
            }
            try element.modifyParent(of: pointer, depth: depth + 1, body)
        default:
            throw Self.notAContainer(self, pointer, depth)
        }
    }

    private static func existingIndex(
        _ token: String, count: Int, _ pointer: JSONPointer, _ depth: Int
    ) throws(OperationFailure) -> Int {
        if let index = JSONPointer.arrayIndex(token), index < count { return index }
        let valid = count == 0 ? "the array is empty, so no index is valid" : "valid indices are 0...\(count - 1)"
        throw OperationFailure(
            pointer: JSONPointer(tokens: Array(pointer.tokens[...depth])),
            message: "\(indexProblem(token, count: count)); \(valid)")
    }

    private static func indexProblem(_ token: String, count: Int) -> String {
        if token == "-" { return "\"-\" names the position after the last element, which holds no value" }
        if let index = JSONPointer.arrayIndex(token) { return "index \(index) is past the end of \(count) elements" }
        return "\"\(token)\" is not an array index (decimal digits without leading zeros)"
    }

    private static func missingMember(
        _ key: String, in members: JSONObject, _ pointer: JSONPointer, _ depth: Int
    ) -> OperationFailure {
        let keys = members.keys.sorted()
        let known =
            keys.isEmpty
            ? "the object is empty"
            : "its members are " + keys.prefix(8).map { "\"\($0)\"" }.joined(separator: ", ")
                + (keys.count > 8 ? ", …" : "")
        return OperationFailure(
            pointer: JSONPointer(tokens: Array(pointer.tokens[...depth])),
            message: "no member \"\(key)\"; \(known)")
    }

    private static func notAContainer(_ value: JSON, _ pointer: JSONPointer, _ depth: Int) -> OperationFailure {
        let container = JSONPointer(tokens: Array(pointer.tokens[..<depth]))
        return OperationFailure(
            pointer: JSONPointer(tokens: Array(pointer.tokens[...depth])),
            message: "\"\(container)\" is \(value.kindDescription), which has no members or elements; "
                + "a path can only go through objects and arrays")
    }

    /// The value's JSON text, shortened for error messages.
    fileprivate var patchSummary: String {
        let text = self.text(style: .canonical)
        return text.count <= 60 ? text : String(text.prefix(57)) + "…"
    }
}
