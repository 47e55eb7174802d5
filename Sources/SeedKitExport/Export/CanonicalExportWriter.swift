import Foundation
import SeedKitSupport
import SeedKitJSON
import SeedKitSQLite
import SeedKitModel
import SeedKitObjects
import SeedKitCoding
import SeedKitStore
import SeedKitSeeding

/// Writes the objects of an ``ExportGraph`` as the canonical export writes them (see ``GraphExport``): the top-level
/// objects sorted by entity and identity, owned objects and objects without identity nested where first met, every
/// other meeting a reference (an identity stub, else `{"$ref": id}`), one canonical line per top-level object.
/// In template form (`templateForm`), the lines follow the model's template conventions: keys in each entity's key
/// style, dates in their attributes' date formats, references through relationships given by identity as identity
/// values; otherwise they use the model's names and forms, whatever its conventions.
///
///     let writer = CanonicalExportWriter(graph: graph)
///     for line in writer.lines(of: writer.topLevel(selecting: nil)) { … }
///
/// The walk keeps its pending objects on a stack of its own, never on the thread's: a chain of owned objects of any
/// length costs time and memory linear in its length. An object whose contents would reach deeper than
/// ``GraphExport/nestingLimit`` levels where it is met is written as a reference there and at the top level after the
/// others, so that every line stays within the levels every reader accepts (``JSON/maxNestingDepth``).
///
/// - Complexity: O(*n* + *e*) for *n* objects and *e* links, plus sorting each unordered to-many and the top level,
///   plus the depth of JSON attribute values.
struct CanonicalExportWriter {
    let graph: ExportGraph

    /// What the writer knows of an entity: its keys in canonical order, and each relationship's inverse. A class,
    /// so that looking one up per object shares it rather than copying its arrays.
    private final class Layout {
        /// One key of an object, in canonical key order.
        enum Key {
            case id, `class`, attribute(Int), link(Int)
        }

        let keys: [Key]
        /// Each key as written: the name in quotes and a colon.
        let keyTexts: [[UInt8]]
        /// The identity attributes, as a stub writes them: in canonical key order.
        let stubKeys: [Int]
        let className: [UInt8]
        /// Per relationship and member entity (by ordinal): the index of the relationship pointing back, or -1.
        let inverses: [[Int]]
        let owns: [Bool]
        let isOrdered: [Bool]
        let isToMany: [Bool]
        /// The attributes of type JSON, whose values nest levels of their own.
        let jsonAttributes: [Int]
        /// Per attribute, its date format; nil when every one is ISO 8601 or the lines are not in template form.
        let dateFormats: [AttributeDescription.DateFormat]?
        /// Per relationship, whether a reference through it is the member's identity value (template form only).
        let isByIdentity: [Bool]

        init(
            keys: [Key], keyTexts: [[UInt8]], stubKeys: [Int], className: [UInt8], inverses: [[Int]], owns: [Bool],
            isOrdered: [Bool], isToMany: [Bool], jsonAttributes: [Int], dateFormats: [AttributeDescription.DateFormat]?,
            isByIdentity: [Bool]
        ) {
            self.keys = keys
            self.keyTexts = keyTexts
            self.stubKeys = stubKeys
            self.className = className
            self.inverses = inverses
            self.owns = owns
            self.isOrdered = isOrdered
            self.isToMany = isToMany
            self.jsonAttributes = jsonAttributes
            self.dateFormats = dateFormats
            self.isByIdentity = isByIdentity
        }
    }

    /// By entity ordinal.
    private let layouts: [Layout]

    init(graph: ExportGraph, templateForm: Bool = false) {
        self.graph = graph
        layouts = graph.model.entities.map { Self.layout(of: $0, model: graph.model, templateForm: templateForm) }
    }

