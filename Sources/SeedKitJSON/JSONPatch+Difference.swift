extension JSONPatch {
    /// A small patch that turns `old` into `new` when applied to a document holding `old` at `base`.
    ///
    /// Objects are compared member by member: `remove` for members only in `old`, `add` for members only in `new`,
    /// and the difference of members on both sides. Arrays are compared by matching elements on keys, with a
    /// longest common subsequence of the key lists: `elementKey(element)` when it gives one (a record's identifier,
    /// say), else the element's canonical JSON text. Unmatched elements become `remove` and `add` operations at
    /// running indices, so that applying them in order is correct; matched elements whose values differ get their
    /// own difference. Where an unmatched old element and an unmatched new element meet at the same position, the
    /// patch replaces the one with the other: with the difference of the two when neither has a key from
    /// `elementKey` (plain values, compared by position), with `replace` when either has one (different records).
    /// Any other change is a `replace`. Members are visited in sorted key order, so the patch is deterministic.
    ///
    ///     let old: JSON = ["name": "Sales", "staff": [["id": 1, "age": 30], ["id": 2], ["id": 3]]]
    ///     let new: JSON = ["name": "Sales", "staff": [["id": 3], ["id": 1, "age": 31]], "open": true]
    ///     let patch = JSONPatch.difference(from: old, to: new) { $0["id"].map { $0.text() } }
    ///     patch.json.text(style: .canonical)
    ///     // [{"op":"add","path":"/open","value":true},
    ///     //  {"op":"add","path":"/staff/0","value":{"id":3}},
    ///     //  {"op":"replace","path":"/staff/1/age","value":31},
    ///     //  {"op":"remove","path":"/staff/2"},
    ///     //  {"op":"remove","path":"/staff/2"}]
    ///     try patch.apply(to: old) == new  // true
    ///
    /// The patch is minimal in the number of array elements added and removed as long as no stretch of an array
    /// needs more than about 1,000 of them; past that (a large array reordered throughout, say) the search splits
    /// the stretch greedily, which bounds the time and may add and remove a few more elements than needed.
    ///
    /// - Complexity: O(*s*) to walk and key the two values of total size *s*, plus O((*n* + *m*) · *d*) for each
    ///   array of *n* old and *m* new elements with *d* elements added and removed, after trimming the common
    ///   prefix and suffix. A 100,000-element array with a few changes takes time linear in its size.
    package static func difference(
        from old: JSON, to new: JSON, at base: JSONPointer = .root, elementKey: (JSON) -> String? = { _ in nil }
    ) -> JSONPatch {
        withoutActuallyEscaping(elementKey) { elementKey in
            var differ = Differ(elementKey: elementKey)
            differ.compare(old, new, at: base)
            return JSONPatch(differ.operations)
        }
    }
}

/// Collects the operations of ``JSONPatch/difference(from:to:at:elementKey:)``.
private struct Differ {
    let elementKey: (JSON) -> String?
    var operations: [JSONPatch.Operation] = []

    /// What an array element is matched on. The two kinds never match each other, whatever their text.
    enum ElementKey: Hashable {
        case given(String)
        case content([UInt8])
    }

    /// How deep a comparison recurses; below, a changed value is replaced whole, which is still a correct patch and
    /// keeps values nested thousands deep from overflowing the stack.
    static let maxDepth = 256

    mutating func compare(_ old: JSON, _ new: JSON, at path: JSONPointer) {
        guard path.tokens.count < Self.maxDepth else {
            if old != new { operations.append(.replace(path: path, value: new)) }
            return
        }
        switch (old, new) {
        case (.object(let oldMembers), .object(let newMembers)):
            for key in oldMembers.keys.sorted() where newMembers[key] == nil {
                operations.append(.remove(path: path.appending(key)))
            }
            for key in newMembers.keys.sorted() {
                let newMember = newMembers[key]!
                if let oldMember = oldMembers[key] {
                    // Comparing first keeps pointers and sorted keys to the few members that changed.
                    if oldMember != newMember { compare(oldMember, newMember, at: path.appending(key)) }
                } else {
                    operations.append(.add(path: path.appending(key), value: newMember))
                }
            }
        case (.array(let oldElements), .array(let newElements)):
            compareArrays(oldElements, newElements, at: path)
        default:
            if old != new { operations.append(.replace(path: path, value: new)) }
        }
    }

