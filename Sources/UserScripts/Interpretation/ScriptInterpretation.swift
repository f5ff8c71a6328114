/// What PageScript concludes about a script: how it reads each rule, what it set aside and why,
/// whether and when the script runs by itself, and the files it asks for.
///
/// The interpretation is a pure function of the file's text (and of its name, for a script without
/// `@name`). It is never written into the file: the library keeps it beside the files, in its
/// index, keyed by each file's fingerprint, and `pagescript scripts show` and `scripts which`
/// print it.
///
/// ```swift
/// let meaning = try library.find("tidy").interpretation
/// meaning.runMode                  // .automatic(.documentIdle)
/// meaning.rules.map(\.reading)     // [.asWritten, .narrowed("read as ...")]
/// meaning.notes.map(\.description) // ["line 9: @name appears again (first on line 2); ..."]
/// meaning.requires.map(\.url)      // [https://code.jquery.com/jquery-3.7.1.min.js]
/// ```
public struct ScriptInterpretation: Hashable, Sendable {
    /// `@name`, or the name taken from the file when there is none.
    public let name: String
    /// Whether the script runs by itself, and when.
    public let runMode: RunMode
    /// The line of the `@run-at` in use, or `nil` when the default (document-idle) applies.
    public let runAtLine: Int?
    /// Every `@match`, `@include`, `@exclude-match` and `@exclude` line, in file order.
    public let rules: [SiteRule]
    /// What PageScript noticed, line by line: comments, lines set aside and why.
    public let notes: [ScriptNote]
    /// The `@require` lines, in order: files to run before the script, in the same scope.
    public let requires: [RequiredFile]
    /// The `@resource` lines, in order.
    public let resources: [RequiredFile]
    /// Every `@grant` value, as written.
    public let grants: [String]
    /// `@noframes`: the script never runs automatically inside frames.
    public let noFrames: Bool

    /// Whether the script runs by itself on the pages its rules match.
    public var runsAutomatically: Bool { runMode.runAt != nil }

    /// The rules that add pages, set aside or not.
    public var inclusions: [SiteRule] { rules.filter { !$0.kind.isExclusion } }

    /// The rules that remove pages.
    public var exclusions: [SiteRule] { rules.filter(\.kind.isExclusion) }

    /// The lines a save refuses (rule 9): site rules that cannot be read safely, and unknown
    /// `@run-at` values.
    public var saveProblems: [ScriptNote] { notes.filter(\.refusesSave) }
}
