import Foundation
import SeedKit

extension Fixtures {
    /// Inserts the objects of the sample Templates/ into a context over the sample model, built through the API
    /// rather than read from the templates. With a `shuffleSeed`, the objects are inserted, and the unordered links
    /// made, in an order that seed shuffles; ordered links keep their order.
    ///
    /// - Returns: The objects by identity value (department name, employee email, project code).
    @discardableResult
    static func insertSampleCompany(into context: ObjectContext, shuffleSeed: UInt64? = nil) throws -> [String: ManagedObject] {
        var generator = SeededGenerator(seed: shuffleSeed ?? 0)
        func ordered<Element>(_ elements: [Element]) -> [Element] {
            shuffleSeed == nil ? elements : elements.shuffled(using: &generator)
        }
        let objects: [(key: String, entity: String, values: [String: Any])] = [
            ("Engineering", "Department", ["name": "Engineering", "budget": ScaledDecimal(exactly: "1250000.00")!]),
            ("Sales", "Department", ["name": "Sales", "budget": ScaledDecimal(exactly: "480000.00")!]),
            ("APOLLO", "Project", [
                "code": "APOLLO", "title": "Apollo: the new storefront", "started": Date(timeIntervalSince1970: 1_736_154_000),
            ]),
            ("ORBIT", "Project", ["code": "ORBIT", "title": "Orbit: seed data tooling"]),
            ("ann@example.com", "Employee", [
                "name": "Ann Lee", "email": "ann@example.com", "hired": Date(timeIntervalSince1970: 1_614_589_200),
            ]),
            ("bo@example.com", "Employee", ["name": "Bo Chen", "email": "bo@example.com"]),
            ("dev@example.com", "Employee", ["name": "Dev Patel", "email": "dev@example.com"]),
            ("cleo@example.com", "Manager", ["name": "Cleo Park", "email": "cleo@example.com", "level": 2]),
        ]
        var byKey: [String: ManagedObject] = [:]
        for object in ordered(objects) {
            byKey[object.key] = try context.insert(object.entity, values: object.values)
        }
        var links: [() throws -> Void] = ordered([
            { try byKey["ann@example.com"]!.setValue(byKey["Engineering"]!, forKey: "department") },
            { try byKey["bo@example.com"]!.setValue(byKey["Engineering"]!, forKey: "department") },
            { try byKey["cleo@example.com"]!.setValue(byKey["Engineering"]!, forKey: "department") },
            { try byKey["Sales"]!.add(byKey["dev@example.com"]!, to: "employees") },
            { try byKey["ann@example.com"]!.add(byKey["APOLLO"]!, to: "projects") },
            { try byKey["ORBIT"]!.add(byKey["ann@example.com"]!, to: "members") },
            { try byKey["bo@example.com"]!.add(byKey["ORBIT"]!, to: "projects") },
            { try byKey["APOLLO"]!.add(byKey["dev@example.com"]!, to: "members") },
            { try byKey["cleo@example.com"]!.add(byKey["APOLLO"]!, to: "projects") },
            { try byKey["cleo@example.com"]!.add(byKey["bo@example.com"]!, to: "reports") },
            { try byKey["cleo@example.com"]!.add(byKey["ann@example.com"]!, to: "reports") },
        ])
        let addresses: [(resident: String, values: [String: Any])] = [
            ("ann@example.com", ["street": "1 Harbour Road", "city": "Bristol", "postcode": "BS1 4RN"]),
            ("ann@example.com", ["street": "22 Mill Lane", "city": "Bath"]),
            ("cleo@example.com", ["street": "5 Queen Square", "city": "Bristol"]),
        ]
        var addressObjects: [Int: ManagedObject] = [:]
        for index in ordered(Array(addresses.indices)) {
            addressObjects[index] = try context.insert("Address", values: addresses[index].values)
        }
        // The addresses are an ordered relationship: their links go in among the others, but in their order.
        var position = 0
        for index in addresses.indices {
            position = shuffleSeed == nil ? links.count : Int.random(in: position...links.count, using: &generator)
            links.insert({ try byKey[addresses[index].resident]!.add(addressObjects[index]!, to: "addresses") }, at: position)
            position += 1
        }
        for link in links { try link() }
        return byKey
    }

    /// A context over the sample model, without a store, holding the sample company (see ``insertSampleCompany``).
    static func sampleCompanyContext(shuffleSeed: UInt64? = nil) throws -> ObjectContext {
        let context = ObjectContext(model: try sampleModel())
        try insertSampleCompany(into: context, shuffleSeed: shuffleSeed)
        return context
    }

    /// The text of an export document with `model` (model file JSON) and `objects` (one JSON object each), laid
    /// out as ``GraphExport`` writes: line 1 `{`, the objects from line 6, one per line, at column 5.
    static func exportText(model: String, objects: [String]) -> String {
        """
        {
          "format": "seedkit-export",
          "formatVersion": 1,
          "model": \(model),
          "objects": [
        \(objects.map { "    " + $0 }.joined(separator: ",\n"))
          ]
        }

        """
    }

    /// A small model for hand-written exports: projects with identity, and playlists of tracks in order.
    static let projectsModelText = #"""
        {"entities": {"Project": {"identity": ["code"], "attributes": {"code": "string", "title": "string"}}, "Playlist": {"identity": ["name"], "attributes": {"name": "string"}, "relationships": {"tracks": {"to": "Track", "many": true, "ordered": true, "inverse": "playlists"}}}, "Track": {"identity": ["number"], "attributes": {"number": "integer"}, "relationships": {"playlists": {"to": "Playlist", "many": true, "inverse": "tracks"}}}}}
        """#
}
