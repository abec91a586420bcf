import FitCircleAPI
import FitCircleCore
import FitCircleEngine
import Foundation
import OpenAPIRuntime

extension API {
    func getProfile(_ input: Operations.GetProfile.Input) async throws -> Operations.GetProfile.Output {
        // The caller's account as authentication found it: current, since every change of it reaches each
        // node's account cache (`Store.cachedSessionAndUser`).
        let user = try RequestCaller.required().user
        return .ok(.init(body: .json(try .init(user, profile: self.engine.profile))))
    }

    func deleteAccount(_ input: Operations.DeleteAccount.Input) async throws -> Operations.DeleteAccount.Output {
        try await self.engine.accountLife.delete(try RequestCaller.required())
        return .noContent(.init())
    }

    func exportAccount(_ input: Operations.ExportAccount.Input) async throws -> Operations.ExportAccount.Output {
        let export = self.engine.accountLife.export(of: try RequestCaller.required().userID)
        return .ok(.init(body: .applicationXNdjson(HTTPBody(export, length: .unknown, iterationBehavior: .single))))
    }

    func updateProfile(_ input: Operations.UpdateProfile.Input) async throws -> Operations.UpdateProfile.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let user = try await self.engine.profiles.update(
            try RequestCaller.required().userID,
            with: try ProfileInput(body)
        )
        return .ok(.init(body: .json(try .init(user, profile: self.engine.profile))))
    }

    func changeProfile(_ input: Operations.ChangeProfile.Input) async throws -> Operations.ChangeProfile.Output {
        guard case .json(let body) = input.body else {
            throw DomainError.unsupportedMediaType(accepted: ["application/json"])
        }
        let user = try await self.engine.profiles.change(
            try RequestCaller.required().userID,
            with: try ProfileChange(body)
        )
        return .ok(.init(body: .json(try .init(user, profile: self.engine.profile))))
    }

    func uploadProfilePhoto(_ input: Operations.UploadProfilePhoto.Input) async throws
        -> Operations.UploadProfilePhoto.Output
    {
        let body: HTTPBody =
            switch input.body {
            case .jpeg(let body), .png(let body), .binary(let body): body
            }
        // One byte over the limit is enough to know the photo is too large.
        let limit = ImageFormat.maximumPhotoBytes
        let data: Data
        do {
            data = try await Data(collecting: body, upTo: limit + 1)
        } catch {
            throw DomainError.payloadTooLarge(limit: limit)
        }
        let user = try await self.engine.profiles.setPhoto(of: try RequestCaller.required().userID, data: data)
        return .ok(.init(body: .json(try .init(user, profile: self.engine.profile))))
    }

    func getUserPhoto(_ input: Operations.GetUserPhoto.Input) async throws -> Operations.GetUserPhoto.Output {
        let member = User.ID(input.path.id)
        guard let photo = try await self.engine.profiles.photo(of: member, seenBy: try RequestCaller.required().userID)
        else {
            throw DomainError.notFound(resource: "photo of user", id: member.rawValue)
        }
        let body = HTTPBody(photo.data)
        return .ok(.init(body: photo.contentType == ImageFormat.png.contentType ? .png(body) : .jpeg(body)))
    }

    func getProfilePhoto(_ input: Operations.GetProfilePhoto.Input) async throws -> Operations.GetProfilePhoto.Output {
        let caller = try RequestCaller.required()
        guard let photo = try await self.engine.profiles.photo(of: caller.userID) else {
            throw DomainError.notFound(resource: "photo of user", id: caller.userID.rawValue)
        }
        let body = HTTPBody(photo.data)
        return .ok(.init(body: photo.contentType == ImageFormat.png.contentType ? .png(body) : .jpeg(body)))
    }
}
