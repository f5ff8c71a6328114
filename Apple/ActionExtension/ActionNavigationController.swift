import UIKit

/// The extension's principal class (`NSExtensionPrincipalClass`): a navigation controller whose
/// root is the script editor, so the editor gets a navigation bar for its title and buttons.
///
/// Safari creates it with `init()`, which reaches `init(nibName:bundle:)`.
final class ActionNavigationController: UINavigationController {
    override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
        viewControllers = [ActionViewController()]
    }

    required init?(coder aDecoder: NSCoder) {
        super.init(coder: aDecoder)
        viewControllers = [ActionViewController()]
    }
}
