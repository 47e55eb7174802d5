import Foundation
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel

// Attribute values in SQLite: every value bound as a parameter, in a form that reads naturally in the sqlite3 shell.

extension Statement {
    /// Binds an attribute value (NULL for nil) to the parameter at `index`, counted from 1.
    package func bind(attribute value: AttributeValue?, at index: Int) throws {
        guard let value else { return try bindNull(at: index) }
        switch value {
        case .string(let text): try bind(text, at: index)
        case .integer(let integer): try bind(integer, at: index)
        case .double(let double): try bind(double, at: index)
        case .bool(let flag): try bind(flag ? 1 : 0, at: index)
        case .decimal(let decimal): try bind(decimal.description, at: index)
        case .date(let timestamp): try bind(timestamp.storeText, at: index)
        case .data(let data): try bind(data, at: index)
        case .uuid(let uuid): try bind(uuid.uuidString, at: index)
        case .url(let url): try bind(url.absoluteString, at: index)
        case .json(let json): try bind(json.text(style: .canonical), at: index)
        }
    }

    /// The attribute value of `type` at `column`, counted from 0; nil for NULL or a value that doesn't read as
    /// `type` (which only a foreign writer can leave).
    package func attribute(at column: Int, as type: AttributeType) -> AttributeValue? {
        // A string, the usual value, tells NULL apart as it is read, and so does a number other than 0 (what NULL
        // reads as): only a 0 asks whether it was NULL. The others ask first.
        switch type {
        case .string: return optionalText(at: column).map(AttributeValue.string)
        case .integer:
            let integer = int64(at: column)
            return integer == 0 && isNull(at: column) ? nil : .integer(integer)
        case .double:
            let double = double(at: column)
            return double == 0 && isNull(at: column) ? nil : .double(double)
        case .bool:
            let integer = int64(at: column)
            return integer == 0 && isNull(at: column) ? nil : .bool(integer != 0)
        default: break
        }
        if isNull(at: column) { return nil }
        switch type {
        case .string, .integer, .double, .bool: preconditionFailure("read above")
        case .decimal: return ScaledDecimal(exactly: text(at: column)).map(AttributeValue.decimal)
        case .date:
            // Parsed where SQLite holds the text: no string made of it first, one per row read.
            return textBuffer(at: column).withMemoryRebound(to: UInt8.self) { try? Timestamp(parsingISO8601UTF8: $0) }
                .map(AttributeValue.date)
        case .data: return .data(data(at: column))
        case .uuid: return UUID(uuidString: text(at: column)).map(AttributeValue.uuid)
        case .url: return URL(string: text(at: column)).map(AttributeValue.url)
        case .json: return (try? JSONDocument(parsing: text(at: column))).map { .json($0.value) }
        }
    }
}

extension AttributeType {
    /// Whether SQLite orders the stored form as ``AttributeValue`` orders values, so sorts and range filters can run
    /// in SQL. Decimal text and JSON text don't.
    var sortsInSQL: Bool {
        switch self {
        case .decimal, .json: false
        default: true
        }
    }
}

extension Timestamp {
    /// ISO 8601 with all nine fraction digits, `2024-03-01T09:30:00.000000001Z`, so text order is time order (for years
    /// 0001-9999) and nanoseconds are kept.
    var storeText: String {
        iso8601Text(keepingEveryFractionDigit: true)
    }

    /// Appends the ``storeText`` to `bytes`, without making a string.
    package func appendStoreText(to bytes: inout [UInt8]) {
        appendISO8601Text(keepingEveryFractionDigit: true, to: &bytes)
    }
}
