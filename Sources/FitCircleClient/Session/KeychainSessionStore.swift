#if canImport(Security)
    import Foundation
    import Security

    /// The session in the Keychain, readable only by this app and only while the device has been unlocked since
    /// it started (so background syncs work after the first unlock). The default store on Apple platforms.
    public struct KeychainSessionStore: SessionStore {
        public let service: String
        public let account: String

        public init(service: String = "fitcircle.session", account: String = "default") {
            self.service = service
            self.account = account
        }

        private var query: [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: self.service,
                kSecAttrAccount as String: self.account,
            ]
        }

        public func load() throws -> StoredSession? {
            var query = self.query
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var item: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &item)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = item as? Data else { throw KeychainError(status: status) }
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(StoredSession.self, from: data)
        }

        public func save(_ session: StoredSession) throws {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            let data = try encoder.encode(session)
            let attributes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            var status = SecItemUpdate(self.query as CFDictionary, attributes as CFDictionary)
            if status == errSecItemNotFound {
                status = SecItemAdd(self.query.merging(attributes) { $1 } as CFDictionary, nil)
            }
            guard status == errSecSuccess else { throw KeychainError(status: status) }
        }

        public func clear() throws {
            let status = SecItemDelete(self.query as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
        }

        public struct KeychainError: Error {
            public let status: OSStatus
        }
    }
#endif
