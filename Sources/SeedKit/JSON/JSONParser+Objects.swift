extension JSONParser {
    /// An object key as read: its bytes between the quotes, which are its UTF-8 unless it has escapes.
    struct KeyText {
        var bytes: Range<Int>
        var hasEscapes: Bool
    }

    /// The values of the open containers, innermost last, in memory the parser manages itself, so that a closing
    /// container moves its values out instead of copying them (and then releasing the originals).
    struct ValueStack: ~Copyable {
        private var base: UnsafeMutablePointer<JSON>
        private var capacity = 64
        private(set) var count = 0

        init() {
            base = .allocate(capacity: capacity)
        }

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
        }

        mutating func push(_ value: consuming JSON) {
            if count == capacity {
                let larger = UnsafeMutablePointer<JSON>.allocate(capacity: capacity * 2)
                larger.moveInitialize(from: base, count: count)
                base.deallocate()
                base = larger
                capacity *= 2
            }
            (base + count).initialize(to: value)
            count += 1
        }

        /// Moves out the value at `position`, whose slot must then be dropped with ``dropMoved(from:through:)``.
        mutating func take(at position: Int) -> JSON {
            (base + position).move()
        }

        /// Drops the values from `start` on, when those up to `last` were moved out and the rest were not.
        mutating func dropMoved(from start: Int, through last: Int) {
            (base + last + 1).deinitialize(count: count - last - 1)
            count = start
        }

        /// Moves the values from `start` on into an array.
        mutating func popArray(from start: Int) -> [JSON] {
            let elements = count - start
            let array = [JSON](unsafeUninitializedCapacity: elements) { buffer, initialized in
                buffer.baseAddress!.moveInitialize(from: base + start, count: elements)
                initialized = elements
            }
            count = start
            return array
        }
    }

    /// The key lists of recently read objects, each with a dictionary of those keys once a second object has them.
    ///
    /// Documents repeat objects with the same keys in the same order (records). Copying a dictionary keeps its
    /// layout, so such an object is built by copying the template and setting its values by index: no key strings
    /// are made and none is hashed. Keys compare by their bytes in the text, so a shape never matches an object
    /// that the general path would build differently (say one with a duplicate key).
    struct ObjectShapes {
        struct Shape {
            /// The UTF-8 of the keys in text order, one after the other, then eight zero bytes so that comparisons
            /// can read eight bytes at a time.
            var keyBytes: [UInt8]
            /// Where each key ends in `keyBytes`.
            var keyEnds: [Int]
            /// The keys, all mapped to null; nil until a second object with them is read, so that one-off objects
            /// cost no extra hashing.
            var template: [String: JSON]?
            /// The index in `template` of each key, in text order.
            var slots: [Dictionary<String, JSON>.Index] = []
        }

        /// How many shapes are kept; when full, each new one replaces the oldest.
        private static let capacity = 16
        /// Objects with more members are not worth the comparisons: they are rarely repeated exactly.
        private static let maximumKeys = 64

        private var shapes: [Shape] = []
        private var oldest = 0
        /// The shape last seen at each nesting depth, tried first.
        private var recentAtDepth: [Int] = []

        /// The shape whose keys are exactly `keys`, read from `text`, for an object at `depth`.
        mutating func match(_ keys: ArraySlice<KeyText>, in text: UnsafeBufferPointer<UInt8>, depth: Int) -> Int? {
            let recent = depth < recentAtDepth.count ? recentAtDepth[depth] : -1
            if recent >= 0 && self.shape(recent, hasKeys: keys, in: text) { return recent }
            for shape in shapes.indices where shape != recent && self.shape(shape, hasKeys: keys, in: text) {
                remember(shape, atDepth: depth)
                return shape
            }
            return nil
        }

        /// Builds an object of `shape`, which has a template, taking its values from `values` at `start...`.
        ///
        /// - Complexity: O(*n*) for *n* members, without hashing.
        func object(ofShape shape: Int, takingValuesFrom values: inout ValueStack, at start: Int) -> [String: JSON]? {
            guard var members = shapes[shape].template else { return nil }
            let slots = shapes[shape].slots
            for member in slots.indices {
                members.values[slots[member]] = values.take(at: start + member)
            }
            values.dropMoved(from: start, through: values.count - 1)
            return members
        }

        /// Gives `shape` the layout of `members`, an object with its keys, for later objects to copy.
        mutating func setTemplate(from members: [String: JSON], forShape shape: Int) {
            let template = members.mapValues { _ in JSON.null }
            var slots: [Dictionary<String, JSON>.Index] = []
            slots.reserveCapacity(members.count)
            shapes[shape].keyBytes.withUnsafeBufferPointer { keyBytes in
                var start = 0
                for end in shapes[shape].keyEnds {
                    let key = String(decoding: UnsafeBufferPointer(rebasing: keyBytes[start..<end]), as: UTF8.self)
                    slots.append(template.index(forKey: key)!)
                    start = end
                }
            }
            shapes[shape].template = template
            shapes[shape].slots = slots
        }

        /// Records the keys of an object at `depth` that matched no shape, unless they are not worth keeping.
        mutating func add(_ keys: ArraySlice<KeyText>, in text: UnsafeBufferPointer<UInt8>, depth: Int) {
            guard keys.count <= Self.maximumKeys, !keys.contains(where: \.hasEscapes) else {
                remember(-1, atDepth: depth)
                return
            }
            var shape = Shape(keyBytes: [], keyEnds: [], template: nil)
            shape.keyEnds.reserveCapacity(keys.count)
            for key in keys {
                shape.keyBytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[key.bytes]))
                shape.keyEnds.append(shape.keyBytes.count)
            }
            shape.keyBytes.append(contentsOf: repeatElement(0, count: 8))
            let position: Int
            if shapes.count < Self.capacity {
                position = shapes.count
                shapes.append(shape)
            } else {
                position = oldest
                shapes[position] = shape
                oldest = (oldest + 1) % Self.capacity
                for depth in recentAtDepth.indices where recentAtDepth[depth] == position { recentAtDepth[depth] = -1 }
            }
            remember(position, atDepth: depth)
        }

        private mutating func remember(_ shape: Int, atDepth depth: Int) {
            if depth >= recentAtDepth.count {
                recentAtDepth.append(contentsOf: repeatElement(-1, count: depth + 1 - recentAtDepth.count))
            }
            recentAtDepth[depth] = shape
        }

        /// Whether `keys`, read from `text`, are the keys of `shape`, in the same order.
        ///
        /// Reads the shape in place (a copy of it would retain its arrays) and compares eight bytes at a time.
        private func shape(_ shape: Int, hasKeys keys: ArraySlice<KeyText>, in text: UnsafeBufferPointer<UInt8>) -> Bool {
            guard keys.count == shapes[shape].keyEnds.count else { return false }
            return shapes[shape].keyEnds.withUnsafeBufferPointer { keyEnds in
                shapes[shape].keyBytes.withUnsafeBufferPointer { keyBytes in
                    var start = 0
                    // By index: iterating a zip of the two costs more than the comparisons.
                    for member in keyEnds.indices {
                        let key = keys[keys.startIndex + member]
                        let end = keyEnds[member]
                        guard !key.hasEscapes, key.bytes.count == end - start,
                            Self.bytes(of: text, from: key.bytes.lowerBound, equal: keyBytes, from: start, count: end - start)
                        else { return false }
                        start = end
                    }
                    return true
                }
            }
        }

        /// Whether `count` bytes of `text` from `textStart` are those of `keyBytes` from `keyStart`, which has at
        /// least eight bytes after them.
        @inline(__always)
        private static func bytes(
            of text: UnsafeBufferPointer<UInt8>, from textStart: Int, equal keyBytes: UnsafeBufferPointer<UInt8>,
            from keyStart: Int, count: Int
        ) -> Bool {
            var offset = 0
            // Eight bytes at a time while the text has eight to read; the last, partial word masked to the key's bytes.
            while offset < count && textStart + offset + 8 <= text.count {
                let textWord = UInt64(
                    littleEndian: UnsafeRawPointer(text.baseAddress! + textStart + offset).loadUnaligned(as: UInt64.self))
                let keyWord = UInt64(
                    littleEndian: UnsafeRawPointer(keyBytes.baseAddress! + keyStart + offset).loadUnaligned(as: UInt64.self))
                let remaining = count - offset
                let mask: UInt64 = remaining >= 8 ? ~0 : (1 << (8 * UInt64(remaining))) - 1
                if (textWord ^ keyWord) & mask != 0 { return false }
                offset += 8
            }
            while offset < count {
                if text[textStart + offset] != keyBytes[keyStart + offset] { return false }
                offset += 1
            }
            return true
        }
    }
}
