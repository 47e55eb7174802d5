import Foundation
import Testing
import SeedKit
import SeedKitObjects

@Suite("SparseSlots: objects by numbers far apart")
struct SparseSlotsTests {
    /// Objects to store; the table keeps references, so any objects of any entity do.
    private static func objects(_ count: Int) throws -> [ManagedObject] {
        let entity = try #require(try Fixtures.companyModel().entity(named: "Department"))
        return (0..<count).map { _ in ManagedObject(entity: entity, context: nil) }
    }

    @Test func holdsLooksUpAndRemovesLikeADictionary() throws {
        let objects = try Self.objects(64)
        var slots = SparseSlots()
        var model: [Int64: ManagedObject] = [:]
        var generator = SplitMix64(seed: 0x5BA75E)
        // Numbers from a small range collide and form long runs; negative and huge ones hash anywhere.
        let ranges: [ClosedRange<Int64>] = [1...200, -200 ... -1, 1_000_000...1_000_400, (Int64.max - 100)...Int64.max]
        for step in 0..<20_000 {
            let range = ranges[Int.random(in: 0..<ranges.count, using: &generator)]
            let number = Int64.random(in: range, using: &generator)
            if Int.random(in: 0..<3, using: &generator) == 0 {
                #expect(slots.removeValue(for: number) === model.removeValue(forKey: number), "step \(step)")
            } else {
                let object = objects[Int.random(in: 0..<objects.count, using: &generator)]
                slots[number] = object
                model[number] = object
            }
            #expect(slots.count == model.count, "step \(step)")
            if step % 500 == 0 {
                // Every number still finds its object after the removals' shifts, and no removed one comes back.
                for range in ranges {
                    for number in range where number != 0 { #expect(slots[number] === model[number], "\(number)") }
                }
                var seen = 0
                slots.forEach { _ in seen += 1 }
                #expect(seen == model.count)
            }
        }
        for number in Array(model.keys) { slots[number] = nil }
        #expect(slots.isEmpty && slots[1] == nil)
    }

    @Test func releasesItsObjectsWhenEmptied() throws {
        var slots = SparseSlots()
        weak var gone: ManagedObject?
        do {
            let object = try Self.objects(1)[0]
            gone = object
            slots[42] = object
            slots[7_000_000] = object
        }
        #expect(gone != nil)
        slots.removeValue(for: 42)
        slots[7_000_000] = nil
        #expect(gone == nil)
    }
}
