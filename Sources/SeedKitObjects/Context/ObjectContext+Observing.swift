/// What a context tells its observers.
public enum ContextEvent: Sendable, Hashable {
    /// A save is about to check and write the changes; an observer may still change objects.
    case willSave
    /// A save of this context completed, with what it changed.
    case didSave(ChangeSet)
    /// This context's objects changed from outside: a child context saved into it, or a merge refreshed them.
    case objectsDidChange(ChangeSet)

    /// The change set of a save or an outside change; nil for ``willSave``.
    public var changes: ChangeSet? {
        switch self {
        case .willSave: nil
        case .didSave(let changes), .objectsDidChange(let changes): changes
        }
    }
}

/// One observer of a context: its body returns false when it wants no more events.
struct ContextObserver {
    let number: Int
    let body: (ContextEvent) -> Bool
}

/// A registered observer of a context or an object; it stops observing when cancelled or deinitialized.
///
///     let observation = list.observe { event in print(event) }
///     observation.cancel()   // or let it go out of scope
public final class ObserverToken {
    private var remove: (() -> Void)?

    init(remove: @escaping () -> Void) { self.remove = remove }

    /// Stops the observer; calling it again does nothing.
    public func cancel() {
        remove?()
        remove = nil
    }

    deinit { cancel() }
}

extension ObjectContext {
    /// Calls `body` with every later event of this context, until the returned observation is cancelled or released.
    ///
    ///     let observation = list.observe { event in
    ///         if case .objectsDidChange(let changes) = event { reload(changes.updated.keys) }
    ///     }
    ///
    /// - Complexity: O(1); events cost nothing while no observer is registered.
    public func observe(_ body: @escaping (ContextEvent) -> Void) -> ObserverToken {
        let number = addObserver { event in
            body(event)
            return true
        }
        return ObserverToken { [weak self] in self?.observers.removeAll { $0.number == number } }
    }

    /// Calls `observer` with the change set of every later save of this context, for as long as the context lives.
    ///
    /// Prefer ``observe(_:)``, which can be cancelled.
    package func onSave(_ observer: @escaping (ChangeSet) -> Void) {
        addObserver { event in
            if case .didSave(let changes) = event { observer(changes) }
            return true
        }
    }

    /// The change sets of this context's later saves and outside changes, as they happen.
    ///
    ///     for await changes in list.changes { refresh(changes) }
    ///
    /// The sequence ends when the context goes away; a consumer that stops iterating stops observing with the next
    /// event.
    public var changes: AsyncStream<ChangeSet> {
        let (stream, continuation) = AsyncStream<ChangeSet>.makeStream(bufferingPolicy: .unbounded)
        addObserver { event in
            guard let changes = event.changes else { return true }
            if case .terminated = continuation.yield(changes) { return false }
            return true
        }
        finishers.append { continuation.finish() }
        return stream
    }

    /// Registers an observer for as long as the context lives or `body` returns true; returns its number.
    @discardableResult
    private func addObserver(_ body: @escaping (ContextEvent) -> Bool) -> Int {
        let number = nextObserverNumber
        nextObserverNumber += 1
        observers.append(ContextObserver(number: number, body: body))
        return number
    }

    /// Tells every observer of `event`, dropping those that want no more.
    func notify(_ event: ContextEvent) {
        // Observers may register or cancel others while they run; they hear the next event.
        let current = observers
        var finished: Set<Int> = []
        for observer in current where !observer.body(event) { finished.insert(observer.number) }
        if !finished.isEmpty { observers.removeAll { finished.contains($0.number) } }
    }
}
