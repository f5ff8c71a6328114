/// Which JavaScript world a script asks to run in, as Violentmonkey's `@inject-into` and
/// Tampermonkey's `@sandbox` say.
///
/// The page's own world shares every global with the page's scripts (they can read and change
/// the script's, and the script theirs); an isolated world (an extension's content-script world)
/// shares only the DOM.
///
/// | line | world |
/// | --- | --- |
/// | none, `@inject-into page`, `@inject-into auto`, `@sandbox raw`, `@sandbox JavaScript` | ``page`` |
/// | `@inject-into content`, `@sandbox DOM` | ``isolated`` |
///
/// `auto` asks for the page's world and an isolated one only where the page's
/// Content-Security-Policy refuses the script: PageScript compiles scripts outside the policy,
/// so `auto` is always the page's world.
///
/// ```swift
/// UserScript(text: "// ==UserScript==\n// @inject-into content\n// ==/UserScript==\n").requestedWorld.world   // .isolated
/// ```
public enum ScriptWorld: String, Sendable, Equatable {
    case page
    case isolated
}

extension UserScript {
    /// The world the script asks for, and the line that asks (`@inject-into content`), or `nil`
    /// for the page's world by default. `@inject-into` wins over `@sandbox`; a value neither
    /// manager knows leaves the page's world.
    public var requestedWorld: (world: ScriptWorld, line: String?) {
        if let value = value(for: "inject-into")?.lowercased() {
            return (value == "content" ? .isolated : .page, "@inject-into \(value)")
        }
        if let value = value(for: "sandbox") {
            return (value.lowercased() == "dom" ? .isolated : .page, "@sandbox \(value)")
        }
        return (.page, nil)
    }
}
