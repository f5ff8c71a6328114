import Testing

@testable import SystemSupport

/// What `gdbus call` is given and what is read from `dbus-monitor`; the whole chain, with a real
/// bus and a real dunst, is `BrowseCommandTests.gmNotificationIsShownAndItsClickReachesTheScript`.
struct DesktopNotificationsTests {
    @Test(arguments: [
        ("plain", "'plain'"),
        ("it's", "'it\\'s'"),
        ("back\\slash", "'back\\\\slash'"),
        ("two\nlines\u{7f}", "'two\\u000alines\\u007f'"),
        ("nul\u{0}gone", "'nulgone'"),
        ("é 漢字 🙂", "'é 漢字 🙂'"),
        ("--help", "'--help'"),
    ])
    func textIsAGVariantStringLiteral(text: String, literal: String) {
        #expect(DesktopNotification.literal(text) == literal)
    }

    @Test func theNotifyArgumentsCarryTheHintsAndEscapeTheBodysMarkup() {
        var notification = DesktopNotification(summary: "Sale <now>", body: "<b>50%</b> & more")
        notification.replacesID = 7
        notification.silent = true
        notification.imagePath = "/tmp/icon.png"
        notification.expireTimeout = 5000
        #expect(notification.notifyArguments == [
            "'PageScript'", "7", "''", "'Sale <now>'", "'&lt;b&gt;50%&lt;/b&gt; &amp; more'", "['default', 'Open']",
            "{'image-path': <'/tmp/icon.png'>, 'suppress-sound': <true>}", "5000",
        ])
        #expect(DesktopNotification(summary: "", body: "").notifyArguments.suffix(2) == ["{}", "-1"])
    }

    /// `dbus-monitor`'s lines as dbus-daemon 1.14 printed them for dunst's signals.
    @Test func theMonitorsLinesBecomeEvents() {
        var parser = MonitorParser()
        let lines = [
            "signal time=1796030836.237550 sender=org.freedesktop.DBus -> destination=:1.1 serial=2 path=/org/freedesktop/DBus; interface=org.freedesktop.DBus; member=NameAcquired",
            "   string \":1.1\"",
            "signal time=1796030836.237579 sender=org.freedesktop.DBus -> destination=:1.1 serial=4 path=/org/freedesktop/DBus; interface=org.freedesktop.DBus; member=NameLost",
            "   string \":1.1\"",
            "signal time=1796030854.471728 sender=:1.0 -> destination=:1.5 serial=14 path=/org/freedesktop/Notifications; interface=org.freedesktop.Notifications; member=ActionInvoked",
            "   uint32 1",
            "   string \"default\"",
            "signal time=1796030839.319237 sender=:1.0 -> destination=:1.6 serial=9 path=/org/freedesktop/Notifications; interface=org.freedesktop.Notifications; member=NotificationClosed",
            "   uint32 2",
            "   uint32 1",
        ]
        let outcomes = lines.compactMap { parser.take($0) }
        #expect(outcomes == [.listening, .event(.actionInvoked(id: 1, action: "default")), .event(.closed(id: 2, reason: 1))])
    }
}

/// Which of a page's MIME types reach `xclip` as its target.
struct X11ClipboardTests {
    @Test(arguments: [("text/plain", true), ("text/html", true), ("image/svg+xml", true), ("-display/x", false), ("text/-o", false),
                      ("text", false), ("text/html/x", false), ("text/ html", false), ("", false)])
    func onlyAMIMETypeIsATarget(type: String, isOne: Bool) {
        #expect(X11Clipboard.isMIMEType(type) == isOne)
    }
}
