import Foundation
import Ink
import Yams

/// A readable reference of the API at `/docs`, rendered once at start-up from the OpenAPI document itself,
/// so it is always the contract the server runs: descriptions as Markdown (Ink), operations grouped by tag
/// with their parameters, bodies and answers, and every schema as a table of its properties with its
/// examples. No script and no CDN: the page's only other file is the web app's stylesheet.
enum DocsPage {
    static func render(openAPIDocument yaml: String) throws -> String {
        let document = try Yams.load(yaml: yaml) as? [String: Any] ?? [:]
        let info = document["info"] as? [String: Any] ?? [:]
        let paths = document["paths"] as? [String: Any] ?? [:]
        let tags = (document["tags"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        let components = document["components"] as? [String: Any] ?? [:]
        let schemas = components["schemas"] as? [String: Any] ?? [:]
        let sharedParameters = components["parameters"] as? [String: Any] ?? [:]

        var operationsByTag: [String: [(method: String, path: String, operation: [String: Any])]] = [:]
        for (path, item) in paths.sorted(by: { $0.key < $1.key }) {
            for method in ["get", "post", "put", "patch", "delete"] {
                guard let operation = (item as? [String: Any])?[method] as? [String: Any] else { continue }
                let tag = (operation["tags"] as? [String])?.first ?? "Other"
                operationsByTag[tag, default: []].append((method.uppercased(), path, operation))
            }
        }
        let orderedTags = (tags + operationsByTag.keys.filter { !tags.contains($0) }.sorted()).filter {
            operationsByTag[$0] != nil
        }
        let title = info["title"] as? String ?? "API"

        var html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title)) API reference</title>
            <link rel="stylesheet" href="/assets/css/app.css"><link rel="stylesheet" href="/assets/css/docs.css">
            </head><body class="docs">
            <a class="skip" href="#main">Skip to content</a>
            <nav class="toc" aria-label="Contents"><p><strong>\(escape(title))</strong></p><ul>
            <li><a href="#overview">Overview</a></li>
            \(orderedTags.map { "<li><a href=\"#tag-\(anchor($0))\">\(escape($0))</a></li>" }.joined())
            <li><a href="#schemas">Schemas</a></li></ul></nav>
            <main id="main"><h1 id="overview">\(escape(title)) API reference</h1>
            <p>Version \(escape(info["version"] as? String ?? "")) · <a href="/openapi.yaml">openapi.yaml</a> · <a href="/">the web app</a></p>
            \(markdown(info["description"] as? String))
            """
        for tag in orderedTags {
            html += "<section aria-labelledby=\"tag-\(anchor(tag))\"><h2 id=\"tag-\(anchor(tag))\">\(escape(tag))</h2>"
            for (method, path, operation) in operationsByTag[tag] ?? [] {
                html += Self.operation(method: method, path: path, operation, sharedParameters: sharedParameters)
            }
            html += "</section>"
        }
        html += "<section aria-labelledby=\"schemas\"><h2 id=\"schemas\">Schemas</h2>"
        for (name, schema) in schemas.sorted(by: { $0.key < $1.key }) {
            html += Self.schema(name: name, schema as? [String: Any] ?? [:])
        }
        return html + "</section></main></body></html>"
    }

    private static func operation(
        method: String,
        path: String,
        _ operation: [String: Any],
        sharedParameters: [String: Any]
    ) -> String {
        let id = operation["operationId"] as? String ?? ""
        let isPublic = (operation["security"] as? [Any])?.isEmpty == true
        var html = "<article class=\"op\" id=\"\(escape(id))\" aria-labelledby=\"\(escape(id))-title\">"
        html +=
            "<h3 id=\"\(escape(id))-title\"><span class=\"m \(method)\">\(method)</span> <code>\(escape(path))</code></h3>"
        html += "<p class=\"summary\">\(escape(operation["summary"] as? String ?? "")) "
        html += isPublic ? "<span class=\"lock\">no token</span></p>" : "<span class=\"lock\">signed in</span></p>"
        html += markdown(operation["description"] as? String)
        let parameters = (operation["parameters"] as? [[String: Any]] ?? []).compactMap { parameter -> [String: Any]? in
            guard let reference = parameter["$ref"] as? String else { return parameter }
            return sharedParameters[String(reference.split(separator: "/").last ?? "")] as? [String: Any]
        }
        if !parameters.isEmpty {
            html +=
                "<table><caption>Parameters</caption><tr><th scope=\"col\">name</th><th scope=\"col\">in</th><th scope=\"col\">type</th><th scope=\"col\">description</th></tr>"
            for parameter in parameters {
                let required = parameter["required"] as? Bool == true ? " <span class=\"req\">required</span>" : ""
                html +=
                    "<tr><td><code>\(escape(parameter["name"] as? String ?? ""))</code>\(required)</td><td>\(escape(parameter["in"] as? String ?? ""))</td>"
                html +=
                    "<td>\(typeText(parameter["schema"]))</td><td>\(markdown(parameter["description"] as? String))</td></tr>"
            }
            html += "</table>"
        }
        if let body = operation["requestBody"] as? [String: Any], let content = body["content"] as? [String: Any] {
            html +=
                "<p>Body: "
                + content.keys.sorted().map { type in
                    "<code>\(escape(type))</code> \(typeText((content[type] as? [String: Any])?["schema"]))"
                }.joined(separator: ", ") + "</p>" + Self.examples(of: content)
        }
        if let responses = operation["responses"] as? [String: Any] {
            html +=
                "<table><caption>Answers</caption><tr><th scope=\"col\">status</th><th scope=\"col\">answer</th></tr>"
            for (status, response) in responses.sorted(by: { $0.key < $1.key }) {
                html += "<tr><td>\(escape(status))</td><td>\(responseText(response))</td></tr>"
            }
            html += "</table>"
        }
        return html + "</article>"
    }

    private static func schema(name: String, _ schema: [String: Any]) -> String {
        var html =
            "<article class=\"schema\" id=\"schema-\(escape(name))\" aria-labelledby=\"schema-\(escape(name))-title\">"
        html +=
            "<h3 id=\"schema-\(escape(name))-title\">\(escape(name)) <span class=\"type\">\(typeText(schema))</span></h3>"
        html += markdown(schema["description"] as? String)
        // `allOf`: the named schemas it extends, linked, and the properties of its own parts in one table.
        let parts = schema["allOf"] as? [[String: Any]] ?? []
        let extended = parts.filter { $0["$ref"] != nil }
        if !extended.isEmpty {
            html += "<p>Every property of \(extended.map(typeText).joined(separator: " and ")), and:</p>"
        }
        var required = Set(schema["required"] as? [String] ?? [])
        var properties = schema["properties"] as? [String: Any] ?? [:]
        for part in parts where part["$ref"] == nil {
            required.formUnion(part["required"] as? [String] ?? [])
            properties.merge(part["properties"] as? [String: Any] ?? [:]) { own, _ in own }
        }
        if !properties.isEmpty {
            html +=
                "<table><tr><th scope=\"col\">property</th><th scope=\"col\">type</th><th scope=\"col\">description</th></tr>"
            for (property, value) in properties.sorted(by: { $0.key < $1.key }) {
                let detail = value as? [String: Any] ?? [:]
                let mark = required.contains(property) ? " <span class=\"req\">required</span>" : ""
                html +=
                    "<tr><td><code>\(escape(property))</code>\(mark)</td><td>\(typeText(detail))</td><td>\(markdown(detail["description"] as? String))"
                if let example = detail["example"] {
                    html += "<p class=\"example\">Example: <code>\(escape(exampleText(example)))</code></p>"
                }
                html += "</td></tr>"
            }
            html += "</table>"
        }
        if let example = schema["example"] {
            html += "<p>Example:</p><pre><code>\(escape(exampleText(example, pretty: true)))</code></pre>"
        }
        return html + "</article>"
    }

    /// A schema's type as text: a link to a named schema, `array of X`, an enumeration's values.
    private static func typeText(_ schema: Any?) -> String {
        guard let schema = schema as? [String: Any] else { return "" }
        if let reference = schema["$ref"] as? String, let name = reference.split(separator: "/").last {
            return "<a href=\"#schema-\(escape(String(name)))\">\(escape(String(name)))</a>"
        }
        if let values = schema["enum"] as? [Any] {
            return "one of " + values.map { "<code>\(escape("\($0)"))</code>" }.joined(separator: ", ")
        }
        if let forms = (schema["oneOf"] ?? schema["anyOf"]) as? [Any] {
            return "one of: " + forms.map(typeText).joined(separator: ", ")
        }
        if let parts = schema["allOf"] as? [[String: Any]] {
            let named = parts.filter { $0["$ref"] != nil }.map(typeText)
            return (named.isEmpty ? ["object"] : named + ["more"]).joined(separator: " and ")
        }
        let type = schema["type"] as? String ?? (schema["additionalProperties"] != nil ? "object" : "")
        if type == "array" { return "array of \(typeText(schema["items"]))" + bounds(schema) }
        if type == "object", let values = schema["additionalProperties"] as? [String: Any] {
            return "map of \(typeText(values))"
        }
        if let format = schema["format"] as? String { return "\(escape(type)) (\(escape(format)))" + bounds(schema) }
        return escape(type) + bounds(schema)
    }

    /// A schema's bounds and default as text: `, 1–100, default 30`, `, at most 512 characters`, `, bounded by
    /// the kinds of email` (a list's `x-bounded-by`).
    private static func bounds(_ schema: [String: Any]) -> String {
        func number(_ key: String) -> String? { schema[key].map { escape("\($0)") } }
        var parts: [String] = []
        switch (number("minimum"), number("maximum")) {
        case (let low?, let high?): parts.append("\(low)–\(high)")
        case (let low?, nil): parts.append("at least \(low)")
        case (nil, let high?): parts.append("at most \(high)")
        case (nil, nil): break
        }
        if let above = number("exclusiveMinimum") { parts.insert("more than \(above)", at: 0) }
        if let length = number("maxLength") { parts.append("at most \(length) characters") }
        if let items = number("maxItems") { parts.append("at most \(items) items") }
        if let bound = schema["x-bounded-by"] as? String { parts.append("bounded by \(escape(bound))") }
        if let value = number("default") { parts.append("default \(value)") }
        return parts.map { ", " + $0 }.joined()
    }

    private static func responseText(_ response: Any) -> String {
        guard let response = response as? [String: Any] else { return "" }
        if let reference = response["$ref"] as? String {
            return escape(String(reference.split(separator: "/").last ?? ""))
        }
        let content = (response["content"] as? [String: Any] ?? [:]).sorted { $0.key < $1.key }.map { type, value in
            "<code>\(escape(type))</code> \(typeText((value as? [String: Any])?["schema"]))"
        }
        return markdown(response["description"] as? String)
            + (content.isEmpty ? "" : "<p>" + content.joined(separator: ", ") + "</p>")
            + Self.examples(of: response["content"] as? [String: Any] ?? [:])
    }

    /// The examples written on a body's media types (one written on a named schema shows with the schema).
    private static func examples(of content: [String: Any]) -> String {
        content.sorted { $0.key < $1.key }.compactMap { _, media in
            (media as? [String: Any])?["example"].map {
                "<p>Example:</p><pre><code>\(escape(exampleText($0, pretty: true)))</code></pre>"
            }
        }.joined()
    }

    private static func exampleText(_ example: Any, pretty: Bool = false) -> String {
        if let text = example as? String { return text }
        if JSONSerialization.isValidJSONObject(example),
            let data = try? JSONSerialization.data(
                withJSONObject: example,
                options: pretty
                    ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
            )
        {
            return String(decoding: data, as: UTF8.self)
        }
        return "\(example)"
    }

    /// Markdown of the document's own text (trusted: it is the server's contract, not anyone's input).
    private static func markdown(_ text: String?) -> String {
        guard let text, !text.isEmpty else { return "" }
        return MarkdownParser().html(from: Self.unwrapped(text))
    }

    /// The text with its soft line breaks joined: Ink starts a new paragraph at a wrapped line that begins
    /// with inline code. Tables, headings, quotes and fenced code keep their lines; a list item's wrapped
    /// lines join the item.
    static func unwrapped(_ text: String) -> String {
        var lines: [String] = []
        var fenced = false
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") { fenced.toggle() }
            let startsBlock =
                fenced || trimmed.hasPrefix("```") || trimmed.isEmpty
                || ["|", "#", ">", "- ", "* "].contains { trimmed.hasPrefix($0) }
                || trimmed.range(of: #"^\d+\. "#, options: .regularExpression) != nil
            let previous = lines.last?.trimmingCharacters(in: .whitespaces) ?? ""
            let previousEndsBlock = previous.isEmpty || ["|", "#", "```"].contains { previous.hasPrefix($0) }
            if !startsBlock && !previousEndsBlock {
                lines[lines.count - 1] += " " + trimmed
            } else {
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func anchor(_ tag: String) -> String {
        escape(tag.lowercased().replacingOccurrences(of: " ", with: "-"))
    }

    private static func escape(_ text: String) -> String { HTML.escape(text) }
}
