import Foundation
import SeedKitJSON
import SeedKitModel
import SeedKitSupport

extension ManagedObject {
    /// The key-value coding collection operators, as in Foundation: `@count`, `@sum`, `@avg`, `@min`, `@max` and
    /// `@distinctUnionOfObjects`.
    enum CollectionOperator: String, CaseIterable {
        case count, sum, avg, min, max, distinctUnionOfObjects
    }

    /// The value of a key path with a collection operator: the operator applied to the members the steps before it
    /// reach (through to-one and to-many relationships), at the key path after it.
    ///
    ///     try department.value(forKeyPath: "employees.@count")              // Int
    ///     try department.value(forKeyPath: "employees.@sum.salary")         // Int64, Double or Decimal
    ///     try company.value(forKeyPath: "departments.employees.@max.hired") // Date, or nil when there are none
    ///     try department.value(forKeyPath: "employees.@distinctUnionOfObjects.title")   // [Any], first seen first
    ///
    /// `@sum` of integers is an `Int64`, of doubles a `Double`, of decimals a `Decimal` (0 for no values); `@avg` is a
    /// `Decimal` for decimals and a `Double` otherwise (nil for no values); `@min` and `@max` order values as fetches
    /// do. Missing values are skipped.
    ///
    /// - Throws: ``ObjectError``: `brokenKeyPath` for an operator not after a to-many relationship, an unknown
    ///   operator (with a did-you-mean) or one without the key path it needs; `typeMismatch` for `@sum` or `@avg`
    ///   of values that are not numbers; what ``value(forKeyPath:)`` throws for the steps.
    /// - Complexity: O(*m*) in the members reached, times the length of the key path after the operator.
    func collectionOperatorValue(_ keyPath: String, steps: [String], at position: Int) throws -> Any? {
        let name = String(steps[position].dropFirst())
        guard let operation = CollectionOperator(rawValue: name) else {
            let names = CollectionOperator.allCases.map { "@" + $0.rawValue }
            throw ObjectError(
                .brokenKeyPath, object: description, key: keyPath,
                "no collection operator '@\(name)'\(Suggestion.didYouMean("@" + name, among: names)); "
                    + "operators: \(names.joined(separator: ", "))")
        }
        let members = try members(atPath: Array(steps[..<position]), keyPath: keyPath)
        let rest = steps[(position + 1)...].joined(separator: ".")
        if operation == .count { return members.count }
        guard !rest.isEmpty else {
            throw ObjectError(
                .brokenKeyPath, object: description, key: keyPath,
                "'@\(name)' needs the key path of the members' values after it, as in '…@\(name).salary'")
        }
        if operation == .distinctUnionOfObjects { return try distinctValues(of: members, at: rest) }
        var values: [AttributeValue] = []
        for member in members {
            guard let value = try member.value(forKeyPath: rest) else { continue }
            let flattened = (value as? [Any]) ?? [value]
            for item in flattened {
                guard let attribute = AttributeValue(anyValue: item) else {
                    throw ObjectError(
                        .typeMismatch, object: member.description, key: rest,
                        "'@\(name)' applies to attribute values; '\(rest)' is \(type(of: item))")
                }
                values.append(attribute)
            }
        }
        switch operation {
        case .min: return values.min { $0.compare(to: $1) == .orderedAscending }?.anyValue
        case .max: return values.max { $0.compare(to: $1) == .orderedAscending }?.anyValue
        case .sum, .avg: return try aggregate(values, operation, keyPath: keyPath)
        case .count, .distinctUnionOfObjects: preconditionFailure("handled above")
        }
    }

    /// The members the steps reach, through to-ones and to-manies; at least one step must be to-many.
    private func members(atPath steps: [String], keyPath: String) throws -> [ManagedObject] {
        let (members, passesToMany) = try objects(along: steps, keyPath: keyPath)
        guard passesToMany else {
            throw ObjectError(
                .brokenKeyPath, object: description, key: keyPath,
                "a collection operator follows a to-many relationship, as in 'employees.@count'")
        }
        return members
    }

    /// The distinct values at `path` of the members, first seen first: attribute values by equality, objects by
    /// identity.
    private func distinctValues(of members: [ManagedObject], at path: String) throws -> [Any] {
        var values: [Any] = []
        var seenValues = Set<AttributeValue>()
        var seenObjects = Set<ObjectIdentifier>()
        for member in members {
            guard let value = try member.value(forKeyPath: path) else { continue }
            for item in (value as? [Any]) ?? [value] {
                let isNew = if let object = item as? ManagedObject {
                    seenObjects.insert(ObjectIdentifier(object)).inserted
                } else if let attribute = AttributeValue(anyValue: item) {
                    seenValues.insert(attribute).inserted
                } else {
                    true
                }
                if isNew { values.append(item) }
            }
        }
        return values
    }

    private func aggregate(_ values: [AttributeValue], _ operation: CollectionOperator, keyPath: String) throws -> Any? {
        var integers: Int64 = 0, doubles = 0.0, decimals = Decimal(0)
        var kind = AttributeType.integer
        for value in values {
            switch value {
            case .integer(let integer):
                let (sum, overflow) = integers.addingReportingOverflow(integer)
                integers = sum
                // Past Int64, the sum goes on as a double, as it would in a Double attribute.
                if overflow { kind = .double }
                doubles += Double(integer)
            case .double(let double):
                kind = kind == .decimal ? .decimal : .double
                doubles += double
            case .decimal(let decimal):
                kind = .decimal
                decimals += decimal.value
            default:
                throw ObjectError(
                    .typeMismatch, object: description, key: keyPath,
                    "'@\(operation.rawValue)' adds numbers; the values are \(value.type)")
            }
        }
        if kind == .decimal, values.contains(where: { $0.type != .decimal }) {
            throw ObjectError(
                .typeMismatch, object: description, key: keyPath,
                "'@\(operation.rawValue)' does not mix decimals with other numbers")
        }
        if operation == .avg {
            guard !values.isEmpty else { return nil }
            return kind == .decimal ? decimals / Decimal(values.count) : doubles / Double(values.count)
        }
        switch kind {
        case .decimal: return decimals
        case .double: return doubles
        default: return integers
        }
    }
}

extension AttributeValue {
    /// The attribute value of a Swift value as key-value coding returns it (see ``anyValue``).
    init?(anyValue value: Any) {
        switch value {
        case let value as String: self = .string(value)
        case let value as Int64: self = .integer(value)
        case let value as Double: self = .double(value)
        case let value as Bool: self = .bool(value)
        case let value as Decimal: self = .decimal(ScaledDecimal(value))
        case let value as Date: self = .date(Timestamp(value))
        case let value as Data: self = .data(value)
        case let value as UUID: self = .uuid(value)
        case let value as URL: self = .url(value)
        case let value as JSON: self = .json(value)
        default: return nil
        }
    }
}
