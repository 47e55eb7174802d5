/// The members of a JSON object: string keys, each with a value, in the order they were read or added.
///
/// It reads like a `[String: JSON]` — subscript by key, `keys`, `values`, `count`, iteration as `(key:, value:)`
/// pairs — and compares like one: two objects are equal when they have the same keys with equal values, whatever the
/// order. Objects with the same keys share one key layout (the keys and their lookup index), so the records of a
/// document cost one array of values each: the reader builds them without hashing a key or copying a key string.
///
///     var members: JSONObject = ["class": "Department", "name": "Sales"]
///     members["budget"] = 1000
///     members.keys  // ["class", "name", "budget"]
public struct JSONObject: Sendable {
    /// The keys, shared by objects with the same keys in the same order.
    package private(set) var layout: JSONKeyLayout
    /// The values, in the order of `layout.keys`.
    public private(set) var values: [JSON]

    /// An object with the keys of `layout` and these values, one per key.
    init(layout: JSONKeyLayout, values: [JSON]) {
        assert(layout.keys.count == values.count)
        self.layout = layout
        self.values = values
    }

    /// An empty object.
    public init() {
        self.init(layout: .empty, values: [])
    }

    /// An object with the members of `dictionary`, in its iteration order.
    public init(_ dictionary: [String: JSON]) {
        self.init(layout: JSONKeyLayout(uniqueKeys: Array(dictionary.keys)), values: Array(dictionary.values))
    }

    /// An object with these members; like `Dictionary(uniqueKeysWithValues:)`, duplicate keys are a programming error.
    public init(uniqueKeysWithValues members: some Sequence<(String, JSON)>) {
        self.init()
        for (key, value) in members {
            precondition(updateValue(value, forKey: key) == nil, "duplicate key '\(key)'")
        }
    }

    /// The keys, in order.
    public var keys: [String] { layout.keys }

    /// The value of `key`, or nil when the object has no such key; setting nil removes the key.
    ///
    /// - Complexity: O(1) on average for a lookup (a linear search of at most a few keys for small objects);
    ///   adding a key to an object whose keys are shared first copies them, and removing one is O(*n*).
    public subscript(key: String) -> JSON? {
        get {
            guard let position = layout.position(of: key) else { return nil }
            return values[position]
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// The value of `key`, or `defaultValue` when the object has no such key.
    public subscript(key: String, default defaultValue: @autoclosure () -> JSON) -> JSON {
        self[key] ?? defaultValue()
    }

    /// Sets the value of `key`, adding the key at the end when it is new; returns the value it replaced.
    @discardableResult
    public mutating func updateValue(_ value: JSON, forKey key: String) -> JSON? {
        if let position = layout.position(of: key) {
            return swap(&values[position], value)
        }
        if !isKnownUniquelyReferenced(&layout) { layout = layout.copy() }
        layout.append(key)
        values.append(value)
        return nil
    }

    /// Removes `key` and returns its value, or nil when the object has no such key.
    ///
    /// - Complexity: O(*n*): the later keys move up.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSON? {
        guard let position = layout.position(of: key) else { return nil }
        if !isKnownUniquelyReferenced(&layout) { layout = layout.copy() }
        layout.remove(at: position)
        return values.remove(at: position)
    }

    /// An object with the same keys and each value transformed; it shares this object's key layout.
    public func mapValues(_ transform: (JSON) throws -> JSON) rethrows -> JSONObject {
        JSONObject(layout: layout, values: try values.map(transform))
    }

    /// The members as a `Dictionary`.
    public var dictionary: [String: JSON] {
        Dictionary(uniqueKeysWithValues: zip(layout.keys, values))
    }

    /// Whether both objects share one key layout, so that their values line up by position.
    func hasSameLayout(as other: JSONObject) -> Bool {
        layout === other.layout
    }

    private func swap(_ slot: inout JSON, _ value: JSON) -> JSON {
        let old = slot
        slot = value
        return old
    }
}

extension JSONObject: RandomAccessCollection {
    public typealias Element = (key: String, value: JSON)

