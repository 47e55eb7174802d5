import Foundation
import SeedKitJSON
import SeedKitModel
import SeedKitPostgreSQL

// Attribute values in PostgreSQL columns: exact both ways, so that an export reads the same from either store.

extension Timestamp {
    /// The `timestamptz` part (whole microseconds) and the nanoseconds below it, kept in the `_ns` column.
    var postgreSQLParts: (timestamp: PostgreSQLTimestamp, nanoseconds: Int64) {
        let nanoseconds = Int64(nanoseconds)
        return (
            PostgreSQLTimestamp(microsecondsSince1970: seconds * 1_000_000 + nanoseconds / 1000), nanoseconds % 1000
        )
    }

    init(postgreSQL timestamp: PostgreSQLTimestamp, nanoseconds: Int64) {
        self.init(seconds: timestamp.seconds, nanoseconds: timestamp.microseconds * 1000 + Int32(nanoseconds))
    }
}

extension AttributeValue {
    /// The statement arguments of the value: two for a date (see ``PostgreSQLSchema``).
    func postgreSQLArguments(into arguments: inout [PostgreSQLValue]) {
        switch self {
        case .string(let text): arguments.append(.text(text))
        case .integer(let integer): arguments.append(.integer(integer))
        case .double(let double): arguments.append(.double(double))
        case .bool(let flag): arguments.append(.bool(flag))
        case .decimal(let decimal): arguments.append(.numeric(decimal.description))
        case .date(let timestamp):
            let parts = timestamp.postgreSQLParts
            arguments += [.timestamp(parts.timestamp), .integer(parts.nanoseconds)]
        case .data(let data): arguments.append(.bytes(Array(data)))
        case .uuid(let uuid): arguments.append(.uuid(uuid))
        case .url(let url): arguments.append(.text(url.absoluteString))
        case .json(let json): arguments.append(.text(json.text(style: .canonical)))
        }
    }

    /// Appends the value to a COPY row: two fields for a date.
    func append(to writer: inout PostgreSQLCopyWriter) throws {
        switch self {
        case .string(let text): try writer.append(text)
        case .integer(let integer): try writer.append(integer)
        case .double(let double): try writer.append(double)
        case .bool(let flag): try writer.append(flag)
        case .decimal(let decimal): try writer.append(numeric: decimal.description)
        case .date(let timestamp):
            let parts = timestamp.postgreSQLParts
            try writer.append(parts.timestamp)
            try writer.append(parts.nanoseconds)
        case .data(let data): try writer.append(bytes: data)
        case .uuid(let uuid): try writer.append(uuid)
        case .url(let url): try writer.append(url.absoluteString)
        case .json(let json): try writer.append(json.text(style: .canonical))
        }
    }
}

extension AttributeType {
    /// The number of columns a value of the type takes.
    var postgreSQLWidth: Int {
        self == .date ? 2 : 1
    }
}

extension PostgreSQLRow {
    /// The attribute value of `type` at `column`; nil for NULL, or a value that doesn't read as `type` (which only
    /// a foreign writer can leave).
    func attribute(at column: Int, as type: AttributeType) throws -> AttributeValue? {
        if isNull(at: column) { return nil }
        switch type {
        case .string: return try text(at: column).map(AttributeValue.string)
        case .integer: return try int64(at: column).map(AttributeValue.integer)
        case .double: return try double(at: column).map(AttributeValue.double)
        case .bool: return try bool(at: column).map(AttributeValue.bool)
        case .decimal: return try numeric(at: column).flatMap { ScaledDecimal(exactly: $0) }.map(AttributeValue.decimal)
        case .date:
            return try timestamp(at: column).map {
                .date(Timestamp(postgreSQL: $0, nanoseconds: try int64(at: column + 1) ?? 0))
            }
        case .data: return try bytes(at: column).map { .data(Data($0)) }
        case .uuid: return try uuid(at: column).map(AttributeValue.uuid)
        case .url: return try text(at: column).flatMap { URL(string: $0) }.map(AttributeValue.url)
        case .json: return try text(at: column).flatMap { try? JSONDocument(parsing: $0) }.map { .json($0.value) }
        }
    }
}
