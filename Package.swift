// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "PageScript",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "pagescript", targets: ["pagescript"]),
        .library(name: "TextInput", targets: ["TextInput"]),
        .library(name: "UserScripts", targets: ["UserScripts"]),
        .library(name: "ActionExtensionSupport", targets: ["ActionExtensionSupport"]),
        .library(name: "PageScriptUIKit", targets: ["PageScriptUIKit"]),
        .library(name: "WebDriver", targets: ["WebDriver"]),
        .library(name: "Engines", targets: ["Engines"]),
        .library(name: "PageRuntime", targets: ["PageRuntime"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "Batch", targets: ["Batch"]),
        .library(name: "JavaScriptSyntax", targets: ["JavaScriptSyntax"]),
        .library(name: "GMAPI", targets: ["GMAPI"]),
        .library(name: "Browsing", targets: ["Browsing"]),
        .library(name: "DevTools", targets: ["DevTools"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // Already resolved through async-http-client; named here for NIOWebSocket (WebSocket).
        .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
    ],
    targets: [
        .target(
            name: "CSystemSupport"
        ),
        .target(
            name: "SystemSupport",
            dependencies: ["CSystemSupport"]
        ),
        // The system's zlib, for the zip backups `scripts import` reads (GMAPI only: never on iOS).
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // The system's libcrypto, for the digests of `@require` integrity hashes on Linux (Apple
        // platforms have CryptoKit): a second copy of BoringSSL would double the build's C.
        .systemLibrary(
            name: "CLibcrypto",
            providers: [.apt(["libssl-dev"])]
        ),

        .target(
            name: "TextInput",
            dependencies: [
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
            ]
        ),
        .target(
            name: "UserScripts",
            resources: [.copy("Examples/Scripts")]
        ),
        .target(
            name: "ActionExtensionSupport",
            dependencies: ["UserScripts"]
        ),
        .target(
            name: "PageScriptUIKit",
            dependencies: ["TextInput", "UserScripts"]
        ),
        .target(
            name: "WebDriver",
            dependencies: [
                "SystemSupport", "WebSocket",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .target(
            name: "Engines",
            dependencies: [
                "WebDriver", "WebSocket", "SystemSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .target(
            name: "PageRuntime",
            dependencies: [
                "WebDriver", "Engines", "DevTools", "UserScripts", "SystemSupport", "ScriptConsole", "JavaScriptSyntax", "GMAPI",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            resources: [.copy("Resources")]
        ),
        .target(name: "JavaScriptSyntax"),
        .target(
            name: "Browsing",
            dependencies: ["PageRuntime", "GMAPI", "UserScripts", "WebDriver", "DevTools", "SystemSupport", "TerminalUI", "EditorSession"]
        ),
        .target(
            name: "GMAPI",
            dependencies: [
                "UserScripts",
                "SystemSupport",
                "CZlib",
                .target(name: "CLibcrypto", condition: .when(platforms: [.linux])),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(
            name: "WebSocket",
            dependencies: [
                "SystemSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .target(
            name: "DevTools",
            dependencies: [
                "SystemSupport", "WebSocket",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .target(
            name: "ScriptConsole",
            dependencies: ["SystemSupport"]
        ),
        .target(
            name: "TerminalUI",
            dependencies: ["SystemSupport", "TextInput", "JavaScriptSyntax", "ScriptConsole"]
        ),

        .target(
            name: "Batch",
            dependencies: ["PageRuntime", "WebDriver", "Engines", "UserScripts", "SystemSupport"]
        ),

        .target(
            name: "EditorSession",
            dependencies: ["TerminalUI", "TextInput", "PageRuntime", "UserScripts", "WebDriver", "SystemSupport", "ScriptConsole"]
        ),
        .target(
            name: "Benchmarking",
            dependencies: ["PageRuntime", "WebDriver", "Engines", "UserScripts", "TextInput", "TerminalUI", "SystemSupport", "Batch", "Browsing"]
        ),
        .target(
            name: "TestSupport",
            dependencies: ["SystemSupport"]
        ),
        .executableTarget(
            name: "pagescript",
            dependencies: [
                "Engines",
                "PageRuntime",
                "TerminalUI",
                "SystemSupport",
                "Benchmarking",
                "UserScripts",
                "EditorSession",
                "GMAPI",
                "Batch",
                "Browsing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "TextInputTests",
            dependencies: [
                "TextInput",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
            ]
        ),
        .testTarget(name: "UserScriptsTests", dependencies: ["UserScripts", "SystemSupport", "TestSupport"], exclude: ["Matching/Fixtures/regex-vectors.js"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "SystemSupport", "ScriptConsole", "TextInput", "TestSupport", "JavaScriptSyntax"]),
        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport", "CSystemSupport"]),
        .testTarget(name: "WebDriverTests", dependencies: ["WebDriver", "SystemSupport", .product(name: "NIOCore", package: "swift-nio")]),
        .testTarget(name: "EnginesTests", dependencies: ["Engines", "WebDriver", "TestSupport", "SystemSupport"]),
        .testTarget(name: "PageRuntimeTests", dependencies: ["PageRuntime", "Engines", "TestSupport", "UserScripts", "GMAPI", "SystemSupport", "ScriptConsole", "WebDriver"]),
        .testTarget(name: "ActionExtensionSupportTests", dependencies: ["ActionExtensionSupport", "UserScripts"]),
        .testTarget(name: "PageScriptUIKitTests", dependencies: ["PageScriptUIKit", "ActionExtensionSupport"]),
        .testTarget(name: "BenchmarkingTests", dependencies: ["Benchmarking", "UserScripts", "TestSupport", "SystemSupport", "Engines"]),
        .testTarget(name: "BatchTests", dependencies: ["Batch", "Engines", "TestSupport", "PageRuntime", "SystemSupport", "ScriptConsole"]),
        .testTarget(name: "JavaScriptSyntaxTests", dependencies: ["JavaScriptSyntax"]),
        .testTarget(
            name: "GMAPITests",
            dependencies: [
                "GMAPI", "UserScripts", "SystemSupport", "TestSupport", "pagescript",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "SystemSupport", "Engines", "pagescript"]),
        .testTarget(name: "DocumentationTests"),
        .testTarget(name: "BrowsingTests", dependencies: ["Browsing", "PageRuntime", "SystemSupport"]),
        .testTarget(
            name: "EditorSessionTests",
            dependencies: ["EditorSession", "TerminalUI", "TextInput", "PageRuntime", "UserScripts", "GMAPI", "Engines", "SystemSupport", "ScriptConsole", "TestSupport"]
        ),
        .testTarget(
            name: "DevToolsTests",
            dependencies: [
                "DevTools", "WebSocket", "Engines", "TestSupport", "SystemSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
    ]
)
