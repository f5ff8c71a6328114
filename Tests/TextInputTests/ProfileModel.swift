import Observation
import TextInput

/// A model using the Observation framework, which conforms to `ObservableModel` for free.
@Observable
final class ProfileModel: ObservableModel {
    var age: Int?
    var name = ""
}
