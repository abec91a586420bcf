import Foundation
import Yams

/// A readable reference of the API at `/docs`, rendered from the OpenAPI document itself (no CDN, no
/// JavaScript), so it is always the contract the server runs.
enum DocsPage {
    static func render(openAPIDocument yaml: String) throws -> String {
        let document = try Yams.load(yaml: yaml) as? [String: Any] ?? [:]
        let info = document["info"] as? [String: Any] ?? [:]
        let paths = document["paths"] as? [String: Any] ?? [:]
        let tags = (document["tags"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any] ?? [:]

        var operationsByTag: [String: [(method: String, path: String, operation: [String: Any])]] = [:]
        for (path, item) in paths.sorted(by: { $0.key < $1.key }) {
            for method in ["get", "post", "put", "patch", "delete"] {
                guard let operation = (item as? [String: Any])?[method] as? [String: Any] else { continue }
                let tag = (operation["tags"] as? [String])?.first ?? "Other"
                operationsByTag[tag, default: []].append((method.uppercased(), path, operation))
            }
        }

        var html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(info["title"] as? String ?? "API")) API reference</title>
            <style>
            body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
            h1{margin-bottom:0}code,pre{font:13px ui-monospace,monospace;background:#f4f4f6;border-radius:4px}
            pre{padding:.6rem;white-space:pre-wrap}.op{border:1px solid #ddd;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}
            .m{font-weight:700;display:inline-block;min-width:4.5rem}.GET{color:#0a7}.POST{color:#06c}.PUT{color:#a60}.DELETE{color:#c33}
            table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}
            .lock{color:#888;font-size:12px}
            </style></head><body>
            <h1>\(escape(info["title"] as? String ?? "API"))</h1>
            <p>Version \(escape(info["version"] as? String ?? "")) · <a href="/openapi.yaml">openapi.yaml</a></p>
            <pre>\(escape(info["description"] as? String ?? ""))</pre>
            """
        for tag in tags + operationsByTag.keys.filter({ !tags.contains($0) }).sorted() {
            guard let operations = operationsByTag[tag] else { continue }
            html += "<h2 id=\"\(escape(tag))\">\(escape(tag))</h2>"
            for (method, path, operation) in operations {
                let id = operation["operationId"] as? String ?? ""
                let isPublic = (operation["security"] as? [Any])?.isEmpty == true
                html += "<div class=\"op\" id=\"\(escape(id))\"><p><span class=\"m \(method)\">\(method)</span><code>\(escape(path))</code> "
                html += "— \(escape(operation["summary"] as? String ?? "")) "
                html += isPublic ? "<span class=\"lock\">no token</span>" : "<span class=\"lock\">bearer token</span>"
                html += "</p>"
                if let description = operation["description"] as? String {
                    html += "<p>\(escape(description))</p>"
                }
                if let body = operation["requestBody"] as? [String: Any], let content = body["content"] as? [String: Any] {
                    html += "<p>Body: " + content.keys.sorted().map { type in
                        "<code>\(escape(type))</code> \(schemaName((content[type] as? [String: Any])?["schema"]))"
                    }.joined(separator: ", ") + "</p>"
                }
                if let responses = operation["responses"] as? [String: Any] {
                    html += "<table><tr><th>status</th><th>response</th></tr>"
                    for (status, response) in responses.sorted(by: { $0.key < $1.key }) {
                        html += "<tr><td>\(escape(status))</td><td>\(escape(responseText(response)))</td></tr>"
                    }
                    html += "</table>"
                }
                html += "</div>"
            }
        }
        html += "<h2 id=\"schemas\">Schemas</h2>"
        for (name, schema) in schemas.sorted(by: { $0.key < $1.key }) {
            html += "<h3 id=\"schema-\(escape(name))\">\(escape(name))</h3>"
            html += "<pre>\(escape((try? Yams.dump(object: schema, sortKeys: true)) ?? ""))</pre>"
        }
        return html + "</body></html>"
    }

    private static func schemaName(_ schema: Any?) -> String {
        guard let schema = schema as? [String: Any] else { return "" }
        if let reference = schema["$ref"] as? String, let name = reference.split(separator: "/").last {
            return "<a href=\"#schema-\(escape(String(name)))\">\(escape(String(name)))</a>"
        }
        return escape(schema["type"] as? String ?? "")
    }

    private static func responseText(_ response: Any) -> String {
        guard let response = response as? [String: Any] else { return "" }
        if let reference = response["$ref"] as? String {
            return String(reference.split(separator: "/").last ?? "")
        }
        return response["description"] as? String ?? ""
    }

    private static func escape(_ text: String) -> String { HTML.escape(text) }
}
