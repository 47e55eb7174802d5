import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore

/// Infers an entity model from a template set that comes without a model file, reading it as a person would.
///
///     let set = try TemplateSet(directory: URL(fileURLWithPath: "Templates"))
///     let inferred = ModelInference.infer(from: set)
///     if let model = inferred.model { try model.write(to: modelURL) } else { print(inferred.issues) }
///     for choice in inferred.choices { print(choice) }   // Department identity(name): references name it …
///
/// The rules, each a choice a person writing the model would make from the same templates; ``Result/choices`` says
/// which were made and why, and writing the model file overrides any of them:
/// - **Entities** are the values of `"class"`. An array of objects without `"class"` is a list of objects of an
///   entity named after its key (`addresses` → `Address`, `line_items` → `LineItem`), or of the class of that name
///   when the templates have one; a single object without `"class"` is a `json` value.
/// - **Attribute types** come from the values: integers, doubles (when any has a fraction), bools; strings that are
///   all ISO 8601 dates, all UUIDs or all exact decimals with a fraction (`"1250000.00"`) are dates, uuids or
///   decimals (numbers beside decimal strings too); any other mix of strings is `string`, other arrays `json`. A key
///   null or missing in some object of its entity makes the attribute optional.
/// - **Relationships** come from nested objects with `"class"` or `{"$ref": …}` (to-one) or arrays of them
///   (to-many).
/// - **Identity**: the keys every reference states (a nested object holding nothing but some of its entity's scalar
///   values), else an attribute named like an identifier (`id`, `code`, `email`, `name`, …) or through which an
///   object is stated twice — provided every object of the entity states it (not empty) and its values agree
///   wherever the same object is stated twice and are unique otherwise. Objects stated twice are then one object.
/// - **Subentities**: an entity whose objects have every key each object of another has, and keys it never has,
///   becomes its subentity when they are referred to where the other is expected, or carry its identity with
///   values unique among both and the keys they share are three or more (`Manager` under `Employee`). Shared keys
///   are declared on the parent.
/// - **Ownership**: objects of an entity named after a key, or of a class that never appears at the top level and
///   has no identity, are owned by the relationship they are written in (ordered, for a to-many one, as written).
/// - **Inverses**: a pair of relationships between two entities, one each way and the only ones between them, are
///   inverses (`Department.employees` and `Employee.department`).
///
/// Evidence that contradicts itself (a key that is a number here and a string there) is an issue located at both
/// places, and no model is inferred.
///
/// - Complexity: O(*n*) in the total size of the templates, plus O(*e*²) for *e* entities when finding subentities.
package enum ModelInference {
    /// The inferred model, or the issues that prevent it, and the choices made.
    package struct Result: Sendable {
        /// The model; nil when ``issues`` says why there is none.
        package var model: EntityModel?
        package var issues: [Diagnostic]
        /// Each choice made beyond what the templates say outright, with its reason, in entity order.
        package var choices: [Choice]
    }

    /// One choice inference made, and why, as `seed model --summary` lists them.
    ///
    ///     Manager : Employee: its objects have every key each Employee has (department, email, name, projects) …
    package struct Choice: Sendable, Hashable, CustomStringConvertible {
        package enum Kind: String, Sendable, Hashable {
            case identity, subentity, ownership, inverse, type
        }

        package var kind: Kind
        /// What was chosen: `Department identity(name)`, `Manager : Employee`, `Department.budget decimal`.
        package var subject: String
        /// Why, from the templates.
        package var reason: String

        package var description: String { "\(subject): \(reason)" }
    }

    /// Infers the model of `set`.
    package static func infer(from set: TemplateSet) -> Result {
        var inference = Inference()
        inference.read(set)
        return inference.result()
    }
}
