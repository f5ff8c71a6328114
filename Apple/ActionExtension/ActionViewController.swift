import os
import PageScriptUIKit
import UIKit
import ActionExtensionSupport
import UniformTypeIdentifiers
import UserScripts

/// The script editor Safari shows when the user picks PageScript from the share sheet.
///
/// 1. Safari has run Action.js's `run` on the page; its result (the page's URL and title) arrives
///    as a property list in the extension's input items and becomes the title.
/// 2. The script kept for the page's site, if any, is loaded from the library in the App Group
///    container; the menu offers the built-in examples, the library's scripts, and saving the
///    editor's text as the site's script.
/// 3. Done hands the script to Action.js's `finalize`, which runs it in the page; Cancel leaves
///    the page untouched.
///
/// Every decision about the data (reading Safari's dictionary, cleaning the title, the reply's
/// shape) is made by `ActionPage`, `PageTitleText` and `ActionReply`; this class only wires UIKit.
final class ActionViewController: UIViewController {
    private let textView = PlaceholderTextView()
    private var keyboardAvoider: TextViewKeyboardAvoider?
    private let menuItem = UIBarButtonItem(title: "More", image: UIImage(systemName: "ellipsis.circle"), primaryAction: nil, menu: nil)

    private var library: ScriptLibrary?
    private var examples: [ExampleScript] = []
    private var page: ActionPage?
    /// The site's script as last loaded or saved; its fingerprint guards the next save.
    private var siteScript: StoredScript?