    private static func layout(of entity: Entity, model: EntityModel, templateForm: Bool) -> Layout {
        var named: [(String, Layout.Key)] = [("$id", .id), ("class", .class)]
        let attributeKeys = templateForm ? entity.attributeKeys : entity.attributes.map(\.name)
        let relationshipKeys = templateForm ? entity.relationshipKeys : entity.relationships.map(\.name)
        named += attributeKeys.enumerated().map { ($1, .attribute($0)) }
        named += relationshipKeys.enumerated().map { ($1, .link($0)) }
        named.sort { JSONEmitter.precedes($0.0, $1.0) }
        let keyTexts = named.map { name, _ -> [UInt8] in
            var emitter = JSONEmitter(style: .canonical)
            emitter.writeKey(name)
            return emitter.bytes
        }
        var className = JSONEmitter(style: .canonical)
        className.write(entity.name)
        let stubKeys = named.compactMap { _, key -> Int? in
            if case .attribute(let index) = key, entity.identityIndices.contains(index) { return index }
            return nil
        }
        let inverses = entity.relationships.map { relationship in
            model.entities.map { member in relationship.inverse.flatMap { member.relationshipIndex(named: $0) } ?? -1 }
        }
        return Layout(
            keys: named.map(\.1), keyTexts: keyTexts, stubKeys: stubKeys, className: className.bytes, inverses: inverses,
            owns: entity.relationships.map(\.owns), isOrdered: entity.relationships.map(\.isOrdered),
            isToMany: entity.relationships.map(\.isToMany),
            jsonAttributes: entity.attributes.indices.filter { entity.attributes[$0].type == .json },
            dateFormats: templateForm && entity.attributes.contains { $0.dateFormat != .iso8601 }
                ? entity.attributes.map(\.dateFormat) : nil,
            isByIdentity: entity.relationships.map { templateForm && $0.isByIdentity })
    }

    private func layout(_ node: Int) -> Layout { layouts[Int(graph.ordinals[node])] }

    // MARK: Top level

    /// The nodes written at the top level, in order: those of the selected entities (every node for nil) that no
    /// earlier top-level object nests, non-owned ones first, each group in canonical order.
    ///
    /// - Throws: ``ExportError`` for an object too deep to write (see ``write(_:line:)``), met breaking a tie.
    func topLevel(selecting selected: Set<String>?) throws -> [Int32] {
        let objects = (0..<graph.count).filter { selected?.contains(graph.entities[$0].name) ?? true }
        var owned = [Bool](repeating: false, count: graph.count)
        for node in objects {
            let layout = layout(node)
            for (index, owns) in layout.owns.enumerated() where owns {
                for member in related(node, index) { owned[Int(member)] = true }
            }
        }
        var nested = [Bool](repeating: false, count: graph.count)
        var roots: [Int32] = []
        // Owners first: an owned object is nested under its owner's top-level object, unless its owner is not
        // exported — only those are sorted among themselves.
        for candidate in try canonicalOrder(objects.filter { !owned[$0] }) { root(candidate) }
        for candidate in try canonicalOrder(objects.filter { owned[$0] && !nested[$0] }) { root(candidate) }
        return roots

        func root(_ candidate: Int) {
            guard !nested[candidate] else { return }
            roots.append(Int32(candidate))
            // What the walk nests under it: owned objects and objects without identity, wherever they are reached.
            nested[candidate] = true
            var pending = [candidate]
            while let node = pending.popLast() {
                let layout = layout(node)
                for index in layout.owns.indices {
                    for member in related(node, index) where layout.owns[index] || !graph.hasIdentity(Int(member)) {
                        if !nested[Int(member)] {
                            nested[Int(member)] = true
                            pending.append(Int(member))
                        }
                    }
                }
            }
        }
    }

