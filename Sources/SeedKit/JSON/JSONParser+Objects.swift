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

        /// Moves the values from `start` on into an array.
        mutating func popArray(from start: Int) -> [JSON] {
            // Appending a sequence that moves the values out: `Array(unsafeUninitializedCapacity:)` allocates through
            // an unspecialized path of the standard library that looks up the storage class's generic metadata on
            // every call, and appending one value at a time checks the array's uniqueness for each.
            var array: [JSON] = []
            array.append(contentsOf: MovingValues(position: base + start, end: base + count))
            count = start
            return array
        }
    }

    /// Values of a ``ValueStack`` moved out one by one as they are iterated, which must be to the end.
    struct MovingValues: Sequence, IteratorProtocol {
        var position: UnsafeMutablePointer<JSON>
        let end: UnsafeMutablePointer<JSON>

        var underestimatedCount: Int { end - position }

        mutating func next() -> JSON? {
            guard position < end else { return nil }
            defer { position += 1 }
            return position.move()
        }
    }

    /// The key lists of recently read objects, each with the key layout of the objects that have them.
    ///
    /// Documents repeat objects with the same keys in the same order (records). Such an object shares the layout of
    /// the first one, so it needs no key strings and no hashing. Keys compare by their bytes in the text, so a shape
    /// never matches an object that the general path would build differently (say one with a duplicate key).
    struct ObjectShapes {
        struct Shape {
            /// The UTF-8 of the keys in text order, one after the other, then eight zero bytes so that comparisons
            /// can read eight bytes at a time.
            var keyBytes: [UInt8]
            /// Where each key ends in `keyBytes`.
            var keyEnds: [Int]
            var layout: JSONKeyLayout
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

        func layout(of shape: Int) -> JSONKeyLayout {
            shapes[shape].layout
        }

        /// Records the keys and layout of an object at `depth` that matched no shape, unless they are not worth keeping.
        mutating func add(
            _ keys: ArraySlice<KeyText>, layout: JSONKeyLayout, in text: UnsafeBufferPointer<UInt8>, depth: Int
        ) {
            guard keys.count <= Self.maximumKeys, !keys.contains(where: \.hasEscapes) else {
                remember(-1, atDepth: depth)
                return
            }
            var shape = Shape(keyBytes: [], keyEnds: [], layout: layout)
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
