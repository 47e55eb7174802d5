import SeedKit

// The cancel button, runnable: `swift run edit-screen-example`.
// A list context over the store; an edit screen works in a child context, and cancelling or saving it is all the
// list has to know about. The list hears a child's save as it happens, and saves to the store when it chooses.

final class Department: ManagedObject {
    @Attribute var name: String
    @Attribute var budget: Int?
    override class var identity: [String] { ["name"] }
}

let model = try EntityModel(classes: [Department.self])
let store = try SQLiteStore.inMemory(model: model)
let list = store.newContext()
let sales = Department(context: list)
(sales.name, sales.budget) = ("Sales", 100)
try list.save()

// The list hears what edit screens save into it.
let listening = list.observe { event in
    if case .objectsDidChange(let changes) = event {
        print("list heard: \(changes.updated.map { "\($0.key) changed \($0.value.sorted())" })")
    }
}

// First edit: cancelled. The list never sees it.
let cancelled = list.newChildContext()
let draft = try cancelled.existingObject(with: sales.objectID) as! Department
draft.budget = 999
cancelled.rollback()
print("after cancel: list budget \(sales.budget!), draft budget \(draft.budget!)")

// Second edit: saved into the list, then the list saves to the store.
let editor = list.newChildContext()
let edited = try editor.existingObject(with: sales.objectID) as! Department
edited.budget = 250
try editor.save()
print("after save: list budget \(sales.budget!), unsaved in the list: \(list.hasChanges)")
try list.save()
let stored = try store.newContext().existingObject(with: sales.objectID) as! Department
print("in the store: \(stored.name) budget \(stored.budget!)")
listening.cancel()