    /// The nodes sorted by entity name, then as ``CanonicalOrder`` sorts the objects of one entity; nodes without
    /// identity whose attributes are equal, which that order leaves as they were, by their written form: their line
    /// and the lines of what they nest too deep, which tell apart objects that differ only there.
    private func canonicalOrder(_ nodes: [Int]) throws -> [Int] {
        let byEntity = Dictionary(grouping: nodes) { graph.ordinals[$0] }
        let names = byEntity.keys.map { (graph.model.entities[Int($0)].name, $0) }.sorted { JSONEmitter.precedes($0.0, $1.0) }
        return try names.flatMap { _, ordinal throws -> [Int] in
            let group = byEntity[ordinal]!
            var sorted = CanonicalOrder.permutation(
                count: group.count, entity: { graph.entities[group[$0]] }, value: { graph.value(of: group[$0], at: $1) }
            ).map { group[$0] }
            var start = 0
            while start < sorted.count {
                var end = start + 1
                while end < sorted.count, compare(sorted[start], sorted[end]) == .orderedSame { end += 1 }
                if end - start > 1 {
                    let tied = try sorted[start..<end].map { node in
                        (form: Array(try lines(of: [Int32(node)]).joined(separator: [UInt8(ascii: "\n")])), node: node)
                    }
                    sorted.replaceSubrange(start..<end, with: tied.sorted { $0.form.lexicographicallyPrecedes($1.form) }.map(\.node))
                }
                start = end
            }
            return sorted
        }
    }

    private func compare(_ lhs: Int, _ rhs: Int) -> ComparisonResult {
        CanonicalOrder.compare(
            graph.entities[lhs], { graph.value(of: lhs, at: $0) }, graph.entities[rhs], { graph.value(of: rhs, at: $0) })
    }

    /// The members of a relationship of a node: a to-one's target, or a to-many's members, as stored.
    private func related(_ node: Int, _ relationship: Int) -> [Int32] {
        if graph.entities[node].relationships[relationship].isToMany { return graph.members(of: node, at: relationship) }
        let target = graph.target(of: node, at: relationship)
        return target >= 0 ? [target] : []
    }

    // MARK: Walking

    /// Where each object is written in full, worked out by a walk in the order of the objects' relationships, which
    /// is what decides where an object met several times is nested: the first meeting nests it, the others refer to
    /// it. (Writing then goes in key order.)
    private struct Plan {
        /// Per node: the node it is nested in (-1: none; -2: a top-level object) and through which relationship.
        var parent: [Int32]
        var link: [Int32]
        /// Per node met, in meeting order: how often it was met again.
        var meetings: [(node: Int32, references: Int32)] = []
        var met: [Int32]
        /// Nodes nested too deep, written at the top level after the others.
        var deferred: [Int32] = []
        /// Per node that needs one: its `$id`.
        var ids: [Int32: String] = [:]

        init(count: Int) {
            parent = Array(repeating: -1, count: count)
            link = Array(repeating: -1, count: count)
            met = Array(repeating: -1, count: count)
        }

        mutating func meet(_ node: Int) {
            met[node] = Int32(meetings.count)
            meetings.append((Int32(node), 0))
        }

        mutating func meetAgain(_ node: Int) {
            meetings[Int(met[node])].references += 1
        }
    }

    /// The members written for a relationship of a node: a to-one's target but the object it is nested in; a
    /// to-many's members, unordered ones in canonical order, but the object it is nested in when unordered.
    private func writtenMembers(_ node: Int, _ index: Int, layout: Layout, parent: Int, backIndex: Int) -> [Int32] {
        if !layout.isToMany[index] {
            let target = graph.target(of: node, at: index)
            return target >= 0 && index != backIndex ? [target] : []
        }
        var list = graph.members(of: node, at: index)
        if !layout.isOrdered[index], list.count > 1 {
            let order = CanonicalOrder.permutation(
                count: list.count, entity: { graph.entities[Int(list[$0])] }, value: { graph.value(of: Int(list[$0]), at: $1) })
            list = order.map { list[$0] }
        }
        if index == backIndex && !layout.isOrdered[index] { list.removeAll { Int($0) == parent } }
        return list
    }

    /// The index, in the member's entity, of the relationship pointing back along `link` of `layout`'s entity.
    private func backIndex(of member: Int, link: Int, layout: Layout) -> Int {
        layout.inverses[link][Int(graph.ordinals[member])]
    }

