import FitCircleCore
import FitCircleStore
import FitCircleTesting
import Foundation
import Testing

struct TransactionTests {
    struct Boom: Error {}

    func user(_ id: String) -> User {
        User(
            id: User.ID(id),
            email: "\(id)@example.com",
            profile: UserProfile(displayName: id, timeZone: "UTC"),
            createdAt: .t0
        )
    }

    @Test(arguments: Backend.available)
    func aFailedTransactionWritesNothing(_ backend: Backend) async throws {
        try await withStore(backend) { store async throws in
            await #expect(throws: Boom.self) {
                try await store.transaction { tx in
                    try await tx.users.insert(self.user("u1"), provider: "dev", subject: "u1")
                    throw Boom()
                }
            }
            let stored = try await store.transaction { try await $0.users.find(User.ID("u1")) }
            #expect(stored == nil)
        }
    }

    @Test(arguments: Backend.available)
    func aSecondIdentityWithTheSameSubjectIsADuplicate(_ backend: Backend) async throws {
        try await withStore(backend) { store async throws in
            try await store.transaction { try await $0.users.insert(self.user("u1"), provider: "dev", subject: "same") }
            await #expect(throws: StoreError.duplicate) {
                try await store.transaction {
                    try await $0.users.insert(self.user("u2"), provider: "dev", subject: "same")
                }
            }
        }
    }

    @Test(arguments: Backend.available)
    func aProfileRoundTripsThroughTheDatabase(_ backend: Backend) async throws {
        try await withStore(backend) { store async throws in
            var edited = self.user("u1")
            try await store.transaction { try await $0.users.insert(self.user("u1"), provider: "dev", subject: "u1") }
            edited.profile = UserProfile(
                displayName: "Ana",
                age: 34,
                weightKg: 62.5,
                weightUnit: .lb,
                heightCm: 170.18,
                heightUnit: .ftIn,
                gender: .nonBinary,
                timeZone: "Pacific/Kiritimati",
                visibility: FieldVisibility(age: .onlyMe, weight: .friends, height: .onlyMe),
                photoKey: "photos/u1/p",
                onboardedAt: .t0.addingTimeInterval(60)
            )
            let user = edited
            try await store.transaction { try await $0.users.save(user.profile, of: user.id, at: .t0) }
            let stored = try await store.transaction { try await $0.users.find(user.id) }
            #expect(stored == user)
        }
    }

    @Test(arguments: Backend.available)
    func concurrentTransactionsOnOneStoreAllCommit(_ backend: Backend) async throws {
        try await withStore(backend) { store async throws in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await store.transaction {
                            try await $0.users.insert(self.user("u\(index)"), provider: "dev", subject: "u\(index)")
                        }
                    }
                }
                try await group.waitForAll()
            }
            for index in 0..<20 {
                let stored = try await store.transaction { try await $0.users.find(User.ID("u\(index)")) }
                #expect(stored != nil)
            }
        }
    }
}
