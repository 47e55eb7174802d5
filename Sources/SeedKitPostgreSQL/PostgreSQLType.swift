/// A PostgreSQL data type, by the OID the server knows it by.
///
///     result.columnType(at: 0) == .int8  // a bigint column
///
/// The built-in types have fixed OIDs (`pg_type.dat`); types made with `CREATE TYPE` or extensions get theirs when
/// created, and show as `type 16384`.
package struct PostgreSQLType: Sendable, Hashable, CustomStringConvertible {
    /// The type's row in `pg_type`.
    package let oid: UInt32

    package init(oid: UInt32) {
        self.oid = oid
    }

    /// Lets the server infer a parameter's type from where it appears, as it does for a quoted literal.
    package static let unspecified = PostgreSQLType(oid: 0)
    package static let bool = PostgreSQLType(oid: 16)
    package static let bytea = PostgreSQLType(oid: 17)
    package static let char = PostgreSQLType(oid: 18)
    package static let name = PostgreSQLType(oid: 19)
    package static let int8 = PostgreSQLType(oid: 20)
    package static let int2 = PostgreSQLType(oid: 21)
    package static let int4 = PostgreSQLType(oid: 23)
    package static let text = PostgreSQLType(oid: 25)
    package static let oidType = PostgreSQLType(oid: 26)
    package static let json = PostgreSQLType(oid: 114)
    package static let float4 = PostgreSQLType(oid: 700)
    package static let float8 = PostgreSQLType(oid: 701)
    package static let unknown = PostgreSQLType(oid: 705)
    package static let bpchar = PostgreSQLType(oid: 1042)
    package static let varchar = PostgreSQLType(oid: 1043)
    package static let date = PostgreSQLType(oid: 1082)
    package static let timestamp = PostgreSQLType(oid: 1114)
    package static let timestamptz = PostgreSQLType(oid: 1184)
    package static let numeric = PostgreSQLType(oid: 1700)
    package static let uuid = PostgreSQLType(oid: 2950)
    package static let jsonb = PostgreSQLType(oid: 3802)

    /// The SQL name of a built-in type, `bigint`, `timestamp with time zone`, …, or `type <oid>`.
    package var description: String {
        switch self {
        case .bool: "boolean"
        case .bytea: "bytea"
        case .char: "\"char\""
        case .name: "name"
        case .int8: "bigint"
        case .int2: "smallint"
        case .int4: "integer"
        case .text: "text"
        case .oidType: "oid"
        case .json: "json"
        case .float4: "real"
        case .float8: "double precision"
        case .unknown: "unknown"
        case .bpchar: "character"
        case .varchar: "character varying"
        case .date: "date"
        case .timestamp: "timestamp without time zone"
        case .timestamptz: "timestamp with time zone"
        case .numeric: "numeric"
        case .uuid: "uuid"
        case .jsonb: "jsonb"
        default: "type \(oid)"
        }
    }

    /// Whether values of the type are text, in the same bytes in binary and text format: text, varchar, char(n),
    /// name, json, and unknown (an untyped literal).
    var isTextual: Bool {
        switch self {
        case .text, .varchar, .bpchar, .name, .json, .unknown: true
        default: false
        }
    }
}

/// A column of a table or of a query's result: its name and type (a domain's base type, for a table's).
package struct PostgreSQLColumn: Sendable, Hashable {
    package var name: String
    package var type: PostgreSQLType
}
