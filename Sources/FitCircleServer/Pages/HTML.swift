import Foundation

/// Text placed in an HTML page or attribute.
enum HTML {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// A small page of the server's own (unsubscribing, an emailed invitation): `title` is plain text.
    static func page(title: String, body: String) -> String {
        """
        <!doctype html><html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1"><title>\(Self.escape(title))</title>
        <style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1d2230}
        button,.button{font:inherit;background:#ff5a36;color:#fff;border:0;border-radius:8px;padding:.6rem 1.2rem;cursor:pointer;text-decoration:none}</style>
        </head><body><h1>\(Self.escape(title))</h1>
        \(body)
        </body></html>
        """
    }
}
