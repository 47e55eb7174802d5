/// PostgreSQL's binary form of `numeric`, converted to and from decimal text without ever going through a
/// floating-point number.
///
/// The binary form is four 16-bit fields — digit count, weight (the power of 10000 of the first digit), sign, display
/// scale (digits after the point) — then the digits in base 10000, most significant first.
enum PostgreSQLNumeric {
    private static let positive: UInt16 = 0x0000
    private static let negative: UInt16 = 0x4000
    private static let notANumber: UInt16 = 0xC000
    private static let positiveInfinity: UInt16 = 0xD000
    private static let negativeInfinity: UInt16 = 0xF000

    /// Appends the binary form of decimal `text` (`-12.50`, `1.5E+3`, `NaN`, `Infinity`) to `bytes`: the display scale
    /// is the number of digits after the point, as PostgreSQL reads the text, so `12.50` stays `12.50`.
    ///
    /// - Returns: false, leaving `bytes` as it was, when `text` is not a decimal number.
    /// - Complexity: O(*n*) in the length of `text`.
    static func append(text: some StringProtocol, to bytes: inout [UInt8]) -> Bool {
        var sign = positive
        var digits: [UInt8] = []
        var pointPosition: Int?
        var exponentText: [UInt8]?
        for (offset, byte) in text.utf8.enumerated() {
            if exponentText != nil {
                exponentText?.append(byte)
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits.append(byte - UInt8(ascii: "0"))
            } else if byte == UInt8(ascii: ".") && pointPosition == nil {
                pointPosition = digits.count
            } else if (byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")) && !digits.isEmpty {
                exponentText = []
            } else if offset == 0 && (byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")) {
                sign = byte == UInt8(ascii: "-") ? negative : positive
            } else {
                return appendSpecialValue(text, to: &bytes)
            }
        }
        var exponent = 0
        if let exponentText {
            guard let value = Int(String(decoding: exponentText, as: UTF8.self)), value.magnitude < 100_000 else {
                return false
            }
            exponent = value
        }
        guard !digits.isEmpty else { return false }
        // Digit `index` stands for 10^(point - 1 - index); group g of the binary form for 10000^g.
        let point = (pointPosition ?? digits.count) + exponent
        let scale = max(0, digits.count - point)
        func group(ofPower power: Int) -> Int { power >= 0 ? power / 4 : -((3 - power) / 4) }
        var weight = group(ofPower: point - 1)
        var groups = [Int16](repeating: 0, count: weight - group(ofPower: point - digits.count) + 1)
        let powersOfTen: [Int16] = [1, 10, 100, 1000]
        for (index, digit) in digits.enumerated() where digit != 0 {
            let power = point - 1 - index
            let group = group(ofPower: power)
            groups[weight - group] += Int16(digit) * powersOfTen[power - 4 * group]
        }
        let leadingZeros = groups.prefix { $0 == 0 }.count
        groups.removeFirst(leadingZeros)
        weight -= leadingZeros
        while groups.last == 0 { groups.removeLast() }
        if groups.isEmpty { weight = 0 }
        guard scale <= 0x3FFF, (-0x8000...0x7FFF).contains(weight) else { return false }
        appendHeader(
            digits: groups.count, weight: weight, sign: groups.isEmpty ? positive : sign, scale: scale, to: &bytes)
        for group in groups { bytes.appendBigEndian(group) }
        return true
    }

    /// `NaN`, `Infinity`, `-Infinity` (any case, as PostgreSQL reads them).
    private static func appendSpecialValue(_ text: some StringProtocol, to bytes: inout [UInt8]) -> Bool {
        let sign: UInt16
        switch text.lowercased() {
        case "nan": sign = notANumber
        case "infinity", "+infinity", "inf", "+inf": sign = positiveInfinity
        case "-infinity", "-inf": sign = negativeInfinity
        default: return false
        }
        appendHeader(digits: 0, weight: 0, sign: sign, scale: 0, to: &bytes)
        return true
    }

    private static func appendHeader(digits: Int, weight: Int, sign: UInt16, scale: Int, to bytes: inout [UInt8]) {
        bytes.appendBigEndian(Int16(digits))
        bytes.appendBigEndian(Int16(weight))
        bytes.appendBigEndian(sign)
        bytes.appendBigEndian(Int16(scale))
    }

    /// The decimal text of a binary `numeric`, as PostgreSQL prints it: `-12.50`, `0.001`, `NaN`, `Infinity`.
    ///
    /// - Returns: nil for bytes that are not a binary numeric.
    static func text(from bytes: UnsafeRawBufferPointer) -> String? {
        guard bytes.count >= 8 else { return nil }
        let count = Int(bytes.bigEndianInteger(at: 0, as: Int16.self))
        let weight = Int(bytes.bigEndianInteger(at: 2, as: Int16.self))
        let sign = bytes.bigEndianInteger(at: 4, as: UInt16.self)
        let scale = Int(bytes.bigEndianInteger(at: 6, as: Int16.self))
        guard count >= 0, scale >= 0, bytes.count == 8 + 2 * count else { return nil }
        switch sign {
        case notANumber: return "NaN"
        case positiveInfinity: return "Infinity"
        case negativeInfinity: return "-Infinity"
        case positive, negative: break
        default: return nil
        }
        func group(_ index: Int) -> Int {
            index >= 0 && index < count ? Int(bytes.bigEndianInteger(at: 8 + 2 * index, as: Int16.self)) : 0
        }
        var text = sign == negative && count > 0 ? "-" : ""
        if weight < 0 {
            text += "0"
        } else {
            text += String(group(0))
            for index in stride(from: 1, through: weight, by: 1) {
                let digits = String(group(index))
                text += String(repeating: "0", count: 4 - digits.count) + digits
            }
        }
        if scale > 0 {
            var fraction = ""
            var index = weight + 1
            while fraction.count < scale {
                let digits = String(group(index))
                fraction += String(repeating: "0", count: 4 - digits.count) + digits
                index += 1
            }
            text += "." + fraction.prefix(scale)
        }
        return text
    }
}
