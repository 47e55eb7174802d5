extension JSONParser {
    /// An object key as read: its bytes between the quotes, which are its UTF-8 unless it has escapes.
    struct KeyText {
        var bytes: Range<Int>
        var hasEscapes: Bool
    }

    /// A stack of the parser's, in memory it manages itself: no uniqueness or bounds checks on each push and pop,
    /// and a closing container moves its values out instead of copying them (and then releasing the originals).
    struct ParseStack<Element>: ~Copyable {
        private var base: UnsafeMutablePointer<Element>
        private var capacity = 64
        private(set) var count = 0

        init() {
            base = .allocate(capacity: capacity)
        }

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
        }

        /// The element at `position`, which must be below `count`.
        subscript(position: Int) -> Element {
            unsafeAddress { UnsafePointer(base + position) }
            unsafeMutableAddress { base + position }
        }

        /// The elements from `start` on, valid until the stack changes.
        func elements(from start: Int) -> UnsafeBufferPointer<Element> {
            UnsafeBufferPointer(start: base + start, count: count - start)
        }

        @inline(__always)
        mutating func push(_ element: consuming Element) {
            if count == capacity { grow() }
            (base + count).initialize(to: element)
            count += 1
        }

        /// Doubles the capacity; apart from `push` so that pushing inlines to a few instructions.
        @inline(never)
        private mutating func grow() {
            let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = larger
            capacity *= 2
        }

        /// Removes the last element and returns it; the stack must not be empty.
        mutating func pop() -> Element {
            count -= 1
            return (base + count).move()
        }

        /// Removes the elements from `start` on.
        mutating func removeAll(from start: Int) {
            (base + start).deinitialize(count: count - start)
            count = start
        }
    }
}

extension JSONParser.ParseStack where Element == JSON {
    /// Moves the values from `start` on into an array.
    mutating func popArray(from start: Int) -> [JSON] {
        // Appending a sequence that moves the values out: `Array(unsafeUninitializedCapacity:)` allocates through
        // an unspecialized path of the standard library that looks up the storage class's generic metadata on
        // every call, and appending one value at a time checks the array's uniqueness for each.
        var array: [JSON] = []
        array.append(contentsOf: JSONParser.MovingValues(position: base + start, end: base + count))
        count = start
        return array
    }
}

