/// What a user chose to tell about their gender (optional).
public enum Gender: String, CaseIterable, Equatable, Sendable, Codable {
    case female
    case male
    case nonBinary = "non_binary"
    case other
    case preferNotToSay = "prefer_not_to_say"
}
