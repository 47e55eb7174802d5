import Foundation

/// The byte-level writing shared by ``JSON/serialized(style:)`` and ``JSONWriter``: values, strings, numbers,
/// and the layout of each ``JSONWriter/Style``.
struct JSONEmitter {
    let style: JSONWriter.Style
    var bytes: [UInt8] = []

    init(style: JSONWriter.Style) {
        self.style = style
    }

    /// Whether object members are written in key order (by UTF-8 bytes, which is Unicode scalar order).
    var sortsKeys: Bool { style != .compact }

    /// A container being written: its children and the next one to write.
    private enum OpenContainer {
        case array([JSON], next: Int)
        case object([String: JSON], next: Dictionary<String, JSON>.Index)
        case sortedObject([(key: String, value: JSON)], next: Int)
    }

    /// Writes a whole value, with `indent` the nesting level it starts at (for the pretty style).
    ///
    /// Iterative, so that values of any depth can be written whatever the thread's stack size.
    mutating func write(_ root: JSON, indent baseIndent: Int) {
        var containers: [OpenContainer] = []
        var value = root
        while true {
            switch value {
            case .null:
                append("null")
            case .bool(let flag):
                append(flag ? "true" : "false")
            case .number(let number):
                NumberText.appendCanonical(number, to: &bytes)
            case .string(let string):
                write(string)
            case .array(let elements):
                if elements.isEmpty {
                    append("[]")
                } else {
                    bytes.append(UInt8(ascii: "["))
                    containers.append(.array(elements, next: 0))
                }
            case .object(let members):
                if members.isEmpty {
                    append("{}")
                } else {
                    bytes.append(UInt8(ascii: "{"))
                    if sortsKeys {
                        let sorted = members.sorted { Self.precedes($0.key, $1.key) }
                        containers.append(.sortedObject(sorted, next: 0))
                    } else {
                        containers.append(.object(members, next: members.startIndex))
                    }
                }
            }

            // Find the next value to write, closing the containers that are complete.
            var next: JSON?
            while next == nil, let container = containers.popLast() {
                let indent = baseIndent + containers.count + 1
                switch container {
                case .array(let elements, let position):
                    guard position < elements.count else {
                        writeLineBreak(indent: indent - 1)
                        bytes.append(UInt8(ascii: "]"))
                        continue
                    }
                    if position > 0 { bytes.append(UInt8(ascii: ",")) }
                    writeLineBreak(indent: indent)
                    next = elements[position]
                    containers.append(.array(elements, next: position + 1))
                case .object(let members, let position):
                    guard position < members.endIndex else {
                        writeLineBreak(indent: indent - 1)
                        bytes.append(UInt8(ascii: "}"))
                        continue
                    }
                    if position > members.startIndex { bytes.append(UInt8(ascii: ",")) }
                    writeLineBreak(indent: indent)
                    writeKey(members[position].key)
                    next = members[position].value
                    containers.append(.object(members, next: members.index(after: position)))
                case .sortedObject(let members, let position):
                    guard position < members.count else {
                        writeLineBreak(indent: indent - 1)
                        bytes.append(UInt8(ascii: "}"))
                        continue
                    }
                    if position > 0 { bytes.append(UInt8(ascii: ",")) }
                    writeLineBreak(indent: indent)
                    writeKey(members[position].key)
                    next = members[position].value
                    containers.append(.sortedObject(members, next: position + 1))
                }
            }
            guard let next else { return }
            value = next
        }
    }

    /// Writes a key and the colon after it.
    mutating func writeKey(_ key: String) {
        write(key)
        if style == .pretty {
            append(": ")
        } else {
            bytes.append(UInt8(ascii: ":"))
        }
    }

    /// In the pretty style, a line break and two spaces per level; nothing in the others.
    @inline(__always)
    mutating func writeLineBreak(indent: Int) {
        guard style == .pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    /// Writes a string with minimal escaping: only '"', '\' and control characters, with the short escapes
    /// `\b \f \n \r \t` where they exist and `\u00xx` otherwise. Everything else, '/' and non-ASCII included,
    /// is written as is.
    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            var runStart = 0
            var position = 0
            while position < utf8.count {
                if position + 8 <= utf8.count,
                    !Self.needsEscape(UnsafeRawPointer(utf8.baseAddress! + position).loadUnaligned(as: UInt64.self))
                {
                    position += 8
                    continue
                }
                let byte = utf8[position]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
                    appendEscape(for: byte)
                    runStart = position + 1
                }
                position += 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
            bytes.append(UInt8(ascii: "\""))
        }
    }

    private mutating func appendEscape(for byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hexDigits: StaticString = "0123456789abcdef"
            append("u00")
            bytes.append(hexDigits.utf8Start[Int(byte >> 4)])
            bytes.append(hexDigits.utf8Start[Int(byte & 0x0F)])
        }
    }

    /// Whether any byte of `word` is '"', '\' or below 0x20 (see `JSONParser.hasSpecialByte`).
    @inline(__always)
    private static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let hasQuote = (quotes &- ones) & ~quotes
        let hasBackslash = (backslashes &- ones) & ~backslashes
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl) & 0x8080_8080_8080_8080 != 0
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Whether `lhs` comes before `rhs` in UTF-8 byte order, which is Unicode scalar order.
    ///
    /// Not `String.<`, which compares by canonical equivalence and orders some strings differently.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        // Borrows the strings' bytes: no copy of either string, which sorting calls this for often.
        let order = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                let common = min(left.count, right.count)
                if common > 0 {
                    let order = memcmp(left.baseAddress!, right.baseAddress!, common)
                    if order != 0 { return order < 0 }
                }
                return left.count < right.count
            }
        }
        return (order ?? nil) ?? lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}
