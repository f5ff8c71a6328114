extension Array where Element == Int {
    /// In ascending starts (of rows, of characters), the position of the last one at or before
    /// `offset`: the item that holds `offset`. A binary search; the first item when `offset` is
    /// before them all.
    func indexOfStart(holding offset: Int) -> Int {
        var low = 0
        var high = count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if self[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