    private mutating func compareArrays(_ old: [JSON], _ new: [JSON], at path: JSONPointer) {
        // Keys become small integers so that the subsequence search compares integers.
        let elementKey = self.elementKey
        var keyNumbers: [ElementKey: Int] = [:]
        var hasGivenKey: [Bool] = []
        func numbering(_ elements: [JSON]) -> [Int] {
            elements.map { element in
                let key: ElementKey
                if let given = elementKey(element) {
                    key = .given(given)
                    hasGivenKey.append(true)
                } else {
                    key = .content(element.serialized(style: .canonical))
                    hasGivenKey.append(false)
                }
                if let number = keyNumbers[key] { return number }
                keyNumbers[key] = keyNumbers.count
                return keyNumbers.count - 1
            }
        }
        let oldKeys = numbering(old)
        let newKeys = numbering(new)
        let oldHasGivenKey = hasGivenKey[..<old.count]
        let newHasGivenKey = hasGivenKey[old.count...]

        var matches = CommonSubsequence(oldKeys, newKeys).matches
        matches.append((old.count, new.count))  // A sentinel that closes the last stretch of changes.
        var position = 0  // The index, in the array as edited so far, of the next old element.
        var oldIndex = 0
        var newIndex = 0
        for (matchedOld, matchedNew) in matches {
            let removed = matchedOld - oldIndex
            let added = matchedNew - newIndex
            for _ in 0..<min(removed, added) {
                let elementPath = path.appending(position)
                if oldHasGivenKey[oldIndex] || newHasGivenKey[old.count + newIndex] {
                    operations.append(.replace(path: elementPath, value: new[newIndex]))
                } else {
                    compare(old[oldIndex], new[newIndex], at: elementPath)
                }
                position += 1
                oldIndex += 1
                newIndex += 1
            }
            for _ in 0..<removed - min(removed, added) {
                operations.append(.remove(path: path.appending(position)))
                oldIndex += 1
            }
            for _ in 0..<added - min(removed, added) {
                operations.append(.add(path: path.appending(position), value: new[newIndex]))
                position += 1
                newIndex += 1
            }
            guard matchedOld < old.count else { break }
            // Elements matched on their content are equal; those matched on a given key may differ.
            if oldHasGivenKey[matchedOld], old[matchedOld] != new[matchedNew] {
                compare(old[matchedOld], new[matchedNew], at: path.appending(position))
            }
            position += 1
            oldIndex += 1
            newIndex += 1
        }
    }
}

/// A long common subsequence of two integer sequences, found with Myers' O((n+m)·d) algorithm in linear space
/// (recursing on the middle snake), after trimming the common prefix and suffix of each subproblem. It is a longest
/// one unless a subproblem needs more than `roundLimit` search rounds; such a subproblem is split where the
/// furthest-reaching forward path got to, which keeps the worst case at O((n+m)·roundLimit).
private struct CommonSubsequence {
    /// The matched index pairs, increasing in both.
    private(set) var matches: [(Int, Int)] = []
    private let a: [Int]
    private let b: [Int]
    /// The most search rounds (each covering up to two edits) spent on one subproblem before splitting it greedily.
    private static let roundLimit = 512
    private var forward: [Int] = []
    private var backward: [Int] = []

    init(_ a: [Int], _ b: [Int]) {
        self.a = a
        self.b = b
        solve(a.startIndex..<a.endIndex, b.startIndex..<b.endIndex)
    }

