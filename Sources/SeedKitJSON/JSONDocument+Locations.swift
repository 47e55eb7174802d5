extension JSONDocument {
    /// The location of the value `pointer` refers to (its first character), or nil when there is no such value.
    ///
    /// For an object member this is the member's value, not its key.
    ///
    ///     // {"department": {"employees": [{"nmae": "Ada"}]}}
    ///     document.location(of: try JSONPointer(parsing: "/department/employees/0"))  // 1:31
    ///
    /// - Complexity: O(*n*) where *n* is the size of the text before the value: the source is scanned again,
    ///   skipping what the pointer does not lead into.
    public func location(of pointer: JSONPointer) -> SourceLocation? {
        let offsets = sourceOffsets(of: [pointer])
        return offsets[pointer].flatMap { sourceLocations(ofOffsets: [$0.value])[$0.value] }
    }

    /// The location of the key of the object member `pointer` refers to, or nil when the pointer does not refer
    /// to an object member (the root, an array element, a missing value).
    ///
    /// - Complexity: O(*n*) where *n* is the size of the text before the key.
    package func locationOfKey(_ pointer: JSONPointer) -> SourceLocation? {
        let offsets = sourceOffsets(of: [pointer])
        return offsets[pointer]?.key.flatMap { sourceLocations(ofOffsets: [$0])[$0] }
    }

    /// The locations of the values several pointers refer to, found in one pass over the source.
    /// Pointers that refer to no value are missing from the result.
    ///
    /// - Complexity: O(*n*) where *n* is the size of the text up to the last of the values.
    package func locations(of pointers: [JSONPointer]) -> [JSONPointer: SourceLocation] {
        let offsets = sourceOffsets(of: pointers)
        let locations = sourceLocations(ofOffsets: offsets.values.map(\.value))
        return offsets.mapValues { locations[$0.value]! }
    }

    private func sourceOffsets(of pointers: [JSONPointer]) -> [JSONPointer: JSONParser.MemberOffsets] {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONParser(bytes: buffer, maxDepth: .max)
            return scanner.offsets(of: JSONParser.PointerTrie(pointers))
        }
    }

    private func sourceLocations(ofOffsets offsets: [Int]) -> [Int: SourceLocation] {
        bytes.withUnsafeBufferPointer { buffer in
            SourceLocation.locations(ofOffsets: offsets, in: buffer, file: file)
        }
    }
}

/// Scanning a text already known to be valid JSON, for positions: values are skipped without being built or checked.
extension JSONParser {
    /// The byte offsets of a value and, for an object member, of its key.
    struct MemberOffsets {
        var key: Int?
        var value: Int
    }

    /// Pointers merged by common prefix, so that one scan serves all of them.
    struct PointerTrie {
        struct Node {
            var children: [String: Int] = [:]
            var pointer: JSONPointer?
        }

        var nodes = [Node()]
        var pointerCount = 0

        init(_ pointers: [JSONPointer]) {
            for pointer in Set(pointers) {
                var node = 0
                for token in pointer.tokens {
                    if let child = nodes[node].children[token] {
                        node = child
                    } else {
                        nodes.append(Node())
                        nodes[node].children[token] = nodes.count - 1
                        node = nodes.count - 1
                    }
                }
                nodes[node].pointer = pointer
                pointerCount += 1
            }
        }
    }

    /// A container being scanned for the trie node's children.
    private struct ScannedContainer {
        var node: Int
        var isObject: Bool
        var nextIndex = 0
        var childrenLeft: Int
    }

    /// The offsets of the values the trie's pointers refer to, scanning from the start of the text.
    ///
    /// Iterative, like parsing, so that deep pointers into deep documents cannot overflow the stack.
    mutating func offsets(of trie: PointerTrie) -> [JSONPointer: MemberOffsets] {
        var found: [JSONPointer: MemberOffsets] = [:]
        var containers: [ScannedContainer] = []
        index = 0
        skipWhitespace()
        if let container = visit(trie, node: 0, keyOffset: nil, found: &found) {
            containers.append(container)
        }
        while found.count < trie.pointerCount, var container = containers.popLast() {
            if container.childrenLeft == 0 {
                skipToContainerEnd()
                continue
            }
            skipWhitespace()
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
            }
            if bytes[index] == UInt8(ascii: "}") || bytes[index] == UInt8(ascii: "]") {
                index += 1
                continue
            }
            let child: Int?
            var keyOffset: Int?
            if container.isObject {
                keyOffset = index
                let key = (try? parseString()) ?? ""  // Cannot fail: the text was parsed.
                skipWhitespace()
                index += 1  // ':'
                skipWhitespace()
                child = trie.nodes[container.node].children[key]
            } else {
                child = trie.nodes[container.node].children[String(container.nextIndex)]
                container.nextIndex += 1
            }
            if let child {
                container.childrenLeft -= 1
                containers.append(container)
                if let inner = visit(trie, node: child, keyOffset: keyOffset, found: &found) {
                    containers.append(inner)
                }
            } else {
                skipValue()
                containers.append(container)
            }
        }
        return found
    }

    /// Records the value at `index` for the node's pointer, and enters it when the node has children to look for.
    private mutating func visit(
        _ trie: PointerTrie, node: Int, keyOffset: Int?, found: inout [JSONPointer: MemberOffsets]
    ) -> ScannedContainer? {
        if let pointer = trie.nodes[node].pointer {
            found[pointer] = MemberOffsets(key: keyOffset, value: index)
        }
        let children = trie.nodes[node].children.count
        let byte = bytes[index]
        guard children > 0, byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") else {
            skipValue()
            return nil
        }
        index += 1
        return ScannedContainer(node: node, isObject: byte == UInt8(ascii: "{"), childrenLeft: children)
    }

    /// The offsets of the first two keys equal to `key` in the object at `index`.
    mutating func memberKeyOffsets(named key: String) -> [Int] {
        var offsets: [Int] = []
        index += 1
        while offsets.count < 2 {
            skipWhitespace()
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
            }
            let offset = index
            if (try? parseString()) == key { offsets.append(offset) }
            skipWhitespace()
            index += 1  // ':'
            skipValue()
        }
        return offsets
    }

    /// Moves past the value at `index` (after optional whitespace).
    mutating func skipValue() {
        skipWhitespace()
        switch bytes[index] {
        case UInt8(ascii: "\""):
            skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            index += 1
            skipToContainerEnd()
        default:  // a number or a literal runs to the next delimiter
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return
                default: index += 1
                }
            }
        }
    }

    /// Moves past the end of the container whose inside `index` is in.
    private mutating func skipToContainerEnd() {
        var depth = 1
        while depth > 0 {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                skipString()
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            default:
                break
            }
            index += 1
        }
    }

    private mutating func skipString() {
        index += 1
        while true {
            index = firstSpecialByte(from: index)
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 2
            default:
                index += 1
            }
        }
    }
}
