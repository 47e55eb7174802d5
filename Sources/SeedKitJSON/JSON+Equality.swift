// Equality and hashing without recursion: the derived ones recursed once per level of nesting, so comparing two
// values nested a few thousand deep (which the reader accepts when asked to) overflowed the stack.

extension JSON {
    /// Whether two values are equal: objects whatever their key order, numbers by exact value.
    ///
    /// - Complexity: O(*n*) in the size of the smaller value, on a heap-allocated stack rather than the call stack.
    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        // Scalars compare without allocating: the stack only grows for containers' children.
        var pending: [(JSON, JSON)] = []
        var pair = (lhs, rhs)
        while true {
            switch pair {
            case (.null, .null):
                break
            case let (.bool(a), .bool(b)):
                guard a == b else { return false }
            case let (.number(a), .number(b)):
                guard a == b else { return false }
            case let (.string(a), .string(b)):
                guard a == b else { return false }
            case let (.array(a), .array(b)):
                guard a.count == b.count else { return false }
                pending.append(contentsOf: zip(a, b))
            case let (.object(a), .object(b)):
                guard a.count == b.count else { return false }
                if a.hasSameLayout(as: b) {
                    pending.append(contentsOf: zip(a.values, b.values))
                    break
                }
                for (key, value) in a {
                    guard let other = b[key] else { return false }
                    pending.append((value, other))
                }
            default:
                return false
            }
            guard let next = pending.popLast() else { return true }
            pair = next
        }
    }

    /// Hashes the value's kind and scalars, and the shape of its first few levels: equal values hash equally,
    /// and a bounded depth keeps hashing off the call stack's limits.
    ///
    /// - Complexity: O(*n*) in the size of the value's first four levels.
    public func hash(into hasher: inout Hasher) {
        hash(into: &hasher, levels: 4)
    }

    private func hash(into hasher: inout Hasher, levels: Int) {
        switch self {
        case .null:
            hasher.combine(0)
        case .bool(let flag):
            hasher.combine(1)
            hasher.combine(flag)
        case .number(let number):
            hasher.combine(2)
            hasher.combine(number)
        case .string(let string):
            hasher.combine(3)
            hasher.combine(string)
        case .array(let elements):
            hasher.combine(4)
            hasher.combine(elements.count)
            guard levels > 0 else { return }
            for element in elements { element.hash(into: &hasher, levels: levels - 1) }
        case .object(let members):
            hasher.combine(5)
            hasher.combine(members.count)
            guard levels > 0 else { return }
            // Order-independent, as equality is: each member hashed on its own, the results summed.
            var sum = 0
            for (key, value) in members {
                var memberHasher = Hasher()
                memberHasher.combine(key)
                value.hash(into: &memberHasher, levels: levels - 1)
                sum &+= memberHasher.finalize()
            }
            hasher.combine(sum)
        }
    }
}
