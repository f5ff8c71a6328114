#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// A rectangle of cells: columns `x..<x+width`, rows `y..<y+height`.
struct CellRect: Hashable, Sendable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    var maxX: Int { x + width }
    var maxY: Int { y + height }
    var isEmpty: Bool { width == 0 || height == 0 }

    /// The overlap of two rectangles; empty (at this rectangle's origin) when they do not meet.
    func intersection(_ other: CellRect) -> CellRect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        guard right > left, bottom > top else { return CellRect(x: x, y: y, width: 0, height: 0) }
        return CellRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// This rectangle shrunk by `amount` cells on every side.
    func insetBy(_ amount: Int) -> CellRect {
        CellRect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }
}

extension CellRect {
    /// The rectangle in TextInput's geometry, one point per cell.
    var cgRect: CGRect {
        CGRect(x: CGFloat(x), y: CGFloat(y), width: CGFloat(width), height: CGFloat(height))
    }
}
