import FitCircleCore

/// A join code is `joinCode` in a request, as circles and challenges call it (review I10); `code`, its first
/// name, is still read (deprecated). Both at once must agree.
enum JoinCode {
    static func given(joinCode: String?, code: String?) throws -> String? {
        if let joinCode, let code, joinCode != code {
            throw ValidationError(field: "code", reason: "differs from joinCode; send joinCode alone")
        }
        return joinCode ?? code
    }
}
