import PageScriptUIKit
import TextInput
import UIKit
import UserScripts

/// What the new-script and rename screens edit; fields are bound to it through TextInput's
/// `FieldBinding`.
final class ScriptDetails: ObservableModel {
    private let changes = ChangeNotifier()
    var name: String? { didSet { changes.notifyChange() } }
    var matchPatterns: [String]? { didSet { changes.notifyChange() } }

    init(name: String?, matchPatterns: [String]?) {
        self.name = name
        self.matchPatterns = matchPatterns
    }

    func observeChanges(of keyPath: AnyKeyPath, _ handler: @escaping @Sendable () -> Void) -> ObservationToken {
        changes.observe(handler)
    }
}

/// The app's new-script and rename screen: a name field and, for a new script, its match
/// patterns, with the same field formats as the terminal editor's Ctrl-N form (a name that must
/// not be empty; patterns that refuse, as they are typed, what cannot become a valid pattern).
final class ScriptDetailsViewController: UIViewController {
    /// What the screen does when Save is tapped.
    enum Purpose {
        /// A new script in the library, with an empty body.
        case newScript
        /// A new `@name` for a script the library has.
        case rename(StoredScript)
    }

    private let purpose: Purpose
    private let library: ScriptLibrary
    private let saved: () -> Void
    private let details: ScriptDetails
    private let nameField = UITextField()
    private let patternsField = UITextField()
    private let problemLabel = UILabel()
    private var nameBinding: TextFieldBinding<ScriptDetails, NameFormat>?
    private var patternsBinding: TextFieldBinding<ScriptDetails, PatternListFormat>?
    private static let nameFormat = NameFormat(missing: "Give the script a name.")
    private static let patternsFormat = PatternListFormat(canBecomeValid: MatchPattern.canBecomeValid, problem: MatchPattern.problem(with:))

    init(_ purpose: Purpose, library: ScriptLibrary, saved: @escaping () -> Void) {
        self.purpose = purpose
        self.library = library
        self.saved = saved
        switch purpose {
        case .newScript: details = ScriptDetails(name: nil, matchPatterns: nil)
        case let .rename(stored): details = ScriptDetails(name: stored.name, matchPatterns: nil)
        }
        super.init(nibName: nil, bundle: nil)
        if case .newScript = purpose { title = "New Script" } else { title = "Rename" }
    }

    required init?(coder: NSCoder) {
        nil
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        navigationItem.leftBarButtonItem = UIBarButtonItem(systemItem: .cancel, primaryAction: UIAction { [weak self] _ in self?.dismiss(animated: true) })
        navigationItem.rightBarButtonItem = UIBarButtonItem(systemItem: .save, primaryAction: UIAction { [weak self] _ in self?.save() })
        nameField.placeholder = "Name"
        nameField.borderStyle = .roundedRect
        nameBinding = TextFieldBinding(textField: nameField, model: details, keyPath: \.name, format: Self.nameFormat)
        var fields: [UIView] = [nameField]
        if case .newScript = purpose {
            patternsField.placeholder = "*://example.com/*"
            patternsField.borderStyle = .roundedRect
            patternsField.autocapitalizationType = .none
            patternsBinding = TextFieldBinding(textField: patternsField, model: details, keyPath: \.matchPatterns, format: Self.patternsFormat)
            fields.append(patternsField)
        }
        problemLabel.numberOfLines = 0
        problemLabel.textColor = .systemRed
        problemLabel.font = .preferredFont(forTextStyle: .footnote)
        let stack = UIStackView(arrangedSubviews: fields + [problemLabel])
        stack.axis = .vertical
        stack.spacing = 12
        stack.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(stack)
        NSLayoutConstraint.activate([
            stack.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 20),
            stack.leadingAnchor.constraint(equalTo: view.layoutMarginsGuide.leadingAnchor),
            stack.trailingAnchor.constraint(equalTo: view.layoutMarginsGuide.trailingAnchor),
        ])
    }

    /// Saves when every field holds a value; otherwise shows why not under the fields.
    private func save() {
        var problems = [Self.nameFormat.problem(with: nameField.text ?? "")]
        if case .newScript = purpose { problems.append(Self.patternsFormat.problem(with: patternsField.text ?? "")) }
        let shown = problems.compactMap { $0 }
        guard shown.isEmpty, let name = details.name else {
            problemLabel.text = shown.joined(separator: "\n")
            return
        }
        do {
            switch purpose {
            case .newScript:
                _ = try library.create(try UserScript.make(name: name, matches: details.matchPatterns ?? [], body: ""))
            case var .rename(stored):
                try stored.script.setValue(name, forKey: "name")
                _ = try library.save(stored)
            }
        } catch {
            problemLabel.text = String(describing: error)
            return
        }
        saved()
        dismiss(animated: true)
    }
}
