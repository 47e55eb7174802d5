import SeedKitSupport
import SeedKitJSON

extension GraphDiff {
    /// How many objects were added, removed and changed, and how many model changes there are.
    package struct Summary: Sendable, Hashable {
        package var added = 0
        package var removed = 0
        package var changed = 0
        package var modelChanges = 0
    }

    /// The counts of ``changes``: an object with several changes counts once.
    package var summary: Summary {
        var summary = Summary()
        var changedObjects = Set<String>()
        for change in changes {
            switch change.kind {
            case .model: summary.modelChanges += 1
            case .added: summary.added += 1
            case .removed: summary.removed += 1
            default: changedObjects.insert(Self.topObject(of: change.object))
            }
        }
        summary.changed = changedObjects.count
        return summary
    }

    /// One line per change, then a summary line; ANSI colours when `colored`. Control characters in keys and values
    /// are escaped as in JSON strings: a value cannot forge a line or colour the terminal.
    ///
    ///     - Project[code=APOLLO]
    ///     + Employee[email=zoe@example.com] {"class":"Employee","email":"zoe@example.com","name":"Zoe"}
    ///     ~ Department[name=Sales].budget: 1250000.5 → 1300000
    ///     + Project[code=ZEUS].members: Employee[email=ann@example.com]
    ///     1 object added, 1 removed, 1 changed
    ///
    /// - Complexity: O(*n*) in the number and size of the changes.
    public func text(colored: Bool = false) -> String {
        var lines: [String] = []
        for change in changes {
            let (sign, body) = Self.describe(change)
            let line = "\(sign) \(TerminalText.escaped(body))"
            guard colored else {
                lines.append(line)
                continue
            }
            let color = sign == "+" ? "32" : sign == "-" ? "31" : "33"
            lines.append("\u{1B}[\(color)m\(line)\u{1B}[0m")
        }
        lines.append(summaryLine)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `1 object added, 0 removed, 2 changed`, with model changes and ignored objects when there are any;
    /// `no differences` when there are none.
    package var summaryLine: String {
        let summary = self.summary
        var parts: [String] = []
        if summary.modelChanges > 0 { parts.append("\(summary.modelChanges) model change\(summary.modelChanges == 1 ? "" : "s")") }
        if hasDifferences {
            parts.append("\(summary.added) object\(summary.added == 1 ? "" : "s") added, \(summary.removed) removed, \(summary.changed) changed")
        } else {
            parts.append("no differences")
        }
        if objectsOnlyInNew > 0 { parts.append("\(objectsOnlyInNew) object\(objectsOnlyInNew == 1 ? "" : "s") only in the new graph, not compared") }
        return parts.joined(separator: "; ")
    }

    /// One JSON object: `{"differences": [{"kind", "path", "object", "property", "old", "new", "file", "line",
    /// "column"}…], "summary": {"added", "removed", "changed", "model", "onlyInNew"}}`, absent members left out.
    package var json: JSON {
        let differences = changes.map { change -> JSON in
            var members: JSONObject = [
                "kind": .string(change.kind.rawValue), "path": .string(change.path), "object": .string(change.object),
            ]
            if let property = change.property { members["property"] = .string(property) }
            if let old = change.old { members["old"] = old }
            if let new = change.new { members["new"] = new }
            if let location = change.location {
                if let file = location.file { members["file"] = .string(file) }
                members["line"] = .number(JSONNumber(Int64(location.line)))
                members["column"] = .number(JSONNumber(Int64(location.column)))
            }
            return .object(members)
        }
        let summary = self.summary
        func number(_ value: Int) -> JSON { .number(JSONNumber(Int64(value))) }
        return .object([
            "differences": .array(differences),
            "summary": .object([
                "added": number(summary.added), "removed": number(summary.removed), "changed": number(summary.changed),
                "model": number(summary.modelChanges), "onlyInNew": number(objectsOnlyInNew),
            ]),
        ])
    }

    /// GitHub Actions workflow commands, one `::warning` per change, at its file and line when known, so that a
    /// pull request shows each difference on the export line it concerns. Control characters are escaped as in
    /// ``text(colored:)``, in a file name as percent escapes: a log shows no raw escape sequence.
    ///
    ///     ::warning file=company.export.json,line=12,col=5,title=seed diff::~ Department[name=Sales].budget: 1250000.5 → 1300000
    package func githubAnnotations() -> String {
        var lines: [String] = []
        for change in changes {
            var properties: [String] = []
            if let location = change.location, let file = location.file {
                properties.append("file=\(Self.escapeProperty(file))")
                properties.append("line=\(location.line)")
                properties.append("col=\(location.column)")
            }
            properties.append("title=\(Self.escapeProperty("seed diff: \(change.kind.rawValue)"))")
            let (sign, body) = Self.describe(change)
            lines.append("::warning \(properties.joined(separator: ","))::\(Self.escapeData("\(sign) \(TerminalText.escaped(body))"))")
        }
        lines.append("::notice title=seed diff::\(Self.escapeData(summaryLine))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The sign (`+`, `-`, `~`) and the text after it.
    static func describe(_ change: GraphChange) -> (String, String) {
        switch change.kind {
        case .added:
            return ("+", "\(change.path) \(change.new.map { $0.text(style: .canonical) } ?? "")")
        case .removed:
            return ("-", change.path)
        case .linked:
            return ("+", "\(change.path): \(member(change.new))")
        case .unlinked:
            return ("-", "\(change.path): \(member(change.old))")
        case .reordered:
            return ("~", "\(change.path): order \(member(change.old)) → \(member(change.new))")
        case .target:
            return ("~", "\(change.path): \(member(change.old, none: "(none)")) → \(member(change.new, none: "(none)"))")
        case .classChanged:
            return ("~", "\(change.object).class: \(member(change.old)) → \(member(change.new))")
        case .model:
            let sign = change.old == nil ? "+" : change.new == nil ? "-" : "~"
            return (sign, "model.\(change.property ?? ""): \(value(change.old)) → \(value(change.new))")
        case .attribute:
            return ("~", "\(change.path): \(value(change.old)) → \(value(change.new))")
        }
    }

    /// A member's name as is, or a value as canonical JSON.
    private static func member(_ value: JSON?, none: String = "") -> String {
        switch value {
        case nil: none
        case .string(let name)?: name
        case .array(let members)?: "[" + members.map { member($0) }.joined(separator: ", ") + "]"
        case let other?: other.text(style: .canonical)
        }
    }

    private static func value(_ value: JSON?) -> String {
        value.map { $0.text(style: .canonical) } ?? "(absent)"
    }

    /// The top-level object of a path such as `Employee[email=a@b].addresses[0]`: up to its first `]` outside the
    /// quotes of an identity value shown as JSON (`Project[code="a]1"]`).
    private static func topObject(of object: String) -> String {
        var isQuoted = false
        var isEscaped = false
        for index in object.indices {
            switch object[index] {
            case _ where isEscaped: isEscaped = false
            case "\\" where isQuoted: isEscaped = true
            case "\"": isQuoted.toggle()
            case "]" where !isQuoted: return String(object[...index])
            default: break
            }
        }
        return object
    }

    private static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A property's value: `%`, `:`, `,`, CR and LF as GitHub reads them back, other control characters (which it
    /// does not) as percent escapes of their UTF-8 bytes.
    private static func escapeProperty(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%", ":", ",", "\r", "\n":
                escaped += "%" + hex(UInt8(scalar.value))
            case _ where TerminalText.hasControlCharacters(String(scalar)):
                for byte in String(scalar).utf8 { escaped += "%" + hex(byte) }
            default:
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
