/// PageScript's version, in one place: what `pagescript --version` prints and what userscripts
/// read as `GM_info.version` (the manager's version, as Tampermonkey and Violentmonkey report
/// theirs).
///
/// ```swift
/// let version = ProductVersion.current // "0.1.0"
/// ```
public enum ProductVersion {
    /// The version of this build.
    public static let current = "0.1.0"
}
