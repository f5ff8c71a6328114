import NIOHTTP1

extension HTTPMethodName {
    var nioMethod: HTTPMethod {
        switch self {
        case .GET: .GET
        case .POST: .POST
        case .DELETE: .DELETE
        }
    }
}
