/// How managed objects reach their context without a weak reference to it: each holds the context's link, which the
/// context clears first thing as it goes away (see ``ManagedObject/context``).
///
///     let link = ContextLink()
///     link.context = context     // in the context's init
///     link.context = nil         // first in its deinit
///
/// A weak reference to an object gives it a side table, through which every later retain and release of it goes:
/// the slow path, for the object that fetches, saves and registrations retain most. A link keeps the context's
/// reference counting on the fast path; the objects' strong references to the link cost what any reference does.
final class ContextLink {
    /// The context, until its deinit begins: an unowned reference that is never read after that, so never dangling.
    unowned(unsafe) var context: ObjectContext?

    init() {}
}