extension JSONParser {
    /// Values of a ``ParseStack`` moved out one by one as they are iterated, which must be to the end.
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
            /// Each key's first word, to compare a key being read with in one step.
            var heads: [KeyHead]
            var layout: JSONKeyLayout
            /// Which shape this is of those that have taken its place, so that a prediction notices a replacement.
            var generation: Int
        }

        /// A guess that an object being read has the keys of a shape, checked key by key as they are read.
        struct Prediction {
            var shape: Int
            var generation: Int

            static let none = Prediction(shape: -1, generation: 0)

            var isActive: Bool { shape >= 0 }
        }

        /// How many shapes are kept; when full, each new one replaces the oldest.
        private static let capacity = 16
        /// Objects with more members are not worth the comparisons: they are rarely repeated exactly.
        private static let maximumKeys = 64

        private var shapes: [Shape] = []
        private var oldest = 0
        /// The shape last seen at each nesting depth, tried first.
        private var recentAtDepth: [Int] = []
        private var generations = 0

        /// A prediction that an object opening at `depth` has the keys of the shape last seen there.
        func prediction(atDepth depth: Int) -> Prediction {
            guard depth < recentAtDepth.count, recentAtDepth[depth] >= 0 else { return .none }
            let shape = recentAtDepth[depth]
            return Prediction(shape: shape, generation: shapes[shape].generation)
        }

        /// The first eight bytes of a shape's key followed by its closing quote, and which of them to compare.
        struct KeyHead {
            var word: UInt64
            var mask: UInt64
            /// The key's length in bytes.
            var count: Int

            init(key: UnsafeBufferPointer<UInt8>) {
                var bytes = [UInt8](key) + [UInt8(ascii: "\"")]
                let compared = min(bytes.count, 8)
                bytes += repeatElement(0, count: 8)
                word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
                mask = compared == 8 ? ~0 : (1 << (8 * UInt64(compared))) - 1
                count = key.count
            }
        }

        /// The end of the key at `start` in `text` when it is the predicted shape's key number `member`, followed by
        /// its closing quote; nil otherwise (also when the text has fewer than eight bytes left there).
        ///
        /// Such a key needs no scanning: its bytes are those of a key read before, without escapes. A key of up to
        /// seven bytes and its quote take one comparison of eight bytes.
        @inline(__always)
        func predictedKeyEnd(
            _ prediction: Prediction, member: Int, at start: Int, in text: UnsafeBufferPointer<UInt8>
        ) -> Int? {
            guard shapes[prediction.shape].generation == prediction.generation, start + 8 <= text.count else {
                return nil
            }
            return shapes[prediction.shape].heads.withUnsafeBufferPointer { heads in
                guard member < heads.count else { return nil }
                let head = heads[member]
                let word = UInt64(littleEndian: UnsafeRawPointer(text.baseAddress! + start).loadUnaligned(as: UInt64.self))
                guard (word ^ head.word) & head.mask == 0 else { return nil }
                let end = start + head.count
                // Eight bytes and more: the rest of the key and its quote come after the word compared.
                if head.count >= 8 {
                    guard end < text.count, text[end] == UInt8(ascii: "\""),
                        shapes[prediction.shape].keyBytes.withUnsafeBufferPointer({ keyBytes in
                            let keyStart = member == 0 ? 0 : shapes[prediction.shape].keyEnds[member - 1]
                            return Self.bytes(
                                of: text, from: start + 8, equal: keyBytes, from: keyStart + 8, count: head.count - 8)
                        })
                    else { return nil }
                }
                return end
            }
        }

        /// The predicted shape when every one of an object's `memberCount` keys was found predicted, and it has no
        /// other keys.
        func confirmed(_ prediction: Prediction, memberCount: Int) -> Int? {
            guard prediction.isActive, shapes[prediction.shape].generation == prediction.generation,
                shapes[prediction.shape].keyEnds.count == memberCount
            else { return nil }
            return prediction.shape
        }

        /// The shape whose keys are exactly `keys`, read from `text`, for an object at `depth`.
        mutating func match(
            _ keys: UnsafeBufferPointer<KeyText>, in text: UnsafeBufferPointer<UInt8>, depth: Int
        ) -> Int? {
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

        /// Records the keys and layout of an object at `depth` that matched no shape, unless they are not worth
        /// keeping.
        mutating func add(
            _ keys: UnsafeBufferPointer<KeyText>, layout: JSONKeyLayout, in text: UnsafeBufferPointer<UInt8>, depth: Int
        ) {
            guard keys.count <= Self.maximumKeys, !keys.contains(where: \.hasEscapes) else {
                remember(-1, atDepth: depth)
                return
            }
            generations += 1
            var shape = Shape(keyBytes: [], keyEnds: [], heads: [], layout: layout, generation: generations)
            shape.keyEnds.reserveCapacity(keys.count)
            shape.heads.reserveCapacity(keys.count)
            for key in keys {
                let keyText = UnsafeBufferPointer(rebasing: text[key.bytes])
                shape.keyBytes.append(contentsOf: keyText)
                shape.keyEnds.append(shape.keyBytes.count)
                shape.heads.append(KeyHead(key: keyText))
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
        private func shape(
            _ shape: Int, hasKeys keys: UnsafeBufferPointer<KeyText>, in text: UnsafeBufferPointer<UInt8>
        ) -> Bool {
            guard keys.count == shapes[shape].keyEnds.count else { return false }
            return shapes[shape].keyEnds.withUnsafeBufferPointer { keyEnds in
                shapes[shape].keyBytes.withUnsafeBufferPointer { keyBytes in
                    var start = 0
                    // By index: iterating a zip of the two costs more than the comparisons.
                    for member in keyEnds.indices {
                        let key = keys[member]
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
