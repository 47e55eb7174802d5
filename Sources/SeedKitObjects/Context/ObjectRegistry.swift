/// The objects a context has registered, by ``ObjectID``: one ``RowTable`` per root entity, keyed by number.
///
/// A context looks an id up for every row it fetches and every to-one fault it fires, so lookups must cost next to
/// nothing: hot paths keep the ``RowTable`` of their entity and look numbers up in it without hashing.
final class ObjectRegistry {
    /// One per root entity that has had an object registered; a model has few. Unchecked for exclusivity as the
    /// context's state is (see ``ObjectContext``): its accesses are short and never overlap.
    @exclusivity(unchecked) private var tables: [RowTable] = []

    /// The table of a root entity, created empty on first use.
    ///
    /// - Complexity: O(*r*) for *r* root entities registered so far.
    func table(named name: String) -> RowTable {
        if let table = tables.first(where: { $0.name == name }) { return table }
        let table = RowTable(name: name)
        tables.append(table)
        return table
    }

    /// The registered object with this id; setting nil unregisters it.
    ///
    /// - Complexity: O(1) on average, plus finding the root entity's table.
    subscript(id: ObjectID) -> ManagedObject? {
        get { tables.first(where: { $0.name == id.entityName })?[id.number] }
        set { table(named: id.entityName)[id.number] = newValue }
    }

    var count: Int { tables.reduce(0) { $0 + $1.count } }

    /// Calls `body` with every registered object, in no particular order.
    func forEach(_ body: (ManagedObject) -> Void) {
        for table in tables { table.forEach(body) }
    }

    /// Every registered object, in no particular order.
    var objects: [ManagedObject] {
        var objects: [ManagedObject] = []
        objects.reserveCapacity(count)
        forEach { objects.append($0) }
        return objects
    }
}

/// The registered objects of one root entity, by number.
///
/// Numbers come in runs: row ids 1, 2, 3… from the store, temporary numbers -1, -2, -3… for inserted objects. Each
/// sign keeps its objects in an array indexed by the number's magnitude, so a lookup is a bounds check and a load, and
/// a fetch registering rows in row-id order writes memory in order. A number far beyond its array's end — an array
/// that would be mostly empty — goes to a hash table instead (``SparseSlots``).
final class RowTable {
    let name: String
    /// Behind a pointer because Swift checks every access to a class's stored `var`s for exclusivity at run time,
    /// which costs more than the lookup itself. A table is used only from its context's isolation domain, and nothing
    /// it calls (the bodies `forEach` is given included) touches it again.
    private let rows: UnsafeMutablePointer<Rows>

    init(name: String) {
        self.name = name
        rows = .allocate(capacity: 1)
        rows.initialize(to: Rows())
    }

    deinit {
        rows.deinitialize(count: 1)
        rows.deallocate()
    }

    var count: Int { rows.pointee.count }

    /// The registered object with this number; setting nil unregisters it.
    ///
    /// - Complexity: O(1), amortized for a set.
    subscript(number: Int64) -> ManagedObject? {
        get { rows.pointee[number] }
        set { rows.pointee[number] = newValue }
    }

    /// Makes room for `count` more objects numbered in a run, so a big fetch neither regrows the array nor sends its
    /// rows to the dictionary because the array is still short.
    func reserve(_ count: Int) {
        rows.pointee.positive.reserve(count)
    }

    func forEach(_ body: (ManagedObject) -> Void) {
        rows.pointee.positive.forEach(body)
        rows.pointee.negative.forEach(body)
        rows.pointee.sparse.forEach(body)
    }
}

/// The storage of a ``RowTable``: not copyable, as its hash table isn't.
private struct Rows: ~Copyable {
    var positive = NumberedSlots()
    var negative = NumberedSlots()
    var sparse = SparseSlots()

    var count: Int { positive.count + negative.count + sparse.count }

    subscript(number: Int64) -> ManagedObject? {
        get {
            if let object = number > 0 ? positive.object(at: number.magnitude) : negative.object(at: number.magnitude) {
                return object
            }
            return sparse.isEmpty ? nil : sparse[number]
        }
        set {
            if number > 0, positive.update(newValue, at: number.magnitude, moving: &sparse, sign: 1) { return }
            if number < 0, negative.update(newValue, at: number.magnitude, moving: &sparse, sign: -1) { return }
            sparse[number] = newValue
        }
    }
}

/// Objects numbered 1, 2, 3…: the object of number *n* at index *n* − 1.
private struct NumberedSlots {
    private var slots: [ManagedObject?] = []
    /// The slots holding an object.
    private(set) var count = 0
    /// Objects announced by ``reserve(_:)``: the array may grow to hold them before they arrive.
    private var expected = 0

    func object(at number: UInt64) -> ManagedObject? {
        number != 0 && number <= UInt64(slots.count) ? slots[Int(number) - 1] : nil
    }

    /// Stores `object` (nil to remove) at `number`, growing the array when it stays at least about half full; false
    /// when the number belongs in `sparse`. Growing takes the numbers it now covers out of `sparse`, whose keys are
    /// `sign` times the number.
    mutating func update(
        _ object: ManagedObject?, at number: UInt64, moving sparse: inout SparseSlots, sign: Int64
    ) -> Bool {
        if number > UInt64(slots.count) {
            // Removing a number the array doesn't cover changes nothing here; it may be in `sparse`.
            guard object != nil, number <= UInt64(2 * max(count + 1, expected) + 1024) else { return false }
            let start = slots.count + 1
            // Rows in row-id order append a single slot; rows at random, a run of empty ones, at once.
            slots.append(contentsOf: repeatElement(nil, count: Int(number) - slots.count))
            if !sparse.isEmpty {
                for covered in start...Int(number) {
                    if let moved = sparse.removeValue(for: sign * Int64(covered)) {
                        slots[covered - 1] = moved
                        count += 1
                    }
                }
            }
        }
        let index = Int(number) - 1
        switch (slots[index] == nil, object == nil) {
        case (true, false): count += 1
        case (false, true): count -= 1
        default: break
        }
        slots[index] = object
        if count == 0 { self = NumberedSlots() }  // Give the memory back once every object has left, as after a save.
        return true
    }

    mutating func reserve(_ more: Int) {
        expected = count + more
        slots.reserveCapacity(max(slots.count, expected))
    }

    func forEach(_ body: (ManagedObject) -> Void) {
        guard count > 0 else { return }
        for case let object? in slots { body(object) }
    }
}
