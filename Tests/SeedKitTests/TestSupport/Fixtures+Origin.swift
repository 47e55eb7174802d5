import Foundation

// The origin post's two template forms (../shared/origin/): an Employee with its Department nested, and a Department
// with its Employees nested; and the model their author would have written — which says that naming a department
// creates it, as the Employee form alone only names its Department.
extension Fixtures {
    static let originEmployeeTemplate = """
        {
            "class": "Employee",
            "name": "John Johnson",
            "address": "",
            "department": {
                "class": "Department",
                "name": "Boring Department"
            }
        }
        """

    static let originDepartmentTemplate = """
        {
            "class": "Department",
            "name": "Boring Department",
            "employees": [
                {
                    "class": "Employee",
                    "name": "John Johnson",
                    "address": ""
                },
                {
                    "class": "Employee",
                    "name": "Jane Jansen",
                    "address": "21 Nice Avenue"
                }
            ]
        }
        """

    static let originModelText = """
        {
          "entities": {
            "Department": {
              "identity": ["name"],
              "createdByReference": true,
              "attributes": { "name": "string" },
              "relationships": { "employees": { "to": "Employee", "many": true, "inverse": "department" } }
            },
            "Employee": {
              "identity": ["name"],
              "attributes": { "name": "string", "address": "string" },
              "relationships": { "department": { "to": "Department", "inverse": "employees" } }
            }
          }
        }
        """
}
