import Foundation

/// The byte-level writing shared by ``JSON/serialized(style:)`` and ``JSONWriter``: values, strings, numbers,
/// and the layout of each ``JSONWriter/Style``.
package struct JSONEmitter {
    let style: JSONWriter.Style
    package var bytes: [UInt8] = []

    package init(style: JSONWriter.Style) {
        self.style = style
    }

    /// Whether object members are written in key order (by UTF-8 bytes, which is Unicode scalar order).
    var sortsKeys: Bool { style != .compact }

    /// A container being written: its children and the next one to write.
    private enum OpenContainer {
        case array([JSON], next: Int)
        case object(JSONObject, next: Int)
        /// An object in key order: its member positions in that order are `memberOrder[orderStart...]`.
        case sortedObject(JSONObject, orderStart: Int, next: Int)
    }

    /// Writes a whole value, with `indent` the nesting level it starts at (for the pretty style).
    ///
    /// Iterative, so that values of any depth can be written whatever the thread's stack size. Scalars are written
    /// straight from their container; only nested containers go on the stack.
    package mutating func write(_ root: JSON, indent baseIndent: Int) {
        var containers: [OpenContainer] = []
        var keyOrders = KeyOrders()
        // The member positions of the open sorted objects, in key order, innermost last.
        var memberOrder: [Int] = []
        // Writes a scalar, or an empty container, or opens a container (writing its opening bracket).
        func begin(_ value: JSON) {
            switch value {
            case .null: append("null")
            case .bool(let flag): append(flag ? "true" : "false")
            case .number(let number): NumberText.appendCanonical(number, to: &bytes)
            case .string(let string): write(string)
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
                        let orderStart = memberOrder.count
                        keyOrders.appendPositionsInKeyOrder(of: members, depth: containers.count, to: &memberOrder)
                        containers.append(.sortedObject(members, orderStart: orderStart, next: 0))
                    } else {
                        containers.append(.object(members, next: 0))
                    }
                }
            }
        }

        begin(root)
        nextContainer: while let container = containers.popLast() {
            let indent = baseIndent + containers.count + 1
            switch container {
            case .array(let elements, var position):
                while position < elements.count {
                    if position > 0 { bytes.append(UInt8(ascii: ",")) }
                    writeLineBreak(indent: indent)
                    position += 1
                    if elements[position - 1].isContainer {
                        containers.append(.array(elements, next: position))
                        begin(elements[position - 1])
                        continue nextContainer
                    }
                    begin(elements[position - 1])
                }
                writeLineBreak(indent: indent - 1)
                bytes.append(UInt8(ascii: "]"))
            case .object(let members, var position):
                while position < members.count {
                    if position > 0 { bytes.append(UInt8(ascii: ",")) }
                    writeLineBreak(indent: indent)
                    writeKey(members.keys[position])
                    let member = position
                    position += 1
                    if members.values[member].isContainer {
                        containers.append(.object(members, next: position))
                        begin(members.values[member])
                        continue nextContainer
                    }
                    begin(members.values[member])
                }
                writeLineBreak(indent: indent - 1)
                bytes.append(UInt8(ascii: "}"))
            case .sortedObject(let members, let orderStart, var position):
                while orderStart + position < memberOrder.count {
                    if position > 0 { bytes.append(UInt8(ascii: ",")) }
                    writeLineBreak(indent: indent)
                    let member = memberOrder[orderStart + position]
                    writeKey(members.keys[member])
                    position += 1
                    if members.values[member].isContainer {
                        containers.append(.sortedObject(members, orderStart: orderStart, next: position))
                        begin(members.values[member])
                        continue nextContainer
                    }
                    begin(members.values[member])
                }
                memberOrder.removeSubrange(orderStart...)
                writeLineBreak(indent: indent - 1)
                bytes.append(UInt8(ascii: "}"))
            }
        }
    }

    /// Writes a key and the colon after it.
    package mutating func writeKey(_ key: String) {
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
    package mutating func write(_ string: String) {
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

    /// Whether any byte of `word` is '"', '\' or below 0x20 (see `JSONParser.specialBytes`).
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
    package mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Whether `lhs` comes before `rhs` in UTF-8 byte order, which is Unicode scalar order.
    ///
    /// Not `String.<`, which compares by canonical equivalence and orders some strings differently.
    package static func precedes(_ lhs: String, _ rhs: String) -> Bool {
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

extension JSON {
    /// Whether the value is an array or an object.
    fileprivate var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }
}

/// The key order of recently written objects, so that objects with the same keys are not sorted again.
///
/// Objects that share a key layout (the reader gives records with the same keys one layout, and copies of an object
/// keep it) list their keys in the same order, so an object whose layout is a recent object's takes that object's
/// sorted permutation.
private struct KeyOrders {
    struct KeyOrder {
        /// Held, so that no other layout can take its identity while the order is kept.
        var layout: JSONKeyLayout
        /// The positions of the keys in key order.
        var sortedPositions: [Int]
    }

    /// How many orders are kept; when full, each new one replaces the oldest.
    private static let capacity = 16
    /// Larger objects are sorted each time: they are rarely repeated.
    private static let maximumKeys = 64

    private var orders: [KeyOrder] = []
    private var oldest = 0
    /// The order last used at each nesting depth, tried first.
    private var recentAtDepth: [Int] = []

    /// Appends the positions of the members of `members` to `order`, sorted by key in UTF-8 byte order.
    ///
    /// - Complexity: O(*n*) for *n* members whose layout is a recent object's; O(*n* log *n*) otherwise.
    mutating func appendPositionsInKeyOrder(of members: JSONObject, depth: Int, to order: inout [Int]) {
        let recent = depth < recentAtDepth.count ? recentAtDepth[depth] : -1
        var match = recent >= 0 && orders[recent].layout === members.layout ? recent : nil
        if match == nil {
            match = orders.indices.first { $0 != recent && orders[$0].layout === members.layout }
        }
        if let match {
            remember(match, atDepth: depth)
            order.append(contentsOf: orders[match].sortedPositions)
            return
        }

        let keys = members.keys
        let sortedPositions = keys.indices.sorted { JSONEmitter.precedes(keys[$0], keys[$1]) }
        order.append(contentsOf: sortedPositions)
        guard keys.count <= Self.maximumKeys else { return }
        let newOrder = KeyOrder(layout: members.layout, sortedPositions: sortedPositions)
        if orders.count < Self.capacity {
            orders.append(newOrder)
            remember(orders.count - 1, atDepth: depth)
        } else {
            orders[oldest] = newOrder
            for depth in recentAtDepth.indices where recentAtDepth[depth] == oldest { recentAtDepth[depth] = -1 }
            remember(oldest, atDepth: depth)
            oldest = (oldest + 1) % Self.capacity
        }
    }

    private mutating func remember(_ order: Int, atDepth depth: Int) {
        if depth >= recentAtDepth.count {
            recentAtDepth.append(contentsOf: repeatElement(-1, count: depth + 1 - recentAtDepth.count))
        }
        recentAtDepth[depth] = order
    }
}