    /// The extension request, which belongs to the principal navigation controller.
    private var request: NSExtensionContext? {
        navigationController?.extensionContext ?? extensionContext
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        configureTextView()
        configureNavigationItem()
        keyboardAvoider = TextViewKeyboardAvoider(textView: textView)
        openLibrary()
        readPageFromSafari()
    }

    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        keyboardAvoider?.refresh()
    }

    // MARK: - Setup

    private func configureTextView() {
        textView.configureForCode()
        textView.placeholder = "// JavaScript to run on this page"
        textView.textContainerInset = UIEdgeInsets(top: 12, left: 8, bottom: 12, right: 8)
        textView.alwaysBounceVertical = true
        textView.keyboardDismissMode = .interactive
        textView.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(textView)
        // Edge to edge: the text view keeps its frame and takes the keyboard as a content inset.
        NSLayoutConstraint.activate([
            textView.topAnchor.constraint(equalTo: view.topAnchor),
            textView.bottomAnchor.constraint(equalTo: view.bottomAnchor),
            textView.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            textView.trailingAnchor.constraint(equalTo: view.trailingAnchor),
        ])
    }

    private func configureNavigationItem() {
        navigationItem.title = "PageScript"
        navigationItem.leftBarButtonItem = UIBarButtonItem(systemItem: .cancel, primaryAction: UIAction { [weak self] _ in
            self?.cancel()
        })
        let done = UIBarButtonItem(systemItem: .done, primaryAction: UIAction { [weak self] _ in
            self?.done()
        })
        navigationItem.rightBarButtonItems = [done, menuItem]
        updateMenu()
    }

    private func openLibrary() {
        do {
            library = try AppGroupLibrary.open()
        } catch {
            showMessage(error.description)
        }
        do {
            examples = try ExampleCatalog.builtIn().examples
        } catch {
            Logger(subsystem: "PageScript.ActionExtension", category: "Examples")
                .error("No examples: \(error.description, privacy: .public)")
        }
        updateMenu()
    }

    // MARK: - Safari's input

    private func readPageFromSafari() {
        let propertyList = UTType.propertyList.identifier
        let providers = (request?.inputItems ?? [])
            .compactMap { $0 as? NSExtensionItem }
            .flatMap { $0.attachments ?? [] }
        guard let provider = providers.first(where: { $0.hasItemConformingToTypeIdentifier(propertyList) }) else {
            Logger(subsystem: "PageScript.ActionExtension", category: "Safari")
                .notice("Opened without a web page; editing without a site.")
            return
        }
        // Explicitly @Sendable: the provider calls back on a queue of its own, and the page is
        // read there, into a Sendable value, before hopping to the main actor.
        provider.loadItem(forTypeIdentifier: propertyList, options: nil) { @Sendable [weak self] item, error in
            if let error {
                Logger(subsystem: "PageScript.ActionExtension", category: "Safari")
                    .error("Safari sent no page: \(error.localizedDescription, privacy: .public)")
            }
            let results = (item as? NSDictionary)?[NSExtensionJavaScriptPreprocessingResultsKey]
            let page = ActionPage(preprocessingResults: results)
            Task { @MainActor in
                self?.show(page)
            }
        }
    }

    private func show(_ page: ActionPage) {
        self.page = page
        navigationItem.title = page.displayTitle
        updateMenu()
        guard let library, let url = page.pageURL else { return }
        do {
            siteScript = try library.scriptForSite(url: url)
        } catch {
            showMessage(error.description)
            return
        }
        // The page arrives after the editor is on screen; never overwrite what was typed meanwhile.
        if let siteScript, (textView.text ?? "").isEmpty {
            textView.text = siteScript.script.text
        }
    }

    // MARK: - Menu

    private func updateMenu() {
        var elements: [UIMenuElement] = []
        let siteName = page?.site?.displayName
        let save = UIAction(title: siteName.map { "Save for \($0)" } ?? "Save for This Site", image: UIImage(systemName: "square.and.arrow.down")) { [weak self] _ in
            self?.saveForSite()
        }
        if library == nil || page?.pageURL == nil {
            save.attributes = .disabled
        }
        elements.append(save)
        let open = UIAction(title: "Open Script…", image: UIImage(systemName: "list.bullet")) { [weak self] _ in
            self?.showScripts()
        }
        if library == nil {
            open.attributes = .disabled
        }
        elements.append(open)
        let exampleActions = examples.map { example in
            let action = UIAction(title: example.name) { [weak self] _ in
                self?.replaceScript(with: example.script.text)
            }
            action.subtitle = example.summary
            return action
        }
        if !exampleActions.isEmpty {
            elements.append(UIMenu(title: "Examples", image: UIImage(systemName: "text.book.closed"), children: exampleActions))
        }
        menuItem.menu = UIMenu(children: elements)
    }

    private func showScripts() {
        guard let library else { return }
        let scripts: [StoredScript]
        do {
            scripts = try library.scripts()
        } catch {
            showMessage(error.description)
            return
        }
        let list = ScriptListViewController(scripts: scripts) { [weak self] script in
            self?.replaceScript(with: script.script.text)
        }
        present(UINavigationController(rootViewController: list), animated: true)
    }

    private func saveForSite() {
        guard let library, let page, let url = page.pageURL else { return }
        let code = textView.text ?? ""
        guard !code.isEmpty else {
            showMessage("Nothing to save: the script is empty.")
            return
        }
        do {
            siteScript = try library.saveForSite(url: url, code: code, basedOn: siteScript)
            showMessage("Saved for \(page.site?.displayName ?? "this site")")
        } catch {
            showMessage(error.description)
        }
    }

    /// Replaces the whole text through `UITextInput`, so the change can be undone.
    private func replaceScript(with text: String) {
        if let whole = textView.textRange(from: textView.beginningOfDocument, to: textView.endOfDocument) {
            textView.replace(whole, withText: text)
        } else {
            textView.text = text
        }
        textView.selectedRange = NSRange(location: 0, length: 0)
        keyboardAvoider?.revealCaret()
    }

    /// Shows a short status line above the title, where it does not cover the script.
    private func showMessage(_ message: String) {
        navigationItem.prompt = message
    }

    // MARK: - Finishing

    private func done() {
        let argument = ActionReply.finalizeArgument(script: textView.text ?? "") as NSDictionary
        let reply: NSDictionary = [NSExtensionJavaScriptFinalizeArgumentKey: argument]
        let item = NSExtensionItem()
        item.attachments = [NSItemProvider(item: reply, typeIdentifier: UTType.propertyList.identifier)]
        request?.completeRequest(returningItems: [item], completionHandler: nil)
    }

    private func cancel() {
        request?.cancelRequest(withError: CocoaError(.userCancelled))
    }
}