    /// Plans the walk of the roots (and the nodes deferred meanwhile), depth first in relationship order.
    ///
    /// - Throws: ``ExportError`` for a top-level object too deep to write (see ``write(_:line:)``).
    private func plan(_ roots: [Int32]) throws -> Plan {
        var plan = Plan(count: graph.count)
        struct Step {
            let node: Int
            /// The level of the object's braces in its line: 1 at the top.
            let level: Int
            let parent: Int
            let backIndex: Int
            var link = 0
            var members: [Int32] = []
            var position = 0
        }
        var next = 0
        while true {
            let root: Int
            if next < roots.count {
                root = Int(roots[next])
                if plan.met[root] >= 0 {
                    // Met inside an earlier top-level object: a reference there.
                    plan.meetAgain(root)
                    next += 1
                    continue
                }
                plan.meet(root)
            } else if next - roots.count < plan.deferred.count {
                root = Int(plan.deferred[next - roots.count])
            } else {
                break
            }
            next += 1
            plan.parent[root] = -2
            try checkFitsAtTheTop(root)
            var stack = [Step(node: root, level: 1, parent: -1, backIndex: -1)]
            while !stack.isEmpty {
                let top = stack.count - 1
                let layout = layout(stack[top].node)
                if stack[top].position < stack[top].members.count {
                    let member = Int(stack[top].members[stack[top].position])
                    let link = stack[top].link - 1
                    stack[top].position += 1
                    if plan.met[member] >= 0 {
                        plan.meetAgain(member)
                    } else if layout.owns[link] || !graph.hasIdentity(member) {
                        plan.meet(member)
                        // A to-one's object is one level below, a to-many's two (its list between).
                        let level = stack[top].level + (layout.isToMany[link] ? 2 : 1)
                        if level + contentDepth(of: member) > GraphExport.nestingLimit {
                            // Too deep to nest: a reference here, the object at the top level after the others.
                            plan.deferred.append(Int32(member))
                            plan.meetAgain(member)
                        } else {
                            plan.parent[member] = Int32(stack[top].node)
                            plan.link[member] = Int32(link)
                            stack.append(
                                Step(
                                    node: member, level: level, parent: stack[top].node,
                                    backIndex: backIndex(of: member, link: link, layout: layout)))
                        }
                    }
                    continue
                }
                guard stack[top].link < layout.isToMany.count else {
                    stack.removeLast()
                    continue
                }
                let step = stack[top]
                stack[top].members = writtenMembers(step.node, step.link, layout: layout, parent: step.parent, backIndex: step.backIndex)
                stack[top].position = 0
                stack[top].link += 1
            }
        }
        // `$id`s, per entity in meeting order, for objects without identity met more than once.
        var counts: [String: Int] = [:]
        for meeting in plan.meetings where meeting.references > 0 && !graph.hasIdentity(Int(meeting.node)) {
            let name = graph.entities[Int(meeting.node)].name
            counts[name, default: 0] += 1
            plan.ids[meeting.node] = "\(name)-\(counts[name]!)"
        }
        return plan
    }

    /// How many levels an object's contents reach below its braces: 1 with a to-one, 2 with a to-many list (counted
    /// whether written or not, which keeps a level or two in hand), a JSON attribute value's own depth. Whatever it
    /// nests is checked where it is met the same way, so every level its line reaches is counted once.
    private func contentDepth(of node: Int) -> Int {
        let layout = layout(node)
        var depth = 0
        for index in layout.isToMany.indices where depth < 2 {
            if layout.isToMany[index] {
                if !graph.members(of: node, at: index).isEmpty { depth = 2 }
            } else if graph.target(of: node, at: index) >= 0 {
                depth = 1
            }
        }
        for index in layout.jsonAttributes {
            if case .json(let value)? = graph.value(of: node, at: index) { depth = max(depth, value.nestingDepth) }
        }
        return depth
    }

