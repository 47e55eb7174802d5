import Foundation
import SeedKitJSON

extension AttributeValue {
    /// The value's JSON form: dates as ISO 8601 UTC, decimals as exact numbers, data as base64, UUIDs and URLs as
    /// strings, JSON as is.
    ///
    /// A decimal whose scale needs trailing zeros is a string of its digits, `"1250000.00"`: a JSON number stands for
    /// its value alone, and every reader (this one too) drops the zeros of `1250000.00`. Other decimals are numbers,
    /// written as they always were.
    package var json: JSON {
        switch self {
        case .string(let value): .string(value)
        case .integer(let value): .number(JSONNumber(value))
        case .double(let value): .number(JSONNumber(value))
        case .bool(let value): .bool(value)
        case .decimal(let value):
            value.hasTrailingZeros ? .string(value.description) : .number(JSONNumber(value.value))
        case .date(let value): .string(value.iso8601String)
        case .data(let value): .string(value.base64EncodedString())
        case .uuid(let value): .string(value.uuidString)
        case .url(let value): .string(value.absoluteString)
        case .json(let value): value
        }
    }

    /// Reads a value of `type` from its JSON form.
    ///
    ///     try AttributeValue(json: "2024-05-01T09:30:00.25Z", as: .date)  // .date(…)
    ///     try AttributeValue(json: 1e300, as: .integer)                  // throws "out of range for integer"
    ///
    /// Decimals are also accepted as strings (`"0.10"`), since some writers quote them to keep them exact; a string
    /// keeps its scale (`"0.10"` is 0.10, scale 2), a number has its value's own (`0.10` is 0.1).
    ///
    /// - Throws: ``AttributeValueError`` saying what was expected and what was found.
    package init(json: JSON, as type: AttributeType) throws(AttributeValueError) {
        func mismatch() -> AttributeValueError {
            AttributeValueError("expected \(Self.jsonExpectation(for: type)), got \(json.kindDescription)")
        }
        switch type {
        case .string:
            guard case .string(let value) = json else { throw mismatch() }
            self = .string(value)
        case .integer:
            guard case .number(let number) = json else { throw mismatch() }
            // From the number's digits, never through a double: 77777770007170700.0 is that integer exactly.
            guard let value = number.int64Value else {
                let integral = number.isIntegral
                throw AttributeValueError(
                    integral
                        ? "\(number) is out of range for integer (\(Int64.min)...\(Int64.max))"
                        : "expected an integer, got \(number), which has a fraction",
                    isOutOfRange: integral)
            }
            self = .integer(value)
        case .double:
            guard case .number(let number) = json else { throw mismatch() }
            let value = number.doubleValue
            guard value.isFinite else { throw AttributeValueError("\(number) is out of range for double", isOutOfRange: true) }
            self = .double(value)
        case .bool:
            guard case .bool(let value) = json else { throw mismatch() }
            self = .bool(value)
        case .decimal:
            switch json {
            case .number(let number):
                guard let value = number.decimalValue else {
                    throw AttributeValueError(
                        "\(number) cannot be held exactly by a decimal (38 significant digits times 10^-128 to 10^127)",
                        isOutOfRange: true)
                }
                self = .decimal(ScaledDecimal(value))
            case .string(let text):
                guard let value = ScaledDecimal(exactly: text) else {
                    if Decimal(exactly: text) != nil {
                        throw AttributeValueError(
                            "\"\(text)\" has more than \(ScaledDecimal.maximumScale) digits after the point, "
                                + "more than a decimal keeps", isOutOfRange: true)
                    }
                    throw AttributeValueError("\"\(text)\" is not an exact decimal number such as \"12.50\"")
                }
                self = .decimal(value)
            default: throw mismatch()
            }
        case .date:
            guard case .string(let text) = json else { throw mismatch() }
            do {
                self = .date(try Timestamp(parsingISO8601: text))
            } catch {
                throw AttributeValueError("\"\(text)\" is not an ISO 8601 date: \(error.message)")
            }
        case .data:
            guard case .string(let text) = json else { throw mismatch() }
            guard let data = Data(base64Encoded: text) else {
                throw AttributeValueError("\"\(text.prefix(40))\" is not base64 data")
            }
            self = .data(data)
        case .uuid:
            guard case .string(let text) = json else { throw mismatch() }
            guard let uuid = UUID(uuidString: text) else {
                throw AttributeValueError("\"\(text)\" is not a UUID such as \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\"")
            }
            self = .uuid(uuid)
        case .url:
            guard case .string(let text) = json else { throw mismatch() }
            guard !text.isEmpty, let url = URL(string: text) else { throw AttributeValueError("\"\(text)\" is not a URL") }
            self = .url(url)
        case .json:
            self = .json(json)
        }
    }

