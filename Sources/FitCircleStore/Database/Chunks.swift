extension Collection {
    /// The collection in consecutive parts of at most `size` elements: one statement's rows or bound values,
    /// well under both databases' limits (PostgreSQL's 65,535 bound values, SQLite's 32,766).
    func chunks(of size: Int) -> [SubSequence] {
        var parts: [SubSequence] = []
        var start = self.startIndex
        while start != self.endIndex {
            let end = self.index(start, offsetBy: size, limitedBy: self.endIndex) ?? self.endIndex
            parts.append(self[start..<end])
            start = end
        }
        return parts
    }
}
