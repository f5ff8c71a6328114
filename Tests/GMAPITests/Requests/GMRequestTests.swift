import Foundation
import SystemSupport
import Testing
@testable import GMAPI

struct GMRequestTests {
    @Test func theDetailsThePageSendsAreReadWithTheManagersDefaults() throws {
        let request = try GMRequest(json: ["url": "/api"])
        #expect(request.method == "GET")
        #expect(request.url == "/api")
        #expect(request.headers.isEmpty)
        #expect(request.body == nil)
        #expect(request.timeout == nil)
        #expect(request.responseType == .text)
        #expect(request.redirect == .follow)
        #expect(!request.anonymous)
    }

    @Test func everyDocumentedFieldIsRead() throws {
        let request = try GMRequest(json: [
            "method": "post", "url": "https://api.example.com/v1",
            "headers": ["Content-Type": "application/json", "X-Count": 3, "X-Skip": .null],
            "data": "{\"q\":1}", "timeout": 2500, "responseType": "arraybuffer", "anonymous": true,
            "user": "me", "password": "secret", "cookie": "a=1", "redirect": "manual", "overrideMimeType": "text/plain; charset=latin1",
        ])
        #expect(request.normalizedMethod == "POST")
        #expect(request.headers == [GMHeaderField(name: "Content-Type", value: "application/json"), GMHeaderField(name: "X-Count", value: "3")])
        #expect(request.body == Array("{\"q\":1}".utf8))
        #expect(request.bodyIsText)
        #expect(request.timeout == 2.5)
        #expect(request.responseType == .arrayBuffer)
        #expect(request.anonymous)
        #expect(request.user == "me")
        #expect(request.password == "secret")
        #expect(request.cookie == "a=1")
        #expect(request.redirect == .manual)
        #expect(request.overrideMimeType == "text/plain; charset=latin1")
    }

    @Test func aBinaryBodyTravelsAsBase64() throws {
        let bytes: [UInt8] = [0, 1, 2, 250, 255]
        let request = try GMRequest(json: ["url": "https://x.test/", "method": "PUT", "dataBase64": .string(Data(bytes).base64EncodedString())])
        #expect(request.body == bytes)
        #expect(!request.bodyIsText)
        #expect(throws: GMRequestFailure.self) { try GMRequest(json: ["url": "https://x.test/", "dataBase64": "not base64!"]) }
    }

    @Test(arguments: ["", "json", "JSON", "text", "arraybuffer", "blob", "document", "unknown"])
    func everyResponseTypeIsRead(value: String) {
        let expected: GMResponseType = switch value.lowercased() {
        case "json": .json
        case "arraybuffer": .arrayBuffer
        case "blob": .blob
        case "document": .document
        default: .text
        }
        #expect(GMResponseType(pageValue: value) == expected)
    }

    /// Nothing a script writes can add a second request or header to the one it makes.
    @Test(arguments: [
        ["url": "https://x.test/", "method": "GET /evil HTTP/1.1\r\nHost: evil"],
        ["url": "https://x.test/", "method": ""],
        ["url": "https://x.test/", "method": "CONNECT"],
        ["url": "https://x.test/", "method": "trace"],
        ["url": "https://x.test/", "headers": ["X-A": "1\r\nX-Injected: 2"]],
        ["url": "https://x.test/", "headers": ["X-A\r\nX-B": "1"]],
        ["url": "https://x.test/", "headers": ["Bad Name": "1"]],
        ["url": "https://x.test/", "headers": ["X-A": ["nested"]]],
        ["url": "https://x.test/", "headers": ["X-A", "1"]],
        ["url": "https://x.test/", "user": "me\r\nX-Injected: 1"],
        ["url": "https://x.test/", "cookie": "a=1\nb=2"],
        ["url": "https://x.test/", "redirect": "sometimes"],
        ["method": "GET"],
        "https://x.test/",
    ] as [JSONValue])
    func malformedDetailsAreRefused(details: JSONValue) {
        let error = #expect(throws: GMRequestFailure.self) { try GMRequest(json: details) }
        #expect(error?.callback == .onerror)
    }

