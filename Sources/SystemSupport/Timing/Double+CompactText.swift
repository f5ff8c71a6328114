extension Double {
    /// The number without a trailing `.0` for whole values, for messages: `2` for 2 seconds,
    /// `0.5` for half a second.
    public var compactText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