    private mutating func solve(_ aRange: Range<Int>, _ bRange: Range<Int>) {
        var aLower = aRange.lowerBound
        var bLower = bRange.lowerBound
        var aUpper = aRange.upperBound
        var bUpper = bRange.upperBound
        while aLower < aUpper, bLower < bUpper, a[aLower] == b[bLower] {
            matches.append((aLower, bLower))
            aLower += 1
            bLower += 1
        }
        var suffixLength = 0
        while aLower < aUpper, bLower < bUpper, a[aUpper - 1] == b[bUpper - 1] {
            aUpper -= 1
            bUpper -= 1
            suffixLength += 1
        }
        if aLower < aUpper, bLower < bUpper, let snake = middleSnake(aLower..<aUpper, bLower..<bUpper) {
            solve(aLower..<snake.aStart, bLower..<snake.bStart)
            for offset in 0..<snake.length {
                matches.append((snake.aStart + offset, snake.bStart + offset))
            }
            solve((snake.aStart + snake.length)..<aUpper, (snake.bStart + snake.length)..<bUpper)
        }
        for offset in 0..<suffixLength {
            matches.append((aUpper + offset, bUpper + offset))
        }
    }

    /// The middle snake of an optimal edit script between two ranges whose first and last elements differ (so that
    /// both halves around it are strictly smaller problems). Past the round limit, an empty snake where the
    /// furthest-reaching forward path ended, strictly inside both ranges; nil in the unlikely case there is none.
    private mutating func middleSnake(
        _ aRange: Range<Int>, _ bRange: Range<Int>
    ) -> (aStart: Int, bStart: Int, length: Int)? {
        let n = aRange.count
        let m = bRange.count
        let delta = n - m
        let deltaIsOdd = delta & 1 != 0
        let maxRounds = min((n + m + 1) / 2, Self.roundLimit)
        // Diagonal k (x − y) is stored at k + offset; rounds read k ± 1, so one spare slot on each side.
        let offset = maxRounds + 1
        let size = 2 * maxRounds + 3
        if forward.count < size {
            forward = [Int](repeating: 0, count: size)
            backward = [Int](repeating: 0, count: size)
        }
        forward[offset + 1] = 0
        backward[offset + 1] = 0
        for round in 0...maxRounds {
            // Forward paths from the start: forward[k] is the furthest x reached on diagonal k.
            for k in stride(from: -round, through: round, by: 2) {
                var x =
                    k == -round || (k != round && forward[offset + k - 1] < forward[offset + k + 1])
                    ? forward[offset + k + 1] : forward[offset + k - 1] + 1
                var y = x - k
                let start = (x, y)
                while x < n, y < m, a[aRange.lowerBound + x] == b[bRange.lowerBound + y] {
                    x += 1
                    y += 1
                }
                forward[offset + k] = x
                // The backward path on this diagonal is diagonal delta − k in reversed coordinates.
                let reversedK = delta - k
                if deltaIsOdd, reversedK >= -(round - 1), reversedK <= round - 1,
                    x + backward[offset + reversedK] >= n
                {
                    return (aRange.lowerBound + start.0, bRange.lowerBound + start.1, x - start.0)
                }
            }
            // Backward paths from the end, in reversed coordinates (x counts elements from the end of a).
            for k in stride(from: -round, through: round, by: 2) {
                var x =
                    k == -round || (k != round && backward[offset + k - 1] < backward[offset + k + 1])
                    ? backward[offset + k + 1] : backward[offset + k - 1] + 1
                var y = x - k
                let start = (x, y)
                while x < n, y < m, a[aRange.upperBound - 1 - x] == b[bRange.upperBound - 1 - y] {
                    x += 1
                    y += 1
                }
                backward[offset + k] = x
                let forwardK = delta - k
                if !deltaIsOdd, forwardK >= -round, forwardK <= round, x + forward[offset + forwardK] >= n {
                    return (aRange.upperBound - x, bRange.upperBound - y, x - start.0)
                }
            }
        }
        var split: (x: Int, y: Int)?
        for k in stride(from: -maxRounds, through: maxRounds, by: 2) {
            let x = forward[offset + k]
            let y = x - k
            // Paths on the outer diagonals can run past an end; only points inside both ranges split them.
            guard x <= n, y >= 0, y <= m, x + y < n + m, x + y > (split.map { $0.x + $0.y } ?? 0) else { continue }
            split = (x, y)
        }
        return split.map { (aRange.lowerBound + $0.x, bRange.lowerBound + $0.y, 0) }
    }
}
