/// A path to a value inside a JSON document (RFC 6901): a list of object keys and array indices.
///
///     let pointer = JSONPointer.root.appending("department").appending("employees").appending(2)
///     pointer.description                                          // "/department/employees/2"
///     try JSONPointer(parsing: "/a~1b/m~0n").tokens                 // ["a/b", "m~n"]
public struct JSONPointer: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The reference tokens, unescaped: object keys, or array indices in decimal.
    public var tokens: [String]

    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// The pointer to the whole document, written as the empty string.
    public static let root = JSONPointer(tokens: [])

    /// The pointer to the member `key` of the object this pointer refers to.
    package func appending(_ key: String) -> JSONPointer {
        JSONPointer(tokens: tokens + [key])
    }

    /// The pointer to the element at `index` of the array this pointer refers to.
    package func appending(_ index: Int) -> JSONPointer {
        JSONPointer(tokens: tokens + [String(index)])
    }

    /// The pointer to the container of the value this pointer refers to; nil for the root.
    package var parent: JSONPointer? {
        tokens.isEmpty ? nil : JSONPointer(tokens: Array(tokens.dropLast()))
    }

    /// Reads the RFC 6901 text form: empty for the root, else '/'-prefixed tokens with `~1` for '/' and `~0` for '~'.
    ///
    /// - Complexity: O(*n*) in the length of `text`.
    public init(parsing text: String) throws(JSONPointerSyntaxError) {
        guard !text.isEmpty else {
            self = .root
            return
        }
        guard text.hasPrefix("/") else {
            throw JSONPointerSyntaxError(text: text, message: "a JSON pointer must be empty or start with '/'")
        }
        var tokens: [String] = []
        for rawToken in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var scalars = rawToken.unicodeScalars.makeIterator()
            while let scalar = scalars.next() {
                guard scalar == "~" else {
                    token.unicodeScalars.append(scalar)
                    continue
                }
                switch scalars.next() {
                case "0": token.append("~")
                case "1": token.append("/")
                default: throw JSONPointerSyntaxError(text: text, message: "'~' must be followed by '0' or '1'")
                }
            }
            tokens.append(token)
        }
        self.tokens = tokens
    }

    /// The RFC 6901 text form, such as `/department/employees/2/name`; the root is the empty string.
    public var description: String {
        var text = ""
        for token in tokens {
            text.append("/")
            if token.contains(where: { $0 == "~" || $0 == "/" }) {
                text.append(token.replacingTokenEscapes())
            } else {
                text.append(token)
            }
        }
        return text
    }

    /// Orders token by token, a pointer before those it is a prefix of. Tokens that are both array indices compare
    /// as numbers (`/2` before `/10`); other tokens compare by Unicode scalar values.
    public static func < (lhs: JSONPointer, rhs: JSONPointer) -> Bool {
        for (left, right) in zip(lhs.tokens, rhs.tokens) where left != right {
            if let leftIndex = arrayIndex(left), let rightIndex = arrayIndex(right) {
                return leftIndex < rightIndex
            }
            return left.unicodeScalars.lexicographicallyPrecedes(right.unicodeScalars)
        }
        return lhs.tokens.count < rhs.tokens.count
    }

    /// The array index a token stands for: decimal digits without leading zeros, as RFC 6901 writes them.
    static func arrayIndex(_ token: String) -> Int? {
        guard let first = token.utf8.first, first != UInt8(ascii: "0") || token.utf8.count == 1,
            token.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int(token)
    }
}

extension String {
    fileprivate func replacingTokenEscapes() -> String {
        var escaped = ""
        for character in self {
            switch character {
            case "~": escaped.append("~0")
            case "/": escaped.append("~1")
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

/// A JSON pointer's text that does not follow RFC 6901.
public struct JSONPointerSyntaxError: Error, Sendable, CustomStringConvertible {
    /// The text that was read.
    public var text: String
    /// What is wrong with it.
    public var message: String

    public var description: String {
        "invalid JSON pointer \"\(text)\": \(message)"
    }
}

extension JSON {
    /// The value `pointer` refers to, or nil when there is none.
    ///
    ///     let json: JSON = ["employees": [["name": "Ada"]]]
    ///     json[try JSONPointer(parsing: "/employees/0/name")]  // .string("Ada")
    public subscript(pointer: JSONPointer) -> JSON? {
        var value = self
        for token in pointer.tokens {
            switch value {
            case .object(let members):
                guard let member = members[token] else { return nil }
                value = member
            case .array(let elements):
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return nil }
                value = elements[index]
            default:
                return nil
            }
        }
        return value
    }
}
