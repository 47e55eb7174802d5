import Foundation

extension StringOptions {
    /// A string as conditions with these options compare it: diacritics removed (canonical decomposition, then
    /// nonspacing marks dropped), then lowercased; the string itself without options.
    ///
    ///     [.caseInsensitive, .diacriticInsensitive].fold("Zoë")   // "zoe"
    ///
    /// Both evaluations of a predicate, in SQL and in memory, call this one function, so they agree on every string.
    ///
    /// - Complexity: O(*n*) in the length of the string.
    package func fold(_ text: String) -> String {
        var folded = text
        if contains(.diacriticInsensitive) {
            var scalars = String.UnicodeScalarView()
            for scalar in folded.decomposedStringWithCanonicalMapping.unicodeScalars
            where scalar.properties.generalCategory != .nonspacingMark {
                scalars.append(scalar)
            }
            folded = String(scalars)
        }
        if contains(.caseInsensitive) { folded = folded.lowercased() }
        return folded
    }
}

extension FetchPredicate.StringMatch {
    /// Whether `text` matches `pattern`, both folded already, comparing UTF-8 bytes (Unicode scalars for `like`).
    ///
    ///     FetchPredicate.StringMatch.like.matches("report-2024.txt", pattern: "report-*.txt")   // true
    ///
    /// - Complexity: O(*n* × *m*) in the lengths of the text and the pattern.
    package func matches(_ text: String, pattern: String) -> Bool {
        let bytes = text.utf8, patternBytes = pattern.utf8
        switch self {
        case .equals: return bytes.elementsEqual(patternBytes)
        case .beginsWith: return bytes.starts(with: patternBytes)
        case .endsWith: return bytes.reversed().starts(with: patternBytes.reversed())
        case .contains:
            let haystack = Array(bytes), needle = Array(patternBytes)
            guard needle.count <= haystack.count else { return false }
            if needle.isEmpty { return true }
            return (0...(haystack.count - needle.count)).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
        case .like: return Self.like(Array(text.unicodeScalars), Array(pattern.unicodeScalars))
        }
    }

    /// Wildcard matching with backtracking to the last `*`: linear for patterns with one star, O(*n* × *m*) at worst.
    private static func like(_ text: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
        var t = 0, p = 0
        var star: (pattern: Int, text: Int)?
        while t < text.count {
            if p < pattern.count, pattern[p] == "*" {
                star = (p + 1, t)
                p += 1
                continue
            }
            if p < pattern.count {
                let isEscape = pattern[p] == "\\" && p + 1 < pattern.count
                let literal = isEscape ? pattern[p + 1] : pattern[p]
                if (!isEscape && literal == "?") || literal == text[t] {
                    p += isEscape ? 2 : 1
                    t += 1
                    continue
                }
            }
            guard let last = star else { return false }
            star = (last.pattern, last.text + 1)
            p = last.pattern
            t = last.text + 1
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
