// Action.js: the page side of PageScript.
//
// Safari loads this file as an Action Extension's NSExtensionJavaScriptPreprocessingFile: it calls
// run() when the extension opens and finalize() with the extension's reply when the user taps Done,
// and finalize() then evaluates the reply's customJavaScript in the page.
//
// The pagescript runner evaluates the same file once per document through WebDriver, inside a
// function body (so nothing here becomes a global of the page), and calls install(), which leaves
// one inert entry point on the page: a function under a random name that does nothing unless called
// with the random key only PageScript knows. Every later Execute Script call carries the user's code
// already compiled, inside a function, and hands it to finalize() through that entry point.
// finalize() calls it with the parameters it asked for (console, alert, confirm, prompt), waits for
// its value, and replies with one JSON text, built only with built-ins captured from a fresh realm
// before the page could replace them.
var Action = (function() {
    "use strict";

    // What a reply's text starts with, so that the runner can tell it from anything else.
    var replyVersion = 1;
    // The longest console message kept, in UTF-16 code units, and the most console entries kept.
    var messageLimit = 100000;
    var entryLimit = 10000;
    // How deep a value is followed before it is cut off.
    var depthLimit = 64;
    // How many finished runs are kept: for a runner that lost the reply (a dialog, a broken
    // transport), and for what their scripts log later (as many as a runner remembers).
    var keptRuns = 16;
    // How long, in milliseconds, a swapped JSON.stringify waits for the driver before the page's
    // own is put back.
    var shieldLimit = 5000;
    // How often, in milliseconds, a "watch" looks whether the page's address changed.
    var watchInterval = 25;

    var builtIns = null;

    // The built-ins everything below uses: from a fresh same-origin about:blank frame (removed again
    // at once), or, when the page made that impossible, from the page itself as it is now.
    // Chromium's error page runs no page script and must not get a frame (its renderer is killed).
    function captured() {
        if (builtIns === null) {
            var fresh = null;
            try {
                fresh = window.location.protocol === "chrome-error:" ? null : freshWindow();
                builtIns = fresh ? capture(fresh.window, true) : null;
            } catch (error) {
                builtIns = null;
            }
            if (builtIns === null) { builtIns = capture(window, false); }
            if (fresh) { removeFrame(fresh); }
        }
        return builtIns;
    }

    // The page's child frames, read through the window's own indexed properties, which no script
    // can redefine.
    function childWindows() {
        var found = [];
        for (var index = 0; window[index] !== undefined; index++) { found[index] = window[index]; }
        return found;
    }

    function isNew(candidate, known) {
        for (var index = 0; index < known.length; index++) {
            if (known[index] === candidate) { return false; }
        }
        return true;
    }

    // Creates a hidden about:blank frame and returns { window, frame } for its realm. Each way of
    // creating and inserting the frame is tried in turn, and the frame's window is found among the
    // page's frames rather than asked of the element, so a page that replaced one of those methods
    // does not hand over a realm of its own.
    function freshWindow() {
        var known = childWindows();
        var creators = [
            function() { return document.createElement("iframe"); },
            function() { return document.createElementNS("http://www.w3.org/1999/xhtml", "iframe"); }
        ];
        var inserters = [
            function(parent, frame) { parent.appendChild(frame); },
            function(parent, frame) { parent.append(frame); },
            function(parent, frame) { parent.insertBefore(frame, null); }
        ];
        var parent = document.documentElement || document.body;
        for (var creator = 0; creator < creators.length; creator++) {
            var frame = null;
            try {
                frame = creators[creator]();
                frame.hidden = true;
            } catch (error) {
                frame = null;
            }
            if (!frame) { continue; }
            for (var inserter = 0; inserter < inserters.length; inserter++) {
                try {
                    inserters[inserter](parent, frame);
                } catch (error) {
                    continue;
                }
                var windows = childWindows();
                for (var index = 0; index < windows.length; index++) {
                    var candidate = windows[index];
                    if (isNew(candidate, known) && candidate !== window && isUsableRealm(candidate)) {
                        return { window: candidate, frame: frame };
                    }
                }
            }
        }
        return null;
    }

    function isUsableRealm(candidate) {
        try {
            return typeof candidate.Reflect === "object" && typeof candidate.JSON === "object" &&
                candidate.location.href === "about:blank";
        } catch (error) {
            return false;
        }
    }

    function removeFrame(fresh) {
        try {
            var parent = builtIns.parentNode(fresh.frame);
            if (parent) { builtIns.removeChild(parent, fresh.frame); }
        } catch (error) {
            return;
        }
    }

    // Captures what the runtime uses from `source`, a window. Methods are turned into plain
    // functions (method(thisValue, ...arguments)) so that calling them never looks anything up on
    // an object the page can reach.
    function capture(fresh, isFresh) {
        var reflect = fresh.Reflect;
        var describe = reflect.getOwnPropertyDescriptor;
        var bind = fresh.Function.prototype.bind;
        var call = fresh.Function.prototype.call;
        var apply = reflect.apply;
        function method(owner, name) {
            var found = owner && describe(owner, name);
            return found && typeof found.value === "function" ? apply(bind, call, [found.value]) : null;
        }
        function getter(owner, name) {
            var found = owner && describe(owner, name);
            return found && typeof found.get === "function" ? apply(bind, call, [found.get]) : null;
        }
        function setter(owner, name) {
            var found = owner && describe(owner, name);
            return found && typeof found.set === "function" ? apply(bind, call, [found.set]) : null;
        }
        function prototypeOf(name) {
            var constructor = fresh[name];
            return typeof constructor === "function" ? constructor.prototype : null;
        }
        var typedArray = fresh.Uint8Array ? reflect.getPrototypeOf(fresh.Uint8Array.prototype) : null;
        // Enough frames to reach the user's code from console.trace inside a few library calls.
        if (isFresh) { fresh.Error.stackTraceLimit = 50; }
        return {
            isFresh: isFresh,
            apply: apply,
            describe: describe,
            defineProperty: reflect.defineProperty,
            reflectGet: reflect.get,
            reflectSet: reflect.set,
            Proxy: fresh.Proxy,
            bindTo: function(target, thisValue) { return apply(bind, target, [thisValue]); },
            prototypeOf: reflect.getPrototypeOf,
            keys: fresh.Object.keys,
            create: fresh.Object.create,
            Error: fresh.Error,
            isArray: fresh.Array.isArray,
            stringify: fresh.JSON.stringify,
            parse: fresh.JSON.parse,
            RegExp: fresh.RegExp,
            String: fresh.String,
            parseInt: fresh.parseInt,
            parseFloat: fresh.parseFloat,
            floor: fresh.Math.floor,
            now: fresh.Date.now,
            random: fresh.Math.random,
            isView: fresh.ArrayBuffer.isView,
            Uint8Array: fresh.Uint8Array,
            setTimeout: typeof fresh.setTimeout === "function" ? fresh.setTimeout : null,
            clearTimeout: fresh.clearTimeout,
            functionSource: method(fresh.Function.prototype, "toString"),
            objectTag: method(fresh.Object.prototype, "toString"),
            test: method(fresh.RegExp.prototype, "test"),
            exec: method(fresh.RegExp.prototype, "exec"),
            split: method(fresh.String.prototype, "split"),
            slice: method(fresh.String.prototype, "slice"),
            indexOf: method(fresh.String.prototype, "indexOf"),
            charAt: method(fresh.String.prototype, "charAt"),
            numberText: method(fresh.Number.prototype, "toFixed"),
            symbolText: method(fresh.Symbol.prototype, "toString"),
            dateTime: method(prototypeOf("Date"), "getTime"),
            dateText: method(prototypeOf("Date"), "toISOString"),
            regexpSource: getter(prototypeOf("RegExp"), "source"),
            regexpFlags: getter(prototypeOf("RegExp"), "flags"),
            mapSize: getter(prototypeOf("Map"), "size"),
            mapForEach: method(prototypeOf("Map"), "forEach"),
            setSize: getter(prototypeOf("Set"), "size"),
            setForEach: method(prototypeOf("Set"), "forEach"),
            typedLength: getter(typedArray, "length"),
            nodeType: getter(prototypeOf("Node"), "nodeType"),
            nodeName: getter(prototypeOf("Node"), "nodeName"),
            parentNode: getter(prototypeOf("Node"), "parentNode"),
            removeChild: method(prototypeOf("Node"), "removeChild"),
            appendChild: method(prototypeOf("Node"), "appendChild"),
            setTextContent: setter(prototypeOf("Node"), "textContent"),
            createElement: method(prototypeOf("Document"), "createElement"),
            setAttribute: method(prototypeOf("Element"), "setAttribute"),
            documentHead: getter(prototypeOf("Document"), "head"),
            documentElement: getter(prototypeOf("Document"), "documentElement"),
            styleSheet: getter(prototypeOf("HTMLStyleElement"), "sheet"),
            localName: getter(prototypeOf("Element"), "localName"),
            getAttribute: method(prototypeOf("Element"), "getAttribute"),
            characterData: getter(prototypeOf("CharacterData"), "data"),
            attributeName: getter(prototypeOf("Attr"), "name"),
            attributeValue: getter(prototypeOf("Attr"), "value"),
            doctypeName: getter(prototypeOf("DocumentType"), "name"),
            shadowMode: getter(prototypeOf("ShadowRoot"), "mode"),
            documentURL: getter(prototypeOf("Document"), "URL"),
            documentReferrer: getter(prototypeOf("Document"), "referrer"),
            documentTitle: getter(prototypeOf("Document"), "title"),
            documentBody: getter(prototypeOf("Document"), "body"),
            readyState: getter(prototypeOf("Document"), "readyState"),
            addEventListener: method(prototypeOf("EventTarget"), "addEventListener"),
            removeEventListener: method(prototypeOf("EventTarget"), "removeEventListener"),
            innerText: getter(prototypeOf("HTMLElement"), "innerText"),
            textContent: getter(prototypeOf("Node"), "textContent"),
            nodeListLength: getter(prototypeOf("NodeList"), "length"),
            nodeListItem: method(prototypeOf("NodeList"), "item"),
            collectionLength: getter(prototypeOf("HTMLCollection"), "length"),
            collectionItem: method(prototypeOf("HTMLCollection"), "item"),
            plainName: new fresh.RegExp("^[-\\w\\u00A0-\\uFFFF]+$"),
            space: new fresh.RegExp("\\s"),
            spaces: new fresh.RegExp("\\s+"),
            nativeFunction: new fresh.RegExp("\\{\\s*\\[native code\\]\\s*\\}\\s*$"),
            v8Frame: new fresh.RegExp("^\\s*at (?:async )?(?:(.*?) \\()?(.*?):(\\d+):(\\d+)\\)?$"),
            jscFrame: new fresh.RegExp("^(.*?)@(?:(.*):(\\d+):(\\d+))?$"),
            // SpiderMonkey's errors have no stack of their own: Error.prototype's getter gives it.
            errorStack: getter(prototypeOf("Error"), "stack"),
            pageObjectPrototype: reflect.getPrototypeOf({})
        };
    }

    // --- Text ---------------------------------------------------------------------------------

    function quote(text) {
        return captured().stringify(text);
    }

    function truncated(text, limit) {
        return text.length > limit ? captured().slice(text, 0, limit) + "…" : text;
    }

    // Text for a value in a message: strings as they are, other primitives as String() gives them,
    // objects as the compact JSON the result would show.
    function messageText(value) {
        var type = typeof value;
        if (type === "string") { return value; }
        if (value === undefined) { return "undefined"; }
        if (value === null || type === "number" || type === "boolean" || type === "bigint") { return "" + value; }
        if (type === "symbol") { return captured().symbolText(value); }
        var nodeType = branded(captured().nodeType, value, 0);
        if (nodeType > 0) { return nodeDescription(value, nodeType); }
        var json = jsonText(value, [], 0);
        return captured().charAt(json, 0) === "\"" ? captured().parse(json) : json;
    }

    function formatted(values, start) {
        var builtIns = captured();
        var parts = "";
        var index = start;
        if (typeof values[start] === "string" && builtIns.indexOf(values[start], "%") !== -1) {
            var pattern = values[start];
            index = start + 1;
            for (var at = 0; at < pattern.length; at++) {
                var character = builtIns.charAt(pattern, at);
                var letter = builtIns.charAt(pattern, at + 1);
                if (character !== "%" || letter === "") {
                    parts += character;
                } else if (letter === "%") {
                    parts += "%";
                    at++;
                } else if (builtIns.indexOf("sdifoOc", letter) !== -1 && index < values.length) {
                    var next = values[index++];
                    if (letter === "d" || letter === "i") {
                        parts += typeof next === "symbol" ? "NaN" : "" + builtIns.parseInt(typeof next === "bigint" ? "" + next : messageText(next), 10);
                    } else if (letter === "f") {
                        parts += typeof next === "symbol" ? "NaN" : "" + builtIns.parseFloat(messageText(next));
                    } else if (letter !== "c") {
                        parts += messageText(next);
                    }
                    at++;
                } else {
                    parts += character;
                }
            }
        } else if (index < values.length) {
            parts = messageText(values[index++]);
        }
        for (; index < values.length; index++) { parts += " " + messageText(values[index]); }
        return truncated(parts, messageLimit);
    }

    // --- Values as JSON -----------------------------------------------------------------------

    // How a value reads in a result: JSON text that every engine gives alike. DOM nodes become
    // {"$node": "<input#q.search name=q>"}, windows {"$window": URL}; maps, sets, typed arrays,
    // dates, regular expressions, errors, cycles and values that throw while being read get
    // readable forms; a toJSON method is honoured unless the page put it on a built-in prototype.
    function jsonText(value, ancestors, depth) {
        var type = typeof value;
        if (type === "string") { return quote(value); }
        if (value === null || value === undefined) { return "null"; }
        if (type === "boolean") { return value ? "true" : "false"; }
        if (type === "number") { return value === value && value !== Infinity && value !== -Infinity ? "" + value : quote("" + value); }
        if (type === "bigint") { return quote("" + value); }
        if (type === "symbol") { return quote(captured().symbolText(value)); }
        if (type === "function") { return quote(functionLabel(value)); }
        if (depth > depthLimit) { return quote("[Nested too deep]"); }
        for (var index = 0; index < ancestors.length; index++) {
            if (ancestors[index] === value) { return quote("[Circular]"); }
        }
        try {
            return objectText(value, ancestors, depth);
        } catch (error) {
            return quote("[Thrown: " + thrownText(error) + "]");
        }
    }

    function functionLabel(value) {
        var name = "";
        try {
            var own = captured().describe(value, "name");
            if (own && typeof own.value === "string") { name = own.value; }
        } catch (error) {
            name = "";
        }
        return "[Function" + (name ? ": " + name : "") + "]";
    }

    function thrownText(error) {
        var described = errorParts(error);
        return described.name + (described.message ? ": " + described.message : "");
    }

    // Calls a captured brand-checking function: its result, or `miss` when value is not that kind.
    function branded(check, value, miss) {
        if (check === null) { return miss; }
        try {
            return check(value);
        } catch (error) {
            return miss;
        }
    }

    function objectText(value, ancestors, depth) {
        var builtIns = captured();
        var nodeType = branded(builtIns.nodeType, value, 0);
        if (nodeType > 0) { return "{\"$node\":" + quote(nodeDescription(value, nodeType)) + "}"; }
        // A revoked Proxy throws here, and is marked as a value that threw.
        builtIns.isArray(value);
        if (isWindow(value)) { return "{\"$window\":" + quote(windowAddress(value)) + "}"; }
        var time = branded(builtIns.dateTime, value, null);
        if (time !== null) { return quote(time === time ? builtIns.dateText(value) : "Invalid Date"); }
        var source = branded(builtIns.regexpSource, value, null);
        if (source !== null) { return quote("/" + source + "/" + builtIns.regexpFlags(value)); }
        if (builtIns.objectTag(value) === "[object Error]") {
            var parts = errorParts(value);
            return "{\"name\":" + quote(parts.name) + ",\"message\":" + quote(parts.message) + "}";
        }
        var level = ancestors.length;
        ancestors[level] = value;
        try {
            var count = listLength(value);
            if (count !== null) { return listText(value, count, ancestors, depth); }
            if (branded(builtIns.mapSize, value, null) !== null) { return mapText(value, ancestors, depth); }
            if (branded(builtIns.setSize, value, null) !== null) { return setText(value, ancestors, depth); }
            var toJSON = ownToJSON(value);
            return toJSON ? jsonText(builtIns.apply(toJSON, value, [""]), ancestors, depth + 1) : membersText(value, ancestors, depth);
        } finally {
            ancestors.length = level;
        }
    }

    // A window of this page or of a frame; a frame of another origin throws a SecurityError
    // when asked anything.
    function isWindow(value) {
        if (value === window) { return true; }
        try {
            return captured().objectTag(value) === "[object Window]";
        } catch (error) {
            return errorParts(error).name === "SecurityError";
        }
    }

    function windowAddress(value) {
        try {
            return "" + value.location.href;
        } catch (error) {
            return "(another origin)";
        }
    }

    // The number of items of an array, typed array, NodeList or HTMLCollection; null otherwise.
    function listLength(value) {
        var builtIns = captured();
        if (builtIns.isArray(value)) { return value.length; }
        if (builtIns.isView(value)) { return branded(builtIns.typedLength, value, null); }
        var length = branded(builtIns.nodeListLength, value, null);
        return length !== null ? length : branded(builtIns.collectionLength, value, null);
    }

    // A list's items in one pass; the items of a NodeList or HTMLCollection are nodes, described
    // at once (70,000 of them cost little more than counting them).
    function listText(value, count, ancestors, depth) {
        var builtIns = captured();
        var isNodeList = branded(builtIns.nodeListLength, value, null) !== null;
        var isCollection = !isNodeList && branded(builtIns.collectionLength, value, null) !== null;
        var text = "[";
        for (var index = 0; index < count; index++) {
            if (index > 0) { text += ","; }
            var item;
            try {
                if (isNodeList || isCollection) {
                    item = isNodeList ? builtIns.nodeListItem(value, index) : builtIns.collectionItem(value, index);
                    text += "{\"$node\":" + quote(nodeDescription(item, builtIns.nodeType(item))) + "}";
                    continue;
                }
                item = value[index];
            } catch (error) {
                text += quote("[Thrown: " + thrownText(error) + "]");
                continue;
            }
            text += jsonText(item, ancestors, depth + 1);
        }
        return text + "]";
    }

    function mapText(value, ancestors, depth) {
        var text = "{";
        var first = true;
        captured().mapForEach(value, function(member, key) {
            text += (first ? "" : ",") + quote(typeof key === "string" ? key : messageText(key)) + ":" + jsonText(member, ancestors, depth + 1);
            first = false;
        });
        return text + "}";
    }

    function setText(value, ancestors, depth) {
        var text = "[";
        var first = true;
        captured().setForEach(value, function(member) {
            text += (first ? "" : ",") + jsonText(member, ancestors, depth + 1);
            first = false;
        });
        return text + "]";
    }

    // A toJSON method the value itself or its own class defines; one the page added to a built-in
    // prototype (Object.prototype, Array.prototype, as old libraries did) is ignored.
    function ownToJSON(value) {
        var builtIns = captured();
        for (var owner = value; owner !== null; owner = builtIns.prototypeOf(owner)) {
            var found = builtIns.describe(owner, "toJSON");
            if (found) {
                if (typeof found.value !== "function" || builtIns.prototypeOf(owner) === null || builtIns.isArray(owner)) { return null; }
                return found.value;
            }
        }
        return null;
    }

    function membersText(value, ancestors, depth) {
        var keys = captured().keys(value);
        var text = "{";
        var first = true;
        for (var index = 0; index < keys.length; index++) {
            var key = keys[index];
            var member;
            try {
                member = value[key];
            } catch (error) {
                text += (first ? "" : ",") + quote(key) + ":" + quote("[Thrown: " + thrownText(error) + "]");
                first = false;
                continue;
            }
            if (member === undefined) { continue; }
            text += (first ? "" : ",") + quote(key) + ":" + jsonText(member, ancestors, depth + 1);
            first = false;
        }
        return text + "}";
    }

    // A node as a short CSS-like description: <input#q.search name=q>, #text "...", <!--...-->,
    // #document URL, <!DOCTYPE html>, #shadow-root (open), #document-fragment.
    function nodeDescription(node, nodeType) {
        var builtIns = captured();
        switch (nodeType) {
        case 1:
            var text = "<" + builtIns.localName(node);
            var id = builtIns.getAttribute(node, "id");
            if (id) { text += "#" + identifier(id); }
            var classes = builtIns.getAttribute(node, "class");
            if (classes) { text += classList(classes); }
            var name = builtIns.getAttribute(node, "name");
            if (name !== null) { text += " name=" + attributeText(name); }
            return text + ">";
        case 2:
            return "#attribute " + builtIns.attributeName(node) + "=" + attributeText(builtIns.attributeValue(node));
        case 3:
            return "#text " + quote(truncated(builtIns.characterData(node), 200));
        case 8:
            return "<!--" + truncated(builtIns.characterData(node), 200) + "-->";
        case 9:
            return "#document " + builtIns.documentURL(node);
        case 10:
            return "<!DOCTYPE " + builtIns.doctypeName(node) + ">";
        case 11:
            var mode = branded(builtIns.shadowMode, node, null);
            return mode ? "#shadow-root (" + mode + ")" : "#document-fragment";
        default:
            return "#" + builtIns.nodeName(node);
        }
    }

    // An id or class as CSS writes it: characters that would end the name are escaped.
    function identifier(text) {
        var builtIns = captured();
        if (builtIns.test(builtIns.plainName, text)) { return text; }
        var escaped = "";
        for (var index = 0; index < text.length; index++) {
            var character = builtIns.charAt(text, index);
            escaped += builtIns.test(builtIns.plainName, character) ? character : "\\" + character;
        }
        return escaped;
    }

    // Class attributes repeat across a page's nodes, so their descriptions are kept (a bounded
    // number of them) for the next node.
    var classLists = null;
    var classListCount = 0;

    function classList(text) {
        var builtIns = captured();
        if (classLists === null || classListCount > 5000) {
            classLists = builtIns.create(null);
            classListCount = 0;
        }
        var known = classLists[text];
        if (known !== undefined) { return known; }
        var list = "";
        if (!builtIns.test(builtIns.space, text)) {
            list = "." + identifier(text);
        } else {
            var tokens = builtIns.split(text, builtIns.spaces);
            for (var index = 0; index < tokens.length; index++) {
                if (tokens[index]) { list += "." + identifier(tokens[index]); }
            }
        }
        classLists[text] = list;
        classListCount++;
        return list;
    }

    function attributeText(text) {
        return captured().test(captured().plainName, text) ? text : quote(text);
    }

    // --- Errors -------------------------------------------------------------------------------

    // A thrown value's name, message and stack, read from the error's own properties (and data
    // properties of its prototypes), so that getters a page put on Error.prototype are never run.
    function errorParts(error) {
        var builtIns = captured();
        var parts = { name: "Error", message: "", stack: null, isError: false };
        if (error === null || (typeof error !== "object" && typeof error !== "function")) {
            parts.name = "Uncaught";
            parts.message = messageText(error);
            return parts;
        }
        try {
            parts.isError = builtIns.objectTag(error) === "[object Error]";
            var name = dataProperty(error, "name", true);
            var message = dataProperty(error, "message", true);
            if (typeof name === "string") { parts.name = name; } else if (!parts.isError) { parts.name = "Uncaught"; }
            if (typeof message === "string") {
                parts.message = message;
            } else if (!parts.isError) {
                parts.message = messageText(error);
            }
            var stack = builtIns.describe(error, "stack");
            var stackText = stack ? (typeof stack.get === "function" ? builtIns.apply(stack.get, error, []) : stack.value)
                : (parts.isError && builtIns.errorStack ? builtIns.errorStack(error) : null);
            if (typeof stackText === "string") { parts.stack = stackText; }
        } catch (problem) {
            parts.message = parts.message || "(the error could not be read)";
        }
        return parts;
    }

    function dataProperty(value, key, inherited) {
        var builtIns = captured();
        for (var owner = value; owner !== null; owner = inherited ? builtIns.prototypeOf(owner) : null) {
            var found = builtIns.describe(owner, key);
            if (found) { return "value" in found ? found.value : undefined; }
        }
        return undefined;
    }

    // Where in the Execute Script body an error was thrown, when that was inside one of the
    // runner's code ranges: V8 names the body's frames by its sourceURL, JavaScriptCore puts the
    // throw site's line and column on the error (and a sourceURL when it was a page's script).
    function errorPosition(error, parts, session, ranges) {
        var builtIns = captured();
        if (parts.stack !== null && builtIns.indexOf(parts.stack, scriptSource) !== -1) {
            var frames = stackFrames(parts.stack, session);
            for (var index = 0; index < frames.length; index++) {
                if (frames[index].script && inRanges(frames[index].line, ranges)) {
                    return { line: frames[index].line, column: frames[index].column };
                }
            }
            return null;
        }
        if (!parts.isError) { return null; }
        var line = dataProperty(error, "line", false);
        var column = dataProperty(error, "column", false);
        var url = dataProperty(error, "sourceURL", false);
        if (typeof line !== "number" || url) { return null; }
        var bodyLine = line - session.lineOffset;
        return inRanges(bodyLine, ranges) ? { line: bodyLine, column: typeof column === "number" ? column : null } : null;
    }

    function inRanges(line, ranges) {
        for (var index = 0; index < ranges.length; index++) {
            if (line >= ranges[index][0] && line <= ranges[index][1]) { return true; }
        }
        return false;
    }

    // The name the runner's Execute Script bodies carry (V8 shows it in stack frames).
    var scriptSource = "pagescript-script.js";

    // A stack's frames: { function, url, line, column, script } where script marks frames in the
    // runner's body, whose line is then a body line.
    function stackFrames(stack, session) {
        var builtIns = captured();
        var frames = [];
        var start = 0;
        for (var at = 0; at <= stack.length; at++) {
            if (at < stack.length && builtIns.charAt(stack, at) !== "\n") { continue; }
            var line = builtIns.slice(stack, start, at);
            start = at + 1;
            var match = builtIns.exec(builtIns.v8Frame, line) || (builtIns.indexOf(line, "@") !== -1 ? builtIns.exec(builtIns.jscFrame, line) : null);
            if (!match) { continue; }
            var frame = { function: match[1] || "", url: match[2] || null, line: match[3] ? +match[3] : null, column: match[4] ? +match[4] : null, script: false };
            if (frame.url === scriptSource && frame.line !== null) {
                frame.script = true;
                frame.line -= session.lineOffset;
            }
            frames[frames.length] = frame;
        }
        return frames;
    }

    // The frames of a stack taken inside the runtime that belong to the script: those between the
    // runtime's frame on top and the runtime's call of the script.
    function callerFrames(frames) {
        var callers = [];
        for (var index = 1; index < frames.length; index++) {
            if (frames[index].function === "runScript" || frames[index].url === runtimeSource) { break; }
            callers[callers.length] = frames[index];
        }
        return callers;
    }

    function framesText(frames) {
        var text = "[";
        for (var index = 0; index < frames.length; index++) {
            var frame = frames[index];
            text += (index > 0 ? "," : "") + "{\"function\":" + quote(frame.function) + ",\"url\":" + (frame.url === null ? "null" : quote(frame.url)) +
                ",\"line\":" + (frame.line === null ? "null" : frame.line) + ",\"column\":" + (frame.column === null ? "null" : frame.column) +
                ",\"script\":" + (frame.script ? "true" : "false") + "}";
        }
        return text + "]";
    }

    // The frames of a thrown error's stack that are not PageScript's: those above the runtime's
    // call of the script, without the runtime's own (a GM function the script called). A frame
    // of the body that lies outside the script's code stays marked, for the runner to drop.
    // JavaScriptCore names no place for the body's frames: there a frame without one is the
    // script's, and the first of them is where the error's own position is.
    function errorFrames(parts, position, session, ranges) {
        var frames = parts.stack === null ? [] : stackFrames(parts.stack, session);
        var kept = [];
        var placed = false;
        for (var index = 0; index < frames.length; index++) {
            var frame = frames[index];
            var inScript = frame.script && inRanges(frame.line, ranges);
            if (frame.function === "runScript" && !inScript) { break; }
            if (frame.url === runtimeSource) { continue; }
            if (frame.url === null && frame.line === null) {
                frame.script = true;
                if (!placed && position !== null) {
                    frame.line = position.line;
                    frame.column = position.column;
                }
                placed = true;
            }
            kept[kept.length] = frame;
        }
        return kept;
    }

    function errorText(error, session, ranges) {
        var parts = errorParts(error);
        var position = errorPosition(error, parts, session, ranges);
        return "{\"name\":" + quote(parts.name) + ",\"message\":" + quote(parts.message) +
            ",\"line\":" + (position ? position.line : "null") + ",\"column\":" + (position && position.column !== null ? position.column : "null") +
            ",\"frames\":" + (parts.stack === null ? "null" : framesText(errorFrames(parts, position, session, ranges))) + "}";
    }

    // --- Console and dialogs ------------------------------------------------------------------

    // The console a script is given: every method the browsers' consoles have, each recording an
    // entry { level, message, depth?, table?, stack? } for the result instead of writing to the
    // page's console, which the page may have replaced.
    function scriptConsole(script, session) {
        var builtIns = captured();
        var counts = builtIns.create(null);
        var timers = builtIns.create(null);
        var entries = script.console;
        function add(level, message, extra) {
            if (entries.length > entryLimit) { return; }
            if (entries.length === entryLimit) {
                level = "warn";
                message = "(further console output dropped)";
                extra = "";
            }
            entries[entries.length] = "{\"level\":" + quote(level) + ",\"message\":" + quote(message) +
                (script.depth > 0 ? ",\"depth\":" + script.depth : "") + (extra || "") + "}";
        }
        function logger(level) {
            return function() { add(level, formatted(arguments, 0)); };
        }
        function label(value) {
            return value === undefined ? "default" : messageText(value);
        }
        function elapsed(name) {
            var milliseconds = builtIns.now() - timers[name];
            return name + ": " + builtIns.numberText(milliseconds, 3) + " ms";
        }
        var console = {
            log: logger("log"),
            info: logger("info"),
            warn: logger("warn"),
            error: logger("error"),
            debug: logger("debug"),
            dirxml: logger("dirxml"),
            dir: function(value) { add("dir", messageText(value)); },
            table: function(data, columns) { add("table", formatted([data], 0), ",\"table\":" + tableText(data, columns)); },
            trace: function() {
                var parts = errorParts(new builtIns.Error());
                var frames = parts.stack === null ? [] : callerFrames(stackFrames(parts.stack, session));
                add("trace", arguments.length ? formatted(arguments, 0) : "console.trace", ",\"stack\":" + framesText(frames));
            },
            assert: function(condition) {
                if (condition) { return; }
                add("assert", arguments.length > 1 ? "Assertion failed: " + formatted(arguments, 1) : "Assertion failed");
            },
            count: function(name) {
                var key = label(name);
                counts[key] = (builtIns.describe(counts, key) ? counts[key] : 0) + 1;
                add("count", key + ": " + counts[key]);
            },
            countReset: function(name) {
                var key = label(name);
                if (builtIns.describe(counts, key)) { counts[key] = 0; } else { add("warn", "Count for '" + key + "' does not exist"); }
            },
            time: function(name) {
                var key = label(name);
                if (builtIns.describe(timers, key)) { add("warn", "Timer '" + key + "' already exists"); } else { timers[key] = builtIns.now(); }
            },
            timeLog: function(name) {
                var key = label(name);
                if (!builtIns.describe(timers, key)) { add("warn", "Timer '" + key + "' does not exist"); return; }
                add("timeLog", elapsed(key) + (arguments.length > 1 ? " " + formatted(arguments, 1) : ""));
            },
            timeEnd: function(name) {
                var key = label(name);
                if (!builtIns.describe(timers, key)) { add("warn", "Timer '" + key + "' does not exist"); return; }
                add("timeEnd", elapsed(key));
                delete timers[key];
            },
            group: function() {
                add("group", arguments.length ? formatted(arguments, 0) : "console.group");
                script.depth++;
            },
            groupCollapsed: function() {
                add("groupCollapsed", arguments.length ? formatted(arguments, 0) : "console.groupCollapsed");
                script.depth++;
            },
            groupEnd: function() {
                if (script.depth > 0) { script.depth--; }
            },
            clear: function() { add("clear", ""); }
        };
        // Methods this browser's console has beyond the ones above are kept under their own name;
        // which ones those are is found once per document, with the first script's console.
        if (session.extraConsoleMethods === null) {
            var known = session.consoleMethods;
            var extra = [];
            for (var at = 0; at < known.length; at++) {
                if (!builtIns.describe(console, known[at])) { extra[extra.length] = known[at]; }
            }
            session.extraConsoleMethods = extra;
        }
        for (var index = 0; index < session.extraConsoleMethods.length; index++) {
            console[session.extraConsoleMethods[index]] = logger(session.extraConsoleMethods[index]);
        }
        return console;
    }

    // console.table's data as { columns, rows }: "(index)", then each key the rows have (or the
    // columns asked for), then "Value" for rows that are not objects; each row's cells as text.
    function tableText(data, wanted) {
        var builtIns = captured();
        if (data === null || typeof data !== "object") { return "null"; }
        var columns = [];
        var hasValues = false;
        var rowKeys = builtIns.keys(data);
        var rows = [];
        function columnIndex(key) {
            for (var index = 0; index < columns.length; index++) {
                if (columns[index] === key) { return index; }
            }
            if (wanted && builtIns.isArray(wanted)) {
                var allowed = false;
                for (var at = 0; at < wanted.length; at++) { allowed = allowed || "" + wanted[at] === key; }
                if (!allowed) { return -1; }
            }
            columns[columns.length] = key;
            return columns.length - 1;
        }
        for (var row = 0; row < rowKeys.length; row++) {
            var value = data[rowKeys[row]];
            var cells = builtIns.create(null);
            if (value !== null && typeof value === "object") {
                var keys = builtIns.keys(value);
                for (var key = 0; key < keys.length; key++) {
                    var column = columnIndex(keys[key]);
                    if (column >= 0) { cells[column] = cellText(value[keys[key]]); }
                }
            } else {
                hasValues = true;
                cells.value = cellText(value);
            }
            rows[rows.length] = { key: rowKeys[row], cells: cells };
        }
        var header = "[\"(index)\"";
        for (var index = 0; index < columns.length; index++) { header += "," + quote(columns[index]); }
        if (hasValues) { header += ",\"Value\""; }
        var body = "[";
        for (var at = 0; at < rows.length; at++) {
            var line = "[" + quote(rows[at].key);
            for (var cell = 0; cell < columns.length; cell++) {
                line += "," + (builtIns.describe(rows[at].cells, "" + cell) ? quote(rows[at].cells[cell]) : "\"\"");
            }
            if (hasValues) { line += "," + (builtIns.describe(rows[at].cells, "value") ? quote(rows[at].cells.value) : "\"\""); }
            body += (at > 0 ? "," : "") + line + "]";
        }
        return "{\"columns\":" + header + "],\"rows\":" + body + "]}";
    }

    function cellText(value) {
        return truncated(messageText(value), 1000);
    }

    // alert, confirm and prompt for the script: recorded for the result and answered by the
    // runner's policy instead of opening a dialog that would stop the page.
    // `answer`: the text every prompt gets (--dialogs accept=TEXT), else its default.
    function scriptDialogs(script, accept, answer) {
        function record(type, message, extra) {
            script.dialogs[script.dialogs.length] = "{\"type\":\"" + type + "\",\"message\":" + quote(message === undefined ? "" : messageText(message)) + extra +
                ",\"at\":" + builtIns.now() + "}";
        }
        return {
            alert: function(message) { record("alert", message, ""); },
            confirm: function(message) {
                record("confirm", message, ",\"accepted\":" + (accept ? "true" : "false"));
                return accept;
            },
            prompt: function(message, initial) {
                var given = !accept ? null : typeof answer === "string" ? answer : initial === undefined ? "" : messageText(initial);
                record("prompt", message, ",\"accepted\":" + (accept ? "true" : "false") + ",\"answer\":" + (given === null ? "null" : quote(given)));
                return given;
            }
        };
    }

    // While the script's synchronous code runs, the page's `alert`, `confirm` and `prompt` are
    // the script's too: a script that calls them through `window` (or `self`, `globalThis`) is
    // answered by the same policy and reported as the script's dialog, not as one the page
    // opened. Only the browser's own functions are stood in for (a page's replacement is left
    // alone), and each is put back as it was as soon as the script's synchronous part returns.
    var dialogNames = ["alert", "confirm", "prompt"];

    function standInDialogs(dialogs) {
        var builtIns = captured();
        var saved = [];
        for (var index = 0; index < dialogNames.length; index++) {
            var name = dialogNames[index];
            var found = builtIns.describe(window, name);
            if (!found || typeof found.value !== "function" || found.configurable !== true || !isBrowserFunction(found.value)) { continue; }
            try {
                if (builtIns.defineProperty(window, name, dataDescriptor(dialogs[name], found))) {
                    saved[saved.length] = { name: name, descriptor: dataDescriptor(found.value, found) };
                }
            } catch (error) {
                // The page's function stays: its dialog is then reported as the page's.
            }
        }
        return saved;
    }

    function restoreDialogs(saved) {
        for (var index = 0; index < saved.length; index++) {
            try {
                captured().defineProperty(window, saved[index].name, saved[index].descriptor);
            } catch (error) {
                // Nothing more can be done for a property the page made impossible to restore.
            }
        }
    }

    // A configurable data property like `like`, holding `value`.
    function dataDescriptor(value, like) {
        return plainDescriptor(value, like.writable === true, like.enumerable === true, true);
    }

    // A data property's descriptor without a prototype: a `get` or `set` the page put on
    // Object.prototype would turn an object literal's into an accessor's, and defineProperty
    // would refuse it.
    function plainDescriptor(value, writable, enumerable, configurable) {
        var descriptor = captured().create(null);
        descriptor.value = value;
        descriptor.writable = writable;
        descriptor.enumerable = enumerable;
        descriptor.configurable = configurable;
        return descriptor;
    }

    function isBrowserFunction(value) {
        try {
            return captured().indexOf(captured().functionSource(value), "[native code]") >= 0;
        } catch (error) {
            return false;
        }
    }

    // --- Runs ---------------------------------------------------------------------------------

    // What a script may ask for by parameter name: its console and dialogs, and, for a userscript,
    // the GM API names the runner chose from its @grant lines (GM.js).
    // The parameters of a script whose request names none.
    var standardParameters = ["console", "alert", "confirm", "prompt"];

    function parameterValue(name, console, dialogs, api, description) {
        switch (name) {
        case "console": return console;
        case "input": return description.input;
        case "alert": return dialogs.alert;
        case "confirm": return dialogs.confirm;
        case "prompt": return dialogs.prompt;
        default: return api ? api.value(name) : undefined;
        }
    }

    // What GM.js may do for one script: write on its console, record a report for its result,
    // and queue work for the runner (a value written, a request to make). Work queued while the
    // run is going rides on its next reply, and `wake` answers a runner that waits for the run
    // (a request needs its response before the script can go on); work queued after the run
    // ended waits in the session for the runner's next "poll" or "watch" (and with `wake` ends a
    // watch at once; a value written waits for the watch's end, or for the page being left).
    function scriptHooks(run, index, script, session, console) {
        return {
            console: console,
            report: function(text) { script.reports[script.reports.length] = text; },
            queue: function(item, wake) {
                var text = "{\"run\":" + quote(run.id) + ",\"script\":" + index + "," + item + "}";
                if (run.state !== "running") {
                    session.late[session.late.length] = text;
                    if (wake) {
                        session.lateWakes = true;
                        if (session.lateWatcher !== null) { session.lateWatcher(); }
                    }
                    return;
                }
                run.work[run.work.length] = text;
                if (wake) { wakeWaiters(run); }
            }
        };
    }

    // A value of a run's script changed elsewhere (GMHost's valueChanges): the run's copy of the
    // values takes it and its listeners hear of it, with `remote` true unless a run of this
    // document made the change.
    function valueChanged(session, change) {
        var owner = findRun(session, "" + change.run);
        var record = owner !== null ? owner.scripts[0] : undefined;
        if (record === undefined || record.api === null) { return; }
        var text = change.deleted === true ? undefined : captured().stringify(change.value);
        record.api.valueChanged("" + change.key, text, typeof change.from !== "string" || findRun(session, change.from) === null);
    }

    function wakeWaiters(run) {
        var waiters = run.waiters;
        run.waiters = [];
        for (var index = 0; index < waiters.length; index++) { waiters[index](); }
    }

    // The work queued so far, as a JSON array's members, and the queue emptied.
    function drained(queue) {
        var text = joined(queue);
        queue.length = 0;
        return text;
    }

    // The main document's HTTP status, where the engine reports it (Navigation Timing's
    // responseStatus: Chromium does, WebKitGTK does not); null otherwise. The page can only lie
    // about its own status here.
    function documentStatus() {
        // Only an HTTP response has a status (Chromium's Navigation Timing says 200 for a file).
        var builtIns = captured();
        var address = builtIns.documentURL(document);
        if (builtIns.slice(address, 0, 5) !== "http:" && builtIns.slice(address, 0, 6) !== "https:") { return null; }
        var status = null;
        try {
            var entry = performance.getEntriesByType("navigation")[0];
            status = entry && entry.responseStatus;
        } catch (error) {
            status = null;
        }
        if (typeof status === "number" && status >= 100 && status <= 599) { return status; }
        // An engine that gives the page no status: the browser's own word, for the document at
        // the address it names.
        if (browserStatus !== null && withoutFragment(captured().documentURL(document)) === withoutFragment(browserStatus.url)) {
            return browserStatus.code;
        }
        return null;
    }

    // The status of this document as the browser said it outside the page (WebKit's inspector),
    // at the address it was said for: `{url, code}`, from a load check (noteBrowserStatus),
    // before the page's context is read.
    var browserStatus = null;

    function noteBrowserStatus(check) {
        if (check && check.status && typeof check.status.code === "number") {
            browserStatus = { url: "" + check.status.url, code: check.status.code };
        }
    }

    // The page's context; with a session, its address is noted as one this document has had
    // (`seenURLs`, see beginRun).
    function pageContext(session) {
        var builtIns = captured();
        var url = builtIns.documentURL(document);
        if (session) { noteAddress(session, url); }
        var status = documentStatus();
        var text = "{\"URL\":" + quote(url) + ",\"title\":" + quote(builtIns.documentTitle(document)) +
            (status === null ? "" : ",\"status\":" + status);
        if (url === "about:blank" || builtIns.slice(url, 0, 13) === "chrome-error:") {
            var body = branded(builtIns.documentBody, document, null);
            var shown = body ? branded(builtIns.innerText, body, "") : "";
            text += ",\"bodyText\":" + quote(truncated(shown, 2000));
        }
        return text + "}";
    }

    // Notes `url` as an address the session's document has had: a run planned for it runs in this
    // document even after the page moved itself on (pushState, replaceState, a fragment), as a
    // manager runs every script its document matched. A new document has a new session.
    function noteAddress(session, url) {
        var seen = session.seenURLs;
        for (var index = 0; index < seen.length; index++) {
            if (seen[index] === url) { return; }
        }
        if (seen.length < 64) { seen[seen.length] = url; }
    }

    function hasHadAddress(session, url) {
        var seen = session.seenURLs;
        for (var index = 0; index < seen.length; index++) {
            if (seen[index] === url) { return true; }
        }
        return false;
    }

    // Starts a run: checks the page's address, then calls each compiled script in turn (each in
    // its own scope, with the parameters it asked for) and waits for each one's value.
    function startRun(request, factories, session) {
        noteBrowserStatus(request.loadCheck);
        var run = {
            id: "" + request.run,
            context: pageContext(session),
            scripts: [],
            state: "running",
            reply: null,
            confidential: isConfidential(request),
            work: [],
            waiters: [],
            timer: null
        };
        remember(session, run);
        // A run sent once the session saw the page reach waitsFor finds another document when the
        // page's own navigation replaced that one in between: it waits for that one's moment too.
        var moment = request.startsAt;
        if (moment !== "DOMContentLoaded" && moment !== "load" && !hasReached(request.waitsFor)) { moment = request.waitsFor; }
        if (moment === "DOMContentLoaded" || moment === "load") {
            // With loadDeadline, the moment must come within that many milliseconds (or the run
            // ends timed out with no script started), and the scripts get what is left of it, at
            // least a second: the load and the run share one time, as a navigation then a run do.
            var builtIns = captured();
            var sentAt = builtIns.now();
            if (typeof request.loadDeadline === "number" && builtIns.setTimeout) {
                run.timer = builtIns.apply(builtIns.setTimeout, window, [function() { finishRun(run, session, "timedOut"); }, request.loadDeadline]);
            }
            whenReached(moment, function() {
                if (run.state !== "running") { return; }
                if (typeof request.loadDeadline === "number") {
                    if (run.timer !== null) { builtIns.apply(builtIns.clearTimeout, window, [run.timer]); }
                    run.timer = null;
                    var left = request.loadDeadline - (builtIns.now() - sentAt);
                    request.deadline = left > 1000 ? left : 1000;
                }
                run.context = pageContext(session);
                beginRun(run, request, factories, session);
            });
            return run;
        }
        beginRun(run, request, factories, session);
        return run;
    }

    // Whether the document has reached moment (DOMContentLoaded or load; any other is reached).
    function hasReached(moment) {
        if (moment !== "DOMContentLoaded" && moment !== "load") { return true; }
        var builtIns = captured();
        var state = builtIns.readyState ? builtIns.readyState(document) : "complete";
        return moment === "load" ? state === "complete" : state !== "loading";
    }

    // Calls start once the document has reached moment: DOMContentLoaded (document-end), or the
    // end of the load event (document-idle: after the page's own load handlers, as a userscript
    // manager runs such scripts). A run waiting for it is running already, so it is found and
    // waited for like any other. The page cannot stop this listener: it is added before the
    // page's first script, with the captured built-ins.
    function whenReached(moment, start) {
        var builtIns = captured();
        var started = false;
        var once = function() {
            if (started) { return; }
            started = true;
            start();
        };
        var afterLoad = function() {
            if (builtIns.setTimeout) { builtIns.apply(builtIns.setTimeout, window, [once, 0]); } else { once(); }
        };
        var state = builtIns.readyState ? builtIns.readyState(document) : "complete";
        if (state === "complete" || !builtIns.addEventListener) {
            afterLoad();
            return;
        }
        // DOMContentLoaded may have passed already while the state is interactive: the load event
        // is the fallback, so the run starts either way.
        if (moment === "DOMContentLoaded") { builtIns.addEventListener(document, "DOMContentLoaded", once); }
        builtIns.addEventListener(window, "load", afterLoad);
    }

    function beginRun(run, request, factories, session) {
        var builtIns = captured();
        if (request.loadCheck) {
            run.load = loadCheck(request.loadCheck);
            if (run.load.skipped !== null) {
                finishRun(run, session, "done");
                return run;
            }
        }
        // The run goes where it was planned: this document, at the address it was planned for or
        // at one the document moved itself to since PageScript saw it there.
        if (typeof request.requiredURL === "string" && window.location.href !== request.requiredURL &&
            !hasHadAddress(session, request.requiredURL)) {
            run.refused = window.location.href;
            finishRun(run, session, "done");
            return run;
        }
        var startedAt = builtIns.now();
        runScript(run, request, factories, 0, session);
        // Only a run still waiting (for a promise, a timer) needs its deadline as a timer: one that
        // finished without waiting, most runs, costs the page no timer to set and clear.
        if (run.state === "running" && typeof request.deadline === "number" && builtIns.setTimeout) {
            var left = request.deadline - (builtIns.now() - startedAt);
            run.timer = builtIns.apply(builtIns.setTimeout, window, [function() { finishRun(run, session, "timedOut"); }, left > 0 ? left : 0]);
        }
    }

    // For a run sent with the installation right after a navigation: the main document's HTTP
    // status (Navigation Timing's responseStatus, where the engine reports it) and whether the
    // run is skipped because the browser shows its error page instead of the requested address,
    // or, when asked, because the server answered with an error status.
    function loadCheck(check) {
        var builtIns = captured();
        noteBrowserStatus(check);
        var status = documentStatus();
        var origin = null;
        try {
            origin = typeof performance.timeOrigin === "number" ? performance.timeOrigin : null;
        } catch (error) {
            origin = null;
        }
        var url = builtIns.documentURL(document);
        var requested = "" + check.requested;
        var errorPage = builtIns.slice(url, 0, 13) === "chrome-error:" || (url === "about:blank" && builtIns.slice(requested, 0, 6) !== "about:");
        // Still the document the navigation started from, at another address than the one asked
        // for (a download, a 204: the browser showed nothing new). A navigation within the
        // document (a fragment) keeps the document too, but lands on the address asked for.
        var stayed = typeof check.previousOrigin === "number" && origin === check.previousOrigin &&
            withoutFragment(url) !== withoutFragment(requested);
        // A document at another address that another document sent the browser to, and not the
        // one asked for (which a server's redirect leads from with no referrer, and whose own
        // script may send the browser on): the page left before, typically from a timer, whose
        // navigation replaced the one PageScript asked for. Once the document asked for is known
        // to have been replaced, one without a referrer is not a server's redirect either.
        var referrer = builtIns.documentReferrer ? "" + builtIns.documentReferrer(document) : "";
        var elsewhere = !errorPage && !stayed && (referrer !== "" || check.replaced === true) &&
            withoutFragment(url) !== withoutFragment(requested) && withoutFragment(referrer) !== withoutFragment(requested);
        var skipped = errorPage ? "error-page" : (stayed ? "no-new-document" : (elsewhere ? "other-document" :
            (check.skipsHTTPErrors === true && status !== null && status >= 400 ? "http-status" : null)));
        // At another address with no referrer: a server's redirect, or a page that sends none;
        // PageScript asks the browser which, where it can.
        var unreferred = skipped === null && referrer === "" && withoutFragment(url) !== withoutFragment(requested);
        return { status: status, skipped: skipped, origin: origin, url: elsewhere || unreferred ? url : null, unreferred: unreferred };
    }

    // `,"load":{"status","skipped","origin"?,"url"?,"unreferred"?}` for what loadCheck found
    // (`url`: where the browser is, for `other-document` and an `unreferred` arrival).
    function loadText(load) {
        return ",\"load\":{\"status\":" + (load.status === null ? "null" : load.status) + ",\"skipped\":" +
            (load.skipped === null ? "null" : quote(load.skipped)) + (load.origin === null ? "" : ",\"origin\":" + load.origin) +
            (load.url === null ? "" : ",\"url\":" + quote(load.url)) + (load.unreferred ? ",\"unreferred\":true" : "") + "}";
    }

    function withoutFragment(url) {
        var builtIns = captured();
        var hash = builtIns.indexOf(url, "#");
        return hash === -1 ? url : builtIns.slice(url, 0, hash);
    }

    // Whether a run carries a userscript's data (the GM API's values and files).
    function isConfidential(request) {
        var scripts = captured().isArray(request.scripts) ? request.scripts : [];
        for (var index = 0; index < scripts.length; index++) {
            if (scripts[index] && scripts[index].gm) { return true; }
        }
        return false;
    }

    // The session's userscript API, made on first use; null where the runner sent none.
    function userscriptAPIOf(session) {
        if (session.gm === null && session.makeUserscriptAPI !== null) {
            session.gm = session.makeUserscriptAPI({ captured: captured, quote: quote, thrownText: thrownText });
        }
        return session.gm;
    }

    function runScript(run, request, factories, index, session) {
        if (run.state !== "running") { return; }
        if (index >= factories.length) {
            finishRun(run, session, "done");
            return;
        }
        var description = request.scripts[index];
        // Every field is the record's own from the start: a setter the page put on Object.prototype
        // never sees a write to it.
        var script = { console: [], dialogs: [], reports: [], depth: 0, outcome: null, api: null, reportedConsole: 0, reportedDialogs: 0 };
        run.scripts[index] = script;
        var dialogs = scriptDialogs(script, request.dialogs === "accept", request.promptAnswer);
        var console = scriptConsole(script, session);
        var gm = description.gm ? userscriptAPIOf(session) : null;
        var api = gm ? gm.make(description.gm, scriptHooks(run, index, script, session, console)) : null;
        script.api = api;
        var names = captured().isArray(description.parameters) ? description.parameters : standardParameters;
        var values = [];
        for (var at = 0; at < names.length; at++) { values[at] = parameterValue(names[at], console, dialogs, api, description); }
        var value;
        var standIns = standInDialogs(dialogs);
        try {
            var body = captured().apply(factories[index], undefined, values);
            value = captured().apply(body, window, []);
        } catch (error) {
            restoreDialogs(standIns);
            script.outcome = "\"error\":" + errorText(error, session, description.ranges);
            runScript(run, request, factories, index + 1, session);
            return;
        }
        restoreDialogs(standIns);
        if (isThenable(value)) {
            settle(value, function(resolved) {
                script.outcome = valueOutcome(resolved);
                runScript(run, request, factories, index + 1, session);
            }, function(reason) {
                script.outcome = "\"error\":" + errorText(reason, session, description.ranges);
                runScript(run, request, factories, index + 1, session);
            });
            return;
        }
        script.outcome = valueOutcome(value);
        runScript(run, request, factories, index + 1, session);
    }

    function isThenable(value) {
        if (value === null || (typeof value !== "object" && typeof value !== "function")) { return false; }
        try {
            return typeof value.then === "function";
        } catch (error) {
            return false;
        }
    }

    // Waits for a thenable with the engine's own await, which never looks up the page's Promise.
    function settle(value, fulfilled, rejected) {
        var wait = async function() {
            var resolved;
            try {
                resolved = await value;
            } catch (error) {
                rejected(error);
                return;
            }
            fulfilled(resolved);
        };
        wait();
    }

    function valueOutcome(value) {
        if (value === undefined) { return "\"hasValue\":false,\"value\":null"; }
        return "\"hasValue\":true,\"value\":" + jsonText(value, [], 0);
    }

    function finishRun(run, session, state) {
        if (run.state !== "running") { return; }
        run.state = state;
        if (run.timer !== null) { captured().apply(captured().clearTimeout, window, [run.timer]); }
        run.reply = replyText(run, session);
        // What the scripts log and ask from now on (the callbacks of their requests, timers) is
        // reported after this reply, by lateOutput.
        for (var index = 0; index < run.scripts.length; index++) {
            run.scripts[index].reportedConsole = run.scripts[index].console.length;
            run.scripts[index].reportedDialogs = run.scripts[index].dialogs.length;
        }
        wakeWaiters(run);
    }

    // What the scripts of a run that has ended logged and asked since it was last reported, as
    // `,"lateOutput":[{"console":[...],"dialogs":[...]}, ...]` (one entry per script); the marks
    // move on, so each entry is reported once.
    function lateOutput(run) {
        if (run === null || run.state === "running") { return ""; }
        var text = ",\"lateOutput\":[";
        for (var index = 0; index < run.scripts.length; index++) {
            var script = run.scripts[index];
            var lines = [];
            var asked = [];
            for (var line = script.reportedConsole; line < script.console.length; line++) { lines[lines.length] = script.console[line]; }
            for (var dialog = script.reportedDialogs; dialog < script.dialogs.length; dialog++) { asked[asked.length] = script.dialogs[dialog]; }
            script.reportedConsole = script.console.length;
            script.reportedDialogs = script.dialogs.length;
            text += (index > 0 ? "," : "") + "{\"console\":[" + joined(lines) + "],\"dialogs\":[" + joined(asked) + "]}";
        }
        return text + "]";
    }

    // The reply: {"pagescript":1,"run","state","lineOffset","realm","context","refused"?,"load"?,"scripts":[...]}.
    // A script's entry has its outcome once it finished; a script still running (when the run
    // timed out or is collected early) has only its console and dialogs so far.
    function replyText(run, session) {
        var text = "{\"pagescript\":" + replyVersion + ",\"run\":" + quote(run.id) + ",\"state\":" + quote(run.state) +
            ",\"lineOffset\":" + session.lineOffset + ",\"realm\":" + (captured().isFresh ? "\"fresh\"" : "\"page\"") +
            ",\"context\":" + run.context;
        if (run.refused !== undefined) { text += ",\"refused\":" + quote(run.refused); }
        if (run.load !== undefined) { text += loadText(run.load); }
        text += ",\"scripts\":[";
        for (var index = 0; index < run.scripts.length; index++) {
            var script = run.scripts[index];
            text += (index > 0 ? "," : "") + "{" + (script.outcome === null ? "\"finished\":false" : "\"finished\":true," + script.outcome) +
                listed("console", script.console) + listed("dialogs", script.dialogs) + listed("reports", script.reports) + "}";
        }
        return text + "]" + (run.work.length > 0 ? ",\"work\":[" + drained(run.work) + "]" : "") + "}";
    }

    // `,"name":[...]` for a list with entries; nothing for an empty one (most runs log nothing,
    // and every byte of a reply is carried twice through the driver).
    function listed(name, parts) {
        return parts.length > 0 ? ",\"" + name + "\":[" + joined(parts) + "]" : "";
    }

    function joined(parts) {
        var text = "";
        for (var index = 0; index < parts.length; index++) { text += (index > 0 ? "," : "") + parts[index]; }
        return text;
    }

    function remember(session, run) {
        var runs = session.runs;
        runs[runs.length] = run;
        if (runs.length > keptRuns) {
            for (var index = 1; index < runs.length; index++) { runs[index - 1] = runs[index]; }
            runs.length = keptRuns;
        }
    }

    function findRun(session, id) {
        for (var index = 0; index < session.runs.length; index++) {
            if (session.runs[index].id === id) { return session.runs[index]; }
        }
        return null;
    }

    // The reply for a run: at once when it is done, when it has work for the runner, or when the
    // runner asked not to wait; else when one of those comes. A promise made by the engine's own
    // async function, never the page's Promise.
    function replyFor(run, session, wait) {
        if (run.state !== "running") { return shielded(run.reply, run.confidential); }
        if (!wait || run.work.length > 0) { return shielded(replyText(run, session), run.confidential); }
        var whenReady = async function() {
            await {
                then: function(resolve) {
                    if (run.state === "running" && run.work.length === 0) { run.waiters[run.waiters.length] = resolve; } else { resolve(); }
                }
            };
            return shielded(run.state !== "running" ? run.reply : replyText(run, session), run.confidential);
        };
        return whenReady();
    }

    // The work queued after runs ended: {"pagescript":1,"work":[...]}, with the document's
    // context when there is work (the page it was queued in, whatever the browser shows by the
    // time it is done) and "leaving":true when the page is being left (that work is the last the
    // document queues).
    function lateReply(session, leaving, ended) {
        var work = drained(session.late);
        session.lateWakes = false;
        var output = ended ? lateOutput(ended) : "";
        return shielded("{\"pagescript\":" + replyVersion + ",\"work\":[" + work + "]" + (work !== "" ? ",\"context\":" + pageContext(session) : "") +
            (leaving ? ",\"leaving\":true" : "") + output + laterOutput(session) + "}", true);
    }

    // What the scripts of every run that has ended logged and asked since it was last reported
    // (from timers, event handlers, callbacks), for a runner that shows it as it happens:
    // `,"laterOutput":[{"run","script","console":[...],"dialogs":[...]}, ...]`, one entry per
    // script with something new; the marks move on, so each line is reported once.
    function laterOutput(session) {
        var entries = [];
        for (var at = 0; at < session.runs.length; at++) {
            var run = session.runs[at];
            if (run.state === "running") { continue; }
            for (var index = 0; index < run.scripts.length; index++) {
                var script = run.scripts[index];
                if (!script || (script.reportedConsole >= script.console.length && script.reportedDialogs >= script.dialogs.length)) { continue; }
                var lines = [];
                var asked = [];
                for (var line = script.reportedConsole; line < script.console.length; line++) { lines[lines.length] = script.console[line]; }
                for (var dialog = script.reportedDialogs; dialog < script.dialogs.length; dialog++) { asked[asked.length] = script.dialogs[dialog]; }
                script.reportedConsole = script.console.length;
                script.reportedDialogs = script.dialogs.length;
                entries[entries.length] = "{\"run\":" + quote(run.id) + ",\"script\":" + index + ",\"console\":[" + joined(lines) +
                    "],\"dialogs\":[" + joined(asked) + "]}";
            }
        }
        return entries.length > 0 ? ",\"laterOutput\":[" + joined(entries) + "]" : "";
    }

    // The work queued after runs ended, once there is work that waits for the runner (a request),
    // once the page is being left (at `leavingAt`, "pagehide", or else at `beforeunload` or
    // `pagehide`; the reply says so: a value written just before a navigation, or as the page is
    // left, is not lost) or its address changes, or after `wait` milliseconds. Values written
    // meanwhile ride on that reply: ending the watch for each would leave no watch in place for
    // the moment the page is left. A promise made by the engine's own async function; one watch
    // at a time (a new one ends the one before). `ended`: a run whose output since it last
    // reported rides on the reply (`lateOutput`).
    function watchedLateReply(session, wait, leavingAt, ended) {
        var builtIns = captured();
        if ((session.lateWakes && session.late.length > 0) || typeof wait !== "number" || !(wait > 0) || !builtIns.setTimeout ||
            !builtIns.addEventListener || !builtIns.removeEventListener) {
            return lateReply(session, false, ended);
        }
        if (session.lateWatcher !== null) { session.lateWatcher(); }
        var leavingEvents = leavingAt === "pagehide" ? ["pagehide"] : ["beforeunload", "pagehide"];
        // The page may start to leave between two watches: that is noted, and the next watch,
        // when it still reaches this document, replies at once with all that was queued.
        if (!session.notesLeaving) {
            session.notesLeaving = true;
            var noteLeaving = function() { if (session.lateWatcher === null) { session.leftUnwatched = true; } };
            for (var event = 0; event < leavingEvents.length; event++) { builtIns.addEventListener(window, leavingEvents[event], noteLeaving); }
        }
        if (session.leftUnwatched) {
            session.leftUnwatched = false;
            return lateReply(session, true, ended);
        }
        var address = builtIns.documentURL(document);
        var until = builtIns.now() + wait;
        var watching = async function() {
            var leaving = await {
                then: function(resolve) {
                    var ended = false;
                    var end = function(left) {
                        if (ended) { return; }
                        ended = true;
                        if (session.lateWatcher === wake) { session.lateWatcher = null; }
                        for (var index = 0; index < leavingEvents.length; index++) { builtIns.removeEventListener(window, leavingEvents[index], onLeave); }
                        resolve(left);
                    };
                    // Woken (a request made, a newer watch), the wait ends a task later: a request
                    // made in the page's own handler of the leaving event is answered as the page
                    // is left (this wait's handler of the same event comes after it).
                    var wake = function() { builtIns.apply(builtIns.setTimeout, window, [function() { end(false); }, 0]); };
                    var onLeave = function() { end(true); };
                    // The wait ends a turn after its time is up: the page's own timers due at the same
                    // moment (browsers align timers) run first, and one that leaves the page is
                    // seen leaving rather than just missed.
                    var look = function() {
                        if (ended) { return; }
                        if (builtIns.documentURL(document) !== address) {
                            end(false);
                        } else if (builtIns.now() >= until) {
                            builtIns.apply(builtIns.setTimeout, window, [wake, 0]);
                        } else {
                            builtIns.apply(builtIns.setTimeout, window, [look, watchInterval]);
                        }
                    };
                    session.lateWatcher = wake;
                    for (var index = 0; index < leavingEvents.length; index++) { builtIns.addEventListener(window, leavingEvents[index], onLeave); }
                    builtIns.apply(builtIns.setTimeout, window, [look, watchInterval]);
                }
            };
            return lateReply(session, leaving, ended);
        };
        return watching();
    }

    // The driver turns the reply into JSON with the page's JSON.stringify (WebKitWebDriver on the
    // reply itself, chromedriver on {status, value}); when the page replaced it, or added a toJSON
    // that would change that object, JSON.stringify is swapped for one that writes exactly this
    // reply and puts the page's back the first time it does. Meanwhile it hands every other call
    // to the page's own; a reply that never reaches the driver (a DevTools call) puts it back
    // after a few seconds (WebKitWebDriver stringifies after timers of the current turn fire).
    // A reply that holds a userscript's data (its values, its requests) is always shielded: a
    // page's JSON.stringify can look native (a Proxy of the real one) and still read what it is given.
    function shielded(reply, always) {
        var builtIns = captured();
        var pageJSON = window.JSON;
        var pageStringify;
        try {
            pageStringify = pageJSON.stringify;
            if (!always && isNativeStringify(pageStringify) && !builtIns.describe(builtIns.pageObjectPrototype, "toJSON")) { return reply; }
        } catch (error) {
            return reply;
        }
        var restored = false;
        var timer = null;
        // Put back by the driver's call, the timer goes too: a page that runs userscripts often
        // (every GM run swaps) would otherwise have one waiting for every run of the last seconds.
        function restore() {
            if (restored) { return; }
            restored = true;
            if (timer !== null) { builtIns.apply(builtIns.clearTimeout, window, [timer]); }
            builtIns.defineProperty(pageJSON, "stringify", plainDescriptor(pageStringify, true, false, true));
        }
        var replacement = function(value) {
            if (value === reply) {
                restore();
                return builtIns.stringify(reply);
            }
            if (value !== null && typeof value === "object" && dataProperty(value, "value", false) === reply) {
                restore();
                return "{\"status\":0,\"value\":" + builtIns.stringify(reply) + "}";
            }
            return builtIns.apply(pageStringify, this, arguments);
        };
        if (builtIns.defineProperty(pageJSON, "stringify", plainDescriptor(replacement, true, false, true)) && builtIns.setTimeout) {
            timer = builtIns.apply(builtIns.setTimeout, window, [restore, shieldLimit]);
        }
        return reply;
    }

    // The page's JSON.stringify last found native: the same function needs no second look (its
    // source text made and matched on every reply).
    var knownNativeStringify = null;

    function isNativeStringify(value) {
        if (knownNativeStringify !== null && value === knownNativeStringify) { return true; }
        if (!isNative(value, "stringify")) { return false; }
        knownNativeStringify = value;
        return true;
    }

    function isNative(value, name) {
        var builtIns = captured();
        if (typeof value !== "function") { return false; }
        var own = builtIns.describe(value, "name");
        return own !== undefined && own.value === name && builtIns.test(builtIns.nativeFunction, builtIns.functionSource(value));
    }

    // The line the driver puts the first line of an Execute Script body on, from an error made
    // there: V8 gives it in the stack, JavaScriptCore on the error.
    function bodyLineOffset(calibration) {
        var parts = errorParts(calibration);
        if (parts.stack !== null) {
            var frames = stackFrames(parts.stack, { lineOffset: 0 });
            for (var index = 0; index < frames.length; index++) {
                // A document-start source (Chromium) carries the runtime and the script under one name.
                if ((frames[index].url === runtimeSource || frames[index].url === scriptSource) && frames[index].line !== null) {
                    return frames[index].line - 1;
                }
            }
        }
        var line = dataProperty(calibration, "line", false);
        return typeof line === "number" ? line - 1 : 0;
    }

    var runtimeSource = "pagescript-runtime.js";

    function consoleMethods() {
        var builtIns = captured();
        var names = [];
        try {
            var keys = builtIns.keys(window.console);
            for (var index = 0; index < keys.length; index++) {
                if (typeof window.console[keys[index]] === "function") { names[names.length] = keys[index]; }
            }
        } catch (error) {
            return names;
        }
        return names;
    }

    // The sealed request with the members only the call's argument brings; nothing else of the
    // argument is taken, so a page that rewrote it cannot add to what the runner sealed.
    function unsealed(open, sealedText) {
        var builtIns = captured();
        var request = parsedRequest(sealedText);
        var names = ["run", "deadline", "dialogs", "wait"];
        for (var index = 0; index < names.length; index++) {
            var found = builtIns.describe(open, names[index]);
            if (found !== undefined && builtIns.describe(request, names[index]) === undefined) {
                builtIns.defineProperty(request, names[index], plainDescriptor(found.value, true, true, true));
            }
        }
        return request;
    }

    // The runner's request: JSON text parsed with the captured JSON.parse, its fields checked.
    function parsedRequest(text) {
        var request = captured().parse(text);
        if (request === null || typeof request !== "object" || typeof request.kind !== "string") {
            throw new TypeError("the request is not an object with a kind");
        }
        return request;
    }

    function Action() {}

    Action.prototype = {
        // Tells the extension which page it is on.
        run: function(parameters) {
            parameters.completionFunction({ "URL": document.URL, "title": document.title });
        },

        // Safari: evaluates the extension's reply, parameters.customJavaScript, in the page.
        // PageScript's runner: calls parameters.compiledScripts (functions that return the user's
        // scripts, compiled in the Execute Script body) as parameters.request describes, and passes
        // the reply text to parameters.completionFunction.
        finalize: function(parameters) {
            if (parameters.compiledScripts) {
                var session = parameters.session;
                var run = startRun(parameters.request, parameters.compiledScripts, session);
                // A run started by a source the browser evaluated in a new document: no call waits
                // for it, and a reply made now would take the work its scripts queue from the runner,
                // which collects it later.
                if (parameters.request.unattended === true) {
                    parameters.completionFunction("{\"pagescript\":" + replyVersion + ",\"run\":" + quote(run.id) + ",\"unattended\":true}");
                    return;
                }
                var reply = replyFor(run, session, true);
                if (typeof reply === "string") {
                    parameters.completionFunction(reply);
                } else {
                    settle(reply, parameters.completionFunction, parameters.completionFunction);
                }
                return;
            }
            if (parameters.customJavaScript != null) {
                (0, eval)(String(parameters.customJavaScript));
            }
        },

        // Leaves the runner's entry point on the page, window[name]: a function that does nothing
        // unless called with `key`, cannot be replaced or deleted, and holds the runtime's state
        // in its closure. Called with `challenge` alone, it returns `response`: the runner's calls
        // ask that first, so that they hand the key only to this function and never to one the
        // page put under the name in another document. Returns the reply to the request in
        // parameters[0] (normally "context").
        install: function(calibration, name, challenge, response, key, parameters, userscriptAPI) {
            var action = this;
            // The userscript API is made when a run first needs it: most runs do not, and making
            // it costs WebKit as much as the rest of the installation.
            var session = {
                lineOffset: bodyLineOffset(calibration), runs: [], consoleMethods: consoleMethods(), extraConsoleMethods: null, late: [], gm: null,
                lateWakes: false, lateWatcher: null, notesLeaving: false, leftUnwatched: false, seenURLs: [],
                makeUserscriptAPI: typeof userscriptAPI === "function" ? userscriptAPI : null
            };
            // A run can bring the userscript API to a runtime installed without it.
            var entry = function(given, parameters, compiledScripts, userscriptAPI) {
                if (given === challenge) { return response; }
                if (given !== key) { return undefined; }
                if (session.makeUserscriptAPI === null && typeof userscriptAPI === "function") { session.makeUserscriptAPI = userscriptAPI; }
                return action.answer(session, parameters[0], compiledScripts, parameters.length > 1 ? parameters[1] : undefined);
            };
            captured().defineProperty(window, name, plainDescriptor(entry, false, false, false));
            return action.answer(session, parameters[0], []);
        },

        // One request from the runner: "context" (the page's URL and title), "run" (the scripts in
        // compiledScripts), "collect" (a run's reply again, waiting for it or not), "deliver" and
        // "poll" (responses in, the work queued after runs ended out), "watch" (that work, waiting
        // for some) or "menu" (a script's menu command).
        // A confidential request (a userscript's values, files, responses) comes with sealedText,
        // the request without its run, deadline, dialogs and wait, written into the body, where
        // the page's functions never see it; requestText, the call's argument, then brings only those.
        answer: function(session, requestText, compiledScripts, sealedText) {
            // The driver parses the call's arguments with the page's JSON.parse (WebKitWebDriver):
            // a page that replaced it loses the request, and the runner sends it in the body.
            if (typeof requestText !== "string") { return shielded("{\"pagescript\":" + replyVersion + ",\"requestLost\":true}"); }
            var request;
            try {
                request = parsedRequest(requestText);
                if (typeof sealedText === "string") { request = unsealed(request, sealedText); }
            } catch (error) {
                return "{\"pagescript\":" + replyVersion + ",\"protocolError\":" + quote(thrownText(error)) + "}";
            }
            if (request.kind === "run") {
                var reply = null;
                var waiting = null;
                this.finalize({
                    request: request,
                    compiledScripts: compiledScripts,
                    session: session,
                    completionFunction: function(text) {
                        reply = text;
                        if (waiting) { waiting(text); }
                    }
                });
                if (reply !== null) { return reply; }
                var later = async function() {
                    return await {
                        then: function(resolve) {
                            if (reply !== null) { resolve(reply); } else { waiting = resolve; }
                        }
                    };
                };
                return later();
            }
            if (request.kind === "collect") {
                var run = findRun(session, "" + request.run);
                // A run this document does not know, with when the document started: a run that
                // sent the browser here was in the one before.
                if (run === null) {
                    var started = typeof performance.timeOrigin === "number" ? ",\"origin\":" + performance.timeOrigin : "";
                    return "{\"pagescript\":" + replyVersion + ",\"missing\":" + quote("" + request.run) + started + "}";
                }
                return replyFor(run, session, request.wait === true);
            }
            // The runner's responses to GM_xmlhttpRequest calls, then the run's next reply (when the
            // runner waits for it: the final one if the run has ended meanwhile) or the work queued
            // after runs ended.
            if (request.kind === "deliver" || request.kind === "poll") {
                var responses = request.kind === "deliver" && captured().isArray(request.responses) ? request.responses : [];
                for (var index = 0; index < responses.length; index++) {
                    var changed = responses[index].valueChanged;
                    if (changed !== null && typeof changed === "object") {
                        valueChanged(session, changed);
                    } else if (session.gm) {
                        session.gm.deliver(responses[index].request, responses[index].response);
                    }
                }
                var target = request.kind === "deliver" ? findRun(session, "" + request.run) : null;
                if (target !== null && request.wait === true) { return replyFor(target, session, true); }
                // `lateOf`: a run that has ended, whose callbacks these responses call.
                var ended = request.kind === "deliver" && typeof request.lateOf === "string" ? findRun(session, request.lateOf) : null;
                // `watch`: the delivery is followed by a watch in the same call, leaving no moment
                // unwatched between the two (what chains on the responses runs meanwhile).
                if (request.kind === "deliver" && typeof request.watch === "number") {
                    return watchedLateReply(session, request.watch, request.leavingAt, ended);
                }
                var builtIns = captured();
                if (ended === null || !builtIns.setTimeout) { return lateReply(session, false, ended); }
                // The callbacks ran; what they chained on the responses (a `.then` on GM.xmlHttpRequest's
                // promise) runs once this task ends: reply after that, on the next task.
                var afterCallbacks = async function() {
                    await { then: function(resolve) { builtIns.apply(builtIns.setTimeout, window, [resolve, 0]); } };
                    return lateReply(session, false, ended);
                };
                return afterCallbacks();
            }
            if (request.kind === "watch") { return watchedLateReply(session, request.wait, request.leavingAt); }
            // Runs a command a script registered with GM_registerMenuCommand. What the scripts
            // logged later before it is handed over first (`laterOutput`), and the marks move past
            // the command's own lines, which this reply carries: each line is reported once.
            if (request.kind === "menu") {
                var owner = findRun(session, "" + request.run);
                var scriptRecord = owner !== null ? owner.scripts[request.script] : undefined;
                var earlier = laterOutput(session);
                var logged = scriptRecord !== undefined ? scriptRecord.console.length : 0;
                var ran = scriptRecord !== undefined && scriptRecord.api !== null && scriptRecord.api.runMenuCommand("" + request.name);
                var lines = [];
                for (var line = logged; ran && line < scriptRecord.console.length; line++) { lines[lines.length] = scriptRecord.console[line]; }
                if (ran && owner.state !== "running") { scriptRecord.reportedConsole = scriptRecord.console.length; }
                return shielded("{\"pagescript\":" + replyVersion + ",\"ranMenuCommand\":" + (ran ? "true" : "false") + ",\"console\":[" +
                    joined(lines) + "],\"work\":[" + drained(session.late) + "]" + earlier + "}", true);
            }
            // A context after a navigation may check the load as a run does (`loadCheck`).
            noteBrowserStatus(request.loadCheck);
            return shielded("{\"pagescript\":" + replyVersion + ",\"lineOffset\":" + session.lineOffset + ",\"realm\":" +
                (captured().isFresh ? "\"fresh\"" : "\"page\"") + ",\"context\":" + pageContext(session) +
                (request.loadCheck ? loadText(loadCheck(request.loadCheck)) : "") + "}");
        }
    };

    return Action;
})();

var ExtensionPreprocessingJS = new Action;
