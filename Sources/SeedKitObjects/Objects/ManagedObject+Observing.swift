#if canImport(Observation)
import Observation
#endif
import SeedKitSupport

extension ManagedObject {
    /// Calls `body` with the old and new values of a property each time it changes, until the returned token is
    /// cancelled or released.
    ///
    ///     let token = try ann.observe("title") { old, new in print("\(old ?? "nil") → \(new ?? "nil")") }
    ///
    /// Values come as ``value(forKey:)`` gives them: an attribute's value, a to-one's object, a to-many's members.
    /// A change made by a merge or a rollback is not reported; one a child context saves into this one is.
    ///
    /// - Throws: ``ObjectError`` of kind `unknownKey`, suggesting the nearest property name.
    /// - Complexity: O(1); a change of a property costs one check while its object has no observer.
    public func observe(_ key: String, _ body: @escaping (_ old: Any?, _ new: Any?) -> Void) throws -> ObserverToken {
        let slot: Int
        if let index = entity.attributeIndex(named: key) {
            slot = index
        } else if let index = entity.relationshipIndex(named: key) {
            slot = entity.attributes.count + index
        } else {
            throw unknownKey(key)
        }
        let observation = startObserving()
        let number = observation.addKeyObserver(slot: slot, body)
        return ObserverToken { [weak observation] in observation?.removeKeyObserver(number) }
    }

    /// The object's observation record, made on first need.
    func startObserving() -> ObjectObservation {
        if let observation { return observation }
        let observation = ObjectObservation.make()
        self.observation = observation
        return observation
    }

    /// The value of a property slot (attributes, then relationships), as key-value coding gives it.
    fileprivate func value(atSlot slot: Int) -> Any? {
        let attributeCount = entity.attributes.count
        if slot < attributeCount { return attributeValues[slot]?.anyValue }
        let index = slot - attributeCount
        return entity.relationships[index].isToMany ? objects(at: index) : object(at: index)
    }

    /// Tells observers a property is about to change; pair with ``didChange(slot:)``.
    @inline(__always)
    final func willChange(slot: Int) {
        if let observation { observation.willSet(self, slot: slot) }
    }

    /// Tells observers a property changed.
    @inline(__always)
    final func didChange(slot: Int) {
        if let observation { observation.didSet(self, slot: slot) }
    }
}

/// Who observes one object: key observers, and Swift Observation's registrar where it is available. An object has
/// none until something observes it, so that an unobserved property costs one nil check.
@usableFromInline
package class ObjectObservation {
    private struct KeyObserver {
        let number: Int
        let slot: Int
        let body: (Any?, Any?) -> Void
    }
    private var keyObservers: [KeyObserver] = []
    private var nextNumber = 0
    /// The old values of observed properties between `willSet` and `didSet`, by slot.
    private var oldValues: [Int: Any?] = [:]

    init() {}

    /// A record that also takes part in Swift Observation when the platform has it.
    static func make() -> ObjectObservation {
        #if canImport(Observation)
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) { return TrackedObjectObservation() }
        #endif
        return ObjectObservation()
    }

    func addKeyObserver(slot: Int, _ body: @escaping (Any?, Any?) -> Void) -> Int {
        nextNumber += 1
        keyObservers.append(KeyObserver(number: nextNumber, slot: slot, body: body))
        return nextNumber
    }

    func removeKeyObserver(_ number: Int) { keyObservers.removeAll { $0.number == number } }

    /// A read of a property, for Swift Observation's tracking.
    @usableFromInline
    package func access(_ object: ManagedObject, slot: Int) {}

    func willSet(_ object: ManagedObject, slot: Int) {
        guard keyObservers.contains(where: { $0.slot == slot }) else { return }
        oldValues[slot] = object.value(atSlot: slot)
    }

    func didSet(_ object: ManagedObject, slot: Int) {
        guard let old = oldValues.removeValue(forKey: slot) else { return }
        let new = object.value(atSlot: slot)
        for observer in keyObservers where observer.slot == slot { observer.body(old, new) }
    }
}

#if canImport(Observation)
/// Managed objects take part in Swift Observation: `withObservationTracking` and SwiftUI follow the properties
/// read through typed properties and key-value coding, in contexts with ``ObjectContext/isObservable`` set.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ManagedObject: Observable {
    /// A key path per property slot, for the registrar, which tells changes apart by key path.
    package final subscript(observedSlot slot: Int) -> Int { slot }
}

/// The record of an object in an observable context: it forwards reads and writes to an `ObservationRegistrar`.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class TrackedObjectObservation: ObjectObservation {
    private let registrar = ObservationRegistrar()

    /// The key paths of slots 0, 1, 2…, shared by every object: made once, as slots are first observed.
    private static let keyPaths = Locked<[KeyPath<ManagedObject, Int>]>([])

    private static func keyPath(_ slot: Int) -> KeyPath<ManagedObject, Int> {
        keyPaths.withLock { paths in
            while paths.count <= slot { paths.append(\ManagedObject.[observedSlot: paths.count]) }
            return paths[slot]
        }
    }

    override func access(_ object: ManagedObject, slot: Int) {
        registrar.access(object, keyPath: Self.keyPath(slot))
    }

    override func willSet(_ object: ManagedObject, slot: Int) {
        registrar.willSet(object, keyPath: Self.keyPath(slot))
        super.willSet(object, slot: slot)
    }

    override func didSet(_ object: ManagedObject, slot: Int) {
        super.didSet(object, slot: slot)
        registrar.didSet(object, keyPath: Self.keyPath(slot))
    }
}
#endif
