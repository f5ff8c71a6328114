// GM.js: the page half of the userscript API (GM_* and GM.*), for the scripts that ask for it.
//
// The pagescript runner sends this file after Action.js in the same installation body, so it is
// never a global of the page: Action.js's install() receives PageScriptGM and keeps what it returns
// in the runtime's closure. For each run of a userscript, make() builds the API from the data the
// runner sent with the run (a snapshot of the script's values, GM_info, its @resource files) and
// hands the values to the script's function as parameters, under the names the runner chose from
// the script's @grant lines. Nothing here is reachable from the page.
//
// What needs PageScript (a value written, a GM_xmlhttpRequest) is queued through the hooks
// Action.js gives each script; the runner reads the queue from the replies, does the work and
// calls deliver() with the responses.
var PageScriptGM = (function() {
    "use strict";

    return function(runtime) {
        // Requests made by any run in this document, by number, until their response arrives.
        var requests = runtime.captured().create(null);
        var requestCount = 0;
        // The page's own constructor of style sheets: a sheet made in another realm cannot be
        // adopted by this document. Taken when the runtime is installed.
        var PageStyleSheet = typeof window.CSSStyleSheet === "function" ? window.CSSStyleSheet : null;
        // The page's own Blob and URL.createObjectURL, for GM_getResourceURL(name, true): a blob:
        // URL made in another realm dies with it. Taken when the runtime is installed.
        var PageBlob = typeof window.Blob === "function" ? window.Blob : null;
        var PageURL = window.URL;
        var createObjectURL = PageURL && typeof PageURL.createObjectURL === "function" ? PageURL.createObjectURL : null;

        function has(object, key) {
            return runtime.captured().describe(object, key) !== undefined;
        }

        // A promise of the engine's own (an async function's), settled later by settle(ok, value);
        // the page's Promise is never looked up.
        function deferred() {
            var state = { settled: false, ok: true, value: undefined, resolve: null, reject: null };
            var promise = (async function() {
                return await {
                    then: function(resolve, reject) {
                        if (state.settled) {
                            (state.ok ? resolve : reject)(state.value);
                        } else {
                            state.resolve = resolve;
                            state.reject = reject;
                        }
                    }
                };
            })();
            return {
                promise: promise,
                settle: function(ok, value) {
                    if (state.settled) { return; }
                    state.settled = true;
                    state.ok = ok;
                    state.value = value;
                    if (state.resolve) { (ok ? state.resolve : state.reject)(value); }
                }
            };
        }

        function promised(work) {
            return (async function() { return work(); })();
        }

        // Calls a callback of the script; what it throws is reported on the script's console, as
        // the browsers report an uncaught exception, instead of breaking PageScript's own call.
        function callBack(hooks, callback, thisValue, values) {
            if (typeof callback !== "function") { return; }
            try {
                runtime.captured().apply(callback, thisValue, values);
            } catch (error) {
                hooks.console.error("Uncaught " + runtime.thrownText(error));
            }
        }

        // --- Styles and elements --------------------------------------------------------------

        // The parent new elements go to when the script names none: <head> for what belongs
        // there, else <body>, else the root element.
        function defaultParent(tag) {
            var builtIns = runtime.captured();
            var head = builtIns.documentHead(document);
            var body = builtIns.documentBody(document);
            var root = builtIns.documentElement(document);
            var inHead = tag === "style" || tag === "script" || tag === "link" || tag === "meta";
            return (inHead ? head || body : body || head) || root;
        }

        // A <style> whose rules a Content-Security-Policy refused (no sheet) has them applied
        // through a constructed style sheet, which style-src does not govern.
        function ensureApplied(style, css) {
            var builtIns = runtime.captured();
            if (builtIns.styleSheet(style) !== null || PageStyleSheet === null) { return; }
            try {
                var sheet = new PageStyleSheet();
                sheet.replaceSync(css);
                var adopted = document.adoptedStyleSheets;
                var list = [];
                for (var index = 0; index < adopted.length; index++) { list[index] = adopted[index]; }
                list[list.length] = sheet;
                document.adoptedStyleSheets = list;
            } catch (error) {
                return;
            }
        }

        // hooks: the run's, for an inline <script> the page's policy refuses (null for styles).
        function addElement(parent, tag, attributes, hooks) {
            var builtIns = runtime.captured();
            var element = builtIns.createElement(document, "" + tag);
            var text = null;
            var hasNonce = false;
            if (attributes !== null && typeof attributes === "object") {
                var names = builtIns.keys(attributes);
                for (var index = 0; index < names.length; index++) {
                    var name = names[index];
                    if (name === "textContent") {
                        text = "" + attributes[name];
                        builtIns.setTextContent(element, text);
                    } else {
                        if (name === "nonce") { hasNonce = true; }
                        builtIns.setAttribute(element, name, "" + attributes[name]);
                    }
                }
            }
            var kind = builtIns.localName(element);
            var refused = kind === "script" && text !== null && hooks !== null && !hasNonce && !inlineScriptsRun();
            builtIns.appendChild(parent || defaultParent(kind), element);
            if (kind === "style" && text !== null) { ensureApplied(element, text); }
            // PageScript runs the refused code as it runs the user's own (an Execute Script body,
            // which the policy does not govern), as soon as the run's next reply reaches it.
            if (refused) { hooks.queue("\"type\":\"script\",\"code\":" + runtime.quote(text), true); }
            return element;
        }

        // Whether this document's Content-Security-Policy lets an inline <script> run (it stays in
        // force unless the user lifted it, --bypass-csp): found once, by a probe script that marks the
        // window under a name the page cannot know in advance.
        var inlineScriptsRunHere = null;
        function inlineScriptsRun() {
            if (inlineScriptsRunHere !== null) { return inlineScriptsRunHere; }
            var builtIns = runtime.captured();
            var mark = "pagescript-probe-" + builtIns.now() + "-" + builtIns.floor(builtIns.random() * 1e9);
            var probe = builtIns.createElement(document, "script");
            builtIns.setTextContent(probe, "window[" + runtime.quote(mark) + "] = true;");
            var parent = defaultParent("script");
            builtIns.appendChild(parent, probe);
            builtIns.removeChild(parent, probe);
            inlineScriptsRunHere = builtIns.describe(window, mark) !== undefined;
            if (inlineScriptsRunHere) { delete window[mark]; }
            return inlineScriptsRunHere;
        }

        function addStyle(css) {
            return addElement(null, "style", { textContent: "" + css }, null);
        }

        // --- GM_xmlhttpRequest ----------------------------------------------------------------

        var base64Letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

        // Base64 by hand: the window's btoa and atob belong to the page, and the fresh realm's
        // window is gone once its frame is removed.
        function base64Encoded(bytes) {
            var builtIns = runtime.captured();
            var text = "";
            for (var at = 0; at < bytes.length; at += 3) {
                var chunk = (bytes[at] << 16) | ((at + 1 < bytes.length ? bytes[at + 1] : 0) << 8) | (at + 2 < bytes.length ? bytes[at + 2] : 0);
                text += builtIns.charAt(base64Letters, (chunk >> 18) & 63) + builtIns.charAt(base64Letters, (chunk >> 12) & 63) +
                    (at + 1 < bytes.length ? builtIns.charAt(base64Letters, (chunk >> 6) & 63) : "=") +
                    (at + 2 < bytes.length ? builtIns.charAt(base64Letters, chunk & 63) : "=");
            }
            return text;
        }

        // The page's own Uint8Array, so that the script's `instanceof ArrayBuffer` holds.
        function base64Decoded(text) {
            var builtIns = runtime.captured();
            var values = [];
            var bits = 0;
            var count = 0;
            for (var at = 0; at < text.length; at++) {
                var digit = builtIns.indexOf(base64Letters, builtIns.charAt(text, at));
                if (digit < 0) { continue; }
                bits = ((bits << 6) | digit) & 65535;
                count += 6;
                if (count >= 8) {
                    count -= 8;
                    values[values.length] = (bits >> count) & 255;
                }
            }
            var bytes = new window.Uint8Array(values.length);
            for (var index = 0; index < values.length; index++) { bytes[index] = values[index]; }
            return bytes;
        }

        // The details as PageScript reads them (GMAPI's GMRequest): text fields as text, a body
        // as text or as base64 for binary data.
        function requestDetails(details) {
            var builtIns = runtime.captured();
            var wire = { url: "" + details.url, method: details.method === undefined ? "GET" : "" + details.method };
            if (details.headers !== null && typeof details.headers === "object") {
                var headers = {};
                var names = builtIns.keys(details.headers);
                for (var index = 0; index < names.length; index++) { headers[names[index]] = "" + details.headers[names[index]]; }
                wire.headers = headers;
            }
            var data = details.data;
            if (data !== undefined && data !== null) {
                var bytes = byteView(data);
                if (bytes !== null) {
                    wire.dataBase64 = base64Encoded(bytes);
                } else {
                    wire.data = "" + data;
                }
            }
            var texts = ["responseType", "user", "password", "redirect", "overrideMimeType", "cookie"];
            for (var field = 0; field < texts.length; field++) {
                if (typeof details[texts[field]] === "string") { wire[texts[field]] = details[texts[field]]; }
            }
            if (typeof details.timeout === "number") { wire.timeout = details.timeout; }
            if (details.anonymous === true) { wire.anonymous = true; }
            return builtIns.stringify(wire);
        }

        function byteView(data) {
            var builtIns = runtime.captured();
            try {
                if (builtIns.isView(data)) { return new builtIns.Uint8Array(data.buffer, data.byteOffset, data.byteLength); }
                if (builtIns.objectTag(data) === "[object ArrayBuffer]") { return new builtIns.Uint8Array(data); }
            } catch (error) {
                return null;
            }
            return null;
        }

        // The response object the callbacks get, from PageScript's (GMAPI's GMResponse or
        // GMRequestFailure), with the page's own ArrayBuffer for binary bodies.
        function responseObject(wire, details) {
            var builtIns = runtime.captured();
            var response = {
                status: wire.status, statusText: wire.statusText, readyState: 4, responseHeaders: wire.responseHeaders,
                finalUrl: wire.finalUrl, responseText: "", response: null, context: details.context
            };
            if (typeof wire.error === "string") { response.error = wire.error; }
            if (typeof wire.responseText === "string") { response.responseText = wire.responseText; }
            if (has(wire, "response")) { response.response = wire.response; }
            if (typeof wire.responseBase64 === "string") {
                var bytes = base64Decoded(wire.responseBase64);
                response.response = wire.responseType === "blob" && typeof window.Blob === "function" ?
                    new window.Blob([bytes], { type: wire.contentType }) : bytes.buffer;
            }
            return response;
        }

        function xmlhttpRequest(hooks, details, promise) {
            if (details === null || typeof details !== "object") { throw new TypeError("GM_xmlhttpRequest needs an object of details"); }
            var number = ++requestCount;
            var pending = { details: details, hooks: hooks, promise: promise, aborted: false };
            requests[number] = pending;
            hooks.queue("\"type\":\"xhr\",\"request\":" + number + ",\"details\":" + requestDetails(details), true);
            return {
                abort: function() {
                    if (!has(requests, "" + number)) { return; }
                    delete requests[number];
                    var aborted = { status: 0, statusText: "", readyState: 4, responseHeaders: "", finalUrl: "" + details.url,
                        responseText: "", response: null, context: details.context };
                    callBack(hooks, details.onabort, details, [aborted]);
                    callBack(hooks, details.onloadend, details, [aborted]);
                    if (promise) { promise.settle(false, aborted); }
                }
            };
        }

        // --- GM_download ----------------------------------------------------------------------

        // The details as PageScript reads them (GMAPI's GMDownload): the URL, name, headers and
        // options as text; the callbacks stay here. A Blob or File is named, never sent.
        function downloadDetails(details) {
            var builtIns = runtime.captured();
            var tag = builtIns.objectTag(details.url);
            var wire = { url: "" + details.url };
            if (tag === "[object Blob]" || tag === "[object File]") {
                wire.url = "";
                wire.blob = true;
            }
            if (details.name !== undefined && details.name !== null) { wire.name = "" + details.name; }
            if (details.headers !== null && typeof details.headers === "object") {
                var headers = {};
                var names = builtIns.keys(details.headers);
                for (var index = 0; index < names.length; index++) { headers[names[index]] = "" + details.headers[names[index]]; }
                wire.headers = headers;
            }
            if (details.saveAs === true) { wire.saveAs = true; }
            if (typeof details.conflictAction === "string") { wire.conflictAction = details.conflictAction; }
            if (typeof details.timeout === "number") { wire.timeout = details.timeout; }
            return builtIns.stringify(wire);
        }

        // GM_download(details) or GM_download(url, name): PageScript fetches and saves the file;
        // abort() before the file is saved stops it, after that removes it.
        function download(hooks, first, name, promise) {
            var builtIns = runtime.captured();
            var details = first !== null && typeof first === "object" && builtIns.objectTag(first) === "[object Object]" ? first : { url: first, name: name };
            if (details.url === undefined || details.url === null) { throw new TypeError("GM_download needs a url"); }
            var number = ++requestCount;
            requests[number] = { details: details, hooks: hooks, promise: promise, download: true };
            hooks.queue("\"type\":\"download\",\"request\":" + number + ",\"details\":" + downloadDetails(details), true);
            return {
                abort: function() {
                    if (!has(requests, "" + number)) { return; }
                    delete requests[number];
                    hooks.queue("\"type\":\"downloadAbort\",\"request\":" + number, false);
                    var error = { error: "not_succeeded", details: "the script aborted the download" };
                    callBack(hooks, details.onerror, details, [error]);
                    if (promise) { promise.settle(false, error); }
                }
            };
        }

        // A download's answer (GMAPI's GMDownloadRecord.pageJSON): one progress event with all of
        // it loaded and onload with where the file went, or the error object for ontimeout (else
        // onerror when the script has no ontimeout) or onerror.
        function deliverDownload(pending, wire) {
            var details = pending.details;
            var callback = typeof wire.callback === "string" ? wire.callback : "onerror";
            if (callback === "onload") {
                var result = { url: wire.url, finalUrl: wire.finalUrl, name: wire.name, path: wire.path, bytes: wire.bytes, status: wire.status };
                var progress = { lengthComputable: true, loaded: wire.bytes, total: wire.bytes, done: wire.bytes, position: wire.bytes,
                    totalSize: wire.bytes, finalUrl: wire.finalUrl };
                callBack(pending.hooks, details.onprogress, details, [progress]);
                callBack(pending.hooks, details.onload, details, [result]);
                if (pending.promise) { pending.promise.settle(true, result); }
                return;
            }
            var error = { error: wire.error, details: wire.details };
            var handler = callback === "ontimeout" && typeof details.ontimeout === "function" ? details.ontimeout : details.onerror;
            callBack(pending.hooks, handler, details, [error]);
            if (pending.promise) { pending.promise.settle(false, error); }
        }

        // --- GM_cookie --------------------------------------------------------------------------

        var cookieMembers = ["url", "domain", "name", "path", "value", "sameSite"];

        // The details as PageScript reads them (GMAPI's GMCookieCall): text members as text, the
        // flags and the expiry as given, and the document's own address when the script named none.
        function cookieDetails(details) {
            var builtIns = runtime.captured();
            var wire = {};
            if (details !== null && typeof details === "object") {
                for (var index = 0; index < cookieMembers.length; index++) {
                    var member = cookieMembers[index];
                    if (details[member] !== undefined && details[member] !== null) { wire[member] = "" + details[member]; }
                }
                if (typeof details.secure === "boolean") { wire.secure = details.secure; }
                if (typeof details.httpOnly === "boolean") { wire.httpOnly = details.httpOnly; }
                if (typeof details.expirationDate === "number") { wire.expirationDate = details.expirationDate; }
            }
            if (wire.url === undefined) { wire.url = builtIns.documentURL(document); }
            return builtIns.stringify(wire);
        }

        // GM_cookie.list/set/delete(details, callback): PageScript does it in the browser's cookie
        // store; the callback gets (cookies, error) for list, (error) for the others.
        function cookie(hooks, action, details, callback, promise) {
            var number = ++requestCount;
            requests[number] = { cookie: action, callback: callback, hooks: hooks, promise: promise };
            hooks.queue("\"type\":\"cookie\",\"request\":" + number + ",\"action\":" + runtime.quote("" + action) +
                ",\"details\":" + cookieDetails(details), true);
        }

        function deliverCookie(pending, wire) {
            var builtIns = runtime.captured();
            var error = typeof wire.error === "string" ? wire.error : null;
            if (pending.cookie === "list") {
                var list = [];
                var cookies = error === null && wire.cookies ? wire.cookies : [];
                for (var index = 0; index < cookies.length; index++) { list[index] = cookies[index]; }
                var listed = builtIns.parse(builtIns.stringify(list));
                callBack(pending.hooks, pending.callback, undefined, [error === null ? listed : undefined, error]);
                if (pending.promise) { pending.promise.settle(error === null, error === null ? listed : error); }
                return;
            }
            callBack(pending.hooks, pending.callback, undefined, [error]);
            if (pending.promise) { pending.promise.settle(error === null, error === null ? undefined : error); }
        }

        // GM_getTab's object, GM_getTabs' objects by tab ID, or nothing for GM_saveTab; each a
        // copy of its own, made with PageScript's JSON.
        function deliverTab(pending, wire) {
            var builtIns = runtime.captured();
            var error = typeof wire.error === "string" ? wire.error : null;
            if (error !== null) {
                pending.hooks.console.error(error);
                if (pending.settle) { pending.settle(false, error); }
                return;
            }
            var given = pending.tab === "save" ? undefined : builtIns.parse(builtIns.stringify(pending.tab === "list" ? wire.tabs : wire.tab));
            callBack(pending.hooks, pending.callback, undefined, pending.tab === "save" ? [] : [given]);
            if (pending.settle) { pending.settle(true, given); }
        }

        // A notification's answer (GMNotificationDisplay's): clicked, onclick then ondone(true);
        // closed unclicked, ondone(false).
        function deliverNotification(pending, wire) {
            var clicked = wire.clicked === true;
            if (clicked) { callBack(pending.hooks, pending.onclick, pending.details, []); }
            callBack(pending.hooks, pending.ondone, pending.details, [clicked]);
            if (pending.settle) { pending.settle(clicked); }
        }

        // Hands one response to the request it answers: onprogress (for a load), onreadystatechange,
        // then the callback PageScript named (onload, onerror, ontimeout, onabort), then onloadend.
        function deliver(number, wire) {
            if (!has(requests, "" + number)) { return; }
            var pending = requests[number];
            // A notification's answer goes to a notification only (own members: the page may
            // have given Object.prototype one of that name).
            var isNotification = has(pending, "notification");
            if (isNotification !== (wire !== null && typeof wire === "object" && has(wire, "notification"))) { return; }
            delete requests[number];
            if (isNotification) {
                deliverNotification(pending, wire);
                return;
            }
            if (pending.download === true) {
                deliverDownload(pending, wire);
                return;
            }
            if (typeof pending.cookie === "string") {
                deliverCookie(pending, wire);
                return;
            }
            if (typeof pending.tab === "string") {
                deliverTab(pending, wire);
                return;
            }
            var details = pending.details;
            var response = responseObject(wire, details);
            var callback = typeof wire.callback === "string" ? wire.callback : "onerror";
            if (callback === "onload" && typeof details.onprogress === "function") {
                // The body arrives whole: one progress event, with all of it loaded.
                var size = typeof response.responseText === "string" ? response.responseText.length :
                    (response.response && typeof response.response.byteLength === "number" ? response.response.byteLength : 0);
                var progress = { lengthComputable: true, loaded: size, total: size, done: size, position: size, totalSize: size,
                    readyState: 3, status: response.status, statusText: response.statusText, responseHeaders: response.responseHeaders,
                    finalUrl: response.finalUrl, context: details.context };
                callBack(pending.hooks, details.onprogress, details, [progress]);
            }
            callBack(pending.hooks, details.onreadystatechange, details, [response]);
            callBack(pending.hooks, details[callback], details, [response]);
            callBack(pending.hooks, details.onloadend, details, [response]);
            if (pending.promise) { pending.promise.settle(callback === "onload", response); }
        }

        // --- The API of one script run ---------------------------------------------------------

        // setup: {values, info, resources, watchesURL, downloads, cookies, windowMethods, notifications, clipboard}; hooks: {console, queue(itemText, wake), report(text)}.
        function make(setup, hooks) {
            var builtIns = runtime.captured();
            var quote = runtime.quote;
            var store = builtIns.create(null);
            var initial = setup.values !== null && typeof setup.values === "object" ? setup.values : {};
            var keys = builtIns.keys(initial);
            for (var index = 0; index < keys.length; index++) { store[keys[index]] = builtIns.stringify(initial[keys[index]]); }
            var listeners = builtIns.create(null);
            var listenerCount = 0;
            // Menu commands in the order registered, by position (no array, whose index setters the
            // page could define): {id, name, callback}; null once unregistered.
            var menu = builtIns.create(null);
            var menuLength = 0;
            var menuCount = 0;
            var blobURLs = builtIns.create(null);
            var tabCount = 0;
            var resources = setup.resources !== null && typeof setup.resources === "object" ? setup.resources : {};
            // @grant window.onurlchange: Tampermonkey's feature test (`window.onurlchange === null`)
            // holds, and PageScript dispatches `urlchange` where it follows the page.
            if (setup.watchesURL === true && window.onurlchange === undefined) { window.onurlchange = null; }

            // Listeners by ID, from 1 (no array, whose index setters the page could define):
            // {key, callback}; null once removed.
            function changed(key, oldText, newText, remote) {
                for (var at = 1; at <= listenerCount; at++) {
                    var listener = listeners[at];
                    if (listener !== null && listener.key === key) {
                        callBack(hooks, listener.callback, undefined, [key, oldText === undefined ? undefined : builtIns.parse(oldText),
                            newText === undefined ? undefined : builtIns.parse(newText), remote]);
                    }
                }
            }
            // A change made elsewhere (another tab, another run, another process): this run's
            // copy of the values takes it, and its listeners hear of it when it changes the copy.
            function valueChanged(key, newText, remote) {
                var old = has(store, key) ? store[key] : undefined;
                if (old === newText) { return; }
                if (newText === undefined) { delete store[key]; } else { store[key] = newText; }
                changed(key, old, newText, remote);
            }
            function getValue(key, fallback) {
                key = "" + key;
                return has(store, key) ? builtIns.parse(store[key]) : fallback;
            }
            function deleteValue(key) {
                key = "" + key;
                var old = has(store, key) ? store[key] : undefined;
                delete store[key];
                hooks.queue("\"type\":\"value\",\"change\":{\"key\":" + quote(key) + ",\"deleted\":true}", false);
                if (old !== undefined) { changed(key, old, undefined, false); }
            }
            function setValue(key, value) {
                key = "" + key;
                var text = value === undefined ? undefined : builtIns.stringify(value);
                if (text === undefined) {
                    deleteValue(key);
                    return;
                }
                var old = has(store, key) ? store[key] : undefined;
                store[key] = text;
                hooks.queue("\"type\":\"value\",\"change\":{\"key\":" + quote(key) + ",\"value\":" + text + "}", false);
                if (old !== text) { changed(key, old, text, false); }
            }
            function listValues() {
                return builtIns.keys(store);
            }
            // Tampermonkey's and Violentmonkey's several-at-once forms: GM_setValues({key: value}),
            // GM_getValues([key] or {key: fallback}) giving {key: value} (a key with no value and
            // no fallback is left out), GM_deleteValues([key]).
            function setValues(values) {
                if (values === null || typeof values !== "object") { throw new TypeError("GM_setValues needs an object of values"); }
                var keys = builtIns.keys(values);
                for (var index = 0; index < keys.length; index++) { setValue(keys[index], values[keys[index]]); }
            }
            function getValues(wanted) {
                var found = {};
                if (builtIns.isArray(wanted)) {
                    for (var at = 0; at < wanted.length; at++) {
                        var key = "" + wanted[at];
                        if (has(store, key)) { found[key] = builtIns.parse(store[key]); }
                    }
                } else if (wanted !== null && typeof wanted === "object") {
                    var keys = builtIns.keys(wanted);
                    for (var index = 0; index < keys.length; index++) { found[keys[index]] = getValue(keys[index], wanted[keys[index]]); }
                }
                return found;
            }
            function deleteValues(keys) {
                if (!builtIns.isArray(keys)) { throw new TypeError("GM_deleteValues needs an array of keys"); }
                for (var at = 0; at < keys.length; at++) { deleteValue(keys[at]); }
            }
            function resource(name, field) {
                name = "" + name;
                return has(resources, name) && resources[name] !== null && typeof resources[name] === "object" ? resources[name][field] : null;
            }
            // A data: URL, as Tampermonkey gives it; a blob: URL (made once) when the script asks
            // with Violentmonkey's isBlobUrl, true.
            function resourceURL(name, isBlobUrl) {
                var url = resource(name, "url");
                if (isBlobUrl !== true || typeof url !== "string" || PageBlob === null || createObjectURL === null) { return url; }
                name = "" + name;
                if (has(blobURLs, name)) { return blobURLs[name]; }
                var comma = builtIns.indexOf(url, ",");
                var type = builtIns.slice(url, 5, builtIns.indexOf(url, ";"));
                try {
                    var blob = new PageBlob([base64Decoded(builtIns.slice(url, comma + 1))], { type: type });
                    blobURLs[name] = builtIns.apply(createObjectURL, PageURL, [blob]);
                } catch (error) {
                    return url;
                }
                return blobURLs[name];
            }
            function report(kind, members) {
                hooks.report("{\"kind\":" + quote(kind) + members + "}");
            }
            // JSON members for the details the script gave: texts as text, flags and numbers as
            // given, anything else left out.
            function givenMembers(details, texts, flags, numbers) {
                var members = "";
                for (var text = 0; text < texts.length; text++) {
                    var value = details[texts[text]];
                    if (value !== undefined && value !== null) { members += "," + quote(texts[text]) + ":" + quote(builtIns.String(value)); }
                }
                for (var flag = 0; flag < flags.length; flag++) {
                    if (typeof details[flags[flag]] === "boolean") { members += "," + quote(flags[flag]) + ":" + (details[flags[flag]] ? "true" : "false"); }
                }
                for (var number = 0; number < numbers.length; number++) {
                    var amount = details[numbers[number]];
                    if (typeof amount === "number" && amount === amount && amount !== 1 / 0 && amount !== -1 / 0) {
                        members += "," + quote(numbers[number]) + ":" + builtIns.stringify(amount);
                    }
                }
                return members;
            }
            // GM_notification(details, ondone) or GM_notification(text, title, image, onclick).
            // Where PageScript shows notifications (setup.notifications) one is a request whose
            // answer comes when it is clicked or closed; one that only highlights the tab, and
            // every one where nothing is shown, is reported and closed at once: ondone(false)
            // now, onclick never. `settle` (GM.notification's) gets the same moment.
            function notification(first, second, image, onclick, settle) {
                var byDetails = first !== null && typeof first === "object";
                var details = byDetails ? first : { text: first, title: second, image: image, onclick: onclick };
                var ondone = byDetails && typeof second === "function" ? second : details.ondone;
                var text = details.text === undefined || details.text === null ? "" : builtIns.String(details.text);
                var title = details.title === undefined || details.title === null ? "" : builtIns.String(details.title);
                var given = givenMembers(details, ["image", "tag", "url"], ["silent", "highlight"], ["timeout"]);
                report("notification", ",\"text\":" + quote(text) + ",\"title\":" + quote(title) + given);
                if (setup.notifications === true && !(text === "" && details.highlight === true)) {
                    var number = ++requestCount;
                    requests[number] = { notification: true, details: details, hooks: hooks, onclick: details.onclick, ondone: ondone, settle: settle };
                    hooks.queue("\"type\":\"notification\",\"request\":" + number + ",\"details\":{\"text\":" + quote(text) +
                        ",\"title\":" + quote(title) + given + "}", true);
                    return;
                }
                callBack(hooks, ondone, details, [false]);
                if (settle) { settle(false); }
            }
            // GM_setClipboard(data, info, cb): info is "text", "html" (or a MIME type) or {type, mimetype}.
            function setClipboard(data, info, done) {
                var type = "text";
                var mimetype = null;
                if (info !== null && typeof info === "object") {
                    if (info.type !== undefined && info.type !== null) { type = builtIns.String(info.type); }
                    if (info.mimetype !== undefined && info.mimetype !== null) { mimetype = builtIns.String(info.mimetype); }
                } else if (info !== undefined && info !== null) {
                    type = builtIns.String(info);
                }
                if (builtIns.indexOf(type, "/") >= 0) {
                    mimetype = mimetype === null ? type : mimetype;
                    type = type === "text/html" ? "html" : "text";
                }
                if (mimetype === null) { mimetype = type === "html" ? "text/html" : "text/plain"; }
                var members = ",\"data\":" + quote(builtIns.String(data)) + ",\"type\":" + quote(type) + ",\"mimetype\":" + quote(mimetype);
                report("clipboard", members);
                // Where PageScript sets the display's clipboard (setup.clipboard), it is work too.
                if (setup.clipboard === true) { hooks.queue("\"type\":\"clipboard\"" + members, true); }
                callBack(hooks, done, undefined, []);
            }
            // GM_openInTab(url, options or loadInBackground): PageScript opens the tab (`browse`,
            // `run`) from the report. The handle's close() closes it: `closed` turns true and
            // onclose is called.
            function openInTab(url, options) {
                var settings = options !== null && typeof options === "object" ? options :
                    (typeof options === "boolean" ? { active: !options } : {});
                var number = ++tabCount;
                report("openInTab", ",\"tab\":" + number + ",\"url\":" + quote(builtIns.String(url)) +
                    givenMembers(settings, [], ["active", "insert", "setParent", "incognito"], []));
                var handle = { closed: false, onclose: null };
                handle.close = function() {
                    if (handle.closed) { return; }
                    handle.closed = true;
                    report("closeTab", ",\"tab\":" + number);
                    callBack(hooks, handle.onclose, handle, []);
                };
                return handle;
            }
            function menuIndex(id) {
                for (var at = 0; at < menuLength; at++) {
                    if (menu[at] !== null && "" + menu[at].id === "" + id) { return at; }
                }
                return -1;
            }
            // GM_registerMenuCommand(name, callback, options or accessKey): the command's ID, a
            // number, or options.id, under which a command registered before is replaced.
            function registerMenuCommand(name, callback, options) {
                name = builtIns.String(name);
                var settings = options !== null && typeof options === "object" ? options : { accessKey: options };
                var id = typeof settings.id === "number" || typeof settings.id === "string" ? settings.id : ++menuCount;
                var command = { id: id, name: name, callback: callback };
                var at = menuIndex(id);
                if (at >= 0) { menu[at] = command; } else { menu[menuLength++] = command; }
                report("menuCommand", ",\"id\":" + quote("" + id) + ",\"name\":" + quote(name) +
                    givenMembers(settings, ["accessKey", "title"], ["autoClose"], []));
                return id;
            }
            // By the ID registerMenuCommand returned, or, as Violentmonkey's IDs are the names, by name.
            function unregisterMenuCommand(id) {
                var at = menuIndex(id);
                for (var named = 0; at < 0 && named < menuLength; named++) {
                    if (menu[named] !== null && menu[named].name === "" + id) { at = named; }
                }
                if (at < 0) { return; }
                report("menuCommandRemoved", ",\"id\":" + quote("" + menu[at].id));
                menu[at] = null;
            }
            function addValueChangeListener(key, callback) {
                listeners[++listenerCount] = { key: "" + key, callback: callback };
                return listenerCount;
            }
            function removeValueChangeListener(id) {
                if (typeof id === "number" && id >= 1 && id <= listenerCount) { listeners[id] = null; }
            }
            // GM_getTab(callback), GM_saveTab(tab, callback), GM_getTabs(callback): PageScript
            // keeps the script's object per tab; `settle` is the promise form's.
            function tabCall(action, object, callback, settle) {
                var members = "";
                if (action === "save") {
                    var text = object === undefined || object === null ? "{}" : builtIns.stringify(object);
                    members = ",\"tab\":" + (text === undefined ? "{}" : text);
                }
                var number = ++requestCount;
                requests[number] = { tab: action, callback: callback, hooks: hooks, settle: settle };
                hooks.queue("\"type\":\"tab\",\"request\":" + number + ",\"action\":" + quote(action) + members, true);
            }
            function tabPromise(action, object) {
                var promise = deferred();
                tabCall(action, object, null, promise.settle);
                return promise.promise;
            }
            function log() {
                runtime.captured().apply(hooks.console.log, undefined, arguments);
            }
            // GM_cookie(action, details, callback), Tampermonkey's first form, and GM_cookie.list,
            // .set and .delete(details, callback).
            function cookieFunctions() {
                var call = function(action, details, callback) {
                    if (action !== "list" && action !== "set" && action !== "delete") {
                        throw new TypeError("GM_cookie: the action must be list, set or delete");
                    }
                    cookie(hooks, action, details, callback, null);
                };
                call.list = function(details, callback) { cookie(hooks, "list", details, callback, null); };
                call.set = function(details, callback) { cookie(hooks, "set", details, callback, null); };
                call.delete = function(details, callback) { cookie(hooks, "delete", details, callback, null); };
                return call;
            }
            function cookiePromise(action, details) {
                var promise = deferred();
                cookie(hooks, action, details, null, promise);
                return promise.promise;
            }
            // @grant window.close, window.focus: the script's `window` is the page's, but for those
            // methods, whose calls are reported and not done (the tab is the run's).
            function scriptWindow(methods) {
                var handler = builtIns.create(null);
                var bound = builtIns.create(null);
                var own = builtIns.create(null);
                for (var at = 0; at < methods.length; at++) {
                    (function(call) {
                        own[call] = function() { report("window", ",\"call\":" + quote(call)); };
                    })("" + methods[at]);
                }
                handler.get = function(target, key) {
                    if (typeof key === "string" && has(own, key)) { return own[key]; }
                    var value = builtIns.reflectGet(target, key);
                    if (typeof value !== "function" || has(value, "prototype")) { return value; }
                    var place = builtIns.describe(target, key);
                    if (place !== undefined && place.configurable === false && place.writable === false) { return value; }
                    // The window's own methods need the window itself as `this`.
                    if (!has(bound, key) || bound[key].original !== value) {
                        bound[key] = { original: value, bound: builtIns.bindTo(value, target) };
                    }
                    return bound[key].bound;
                };
                handler.set = function(target, key, value) { return builtIns.reflectSet(target, key, value); };
                return new builtIns.Proxy(window, handler);
            }
            var info = setup.info;
            var api = {
                GM_info: info,
                unsafeWindow: window,
                GM_getValue: getValue,
                GM_setValue: setValue,
                GM_deleteValue: deleteValue,
                GM_listValues: listValues,
                GM_setValues: setValues,
                GM_getValues: getValues,
                GM_deleteValues: deleteValues,
                GM_addValueChangeListener: addValueChangeListener,
                GM_removeValueChangeListener: removeValueChangeListener,
                GM_addStyle: addStyle,
                GM_addElement: function(parent, tag, attributes) {
                    return typeof parent === "string" ? addElement(null, parent, tag, hooks) : addElement(parent, tag, attributes, hooks);
                },
                GM_xmlhttpRequest: function(details) { return xmlhttpRequest(hooks, details, null); },
                GM_getResourceText: function(name) { return resource(name, "text"); },
                GM_getResourceURL: resourceURL,
                GM_log: log,
                GM_notification: function(first, second, image, onclick) { notification(first, second, image, onclick, null); },
                GM_setClipboard: setClipboard,
                GM_openInTab: openInTab,
                GM_registerMenuCommand: registerMenuCommand,
                GM_unregisterMenuCommand: unregisterMenuCommand,
                GM_download: function(details, name) { return download(hooks, details, name, null); },
                GM_cookie: cookieFunctions(),
                GM_getTab: function(callback) { tabCall("get", null, callback, null); },
                GM_saveTab: function(tab, callback) { tabCall("save", tab, callback, null); },
                GM_getTabs: function(callback) { tabCall("list", null, callback, null); }
            };
            var promises = {
                info: info,
                getValue: function(key, fallback) { return promised(function() { return getValue(key, fallback); }); },
                setValue: function(key, value) { return promised(function() { setValue(key, value); }); },
                deleteValue: function(key) { return promised(function() { deleteValue(key); }); },
                listValues: function() { return promised(listValues); },
                setValues: function(values) { return promised(function() { setValues(values); }); },
                getValues: function(wanted) { return promised(function() { return getValues(wanted); }); },
                deleteValues: function(keys) { return promised(function() { deleteValues(keys); }); },
                addStyle: function(css) { return promised(function() { return addStyle(css); }); },
                addElement: function(parent, tag, attributes) {
                    return promised(function() { return api.GM_addElement(parent, tag, attributes); });
                },
                xmlHttpRequest: function(details) {
                    var promise = deferred();
                    var handle = xmlhttpRequest(hooks, details, promise);
                    promise.promise.abort = handle.abort;
                    return promise.promise;
                },
                getResourceText: function(name) { return promised(function() { return resource(name, "text"); }); },
                getResourceUrl: function(name, isBlobUrl) { return promised(function() { return resourceURL(name, isBlobUrl); }); },
                log: function() {
                    var values = arguments;
                    return promised(function() { builtIns.apply(log, undefined, values); });
                },
                // Settles with whether the notification was clicked, when it is clicked or closed (at
                // once, not clicked, where PageScript shows none).
                notification: function(first, second, image, onclick) {
                    var promise = deferred();
                    try {
                        notification(first, second, image, onclick, function(clicked) { promise.settle(true, clicked); });
                    } catch (error) {
                        promise.settle(false, error);
                    }
                    return promise.promise;
                },
                setClipboard: function(data, info, done) { return promised(function() { setClipboard(data, info, done); }); },
                openInTab: function(url, options) { return promised(function() { return openInTab(url, options); }); },
                registerMenuCommand: function(name, callback, options) {
                    return promised(function() { return registerMenuCommand(name, callback, options); });
                },
                unregisterMenuCommand: function(id) { return promised(function() { unregisterMenuCommand(id); }); },
                getTab: function() { return tabPromise("get", null); },
                saveTab: function(tab) { return tabPromise("save", tab); },
                getTabs: function() { return tabPromise("list", null); }
            };
            // GM.cookie only for a script that asked for it by name (setup.cookies).
            if (setup.cookies === true) {
                promises.cookie = {
                    list: function(details) { return cookiePromise("list", details); },
                    set: function(details) { return cookiePromise("set", details); },
                    delete: function(details) { return cookiePromise("delete", details); }
                };
            }
            // GM.download only for a script that asked for it by name (setup.downloads).
            if (setup.downloads === true) {
                promises.download = function(details, name) {
                    var promise = deferred();
                    var handle = download(hooks, details, name, promise);
                    promise.promise.abort = handle.abort;
                    return promise.promise;
                };
            }
            api.GM = promises;
            if (builtIns.isArray(setup.windowMethods) && setup.windowMethods.length > 0) {
                api.window = typeof builtIns.Proxy === "function" ? scriptWindow(setup.windowMethods) : window;
            }
            return {
                value: function(name) { return has(api, name) ? api[name] : undefined; },
                valueChanged: valueChanged,
                // Runs a command the script registered; false when it registered none by that name.
                runMenuCommand: function(name) {
                    for (var at = 0; at < menuLength; at++) {
                        if (menu[at] !== null && menu[at].name === "" + name) {
                            callBack(hooks, menu[at].callback, undefined, []);
                            return true;
                        }
                    }
                    return false;
                }
            };
        }

        return { make: make, deliver: deliver };
    };
})();
