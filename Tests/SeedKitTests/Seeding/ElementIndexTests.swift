import Testing
@testable import SeedKitSeeding

/// The index the resolver finds objects and `"$id"`s by, and the planner ledger entries by: it must answer as a
/// dictionary from the same keys to positions, whatever the keys and however far it grew.
@Suite("Element index")
struct ElementIndexTests {
    /// Keys of every kind, some sharing their text or root with another kind's, as a set's objects do.
    private static func randomKey(using generator: inout SeededGenerator) -> SeedKey {
        let kind = [SeedKey.Kind.identity, .id, .location, .owned].randomElement(using: &generator)!
        let root = kind == .identity || kind == .owned ? ["Item", "Group", ""].randomElement(using: &generator)! : ""
        return SeedKey(kind: kind, root: root, text: "k\(Int.random(in: 0..<3_000, using: &generator))")
    }

    /// Adds and sets random keys as a dictionary would hold them, asking both after each step.
    private static func check<Key: Hashable>(
        capacity: Int, hash: (Key) -> Int, using generator: inout SeededGenerator,
        _ randomKey: (inout SeededGenerator) -> Key
    ) {
        var elements: [Key] = []
        var index = ElementIndex(capacity: capacity)
        var dictionary: [Key: Int32] = [:]
        func find(_ key: Key) -> Int32? { index.element(hash: hash(key)) { elements[$0] == key } }
        for _ in 0..<4_000 {
            let key = randomKey(&generator)
            let element = Int32(elements.count)
            elements.append(key)
            if Bool.random(using: &generator) {
                // Set: a key set before stands for its latest element.
                index.set(element, hash: hash(key)) { elements[$0] == key }
                dictionary[key] = element
            } else if dictionary[key] == nil {
                index.add(element, hash: hash(key))
                dictionary[key] = element
            }
            let probe = randomKey(&generator)
            #expect(find(probe) == dictionary[probe])
        }
        for (key, element) in dictionary { #expect(find(key) == element) }
    }

    @Test func answersAsADictionaryOfTheSameKeys() {
        var generator = SeededGenerator(seed: 0x5eed_19)
        for capacity in [0, 1, 700, 5_000] {
            Self.check(capacity: capacity, hash: \.storedHash, using: &generator, Self.randomKey)
            Self.check(capacity: capacity, hash: \.hashValue, using: &generator) { "id-\(Int.random(in: 0..<3_000, using: &$0))" }
        }
    }

    /// Keys whose hashes agree in the low 32 bits, where the table places them, are told apart by the elements.
    @Test func keysOfOneHashAreToldApartByTheirElements() {
        let keys = (0..<40).map { "key \($0)" }
        var index = ElementIndex()
        for (position, _) in keys.enumerated() { index.add(Int32(position), hash: 7) }
        for (position, key) in keys.enumerated() {
            #expect(index.element(hash: 7) { keys[$0] == key } == Int32(position))
        }
        #expect(index.element(hash: 7) { _ in false } == nil)
        #expect(index.element(hash: 8) { _ in Issue.record("no element of another hash is compared"); return true } == nil)
    }

    @Test func findsNothingWhenEmpty() {
        let index = ElementIndex()
        #expect(index.element(hash: 42) { _ in Issue.record("no element to compare"); return true } == nil)
    }
}
