import Foundation

/// Text placed in an HTML page or attribute.
enum HTML {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// A small page of the server's own (unsubscribing, an emailed invitation): `title` is plain text. Its
    /// style is a file of the server's (`page.css`): the page's Content-Security-Policy allows no inline style.
    static func page(title: String, body: String) -> String {
        """
        <!doctype html><html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1"><title>\(Self.escape(title))</title>
        <link rel="stylesheet" href="/assets/css/page.css">
        </head><body><h1>\(Self.escape(title))</h1>
        \(body)
        </body></html>
        """
    }
}
