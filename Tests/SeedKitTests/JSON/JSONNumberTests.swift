import Foundation
import Testing
import SeedKit
@testable import SeedKitJSON

@Suite("JSON numbers")
struct JSONNumberTests {
    private func read(_ text: String) throws -> JSONNumber {
        try #require(try JSONDocument(parsing: text).value.numberValue)
    }

    private func storageKind(_ number: JSONNumber) -> String {
        switch number.storage {
        case .integer: "integer"
        case .double: "double"
        case .decimal: "decimal"
        }
    }

    @Test func readsIntegersThatFit64BitsAsIntegers() throws {
        #expect(try read("0").storage.integer == 0)
        #expect(try read("-0").storage.integer == 0)
        #expect(try read("9223372036854775807").storage.integer == Int64.max)
        #expect(try read("-9223372036854775808").storage.integer == Int64.min)
        #expect(try read("1234567890123456789").storage.integer == 1_234_567_890_123_456_789)
        #expect(try storageKind(read("9223372036854775808")) == "decimal")
        #expect(try storageKind(read("-9223372036854775809")) == "decimal")
    }

    @Test func readsDigitRunsOfEveryLengthExactly() throws {
        // Digits are read as they are scanned and again only for long numbers: runs of every length up to 21
        // digits, in the integer part, the fraction and both, with something after them in the text.
        let digits = Array("987654321098765432101")
        for length in 1...digits.count {
            let run = String(digits[..<length])
            for text in [run, "-\(run)", "0.\(run)", "\(run).5", "4.\(run)e-3", "\(run)e2"] {
                let expected = JSONNumber(try #require(Decimal(string: text, locale: nil)))
                let json = try JSONDocument(parsing: "[\(text),\(text)1 ]").value
                #expect(json.arrayValue?.first?.numberValue == expected, "\(text)")
                let longer = JSONNumber(try #require(Decimal(string: text + "1", locale: nil)))
                #expect(json.arrayValue?.last?.numberValue == longer, "\(text)1")
            }
        }
        // The bytes next to the digits ('/' and ':') are not taken for digits anywhere in a run, and a '.' anywhere
        // in one ends the integer part there.
        for position in 0..<8 {
            for byte: Character in ["/", ":"] {
                var text = Array("12345678")
                text[position] = byte
                #expect(throws: JSONSyntaxError.self) { try JSONDocument(parsing: String(text)) }
            }
            var text = Array("123456789")
            text[position] = "."
            if position == 0 {
                #expect(throws: JSONSyntaxError.self) { try JSONDocument(parsing: String(text)) }
            } else {
                let expected = JSONNumber(try #require(Decimal(string: String(text), locale: nil)))
                #expect(try read(String(text)) == expected, "\(String(text))")
            }
        }
    }

    @Test func readsOtherNumbersExactly() throws {
        #expect(try read("0.1").storage.double == 0.1)
        #expect(try read("-2.5e-3").storage.double == -0.0025)
        #expect(try read("1.0").storage.double == 1.0)
        #expect(try read("1E2").storage.double == 100)
        #expect(try read("0.30000000000000004").storage.double == 0.1 + 0.2)
        #expect(try read("1e300").storage.double == 1e300)
        #expect(try read("-0.0").storage.double.map { $0 == 0 && $0.sign == .minus } == true)
        let big = try read("18446744073709551616")
        #expect(storageKind(big) == "decimal")
        #expect(big.decimalValue == Decimal(string: "18446744073709551616"))
        let precise = try read("12345678901234567890.123")
        #expect(storageKind(precise) == "decimal")
        #expect(precise.description == "12345678901234567890.123")
        // Seventeen digits that are not a double's shortest form stay exact as a decimal.
        let seventeen = try read("0.10000000000000001")
        #expect(storageKind(seventeen) == "decimal")
        #expect(seventeen != JSONNumber(0.1))
    }

    /// Found by the JSON Patch fuzz target's campaign: a decimal of a large exponent wrote itself in a form the reader
    /// refused ("number out of range"), so a patch holding it could not be read back.
    @Test func aDecimalOfALargeExponentReadsBackFromItsOwnText() throws {
        let digits = "22222222222222222" + String(repeating: "0", count: 139)
        let number = try read(digits)
        #expect(storageKind(number) == "decimal")
        let written = try JSONDocument(parsing: digits).value.serialized()
        #expect(String(decoding: written, as: UTF8.self) == "2.2222222222222222e+155")
        #expect(try read(String(decoding: written, as: UTF8.self)) == number)
        #expect(try read("-2.2222222222222222E155") == JSONNumber(-number.decimalValue!))
        // The largest: a 39-digit significand at exponent 127 (found by CI's patch fuzz run).
        let largest = try read("22222222222222222" + String(repeating: "0", count: 149))
        let largestText = String(decoding: JSON.number(largest).serialized(), as: UTF8.self)
        #expect(largestText == "2.2222222222222222e+165")
        #expect(try read(largestText) == largest)
        // Found by CI's json fuzz run: exponents at the ends of Int's range are out of range, not an overflow.
        for text in ["1e-9223372036854775808", "1.5e9223372036854775807", "12345678901234567890123e-9223372036854775808"] {
            #expect(throws: JSONSyntaxError.self) { try JSONDocument(parsing: text) }
        }
    }

    /// Three round-trip bugs were found by fuzzing one exponent at a time; this walks them all. Every significand
    /// length a decimal holds, at every exponent it holds, both signs: the written text reads back as the same value,
    /// and writing that again gives the same bytes.
    @Test func everyDecimalReadsBackFromItsWrittenText() throws {
        var state: UInt64 = 5
        func digit() -> Character {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Character(String((state >> 33) % 10))
        }
        var checked = 0
        for length in 1...38 {
            for exponent in -128...127 {
                let first = Character(String(1 + Int(String(digit()))! % 9))
                let digits = String(first) + String((1..<length).map { _ in digit() })
                for sign in ["", "-"] {
                    // Foundation rounds what it cannot hold; whatever it holds must come back.
                    let decimal = try #require(Decimal(string: "\(sign)\(digits)e\(exponent)", locale: nil))
                    guard !decimal.isNaN else { continue }
                    let written = String(decoding: JSON.number(JSONNumber(decimal)).serialized(), as: UTF8.self)
                    let read = try self.read(written)
                    #expect(read.decimalValue == decimal, "\(sign)\(digits)e\(exponent) wrote \(written)")
                    #expect(read == JSONNumber(decimal), "\(written)")
                    #expect(String(decoding: JSON.number(read).serialized(), as: UTF8.self) == written, "\(written)")
                    checked += 1
                }
            }
        }
        #expect(checked > 15_000)
    }

    @Test func readsEveryDoublesShortestTextAsThatDouble() throws {
        var state: UInt64 = 11
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Random bits over a wide range of magnitudes, and random fractions of full precision.
            for value in [Double(bitPattern: 0x3000_0000_0000_0000 + (state >> 8) % 0x2000_0000_0000_0000),
                Double(state >> 11) * 0x1p-53]
            {
                #expect(try read(value.description).storage.double == value, "\(value)")
                #expect(try read((-value).description).storage.double == -value, "\(-value)")
            }
        }
    }

    @Test func readsSixteenAndSeventeenDigitsAsADoubleOnlyWhenTheyAreItsShortestText() throws {
        // Random digits are the nearest double's shortest text only sometimes: both outcomes are common here.
        var state: UInt64 = 23
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        var doubles = 0
        var decimals = 0
        for _ in 0..<30_000 {
            let lowest: UInt64 = next() % 2 == 0 ? 1_000_000_000_000_000 : 10_000_000_000_000_000
            let significand = lowest + next() % (9 * lowest)
            let scale = -Int(next() % 23)
            let digits = String(significand)
            // The same value in exponent form and as plain digits with a point.
            let point = digits.count + scale
            let plain =
                point > 0
                ? String(digits.prefix(point)) + "." + digits.dropFirst(point) + "0"
                : "0." + String(repeating: "0", count: -point) + digits
            for text in ["\(digits)e\(scale)", plain] {
                let number = try read(text)
                let nearest = try #require(Double(text))
                if Decimal(string: nearest.description, locale: nil) == Decimal(string: text, locale: nil) {
                    #expect(number.storage.double == nearest, "\(text)")
                    doubles += 1
                } else {
                    #expect(storageKind(number) == "decimal", "\(text)")
                    #expect(number.decimalValue == Decimal(string: text, locale: nil), "\(text)")
                    decimals += 1
                }
            }
        }
        #expect(doubles > 10_000 && decimals > 10_000)
    }

    @Test func rejectsNumbersNoStorageHolds() {
        for (text, message) in [
            ("1e400", "1:2: number out of range"), ("-1e400", "1:2: number out of range"),
            ("1e-400", "1:2: number out of range"),
            (
                "3.14159265358979323846264338327950288419716939937510",
                "1:2: number has 50 significant digits; none holds more than 38 exactly (39 below 2^128)"
            ),
        ] {
            #expect(throws: JSONSyntaxError.self) { try JSONDocument(parsing: "[\(text)]") }
            do {
                _ = try JSONDocument(parsing: "[\(text)]")
            } catch {
                #expect(error.description == message)
            }
        }
    }

    @Test func comparesNumericallyAcrossStorages() {
        #expect(JSONNumber(1) == JSONNumber(1.0))
        #expect(JSONNumber(0.1) == JSONNumber(Decimal(string: "0.1")!))
        #expect(JSONNumber(Decimal(5)) == JSONNumber(5))
        #expect(JSONNumber(Decimal(string: "1e20")!) == JSONNumber(1e20))
        #expect(JSONNumber(0) == JSONNumber(-0.0))
        #expect(JSONNumber(1) != JSONNumber(1.5))
        #expect(JSONNumber(Int64.max) != JSONNumber(Double(Int64.max)))
        #expect(JSONNumber(Decimal(string: "0.5")!) != JSONNumber(Decimal(string: "0.25")!))
    }

    @Test func equalNumbersHashAlike() {
        let groups: [[JSONNumber]] = [
            [JSONNumber(1), JSONNumber(1.0), JSONNumber(Decimal(1))],
            [JSONNumber(0.1), JSONNumber(Decimal(string: "0.1")!), JSONNumber("0.1")!, JSONNumber("1e-1")!],
            [JSONNumber(0), JSONNumber(-0.0), JSONNumber(Decimal(0))],
            [JSONNumber(1e20), JSONNumber(Decimal(string: "100000000000000000000")!)],
            [JSONNumber(-2.5), JSONNumber(Decimal(string: "-2.50")!)],
        ]
        for group in groups {
            for number in group {
                #expect(number == group[0])
                #expect(number.hashValue == group[0].hashValue)
            }
        }
        #expect(Set(groups.joined()).count == groups.count)
    }

    @Test func convertsBetweenForms() {
        #expect(JSONNumber(3.0).int64Value == 3)
        #expect(JSONNumber(3.5).int64Value == nil)
        #expect(JSONNumber(1e19).int64Value == nil)
        #expect(JSONNumber(Decimal(string: "42")!).int64Value == 42)
        #expect(JSONNumber(Decimal(string: "-9223372036854775808")!).int64Value == Int64.min)
        #expect(JSONNumber(Decimal(string: "9223372036854775808")!).int64Value == nil)
        #expect(JSONNumber(Decimal(string: "4.2")!).int64Value == nil)
        #expect(JSONNumber(0.1).decimalValue == Decimal(string: "0.1"))
        #expect(JSONNumber(1e300).decimalValue == nil)
        #expect(JSONNumber(Decimal(string: "12345678901234567890.123")!).doubleValue == 12345678901234567890.123)
        #expect(JSONNumber(Int64.min).doubleValue == -9.223372036854775808e18)
    }

    /// A double stands for its shortest digits: integers past 2^53 written with a fraction or an exponent are the
    /// integers of their digits, not of the double's binary value (77777770007170704).
    @Test func integersComeFromTheDigitsTheyWereWrittenWith() throws {
        for text in ["77777770007170700.0", "7.77777700071707e16", "777777700071707e2", "-77777770007170700.0"] {
            let number = try read(text)
            let expected: Int64 = text.hasPrefix("-") ? -77_777_770_007_170_700 : 77_777_770_007_170_700
            #expect(number.int64Value == expected, "\(text)")
            #expect(number == JSONNumber(expected), "\(text)")
            #expect(number.hashValue == JSONNumber(expected).hashValue, "\(text)")
            // Read, written and read again: the same number.
            let written = JSON.number(number).text(style: .canonical)
            #expect(try read(written) == number, "\(text) → \(written)")
            #expect(try read(JSON.number(number).text(style: .compact)) == number, "\(text)")
        }
        #expect(try read("77777770007170700.0") != JSONNumber(77_777_770_007_170_704 as Int64))
        #expect(try read("77777770007170704.0").int64Value == 77_777_770_007_170_704)
        #expect(JSONNumber(9.223372036854775e18).int64Value == 9_223_372_036_854_775_000)
        #expect(JSONNumber(9.223372036854776e18).int64Value == nil, "2^63 is past Int64.max")
        #expect(JSONNumber(-9.223372036854776e18).int64Value == nil, "its digits are below Int64.min")
        #expect(JSONNumber(1.5e300).int64Value == nil)
    }

    @Test func rejectsNonFiniteDoubles() {
        #expect(JSONNumber(exactly: .nan) == nil)
        #expect(JSONNumber(exactly: .infinity) == nil)
        #expect(JSONNumber(exactly: 2.5) == JSONNumber(2.5))
    }

    @Test func readsNumberText() {
        #expect(JSONNumber("-12") == JSONNumber(-12))
        #expect(JSONNumber("2.50") == JSONNumber(2.5))
        #expect(JSONNumber("1e400") == nil)
        #expect(JSONNumber("01") == nil)
        #expect(JSONNumber("1 ") == nil)
        #expect(JSONNumber("") == nil)
    }

    /// Integers are written with the digits `String` gives them, at every length and sign.
    @Test func writesIntegersWithTheirDecimalDigits() {
        var values: [Int64] = [0, 9, 10, 99, 100, 101, Int64.max, Int64.min, Int64.min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power, 1 - power]
        }
        values += (0..<2_000).map { _ in Int64.random(in: .min ... .max) >> Int64.random(in: 0..<63) }
        for value in values {
            var bytes: [UInt8] = []
            NumberText.appendInteger(value, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == String(value))
        }
    }

    @Test func describesNumbersCanonically() {
        let cases: [(JSONNumber, String)] = [
            (JSONNumber(0), "0"), (JSONNumber(-0.0), "0"), (JSONNumber(1.0), "1"), (JSONNumber(-17), "-17"),
            (JSONNumber(Int64.min), "-9223372036854775808"), (JSONNumber(0.1), "0.1"), (JSONNumber(1.5e-6), "0.0000015"),
            (JSONNumber(1e-7), "1e-7"), (JSONNumber(123.456), "123.456"), (JSONNumber(1e20), "100000000000000000000"),
            (JSONNumber(1e21), "1e+21"), (JSONNumber(-1.7976931348623157e308), "-1.7976931348623157e+308"),
            (JSONNumber(Double.leastNonzeroMagnitude), "5e-324"), (JSONNumber(0.1 + 0.2), "0.30000000000000004"),
            (JSONNumber(Decimal(string: "100")!), "100"), (JSONNumber(Decimal(string: "-0.00120")!), "-0.0012"),
            (JSONNumber(Decimal(string: "1e30")!), "1e+30"),
        ]
        for (number, text) in cases {
            #expect(number.description == text)
            // Every canonical text reads back as an equal number.
            #expect(JSONNumber(text) == number, "\(text)")
        }
    }

    @Test func describesDoublesByTheirShortestDigits() {
        // Short decimals are formatted without `Double.description`: the text must be the same as through it.
        func textThroughDescription(_ value: Double) -> String {
            var text = value.description
            var bytes: [UInt8] = []
            text.withUTF8 { NumberText.appendCanonical(text: $0, to: &bytes) }
            return String(decoding: bytes, as: UTF8.self)
        }
        var values: [Double] = [
            0.1, 0.2, 0.3, 0.1 + 0.2, 1e-7, 1.0000001e-7, 9.999999e-8, 0.000001, 0.00001234, 999_999_999_999_999.9,
            99_999_999_999_999.9, 123_456_789_012_345.6, 12_345_678_901_234.56, 1e15 - 0.5, 0.5, 2.5, 1.1, 9.95,
            0.09999999999999999, 0.9999999999999999, 1.0000000000000002, 4.35, 1.005, 1234.5678, -0.001, -12.345678,
        ]
        var state: UInt64 = 7
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let scale = [1.0, 10, 100, 1000, 1e6, 1e7, 1e9, 1e12][Int(state >> 61)]
            // A short decimal over a power of ten, and a double with random bits in the same range.
            values.append(Double(Int64(truncatingIfNeeded: state >> 20) % 100_000_000) / scale)
            values.append(Double(bitPattern: 0x3E70_0000_0000_0000 + (state >> 16) % 0x0A80_0000_0000_0000))
        }
        for value in values where value.isFinite {
            #expect(JSONNumber(value).description == textThroughDescription(value), "\(value)")
        }
    }
}

extension JSONNumber.Storage {
    fileprivate var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    fileprivate var double: Double? {
        if case .double(let value) = self { return value }
        return nil
    }
}