    @Test func responseHeadersHaveTheXMLHttpRequestFormat() {
        let response = GMResponse(
            status: 200, statusText: "OK",
            headers: [
                GMHeaderField(name: "X-B", value: "2"), GMHeaderField(name: "Content-Type", value: "text/plain"),
                GMHeaderField(name: "Set-Cookie", value: "secret=1"), GMHeaderField(name: "x-b", value: "3"),
                GMHeaderField(name: "Cache-Control", value: "no-store"),
            ],
            finalURL: "https://x.test/", body: []
        )
        #expect(response.responseHeaders == "cache-control: no-store\r\ncontent-type: text/plain\r\nx-b: 2, 3\r\n")
    }

    @Test func textIsDecodedWithTheCharsetTheServerOrTheScriptNames() {
        let latin1: [UInt8] = [0x63, 0x61, 0x66, 0xE9]
        func response(_ body: [UInt8], type: String?, override: String? = nil) -> GMResponse {
            GMResponse(status: 200, statusText: "OK", headers: type.map { [GMHeaderField(name: "Content-Type", value: $0)] } ?? [],
                       finalURL: "https://x.test/", body: body, overrideMimeType: override)
        }
        #expect(response(Array("café".utf8), type: nil).text == "café")
        #expect(response([0xEF, 0xBB, 0xBF] + Array("café".utf8), type: "text/html; charset=utf-8").text == "café")
        #expect(response(latin1, type: "text/html; charset=ISO-8859-1").text == "café")
        #expect(response(latin1, type: "text/html; charset=\"windows-1252\"").text == "café")
        #expect(response(latin1, type: "text/html; charset=utf-8", override: "text/plain; charset=latin1").text == "café")
        #expect(response(latin1, type: "text/html").text == "caf\u{FFFD}")
    }

    @Test func theObjectForOnloadCarriesTheBodyPerResponseType() throws {
        let json = Array("{\"a\":[1,2]}".utf8)
        let headers = [GMHeaderField(name: "Content-Type", value: "application/json")]
        let asJSON = GMResponse(status: 201, statusText: "Created", headers: headers, finalURL: "https://x.test/r", body: json, responseType: .json).json
        #expect(asJSON["callback"] == "onload")
        #expect(asJSON["status"] == 201)
        #expect(asJSON["statusText"] == "Created")
        #expect(asJSON["readyState"] == 4)
        #expect(asJSON["finalUrl"] == "https://x.test/r")
        #expect(asJSON["response"] == ["a": [1, 2]])
        #expect(asJSON["responseText"] == "{\"a\":[1,2]}")
        #expect(asJSON["responseHeaders"] == "content-type: application/json\r\n")

        let notJSON = GMResponse(status: 200, statusText: "OK", headers: [], finalURL: "https://x.test/", body: Array("<html>".utf8), responseType: .json).json
        #expect(notJSON["response"] == .null)
        #expect(notJSON["responseText"] == "<html>")

        let bytes: [UInt8] = [0, 255, 128, 7]
        let binary = GMResponse(status: 200, statusText: "OK", headers: [GMHeaderField(name: "Content-Type", value: "image/png")],
                                finalURL: "https://x.test/i.png", body: bytes, responseType: .blob).json
        #expect(binary["responseBase64"] == .string(Data(bytes).base64EncodedString()))
        #expect(binary["contentType"] == "image/png")
        #expect(binary["responseText"] == nil)
    }

    @Test func aFailureTellsThePageWhichCallbackToCall() {
        #expect(GMRequestFailure.timedOut(url: "u", seconds: 2).callback == .ontimeout)
        #expect(GMRequestFailure.aborted(url: "u").callback == .onabort)
        #expect(GMRequestFailure.network(url: "u", reason: "r").callback == .onerror)
        let json = GMRequestFailure.timedOut(url: "https://x.test/", seconds: 1.5).json
        #expect(json["callback"] == "ontimeout")
        #expect(json["status"] == 0)
        #expect(json["finalUrl"] == "https://x.test/")
        #expect(json["error"] == "GM_xmlhttpRequest to https://x.test/ timed out after 1.5 s")
    }
}
