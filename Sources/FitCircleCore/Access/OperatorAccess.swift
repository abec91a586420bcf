/// Operator-only operations (sending a notification by hand, restating boards, the console): allowed to
/// operators, 403 to anyone else — the operations are documented, so they are no secret. The engine reads
/// the operator fact from the database when it decides, never from a cached session, so a revocation by
/// `fitcircle operator revoke` holds at once, on every node and on SQLite from another process too.
public enum OperatorAccess {
    public static func decide(isOperator: Bool, to what: String) -> Access {
        isOperator ? .allowed : .forbidden("Only operators may \(what).")
    }

    /// A service key's turn at an operator operation (`ServiceAccess` let the request through for one of the
    /// key's scopes; the use case asks again for its own).
    public static func decide(service scopes: Set<ServiceScope>, needs scope: ServiceScope, to what: String) -> Access {
        scopes.contains(scope) ? .allowed : .forbidden("This service key's scopes do not include \(scope.rawValue).")
    }
}
