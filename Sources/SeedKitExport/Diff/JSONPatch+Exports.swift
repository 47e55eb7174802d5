import SeedKitJSON

extension JSONPatch {
    /// The RFC 6902 patch that turns the export document `old` into `new`: applied to `old`'s JSON it gives `new`'s.
    ///
    ///     let patch = JSONPatch(from: old, to: new)
    ///     // [{"op": "replace", "path": "/objects/0/budget", "value": 1300000},
    ///     //  {"op": "add", "path": "/objects/7", "value": {"class": "Employee", …}}]
    ///
    /// Top-level objects are matched by identity; those that kept their relative order are patched in place, member
    /// by member (arrays of related objects matched by identity too), the others removed and added where they belong.
    /// Objects with equal bytes cost a comparison of bytes.
    ///
    /// - Complexity: O(*n* log *n*) for *n* top-level objects, plus the differences of the objects that changed.
    package init(from old: ExportDocument, to new: ExportDocument) {
        var operations: [Operation] = []
        let objects = JSONPointer.root.appending("objects")
        if old.model != new.model { operations.append(.replace(path: .root.appending("model"), value: new.model.json)) }
        let pairs = TopLevelPairing(old: old, new: new).pairs
        var partnerOfOld = [Int?](repeating: nil, count: old.entries.count)
        var keptNew = [Bool](repeating: false, count: new.entries.count)
        for pairIndex in Self.longestIncreasingRun(pairs.map(\.new)) {
            partnerOfOld[pairs[pairIndex].old] = pairs[pairIndex].new
            keptNew[pairs[pairIndex].new] = true
        }
        let keyers = [ObjectKeyer(model: new.model), ObjectKeyer(model: old.model)]
        let elementKey = { (element: JSON) -> String? in
            guard let name = element["class"]?.stringValue else { return nil }
            for keyer in keyers {
                if let entity = keyer.model.entity(named: name) { return keyer.key(of: element, entity: entity) }
            }
            return nil
        }
        var position = 0
        var oldIndex = 0
        var newIndex = 0
        while oldIndex < old.entries.count || newIndex < new.entries.count {
            if oldIndex < old.entries.count, partnerOfOld[oldIndex] == nil {
                operations.append(.remove(path: objects.appending(position)))
                oldIndex += 1
            } else if newIndex < new.entries.count, !keptNew[newIndex] {
                operations.append(.add(path: objects.appending(position), value: new.object(at: new.entries[newIndex])))
                position += 1
                newIndex += 1
            } else {
                // Both are kept, and kept pairs are in the same order on both sides: these two are partners.
                let (before, after) = (old.entries[oldIndex], new.entries[newIndex])
                if !old.hasSameBytes(before, as: after, in: new) {
                    operations += JSONPatch.difference(
                        from: old.object(at: before), to: new.object(at: after), at: objects.appending(position),
                        elementKey: elementKey
                    ).operations
                }
                position += 1
                oldIndex += 1
                newIndex += 1
            }
        }
        self.init(operations)
    }

    /// The indices of a longest strictly increasing subsequence of `values` (patience sorting).
    ///
    /// - Complexity: O(*n* log *n*).
    static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = []  // index into `values` of the smallest tail of a run of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Int] = []
        var index = tails.last ?? -1
        while index >= 0 {
            run.append(index)
            index = previous[index]
        }
        return run.reversed()
    }
}
