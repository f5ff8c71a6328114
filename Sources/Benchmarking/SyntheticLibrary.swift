import Foundation
import SystemSupport
import UserScripts

/// A generated library of userscripts, the same for the same size and seed, for timing site
/// matching and library loading at sizes no one keeps by hand.
///
/// Every script has three `@match` patterns on realistic hosts:
///
/// - `*://<host>/*` on a subdomain (or the bare domain) of a site, filed under an exact host;
/// - `https://*.<domain>/<section>/*`, every subdomain of the same site, filed under its domain;
/// - `*://<host>/<section>*` on a second site, or, for one script in
///   ``allSitesShare``, `*://*/*` (a script for every site, which every lookup must check).
///
/// One script in ``wellKnownShare`` is written for one of 16 well-known sites (github.com,
/// youtube.com, wikipedia.org, bbc.co.uk, ...), the rest for generated sites such as
/// `mapleriver42.de`, about two scripts per generated site. ``lookupURL`` is on a well-known site,
/// so a lookup has real candidates to check and finds real matches.
///
/// ```swift
/// let library = try SyntheticLibrary(count: 10_000)
/// let matcher = ScriptMatcher(library.matcherInput)
/// matcher.matches(try PageURL(SyntheticLibrary.lookupURL)).count   // a handful
/// ```
public struct SyntheticLibrary: Sendable {
    /// The scripts, in generation order.
    public let scripts: [UserScript]

    /// The page looked up in the benchmarks: an issue list on github.com.
    public static let lookupURL = "https://github.com/apple/swift/issues?q=is%3Aopen"

    /// One script in this many is written for a well-known site.
    public static let wellKnownShare = 20
    /// One script in this many also matches every site.
    public static let allSitesShare = 500

    static let wellKnownDomains = [
        "github.com", "youtube.com", "wikipedia.org", "ycombinator.com", "reddit.com", "google.com",
        "stackoverflow.com", "x.com", "amazon.com", "bbc.co.uk", "python.org", "nytimes.com",
        "twitch.tv", "linkedin.com", "whatsapp.com", "instagram.com",
    ]
    static let subdomains = ["", "www", "www", "m", "en", "news", "mail", "docs", "app", "shop", "forum", "blog"]
    static let sections = ["issues", "watch", "wiki", "pull", "search", "account", "cart", "article", "r", "questions", "settings", "feed"]
    static let words = [
        "maple", "river", "stone", "cloud", "north", "amber", "cedar", "delta", "ember", "falcon",
        "garden", "harbor", "iris", "jade", "kite", "lumen", "meadow", "noble", "ocean", "pixel",
        "quartz", "raven", "solar", "tiger", "urban", "violet", "willow", "xenon", "yellow", "zephyr",
        "atlas", "bright", "copper", "dune", "echo", "forest", "glacier", "hollow", "island", "jungle",
    ]
    static let topLevelDomains = ["com", "org", "net", "de", "co.uk", "io", "fr", "jp"]

    /// Generates `count` scripts.
    ///
    /// - Parameters:
    ///   - count: How many scripts.
    ///   - seed: Picks the hosts and sections; the same seed gives the same library.
    /// - Throws: ``MetadataError`` if a generated script cannot be read back (a bug here).
    public init(count: Int, seed: UInt64 = 0x5EED_CAFE) throws(MetadataError) {
        var random = SeededRandomGenerator(seed: seed)
        let generatedSites = max(count / 2, 1)
        var scripts: [UserScript] = []
        scripts.reserveCapacity(count)
        for index in 0..<count {
            let domain = random.next(below: Self.wellKnownShare) == 0
                ? Self.wellKnownDomains[random.next(below: Self.wellKnownDomains.count)]
                : Self.generatedDomain(random.next(below: generatedSites))
            let host = Self.host(Self.subdomains[random.next(below: Self.subdomains.count)], domain)
            let section = Self.sections[random.next(below: Self.sections.count)]
            let third: String
            if index % Self.allSitesShare == Self.allSitesShare - 1 {
                third = "*://*/*"
            } else {
                let otherHost = Self.host(Self.subdomains[random.next(below: Self.subdomains.count)],
                                          Self.generatedDomain(random.next(below: generatedSites)))
                third = "*://\(otherHost)/\(Self.sections[random.next(below: Self.sections.count)])*"
            }
            scripts.append(try UserScript.make(
                name: "Generated script \(index + 1)",
                description: "Tidies \(domain) (generated for benchmarks)",
                matches: ["*://\(host)/*", "https://*.\(domain)/\(section)/*", third],
                runAt: .documentIdle,
                body: Self.body))
        }
        self.scripts = scripts
    }

    /// The scripts as the matcher takes them, with IDs `generated-1`, `generated-2`, ...
    public var matcherInput: [(id: ScriptID, rules: [SiteRule])] {
        scripts.enumerated().map { (id: ScriptID("generated-\($0.offset + 1)"), rules: $0.element.siteRules) }
    }

    /// Writes every script to `directory` as `generated-script-<n>.user.js`, the way a user drops
    /// files into the library folder.
    ///
    /// - Parameter directory: An existing folder.
    /// - Throws: The file system's error when a file cannot be written.
    public func write(to directory: URL) throws {
        for (offset, script) in scripts.enumerated() {
            try Self.write(script, named: "generated-script-\(offset + 1)", to: directory)
        }
    }

    /// Writes one script to `directory` as `<name>.user.js`.
    ///
    /// - Parameters:
    ///   - script: The script.
    ///   - name: The file name without `.user.js`.
    ///   - directory: An existing folder.
    public static func write(_ script: UserScript, named name: String, to directory: URL) throws {
        try Data(script.text.utf8).write(to: directory.appendingPathComponent(name + ".user.js"))
    }

    /// `mapleriver.com`, `rivermaple.org`, ... : distinct for every index.
    static func generatedDomain(_ index: Int) -> String {
        let first = words[index % words.count]
        let second = words[(index / words.count) % words.count]
        let tld = topLevelDomains[(index / (words.count * words.count)) % topLevelDomains.count]
        let round = index / (words.count * words.count * topLevelDomains.count)
        return "\(first)\(second)\(round == 0 ? "" : String(round)).\(tld)"
    }

    private static func host(_ subdomain: String, _ domain: String) -> String {
        subdomain.isEmpty ? domain : "\(subdomain).\(domain)"
    }

    /// A body of typical size and shape (about 600 bytes): find elements, change them, report.
    private static let body = """
        (function () {
          'use strict';
          const hidden = [];
          for (const element of document.querySelectorAll('[class*="banner"], [id*="cookie"], .promo, aside.sticky')) {
            if (element.closest('main, article')) continue;
            element.style.setProperty('display', 'none', 'important');
            hidden.push(element.tagName.toLowerCase() + (element.id ? '#' + element.id : ''));
          }
          for (const link of document.querySelectorAll('a[target="_blank"]')) {
            link.rel = 'noopener noreferrer';
          }
          document.documentElement.dataset.tidied = String(hidden.length);
          return { hidden, title: document.title };
        })();

        """
}

private extension SeededRandomGenerator {
    /// A number below `bound` by plain remainder, as every generated library so far was made,
    /// so that a seed keeps giving the same library.
    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
