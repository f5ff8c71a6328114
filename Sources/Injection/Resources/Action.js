// Action.js: the page side of PageScript.
//
// Safari loads this file as an Action Extension's NSExtensionJavaScriptPreprocessingFile: it calls
// run() when the extension opens and finalize() with the extension's reply when the user taps Done.
// The pagescript runner drives the same object the same way through WebDriver, and additionally
// passes a completionFunction to finalize() to receive the script's outcome. Safari passes none,
// and then finalize() only runs the script.
var Action = function() {};

Action.prototype = {
    // Tells the extension which page it is on.
    run: function(parameters) {
        parameters.completionFunction({ "URL": document.URL, "title": document.title });
    },

    // Runs the user's script (parameters.customJavaScript) in the page's global scope. The outcome
    // is { value, hasValue, console, error }: the script's completion value (a returned promise is
    // awaited) made JSON-safe, every console call it made while it ran, and a description of what
    // it threw, with the line and column within the user's script where the engine tells them.
    finalize: function(parameters) {
        var action = this;
        var code = parameters.customJavaScript == null ? "" : String(parameters.customJavaScript);
        var report = typeof parameters.completionFunction === "function" ? parameters.completionFunction : null;
        var lines = [];
        var restoreConsole = action.captureConsole(lines);
        var settled = false;
        var finish = function(outcome) {
            if (settled) { return; }
            settled = true;
            restoreConsole();
            outcome.console = lines;
            if (report) { report(outcome); }
        };
        var value;
        try {
            value = (0, eval)(code + "\n//# sourceURL=" + action.sourceName);
        } catch (error) {
            finish({ error: action.describeError(error, code) });
            return;
        }
        var then = null;
        try {
            if (value !== null && (typeof value === "object" || typeof value === "function")) { then = value.then; }
        } catch (error) {
            then = null;
        }
        if (typeof then === "function") {
            Promise.resolve(value).then(function(resolved) {
                finish(action.valueOutcome(resolved));
            }, function(reason) {
                finish({ error: action.describeError(reason, code) });
            });
        } else {
            finish(action.valueOutcome(value));
        }
    },

    // The name the user's script carries in stack traces (V8 honours sourceURL in eval code).
    sourceName: "pagescript-user.js",

    valueOutcome: function(value) {
        if (value === undefined) { return { hasValue: false, value: null }; }
        return { hasValue: true, value: this.jsonSafe(value, [], 0) };
    },

    // A structure JSON.stringify renders the same on every engine: DOM nodes, maps, sets,
    // errors, cycles and other values that stringify badly or not at all get a readable form.
    jsonSafe: function(value, seen, depth) {
        var type = typeof value;
        if (value === null || type === "boolean" || type === "string") { return value; }
        if (type === "number") { return isFinite(value) ? value : String(value); }
        if (type === "undefined") { return null; }
        if (type === "bigint") { return value.toString(); }
        if (type === "symbol") { return value.toString(); }
        if (type === "function") { return "[Function" + (value.name ? ": " + value.name : "") + "]"; }
        if (depth > 64) { return "[Nested too deep]"; }
        if (seen.indexOf(value) !== -1) { return "[Circular]"; }
        if (typeof Window !== "undefined" && value instanceof Window) { return "[Window " + String(value.location && value.location.href) + "]"; }
        if (typeof Node !== "undefined" && value instanceof Node) { return this.describeNode(value); }
        if (value instanceof Date) { return isNaN(value.getTime()) ? "Invalid Date" : value.toISOString(); }
        if (value instanceof RegExp) { return String(value); }
        if (value instanceof Error) { return { name: String(value.name), message: String(value.message) }; }
        seen.push(value);
        var result;
        var index;
        if (Array.isArray(value) || (typeof NodeList !== "undefined" && value instanceof NodeList) ||
            (typeof HTMLCollection !== "undefined" && value instanceof HTMLCollection) ||
            ArrayBuffer.isView(value) || value instanceof Set) {
            result = [];
            var items = Array.from(value);
            for (index = 0; index < items.length; index++) { result.push(this.jsonSafe(items[index], seen, depth + 1)); }
        } else if (value instanceof Map) {
            result = {};
            var entries = Array.from(value.entries());
            for (index = 0; index < entries.length; index++) {
                result[String(entries[index][0])] = this.jsonSafe(entries[index][1], seen, depth + 1);
            }
        } else if (typeof value.toJSON === "function") {
            result = this.jsonSafe(value.toJSON(), seen, depth + 1);
        } else {
            result = {};
            var keys = Object.keys(value);
            for (index = 0; index < keys.length; index++) {
                var member = value[keys[index]];
                if (member !== undefined) { result[keys[index]] = this.jsonSafe(member, seen, depth + 1); }
            }
        }
        seen.pop();
        return result;
    },

    describeNode: function(node) {
        if (node.nodeType === 1) {
            var text = "<" + node.tagName.toLowerCase();
            if (node.id) { text += " id=\"" + node.id + "\""; }
            if (typeof node.className === "string" && node.className) { text += " class=\"" + node.className + "\""; }
            return text + ">";
        }
        if (node.nodeType === 3) { return node.data; }
        if (node.nodeType === 9) { return "[Document " + node.URL + "]"; }
        return "[" + node.nodeName + "]";
    },

    // Wraps console.* while the script runs; returns the function that puts them back.
    captureConsole: function(lines) {
        var action = this;
        var levels = ["log", "info", "warn", "error", "debug", "trace"];
        var originals = {};
        var limit = 10000;
        levels.forEach(function(level) {
            var original = console[level];
            originals[level] = original;
            console[level] = function() {
                if (lines.length < limit) {
                    lines.push({ level: level, message: action.formatConsoleArguments(Array.prototype.slice.call(arguments)) });
                } else if (lines.length === limit) {
                    lines.push({ level: "warn", message: "(further console output dropped)" });
                }
                if (typeof original === "function") { return original.apply(console, arguments); }
            };
        });
        return function() {
            levels.forEach(function(level) { console[level] = originals[level]; });
        };
    },

    formatConsoleArguments: function(args) {
        var action = this;
        var parts = [];
        var start = 0;
        if (typeof args[0] === "string" && args[0].indexOf("%") !== -1) {
            var rest = args.slice(1);
            parts.push(args[0].replace(/%([sdifoOc%])/g, function(match, letter) {
                if (letter === "%") { return "%"; }
                if (rest.length === 0) { return match; }
                var next = rest.shift();
                if (letter === "c") { return ""; }
                if (letter === "d" || letter === "i") { return String(parseInt(next, 10)); }
                if (letter === "f") { return String(parseFloat(next)); }
                if (letter === "s") { return typeof next === "string" ? next : action.formatConsoleValue(next); }
                return action.formatConsoleValue(next);
            }));
            args = rest;
        } else if (args.length > 0) {
            parts.push(typeof args[0] === "string" ? args[0] : action.formatConsoleValue(args[0]));
            start = 1;
        }
        for (var index = start; index < args.length; index++) {
            parts.push(typeof args[index] === "string" ? args[index] : action.formatConsoleValue(args[index]));
        }
        var message = parts.join(" ");
        return message.length > 100000 ? message.slice(0, 100000) + "…" : message;
    },

    formatConsoleValue: function(value) {
        if (value === undefined) { return "undefined"; }
        try {
            var safe = this.jsonSafe(value, [], 0);
            return typeof safe === "string" && typeof value !== "string" ? safe : JSON.stringify(safe);
        } catch (error) {
            return String(value);
        }
    },

    // What the script threw, with its position in the user's script when it can be known.
    describeError: function(error, code) {
        var described = { name: "Error", message: "", line: null, column: null, stack: null };
        var isErrorLike = error !== null && typeof error === "object" && "message" in error;
        if (isErrorLike) {
            described.name = String(error.name || "Error");
            described.message = String(error.message);
            if (typeof error.stack === "string" && error.stack) { described.stack = error.stack; }
        } else {
            described.name = "Uncaught";
            described.message = this.formatConsoleValue(error);
        }
        var position = null;
        if (described.name === "SyntaxError" && this.failsToParse(code)) {
            position = this.locateSyntaxError(code);
        } else if (isErrorLike) {
            position = this.locateInStack(described.stack) || this.locateByProperties(error);
        }
        if (position) {
            described.line = position.line;
            described.column = position.column;
        }
        return described;
    },

    // Whether the code does not even parse: compiling it as a function body runs nothing.
    failsToParse: function(code) {
        try {
            new Function(code);
            return false;
        } catch (error) {
            return error instanceof SyntaxError;
        }
    },

    // V8 names eval code by its sourceURL in stack frames: "at f (pagescript-user.js:3:7)".
    locateInStack: function(stack) {
        if (typeof stack !== "string") { return null; }
        var match = new RegExp(this.sourceName.replace(/\./g, "\\.") + ":(\\d+):(\\d+)").exec(stack);
        return match ? { line: Number(match[1]), column: Number(match[2]) } : null;
    },

    // JavaScriptCore puts the throw site on the error itself; errors from the page's own scripts
    // also carry a sourceURL, and those positions are not in the user's script.
    locateByProperties: function(error) {
        if (typeof error.line === "number" && error.line > 0 && !error.sourceURL) {
            return { line: error.line, column: typeof error.column === "number" ? error.column : null };
        }
        return null;
    },

    // Finds where code that does not parse goes wrong. Only called for code that fails to parse,
    // so neither probe below can run any of it.
    locateSyntaxError: function(code) {
        return this.locateWithScriptElement(code) || this.locateWithFunctionCompiler(code);
    },

    // Chromium reports exact positions for a script element's parse error, in a throwaway frame
    // so that the page's own error handlers never see it.
    locateWithScriptElement: function(code) {
        var frame = null;
        try {
            frame = document.createElement("iframe");
            frame.style.display = "none";
            (document.body || document.documentElement).appendChild(frame);
            var frameWindow = frame.contentWindow;
            var found = null;
            frameWindow.addEventListener("error", function(event) {
                if (event.lineno > 0) { found = { line: event.lineno, column: event.colno }; }
                event.preventDefault();
            });
            var script = frameWindow.document.createElement("script");
            script.textContent = code;
            (frameWindow.document.body || frameWindow.document.documentElement).appendChild(script);
            return found;
        } catch (error) {
            return null;
        } finally {
            if (frame && frame.parentNode) { frame.parentNode.removeChild(frame); }
        }
    },

    // JavaScriptCore gives the line of a Function constructor's parse error but not a usable
    // column; the column is where a prefix of that line first fails on that line.
    locateWithFunctionCompiler: function(code) {
        var lineOf = function(source) {
            try {
                new Function(source);
                return null;
            } catch (error) {
                return typeof error.line === "number" ? error.line : null;
            }
        };
        var calibration = lineOf(")");
        if (calibration === null) { return null; }
        var offset = calibration - 1;
        var reported = lineOf(code);
        if (reported === null) { return null; }
        var sourceLines = code.split("\n");
        var line = reported - offset;
        if (line > sourceLines.length) {
            return { line: sourceLines.length, column: sourceLines[sourceLines.length - 1].length + 1 };
        }
        if (line < 1) { return null; }
        var before = sourceLines.slice(0, line - 1).join("\n") + (line > 1 ? "\n" : "");
        var text = sourceLines[line - 1];
        var failsOnLine = function(length) { return lineOf(before + text.slice(0, length)) === reported; };
        if (!failsOnLine(text.length)) { return { line: line, column: null }; }
        var low = 1;
        var high = text.length;
        while (low < high) {
            var middle = Math.floor((low + high) / 2);
            if (failsOnLine(middle)) { high = middle; } else { low = middle + 1; }
        }
        return { line: line, column: low };
    }
};

var ExtensionPreprocessingJS = new Action;
