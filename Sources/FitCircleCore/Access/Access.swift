/// What the access policy answers: allowed, or denied in one of two ways. A caller who may not know that a
/// thing exists (a private circle they are not in) is told it does not (`hidden`, 404); one who may know it
/// but not do this is told why (`forbidden`, 403). Every operation follows that one rule.
public enum Access: Equatable, Sendable {
    case allowed
    case hidden
    case forbidden(String)
    /// Forbidden for a reason a client can act on, with a problem type of its own (a fresh sign-in).
    case refused(Refusal)

    /// Throws the denial as the domain error the API maps (404 names `resource` and `id`).
    public func require(_ resource: String, _ id: String) throws(DomainError) {
        switch self {
        case .allowed: return
        case .hidden: throw DomainError.notFound(resource: resource, id: id)
        case .forbidden(let reason): throw DomainError.forbidden(reason: reason)
        case .refused(let refusal): throw DomainError.refused(refusal)
        }
    }
}
