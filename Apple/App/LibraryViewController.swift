import PageScriptUIKit
import UIKit
import UserScripts

/// The app's one screen: how to turn on the extension in Safari, and the scripts in the library
/// the app shares with it.
final class LibraryViewController: UITableViewController {
    private enum Section: Int, CaseIterable {
        case setup
        case scripts
        case problems
    }

    private static let setupSteps = [
        "In Safari, open a web page and tap the Share button.",
        "Scroll the row of actions to the end, tap Edit Actions…, and turn on PageScript.",
        "Tap PageScript: write JavaScript or pick an example, then tap Done to run it on the page.",
        "Use Save for This Site in the extension's menu to keep a script for a site; it opens with that site's page next time.",
    ]

    private let cellIdentifier = "row"
    private var scripts: [StoredScript] = []
    /// Files that could not be read as scripts, and why the library could not be opened.
    private var problems: [String] = []

    init() {
        super.init(style: .insetGrouped)
        title = "PageScript"
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
        title = "PageScript"
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: cellIdentifier)
        tableView.allowsSelection = false
        navigationItem.rightBarButtonItem = UIBarButtonItem(systemItem: .add, primaryAction: UIAction { [weak self] _ in
            self?.showDetails(.newScript)
        })
        reload()
    }

    /// The new-script or rename screen, over the list; the list reads the library again after a save.
    private func showDetails(_ purpose: ScriptDetailsViewController.Purpose) {
        do {
            let details = ScriptDetailsViewController(purpose, library: try AppGroupLibrary.open()) { [weak self] in self?.reload() }
            present(UINavigationController(rootViewController: details), animated: true)
        } catch {
            problems = [String(describing: error)]
            tableView.reloadData()
        }
    }

    override func tableView(_ tableView: UITableView, trailingSwipeActionsConfigurationForRowAt indexPath: IndexPath) -> UISwipeActionsConfiguration? {
        guard Section(rawValue: indexPath.section) == .scripts else { return nil }
        let script = scripts[indexPath.row]
        let rename = UIContextualAction(style: .normal, title: "Rename") { [weak self] _, _, done in
            self?.showDetails(.rename(script))
            done(true)
        }
        return UISwipeActionsConfiguration(actions: [rename])
    }

    /// Reads the library again; the extension writes to it while the app is in the background.
    func reload() {
        do {
            let library = try AppGroupLibrary.open()
            scripts = try library.scripts()
            problems = try library.problems().map(\.description)
        } catch {
            scripts = []
            problems = [String(describing: error)]
        }
        if isViewLoaded {
            tableView.reloadData()
        }
    }

    override func numberOfSections(in tableView: UITableView) -> Int {
        Section.allCases.count
    }

    override func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? {
        switch Section(rawValue: section) {
        case .setup: "Turn On the Extension"
        case .scripts: "Scripts"
        case .problems: problems.isEmpty ? nil : "Problems"
        case nil: nil
        }
    }

    override func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String? {
        guard Section(rawValue: section) == .scripts, scripts.isEmpty else { return nil }
        return "No scripts yet. Scripts saved from the extension appear here."
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        switch Section(rawValue: section) {
        case .setup: Self.setupSteps.count
        case .scripts: scripts.count
        case .problems: problems.count
        case nil: 0
        }
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: cellIdentifier, for: indexPath)
        var content = UIListContentConfiguration.subtitleCell()
        content.textProperties.numberOfLines = 0
        switch Section(rawValue: indexPath.section) {
        case .setup:
            content.text = "\(indexPath.row + 1). \(Self.setupSteps[indexPath.row])"
        case .scripts:
            let script = scripts[indexPath.row]
            content.text = script.name
            content.secondaryText = script.script.scriptDescription
        case .problems:
            content.text = problems[indexPath.row]
            content.textProperties.color = .secondaryLabel
        case nil:
            break
        }
        cell.contentConfiguration = content
        return cell
    }
}
