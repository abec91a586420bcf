import FitCircleEngine

/// The pages an unsubscribe link shows: a confirmation whose button posts to the same URL (a GET changes
/// nothing, since mail scanners follow links), and the page after.
enum UnsubscribePage {
    static func confirm(_ unsubscription: Emails.Unsubscription, token: String) -> String {
        self.page(
            title: "Unsubscribe",
            body: """
                <p>Stop “\(HTML.escape(unsubscription.title))” emails to <b>\(HTML.escape(unsubscription.address))</b>?</p>
                <form method="post" action="/api/emails/unsubscribe?token=\(HTML.escape(token))">
                <input type="hidden" name="List-Unsubscribe" value="One-Click">
                <button type="submit">Unsubscribe</button></form>
                """
        )
    }

    static func done(_ unsubscription: Emails.Unsubscription) -> String {
        self.page(
            title: "Unsubscribed",
            body: """
                <p>Done: <b>\(HTML.escape(unsubscription.address))</b> gets no more “\(HTML.escape(unsubscription.title))” emails.</p>
                <p>You can turn them back on in the app's notification settings.</p>
                """
        )
    }

    private static func page(title: String, body: String) -> String { HTML.page(title: title, body: body) }
}