    public var startIndex: Int { 0 }
    public var endIndex: Int { values.count }
    public var count: Int { values.count }
    public var isEmpty: Bool { values.isEmpty }

    public subscript(position: Int) -> Element {
        (layout.keys[position], values[position])
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object with the literal's members in their written order; for a repeated key, the last value wins.
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self.init()
        for (key, value) in elements { updateValue(value, forKey: key) }
    }
}

extension JSONObject: Hashable {
    /// Whether both have the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        JSON.object(lhs) == JSON.object(rhs)
    }

    public func hash(into hasher: inout Hasher) {
        JSON.object(self).hash(into: &hasher)
    }
}

extension JSONObject: CustomStringConvertible {
    public var description: String {
        "[" + map { "\($0.key.debugDescription): \($0.value)" }.joined(separator: ", ") + "]"
    }
}

/// The keys of objects with the same keys in the same order, and an index of them.
///
/// Objects share a layout and copy it before changing their keys when it is shared (copy on write), so a layout is
/// only ever changed while one object alone holds it: that is why it can be `Sendable` with mutable state.
package final class JSONKeyLayout: @unchecked Sendable {
    /// Layouts with more keys than this are indexed; smaller ones are searched, which costs less than hashing.
    private static let indexedCount = 8

    static let empty = JSONKeyLayout(uniqueKeys: [])

    package private(set) var keys: [String]
    /// The position of each key, for layouts of more than ``indexedCount`` keys.
    private var index: [String: Int]?

    /// A layout of `keys`, which must be distinct.
    init(uniqueKeys keys: [String]) {
        self.keys = keys
        if keys.count > Self.indexedCount { index = Self.index(of: keys) }
    }

    /// A layout of `keys`, or the first key that is there twice.
    ///
    /// - Complexity: O(*n*) on average; O(*n*²) comparisons for up to ``indexedCount`` keys.
    static func checking(_ keys: [String]) -> Result<JSONKeyLayout, DuplicateKey> {
        if keys.count <= indexedCount {
            for later in keys.indices.dropFirst() {
                for earlier in 0..<later where keys[earlier] == keys[later] {
                    return .failure(DuplicateKey(key: keys[later]))
                }
            }
            return .success(JSONKeyLayout(uniqueKeys: keys))
        }
        var index = [String: Int](minimumCapacity: keys.count)
        for (position, key) in keys.enumerated() where index.updateValue(position, forKey: key) != nil {
            return .failure(DuplicateKey(key: key))
        }
        let layout = JSONKeyLayout(unindexedKeys: keys)
        layout.index = index
        return .success(layout)
    }

    struct DuplicateKey: Error {
        var key: String
    }

    private init(unindexedKeys keys: [String]) {
        self.keys = keys
    }

    /// The position of `key`, or nil.
    @inline(__always)
    func position(of key: String) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex(of: key)
    }

    func copy() -> JSONKeyLayout {
        let copy = JSONKeyLayout(unindexedKeys: keys)
        copy.index = index
        return copy
    }

    /// Adds a key that is not there yet; only for a layout no other object holds.
    func append(_ key: String) {
        keys.append(key)
        if index != nil {
            index![key] = keys.count - 1
        } else if keys.count > Self.indexedCount {
            index = Self.index(of: keys)
        }
    }

    /// Removes the key at `position`; only for a layout no other object holds.
    func remove(at position: Int) {
        keys.remove(at: position)
        if index != nil { index = keys.count > Self.indexedCount ? Self.index(of: keys) : nil }
    }

    private static func index(of keys: [String]) -> [String: Int] {
        var index = [String: Int](minimumCapacity: keys.count)
        for (position, key) in keys.enumerated() { index[key] = position }
        return index
    }
}
