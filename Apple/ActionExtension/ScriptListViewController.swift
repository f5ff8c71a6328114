import UIKit
import UserScripts

/// The library's scripts by name; choosing one puts its text in the editor.
final class ScriptListViewController: UITableViewController {
    private let scripts: [StoredScript]
    private let onChoose: @MainActor @Sendable (StoredScript) -> Void
    private let cellIdentifier = "script"

    /// Creates the list.
    ///
    /// - Parameters:
    ///   - scripts: The scripts to offer, in the library's order (by name).
    ///   - onChoose: Called with the chosen script after the list is dismissed.
    init(scripts: [StoredScript], onChoose: @escaping @MainActor @Sendable (StoredScript) -> Void) {
        self.scripts = scripts
        self.onChoose = onChoose
        super.init(style: .insetGrouped)
    }

    required init?(coder: NSCoder) {
        scripts = []
        onChoose = { _ in }
        super.init(coder: coder)
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Scripts"
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: cellIdentifier)
        navigationItem.leftBarButtonItem = UIBarButtonItem(systemItem: .cancel, primaryAction: UIAction { [weak self] _ in
            self?.dismiss(animated: true)
        })
        if scripts.isEmpty {
            var empty = UIContentUnavailableConfiguration.empty()
            empty.text = "No Scripts"
            empty.secondaryText = "Scripts saved for a site, or added in the PageScript app, appear here."
            contentUnavailableConfiguration = empty
        }
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        scripts.count
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: cellIdentifier, for: indexPath)
        let script = scripts[indexPath.row]
        var content = UIListContentConfiguration.subtitleCell()
        content.text = script.name
        content.secondaryText = script.script.scriptDescription
        cell.contentConfiguration = content
        return cell
    }

    override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        let script = scripts[indexPath.row]
        let onChoose = onChoose
        dismiss(animated: true) {
            onChoose(script)
        }
    }
}
