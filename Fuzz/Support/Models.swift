import SeedKit

/// The fixed model templates are read with: the sample company (identity, inheritance, many-to-many, an owned
/// ordered to-many), folders that own folders (an owned to-many of the entity's own kind, without identity), and
/// nodes that own the next node (an owned to-one chain with identity).
public let fuzzModelText = """
    {
      "entities": {
        "Address": {
          "attributes": { "city": "string", "street": "string", "postcode": "string?" },
          "relationships": { "resident": { "to": "Employee", "inverse": "addresses" } }
        },
        "Department": {
          "identity": ["name"],
          "attributes": { "name": "string", "budget": "decimal?" },
          "relationships": { "employees": { "to": "Employee", "many": true, "inverse": "department" } }
        },
        "Employee": {
          "identity": ["email"],
          "attributes": {
            "name": "string", "email": "string", "hired": "date?", "photo": "data?", "badge": "uuid?",
            "site": "url?", "address": { "type": "string", "optional": true, "default": "" }
          },
          "relationships": {
            "department": { "to": "Department", "inverse": "employees" },
            "projects": { "to": "Project", "many": true, "inverse": "members" },
            "addresses": { "to": "Address", "many": true, "ordered": true, "owns": true, "inverse": "resident" }
          }
        },
        "Manager": {
          "parent": "Employee",
          "attributes": { "level": "integer", "rating": "double?", "active": "bool?" },
          "relationships": { "reports": { "to": "Employee", "many": true } }
        },
        "Project": {
          "identity": ["code"],
          "attributes": { "code": "string", "title": "string", "started": "date?", "extra": "json?" },
          "relationships": { "members": { "to": "Employee", "many": true, "inverse": "projects" } }
        },
        "Folder": {
          "attributes": { "name": "string", "size": "integer?" },
          "relationships": {
            "sub": { "to": "Folder", "many": true, "ordered": true, "owns": true, "inverse": "up" },
            "up": { "to": "Folder", "inverse": "sub" },
            "link": { "to": "Folder" }
          }
        },
        "Node": {
          "identity": ["name"],
          "attributes": { "name": "string", "weight": "decimal?" },
          "relationships": {
            "next": { "to": "Node", "owns": true, "inverse": "previous" },
            "previous": { "to": "Node", "inverse": "next" },
            "peers": { "to": "Node", "many": true }
          }
        }
      }
    }
    """

/// The fixed model, read once.
public let fuzzModel: EntityModel = {
    do {
        return try EntityModel(json: JSONDocument(parsing: fuzzModelText).value)
    } catch {
        fatalError("the fuzz model is invalid: \(error)")
    }
}()
