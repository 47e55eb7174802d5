import Foundation
import Testing
import SeedKit

@Suite("Decimal: what Foundation does on this platform")
struct FoundationDecimalTests {
    /// 2^64, built from integers only.
    private static let twoTo64 = Decimal(UInt64.max) + 1

    @Test(
        "Decimal(string:locale: nil) reads these exactly",
        arguments: [
            ("0.1", Decimal(sign: .plus, exponent: -1, significand: 1)),
            (
                "12345678901234567890.123",
                Decimal(sign: .plus, exponent: -3, significand: Decimal(12_345_678_901_234_567_890 as UInt64) * 1_000 + 123)
            ),
            ("-0.000001", Decimal(sign: .minus, exponent: -6, significand: 1)),
            ("1e-7", Decimal(sign: .plus, exponent: -7, significand: 1)),
            // 2^96 - 1: 29 digits.
            ("79228162514264337593543950335", (twoTo64 * Decimal(UInt32.max)) + Decimal(UInt64.max)),
            // 38 nines: 10^38 - 1, the largest 38-digit mantissa.
            (
                "99999999999999999999999999999999999999",
                Decimal(sign: .plus, exponent: 38, significand: 1) - 1
            ),
        ])
    func exactParse(text: String, value: Decimal) throws {
        let parsed = try #require(Decimal(string: text, locale: nil))
        #expect(parsed == value)
        #expect(parsed.exponent == value.exponent)
        #expect(parsed.significand == value.significand)
    }

    @Test(
        "description gives back exactly the digits",
        arguments: [
            ("0.1", "0.1"),
            ("12345678901234567890.123", "12345678901234567890.123"),
            ("-0.000001", "-0.000001"),
            ("1e-7", "0.0000001"),
            ("79228162514264337593543950335", "79228162514264337593543950335"),
            ("99999999999999999999999999999999999999", "99999999999999999999999999999999999999"),
        ])
    func exactDescription(text: String, description: String) throws {
        #expect(try #require(Decimal(string: text, locale: nil)).description == description)
    }

    @Test("Decimal(string:) alone is not strict: it reads a prefix and drops digits past its precision")
    func looseParsing() throws {
        #expect(Decimal(string: "1.5abc", locale: nil) == Decimal(sign: .plus, exponent: -1, significand: 15))
        // 39 nines do not fit: the last one is dropped without a word.
        let nines = String(repeating: "9", count: 39)
        let parsed = try #require(Decimal(string: nines, locale: nil))
        #expect(parsed.description != nines)
        #expect(Decimal(exactly: nines) == nil)
    }

    @Test("Arithmetic results keep no trailing zeros, so their description and own scale stay canonical")
    func normalizedArithmetic() throws {
        let a = try #require(Decimal(exactly: "1.25"))
        let b = try #require(Decimal(exactly: "0.25"))
        func text(_ value: Decimal) -> String { ScaledDecimal(value).description }
        #expect(text(a + b) == "1.5")
        #expect(text(a - a) == "0")
        #expect(text(-(a - a)) == "0")
        #expect(text(try #require(Decimal(exactly: "0.1")) * 3) == "0.3")
        #expect(text(try #require(Decimal(exactly: "2.50")) * 4) == "10")
        #expect(ScaledDecimal(try #require(Decimal(exactly: "2.50")) * 4).scale == 0)
        // Built from parts with trailing zeros in the mantissa, a decimal still has its own scale.
        #expect(ScaledDecimal(Decimal(sign: .plus, exponent: -2, significand: 1500)).description == "15")
    }
}

