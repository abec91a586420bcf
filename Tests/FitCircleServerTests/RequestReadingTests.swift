import HTTPTypes
import Testing

@testable import FitCircleServer

/// The hand-written readers of a request's parts that the hot path uses instead of allocating ones (issue 42):
/// each must read exactly what the plain way reads.
@Suite struct RequestReadingTests {
    @Test func theBearerSchemeIsReadWithoutCaseAndNothingElseIsTaken() {
        for header in ["Bearer abc.def", "bearer abc.def", "BEARER abc.def", "bEaReR abc.def"] {
            #expect(AuthenticationMiddleware.bearerToken(header) == "abc.def", "\(header)")
        }
        for header in [
            "Bearer", "Bearer ", "Basic YTpi", "Bearerx abc", "Beare abc", "Bearer\tabc", " abc", "Bëarer abc",
            "Dearer abc",
        ] {
            #expect(AuthenticationMiddleware.bearerToken(header) == nil, "\(header)")
        }
    }

    @Test func aFieldIsReadAsTheSubscriptReadsIt() {
        var fields = HTTPFields()
        fields[.accept] = "text/html"
        fields.append(HTTPField(name: .ifNoneMatch, value: "\"a\""))
        fields.append(HTTPField(name: .ifNoneMatch, value: "\"b\""))
        fields.append(HTTPField(name: .cookie, value: "a=1"))
        fields.append(HTTPField(name: .cookie, value: "b=2"))
        for name in [HTTPField.Name.accept, .ifNoneMatch, .cookie, .authorization] {
            #expect(fields.value(name) == fields[name], "\(name)")
        }
        #expect(fields.value(.ifNoneMatch) == "\"a\", \"b\"")
        #expect(fields.value(.authorization) == nil)
    }

    @Test func aPlainQueryIsReadAsWrittenAndAnEscapedOneIsLeftToTheGeneratedStack() {
        func read(_ query: String?) -> [String]? {
            HotReadMiddleware<AppRequestContext>.plainQuery(query)?.map { "\($0.key)=\($0.value)" }
        }
        #expect(read(nil) == [])
        #expect(read("") == [])
        #expect(read("period=weekly") == ["period=weekly"])
        #expect(read("period=weekly&&limit") == ["period=weekly", "limit="])
        #expect(read("a=b=c") == ["a=b=c"])
        #expect(read("period=week%6Cy") == nil)
        #expect(read("period=a+b") == nil)
    }
}
