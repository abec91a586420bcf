import FitCircleClient
import Foundation
import HTTPTypes
import HummingbirdTesting

extension TestApp {
    /// How the hot path's answer to `path` (a board, a feed, written by hand) differs for `person` from the
    /// generated path's answer to `generic` (the same read through the generated types): in its bytes, its
    /// `ETag`, its media type, or decoded as `Answer`. Empty when they agree.
    public func hotReadDifferences<Answer: Decodable & Equatable>(
        _ path: String,
        generic: String,
        as person: TestPerson,
        _ type: Answer.Type
    ) async throws -> [String] {
        let token = try await person.token(self)
        let hot = try await self.request(.get, path, token: token)
        let generated = try await self.request(.get, generic, token: token)
        guard hot.status == .ok, generated.status == .ok else {
            return ["answered \(hot.status) and \(generated.status): \(hot.text)"]
        }
        var differences: [String] = []
        if hot.text != generated.text { differences.append("the bytes: \(hot.text) against \(generated.text)") }
        if hot.headers[.eTag] == nil || hot.headers[.eTag] != generated.headers[.eTag] {
            differences.append(
                "the ETag: \(hot.headers[.eTag] ?? "none") against \(generated.headers[.eTag] ?? "none")"
            )
        }
        if hot.headers[.contentType] != generated.headers[.contentType] { differences.append("the media type") }
        if try hot.decoded(as: Answer.self) != generated.decoded(as: Answer.self) { differences.append("the values") }
        return differences
    }

    /// For a page that something has just changed: how reading it twice differs from what should happen. The
    /// first read must be the generated answer (`hotReadDifferences`) and differ from `shown`, the page last
    /// shown (which it becomes); the second must be the same page, served again from what this node kept.
    public func changedThenKeptDifferences<Answer: Decodable & Equatable>(
        _ path: String,
        generic: String,
        as person: TestPerson,
        _ type: Answer.Type,
        shown: inout String
    ) async throws -> [String] {
        var differences = try await self.hotReadDifferences(path, generic: generic, as: person, type)
        let page = try await self.request(.get, path, token: try await person.token(self)).text
        if shown == page { differences.append("the page did not change") }
        shown = page
        let kept = try await self.keptPages()
        if try await self.request(.get, path, token: try await person.token(self)).text != page {
            differences.append("the second read differs")
        }
        if try await self.keptPages() != kept + 1 { differences.append("the unchanged page was built again") }
        return differences
    }

    /// How many pages (boards, feeds) this node served again from what it kept (`fitcircle_hot_reads_total`).
    public func keptPages() async throws -> Int {
        try await self.request(.get, "/metrics").text.split(separator: "\n")
            .filter { $0.hasPrefix("fitcircle_hot_reads_total{") && $0.contains(#"answer="kept""#) }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0) { $0 + Int($1) }
    }
}