@Suite("Decimal: exact text")
struct DecimalExactTextTests {
    @Test(
        "Valid JSON numbers read exactly and write canonically",
        arguments: [
            ("0", "0"),
            ("-0", "0"),
            ("0.000", "0"),
            ("-0.0e5", "0"),
            ("0e99999999999999999999", "0"),
            ("0.1", "0.1"),
            ("1.50", "1.5"),
            ("100", "100"),
            ("-42", "-42"),
            ("1E+3", "1000"),
            ("2.5e3", "2500"),
            ("25e-1", "2.5"),
            ("-1e-6", "-0.000001"),
            ("-0.000001", "-0.000001"),
            ("1e-7", "0.0000001"),
            ("12345678901234567890.123", "12345678901234567890.123"),
            ("79228162514264337593543950335", "79228162514264337593543950335"),
            ("99999999999999999999999999999999999999", "99999999999999999999999999999999999999"),
            ("-9999999999999999999999999999999999999.9", "-9999999999999999999999999999999999999.9"),
            ("0.00000000000000000000000000000000000001", "0.00000000000000000000000000000000000001"),
            ("1000000000000000000000000000000000000000000", "1000000000000000000000000000000000000000000"),
            ("1e127", "1" + String(repeating: "0", count: 127)),
            // Past the largest power of ten, trailing zeros move into the mantissa: 10 × 10^127.
            ("1e128", "1" + String(repeating: "0", count: 128)),
            ("1e164", "1" + String(repeating: "0", count: 164)),
            // 39 significant digits fit below 2^128, padding included.
            ("340282366920938463463374607431768211455", "340282366920938463463374607431768211455"),
            ("1234567890123456789012345678901234567.89", "1234567890123456789012345678901234567.89"),
            ("1e165", "1" + String(repeating: "0", count: 165)),
            ("12345678901234567890123456789012345678e128", "12345678901234567890123456789012345678" + String(repeating: "0", count: 128)),
            ("1e-128", "0." + String(repeating: "0", count: 127) + "1"),
            (
                "12345678901234567890123456789012345678e-128",
                "0." + String(repeating: "0", count: 90) + "12345678901234567890123456789012345678"
            ),
        ])
    func valid(text: String, exactText: String) throws {
        let value = try #require(Decimal(exactly: text))
        #expect(ScaledDecimal(value).description == exactText)
        #expect(Decimal(exactly: exactText) == value)
    }

    @Test(
        "Texts that are not JSON numbers are rejected",
        arguments: [
            "", "-", "+1", "01", "-01", "00.5", "1.", ".5", "-.5", "1e", "1e+", "1e-", " 1", "1 ", "1.5abc", "0x10",
            "NaN", "Infinity", "1,5", "--1", "1e5.5", "1..2", "١",
        ])
    func notJSON(text: String) {
        #expect(Decimal(exactly: text) == nil)
    }

    @Test(
        "Values a Decimal cannot hold exactly are rejected, not rounded",
        arguments: [
            String(repeating: "9", count: 39),  // 39 significant digits above 2^128
            "340282366920938463463374607431768211456",  // 2^128
            "0.1000000000000000000000000000000000000001",  // 40 significant digits
            "1e-129",  // power of ten below -128
            "123e-130",
            "4e165",  // 4 and 38 zeros at 10^127: above 2^128
            "99999999999999999999999999999999999999e128",
            "1e166",  // 40 digits at 10^127
            "1e99999999999999999999",
            "-1e-99999999999999999999",
        ])
    func notExact(text: String) {
        #expect(Decimal(exactly: text) == nil)
    }

    @Test("Substrings read like strings")
    func substring() {
        let text = "[12.5]".dropFirst().dropLast()
        #expect(Decimal(exactly: text) == Decimal(sign: .plus, exponent: -1, significand: 125))
    }

    @Test("NaN has no digits")
    func nan() {
        #expect(ScaledDecimal(Decimal.nan).description == "NaN")
    }

    @Test("Random decimals of up to 38 digits round-trip through exact text, over many random ones")
    func randomRoundTrip() throws {
        var generator = SplitMix64(seed: 0x5EED_0D0C)
        for _ in 0..<5_000 {
            // Significant digits with no leading or trailing zero, and a power of ten a Decimal holds.
            let digitCount = Int.random(in: 1...38, using: &generator)
            var digits = (0..<digitCount).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) }
            digits[0] = Character(String(Int.random(in: 1...9, using: &generator)))
            digits[digitCount - 1] = Character(String(Int.random(in: 1...9, using: &generator)))
            let exponent = Int.random(in: -128...127, using: &generator)
            let isNegative = Bool.random(using: &generator)

            let scientific = (isNegative ? "-" : "") + String(digits) + "e\(exponent)"
            let expected = (isNegative ? "-" : "") + plainText(digits: String(digits), exponent: exponent)
            let value = try #require(Decimal(exactly: scientific), "\(scientific)")
            #expect(ScaledDecimal(value).description == expected, "\(scientific)")
            #expect(Decimal(exactly: expected) == value, "\(expected)")
        }
    }

    /// Digits times 10^exponent written out plainly, computed apart from the code under test.
    private func plainText(digits: String, exponent: Int) -> String {
        if exponent >= 0 { return digits + String(repeating: "0", count: exponent) }
        let fractionCount = -exponent
        if fractionCount < digits.count {
            return String(digits.dropLast(fractionCount)) + "." + String(digits.suffix(fractionCount))
        }
        return "0." + String(repeating: "0", count: fractionCount - digits.count) + digits
    }
}