    /// Refuses a top-level object whose contents reach deeper than a line may: only a JSON attribute value can, and
    /// no reference can shorten it.
    private func checkFitsAtTheTop(_ node: Int) throws {
        guard 1 + contentDepth(of: node) > GraphExport.objectDepthLimit else { return }
        let entity = graph.entities[node]
        let attribute = layout(node).jsonAttributes.first { index in
            guard case .json(let value)? = graph.value(of: node, at: index) else { return false }
            return 1 + value.nestingDepth > GraphExport.objectDepthLimit
        }
        throw ExportError(
            "an object of \(entity.name) cannot be exported: its JSON attribute "
                + "'\(attribute.map { entity.attributes[$0].name } ?? "?")' nests deeper than the "
                + "\(GraphExport.objectDepthLimit) levels an exported object may take (\(JSON.maxNestingDepth) in all)")
    }

    /// The canonical line of each node of `roots` and of the nodes nested too deep, in order.
    ///
    /// - Complexity: O(*n* + *e*) in the nodes and links reached.
    func lines(of roots: [Int32]) throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        try write(roots) { lines.append($0) }
        return lines
    }

    /// Writes the canonical line of each node of `roots` and of the nodes nested too deep, in order, to `line`.
    ///
    /// - Throws: ``ExportError`` for an object whose JSON attribute value nests too deeply for any line
    ///   (``GraphExport/objectDepthLimit``), before anything is written; `line`'s errors.
    func write(_ roots: [Int32], line: ([UInt8]) throws -> Void) throws {
        let plan = try plan(roots)
        var emitter = JSONEmitter(style: .canonical)
        for root in roots.map(Int.init) + plan.deferred.map(Int.init) {
            emitter.bytes.removeAll(keepingCapacity: true)
            if plan.parent[root] == -2 {
                write(root, plan: plan, emitter: &emitter)
            } else {
                reference(to: root, plan: plan, emitter: &emitter)
            }
            try line(emitter.bytes)
        }
    }

    /// One object being written: its key, and the members of the link there.
    private struct Frame {
        let node: Int
        let parent: Int
        let backIndex: Int
        var key = 0
        var members: [Int32] = []
        var position = 0
        var isInList = false
        var wroteMember = false
    }

    /// Writes a top-level object and everything nested in it, in key order, iteratively.
    private func write(_ root: Int, plan: Plan, emitter: inout JSONEmitter) {
        var stack = [Frame(node: root, parent: -1, backIndex: -1)]
        emitter.bytes.append(UInt8(ascii: "{"))
        writing: while !stack.isEmpty {
            let top = stack.count - 1
            let node = stack[top].node
            let layout = layout(node)
            if stack[top].isInList {
                if stack[top].position < stack[top].members.count {
                    if stack[top].position > 0 { emitter.bytes.append(UInt8(ascii: ",")) }
                    let member = Int(stack[top].members[stack[top].position])
                    stack[top].position += 1
                    guard case .link(let index) = layout.keys[stack[top].key] else { preconditionFailure("a list is at a link") }
                    if let child = visit(member, of: stack[top], link: index, layout: layout, plan: plan, emitter: &emitter) {
                        stack.append(child)
                    }
                    continue writing
                }
                emitter.bytes.append(UInt8(ascii: "]"))
                stack[top].isInList = false
                stack[top].key += 1
            }
            while stack[top].key < layout.keys.count {
                let position = stack[top].key
                guard case .link(let index) = layout.keys[position] else {
                    writeScalar(position, of: node, layout: layout, frame: &stack[top], plan: plan, emitter: &emitter)
                    stack[top].key += 1
                    continue
                }
                let members = writtenMembers(node, index, layout: layout, parent: stack[top].parent, backIndex: stack[top].backIndex)
                guard !members.isEmpty else {
                    stack[top].key += 1
                    continue
                }
                writeKey(position, layout: layout, frame: &stack[top], emitter: &emitter)
                if layout.isToMany[index] {
                    emitter.bytes.append(UInt8(ascii: "["))
                    stack[top].members = members
                    stack[top].position = 0
                    stack[top].isInList = true
                    continue writing
                }
                stack[top].key += 1
                if let child = visit(Int(members[0]), of: stack[top], link: index, layout: layout, plan: plan, emitter: &emitter) {
                    stack.append(child)
                    continue writing
                }
            }
            emitter.bytes.append(UInt8(ascii: "}"))
            stack.removeLast()
        }
    }

    /// Writes a member where a link meets it: opened, for the walk to go on into, where the plan nests it; else a
    /// reference.
    private func visit(
        _ member: Int, of frame: Frame, link: Int, layout: Layout, plan: Plan, emitter: inout JSONEmitter
    ) -> Frame? {
        guard plan.parent[member] == Int32(frame.node), plan.link[member] == Int32(link) else {
            reference(to: member, plan: plan, byIdentity: layout.isByIdentity[link], emitter: &emitter)
            return nil
        }
        emitter.bytes.append(UInt8(ascii: "{"))
        return Frame(node: member, parent: frame.node, backIndex: backIndex(of: member, link: link, layout: layout))
    }

    // MARK: Writing

    private func writeKey(_ position: Int, layout: Layout, frame: inout Frame, emitter: inout JSONEmitter) {
        if frame.wroteMember { emitter.bytes.append(UInt8(ascii: ",")) }
        frame.wroteMember = true
        emitter.bytes.append(contentsOf: layout.keyTexts[position])
    }

    /// Writes the `$id`, `"class"` or an attribute at a key, when the object has it.
    private func writeScalar(
        _ position: Int, of node: Int, layout: Layout, frame: inout Frame, plan: Plan, emitter: inout JSONEmitter
    ) {
        switch layout.keys[position] {
        case .id:
            guard let id = plan.ids[Int32(node)] else { return }
            writeKey(position, layout: layout, frame: &frame, emitter: &emitter)
            emitter.write(id)
        case .class:
            writeKey(position, layout: layout, frame: &frame, emitter: &emitter)
            emitter.bytes.append(contentsOf: layout.className)
        case .attribute(let index):
            guard let value = graph.value(of: node, at: index) else { return }
            writeKey(position, layout: layout, frame: &frame, emitter: &emitter)
            append(value, ofAttribute: index, layout: layout, to: &emitter)
        case .link:
            preconditionFailure("links are walked, not written here")
        }
    }

    /// Appends an attribute's value: in its date format when the layout has one.
    private func append(_ value: AttributeValue, ofAttribute index: Int, layout: Layout, to emitter: inout JSONEmitter) {
        if let formats = layout.dateFormats, formats[index] != .iso8601 {
            emitter.write(value.json(dateFormat: formats[index]), indent: 0)
        } else {
            CanonicalValueText.append(value, to: &emitter)
        }
    }

    /// An identity stub of the node — its identity value alone through a relationship given by identity — else
    /// `{"$ref": id}`.
    private func reference(to node: Int, plan: Plan, byIdentity: Bool = false, emitter: inout JSONEmitter) {
        guard graph.hasIdentity(node) else {
            emitter.bytes.append(contentsOf: Array(#"{"$ref":"#.utf8))
            emitter.write(plan.ids[Int32(node)] ?? "")
            emitter.bytes.append(UInt8(ascii: "}"))
            return
        }
        let layout = layout(node)
        if byIdentity {
            // The model allows it only where the identity is one attribute.
            let index = layout.stubKeys[0]
            append(graph.value(of: node, at: index)!, ofAttribute: index, layout: layout, to: &emitter)
            return
        }
        var frame = Frame(node: node, parent: -1, backIndex: -1)
        emitter.bytes.append(UInt8(ascii: "{"))
        // "class" and the identity attributes, in key order.
        for (position, key) in layout.keys.enumerated() {
            switch key {
            case .class:
                writeKey(position, layout: layout, frame: &frame, emitter: &emitter)
                emitter.bytes.append(contentsOf: layout.className)
            case .attribute(let index) where layout.stubKeys.contains(index):
                writeKey(position, layout: layout, frame: &frame, emitter: &emitter)
                append(graph.value(of: node, at: index)!, ofAttribute: index, layout: layout, to: &emitter)
            default:
                continue
            }
        }
        emitter.bytes.append(UInt8(ascii: "}"))
    }
}
