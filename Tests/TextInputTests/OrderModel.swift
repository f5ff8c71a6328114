import Foundation
import TextInput

/// A model written the way an app would: each property reports its changes through a
/// `ChangeNotifier`. Its storage is locked so that a test may change it from another thread.
final class OrderModel: ObservableModel, @unchecked Sendable {
    // Unchecked because every stored value is only touched under `lock`.
    private let lock = NSLock()
    private let changes = ChangeNotifier()
    private var storedQuantity = 1
    private var storedDiscount: Decimal?
    private var storedNote: String?
    private var storedLimit: Int?
    private var storedWrites = 0

    var quantity: Int {
        get { lock.withLock { storedQuantity } }
        set { set { $0.storedQuantity = newValue } }
    }

    var discount: Decimal? {
        get { lock.withLock { storedDiscount } }
        set { set { $0.storedDiscount = newValue } }
    }

    var note: String? {
        get { lock.withLock { storedNote } }
        set { set { $0.storedNote = newValue } }
    }

    var limit: Int? {
        get { lock.withLock { storedLimit } }
        set { set { $0.storedLimit = newValue } }
    }

    /// How many times any property was written.
    var writes: Int { lock.withLock { storedWrites } }

    func observeChanges(of keyPath: AnyKeyPath, _ handler: @escaping @Sendable () -> Void) -> ObservationToken {
        changes.observe(handler)
    }

    private func set(_ change: (OrderModel) -> Void) {
        lock.withLock {
            change(self)
            storedWrites += 1
        }
        changes.notifyChange()
    }
}
