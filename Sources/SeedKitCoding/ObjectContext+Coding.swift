import SeedKitJSON
import SeedKitModel
import SeedKitObjects

extension ObjectContext {
    /// Reads one object, and the objects it nests, from its dictionary form (see ``GraphDecoder``).
    ///
    ///     let ann = try context.fromDictionary(["class": "Employee", "email": "ann@example.com", "name": "Ann",
    ///                                           "department": ["class": "Department", "name": "Sales"]])
    ///
    /// - Throws: ``GraphDecodingErrors`` with every problem found; the context is unchanged then.
    /// - Complexity: O(*n*) in the size of the dictionary.
    @discardableResult
    public func fromDictionary(_ dictionary: [String: Any]) throws(GraphDecodingErrors) -> ManagedObject {
        let json: JSON
        do {
            json = try JSON(any: dictionary)
        } catch {
            throw GraphDecodingErrors(errors: [GraphDecodingError(.typeMismatch, pointer: error.pointer, message: error.message)])
        }
        return try fromJSON(json)[0]
    }

    /// Reads an object or an array of objects from their JSON form (see ``GraphDecoder``).
    ///
    /// - Returns: The top-level objects, in order.
    /// - Throws: ``GraphDecodingErrors``; the context is unchanged then.
    /// - Complexity: O(*n*) in the size of the value, plus one identity lookup per object with identity.
    @discardableResult
    public func fromJSON(_ json: JSON) throws(GraphDecodingErrors) -> [ManagedObject] {
        var decoder = GraphDecoder(context: self)
        decoder.add(json)
        return try decoder.decode()
    }

    /// Reads JSON text; errors carry `file:line:column`.
    ///
    ///     try context.decode(text: #"{"class": "Department", "name": "Sales"}"#, file: "Sales.json")
    ///
    /// - Complexity: O(*n*) in the size of the text, plus one identity lookup per object with identity.
    @discardableResult
    public func decode(text: String, file: String? = nil) throws(GraphDecodingErrors) -> [ManagedObject] {
        try decode(bytes: Array(text.utf8), file: file)
    }

    /// Reads UTF-8 JSON text; errors carry `file:line:column`.
    ///
    /// - Complexity: O(*n*) in the size of the text, plus one identity lookup per object with identity.
    @discardableResult
    public func decode(bytes: [UInt8], file: String? = nil) throws(GraphDecodingErrors) -> [ManagedObject] {
        var decoder = GraphDecoder(context: self)
        decoder.add(bytes: bytes, file: file)
        return try decoder.decode()
    }

    /// The object of an inheritance tree with these identity values: the one lookup by identity the coding layer
    /// makes, so a context backed by a store can answer it from the store too.
    ///
    /// - Complexity: O(1) on average for registered objects.
    func existingObject(rootEntity: String, identity: [AttributeValue]) -> ManagedObject? {
        registeredObject(rootEntity: rootEntity, identity: identity)
    }
}
