/// "Did you mean …?" for error messages: the candidate nearest to a misspelt name.
package enum Suggestion {
    /// The candidate within a small edit distance of `name` (case-insensitive), nearest first; nil when none is close.
    ///
    ///     Suggestion.nearest(to: "nmae", among: ["name", "email"])  // "name"
    ///
    /// - Complexity: O(*n* × *m*²) for *n* candidates of length about *m*.
    package static func nearest(to name: String, among candidates: some Sequence<String>) -> String? {
        let target = Array(name.lowercased().unicodeScalars)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, Array(candidate.lowercased().unicodeScalars))
            let limit = max(1, min(3, max(target.count, candidate.count) / 3))
            guard distance <= limit else { continue }
            if best == nil || distance < best!.distance || (distance == best!.distance && candidate < best!.candidate) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// "; did you mean 'name'?" or an empty string.
    package static func didYouMean(_ name: String, among candidates: some Sequence<String>) -> String {
        nearest(to: name, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Optimal string alignment distance: Levenshtein plus adjacent transpositions, the commonest typo.
    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