    /// Reads a value of `type` as templates and dictionaries write it: as ``init(json:as:)`` does, but a date in
    /// `dateFormat` (``AttributeDescription/dateFormat``).
    ///
    ///     try AttributeValue(json: 1714555800, as: .date, dateFormat: .secondsSince1970)   // 2024-05-01T09:30:00Z
    ///
    /// - Throws: ``AttributeValueError`` saying what was expected and what was found.
    package init(
        json: JSON, as type: AttributeType, dateFormat: AttributeDescription.DateFormat
    ) throws(AttributeValueError) {
        guard dateFormat != .iso8601, type == .date else {
            try self.init(json: json, as: type)
            return
        }
        guard case .number(let number) = json else {
            throw AttributeValueError(
                "expected \(Self.jsonExpectation(for: type, dateFormat: dateFormat)), got \(json.kindDescription)")
        }
        self = .date(try Timestamp(epoch: number, format: dateFormat))
    }

    /// Reads a value of `type` from the ``JSONTape``'s `entry` as ``init(json:as:dateFormat:)`` reads the value there,
    /// without making that value: nil where the entry is not a string, number or boolean that `type` takes as it is
    /// written, for that reader to decide (and say what is wrong).
    ///
    /// The attributes of a template are read this way: a date is read from the text, and no ``JSON`` is made and
    /// taken apart for a value.
    package init?(tape: JSONTape, entry: Int, as type: AttributeType, dateFormat: AttributeDescription.DateFormat) {
        switch (type, tape.kind(of: entry)) {
        case (.string, .string):
            self = .string(tape.string(at: entry))
        case (.integer, .number):
            guard let value = tape.number(at: entry).int64Value else { return nil }
            self = .integer(value)
        case (.double, .number):
            let value = tape.number(at: entry).doubleValue
            guard value.isFinite else { return nil }
            self = .double(value)
        case (.bool, .bool):
            self = .bool(tape.bool(at: entry))
        case (.date, .string) where dateFormat == .iso8601:
            guard let timestamp = tape.withUTF8(ofStringAt: entry, { try? Timestamp(parsingISO8601UTF8: $0) }), let timestamp else {
                return nil
            }
            self = .date(timestamp)
        case (.decimal, .number):
            guard let value = tape.number(at: entry).decimalValue else { return nil }
            self = .decimal(ScaledDecimal(value))
        default:
            return nil
        }
    }

    /// The value as templates and dictionaries write it in `dateFormat`: ``json``, but a date as a number of seconds
    /// or milliseconds when the format says so.
    package func json(dateFormat: AttributeDescription.DateFormat) -> JSON {
        guard dateFormat != .iso8601, case .date(let timestamp) = self else { return json }
        return .number(timestamp.epochNumber(format: dateFormat))
    }

    /// What the JSON form of a type's values looks like in a date format, for error messages.
    package static func jsonExpectation(for type: AttributeType, dateFormat: AttributeDescription.DateFormat) -> String {
        switch type == .date ? dateFormat : .iso8601 {
        case .iso8601: jsonExpectation(for: type)
        case .secondsSince1970: "a number of seconds since 1970 such as 1714555800 (dateFormat secondsSince1970)"
        case .millisecondsSince1970:
            "a number of milliseconds since 1970 such as 1714555800000 (dateFormat millisecondsSince1970)"
        }
    }

    /// What the JSON form of a type looks like, for error messages.
    package static func jsonExpectation(for type: AttributeType) -> String {
        switch type {
        case .string: "a string"
        case .integer: "an integer"
        case .double: "a number"
        case .bool: "true or false"
        case .decimal: "a decimal number"
        case .date: "an ISO 8601 date string such as \"2024-05-01T09:30:00Z\""
        case .data: "a base64 string"
        case .uuid: "a UUID string"
        case .url: "a URL string"
        case .json: "any JSON value"
        }
    }
}

/// Why a JSON value is not a value of an attribute type.
package struct AttributeValueError: Error, Sendable, Hashable, CustomStringConvertible {
    package var message: String
    /// Whether the value is a number of the right kind that the type cannot hold, rather than a value of another kind.
    package var isOutOfRange: Bool
    package init(_ message: String, isOutOfRange: Bool = false) {
        self.message = message
        self.isOutOfRange = isOutOfRange
    }
    package var description: String { message }
}
