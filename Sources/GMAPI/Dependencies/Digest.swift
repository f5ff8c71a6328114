#if canImport(CryptoKit)
import CryptoKit
#else
import CLibcrypto
#endif

extension IntegrityCheck.Algorithm {
    /// The digest of `bytes`: CryptoKit's on Apple platforms, the system's libcrypto elsewhere.
    public func digest(_ bytes: [UInt8]) -> [UInt8] {
        #if canImport(CryptoKit)
        switch self {
        case .md5: Array(Insecure.MD5.hash(data: bytes))
        case .sha1: Array(Insecure.SHA1.hash(data: bytes))
        case .sha256: Array(SHA256.hash(data: bytes))
        case .sha384: Array(SHA384.hash(data: bytes))
        case .sha512: Array(SHA512.hash(data: bytes))
        }
        #else
        let function: OpaquePointer? = switch self {
        case .md5: EVP_md5()
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        case .sha384: EVP_sha384()
        case .sha512: EVP_sha512()
        }
        var digest = [UInt8](repeating: 0, count: digestLength)
        var length: UInt32 = 0
        let done = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, function, nil)
            }
        }
        // libcrypto fails only when it cannot allocate its context: nothing can go on then.
        precondition(done == 1 && Int(length) == digestLength, "libcrypto could not compute a \(rawValue) digest")
        return digest
        #endif
    }
}
