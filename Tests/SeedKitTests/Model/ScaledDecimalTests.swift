import Foundation
import Testing
import SeedKit

@Suite("ScaledDecimal: a decimal and its scale")
struct ScaledDecimalTests {
    @Test(
        "Texts read with the digits they have after the point, as PostgreSQL's numeric reads them",
        arguments: [
            ("1250000.00", "1250000.00", 2),
            ("0.10", "0.10", 2),
            ("-12.500", "-12.500", 3),
            ("1.50e1", "15.0", 1),
            ("1.5e3", "1500", 0),
            ("150E-2", "1.50", 2),
            ("-0.00", "0.00", 2),
            ("0", "0", 0),
            ("100", "100", 0),
            ("1e-7", "0.0000001", 7),
            ("1.0e-7", "0.00000010", 8),
            ("0e99999999999999999999", "0", 0),
        ])
    func reading(text: String, description: String, scale: Int) throws {
        let value = try #require(ScaledDecimal(exactly: text))
        #expect(value.description == description)
        #expect(value.scale == scale)
        #expect(value.value == Decimal(exactly: text))
        #expect(ScaledDecimal(exactly: description) == value)
    }

    @Test("The same number at another scale is another value; the same text is the same value")
    func equality() throws {
        let one = try #require(ScaledDecimal(exactly: "1.5"))
        let two = try #require(ScaledDecimal(exactly: "1.50"))
        #expect(one != two)
        #expect(one.value == two.value)
        #expect(try #require(ScaledDecimal(exactly: "150e-2")) == two)
        #expect(Set([one, two, try #require(ScaledDecimal(exactly: "1.500e0"))]).count == 3)
        // A Decimal has its own scale only: Foundation drops the zeros before a scaled decimal sees them.
        #expect(ScaledDecimal(try #require(Decimal(string: "1.50"))) == one)
    }

    @Test("A scale is given only when it does not round the value and is at most the maximum")
    func givenScale() throws {
        #expect(ScaledDecimal(Decimal(12), scale: 2)?.description == "12.00")
        #expect(ScaledDecimal(Decimal(12), scale: 0)?.description == "12")
        #expect(ScaledDecimal(try #require(Decimal(exactly: "1.25")), scale: 2)?.description == "1.25")
        #expect(ScaledDecimal(try #require(Decimal(exactly: "1.25")), scale: 1) == nil)
        #expect(ScaledDecimal(Decimal(1), scale: -1) == nil)
        #expect(ScaledDecimal(Decimal(1), scale: ScaledDecimal.maximumScale)?.description
            == "1." + String(repeating: "0", count: 128))
        #expect(ScaledDecimal(Decimal(1), scale: ScaledDecimal.maximumScale + 1) == nil)
        #expect(ScaledDecimal(Decimal.nan, scale: 0) == nil)
    }

    @Test("A text with more digits after the point than the maximum scale is rejected, not cut")
    func scaleLimit() throws {
        let most = "0." + String(repeating: "0", count: 127) + "1"
        #expect(ScaledDecimal(exactly: most)?.scale == 128)
        #expect(ScaledDecimal(exactly: most + "0") == nil)
        #expect(ScaledDecimal(exactly: "0." + String(repeating: "0", count: 129)) == nil)
        #expect(ScaledDecimal(exactly: "0e-129") == nil)
        // The number alone is fine: only its scale is too large.
        #expect(Decimal(exactly: most + "0") != nil)
    }

    @Test("Texts that are not JSON numbers, or numbers a Decimal cannot hold, are rejected",
        arguments: ["", "1.", ".5", "1,5", "NaN", " 1", "1.5abc", String(repeating: "9", count: 39), "1e-129"])
    func rejected(text: String) {
        #expect(ScaledDecimal(exactly: text) == nil)
    }

    @Test("A decimal's JSON form is a number unless its scale needs trailing zeros, then a string; both read back")
    func jsonForm() throws {
        let scaled = AttributeValue.decimal(try #require(ScaledDecimal(exactly: "1250000.00")))
        #expect(scaled.json == .string("1250000.00"))
        #expect(try AttributeValue(json: scaled.json, as: .decimal) == scaled)
        let plain = AttributeValue.decimal(try #require(ScaledDecimal(exactly: "0.5")))
        #expect(plain.json == .number(JSONNumber(try #require(Decimal(exactly: "0.5")))))
        #expect(try AttributeValue(json: plain.json, as: .decimal) == plain)
        // A JSON number stands for its value: 0.50 is the number 0.5, whose own scale is 1.
        #expect(try AttributeValue(json: JSONDocument(parsing: "0.50").value, as: .decimal) == plain)
        #expect(throws: AttributeValueError.self) {
            try AttributeValue(json: .string("1." + String(repeating: "0", count: 129)), as: .decimal)
        }
        // Read as a double (it is one's shortest text), 6.1e129 is still a decimal: 61 and 127 zeros at 10^1.
        #expect(try AttributeValue(json: JSONDocument(parsing: "6.1e129").value, as: .decimal).json.serialized()
            == Array("6.1e+129".utf8))
        #expect(throws: AttributeValueError(
            "1e+300 cannot be held exactly by a decimal (38 significant digits times 10^-128 to 10^127)",
            isOutOfRange: true)
        ) {
            try AttributeValue(json: JSONDocument(parsing: "1e300").value, as: .decimal)
        }
    }

    @Test("Random decimals with trailing zeros read back from their text, over many random ones")
    func randomRoundTrip() throws {
        var generator = SplitMix64(seed: 0x5CA1ED)
        for _ in 0..<5_000 {
            let digitCount = Int.random(in: 1...38, using: &generator)
            var digits = (0..<digitCount).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) }
            digits[0] = Character(String(Int.random(in: 1...9, using: &generator)))
            // The value is digits × 10^-fraction, written with `zeros` more zeros after its last digit.
            let fraction = Int.random(in: 0...60, using: &generator)
            let zeros = Int.random(in: 0...(ScaledDecimal.maximumScale - fraction), using: &generator)
            let sign = Bool.random(using: &generator) ? "-" : ""
            let text = String(digits) + String(repeating: "0", count: zeros)
            let scale = fraction + zeros
            let plain = scale < text.count
                ? String(text.dropLast(scale)) + (scale > 0 ? "." + String(text.suffix(scale)) : "")
                : "0." + String(repeating: "0", count: scale - text.count) + text
            let written = sign + plain
            let value = try #require(ScaledDecimal(exactly: written), "\(written)")
            #expect(value.scale == scale, "\(written)")
            #expect(value.description == written, "\(written)")
            #expect(ScaledDecimal(exactly: sign + text + "e-\(scale)") == value, "\(written)")
        }
    }
}
