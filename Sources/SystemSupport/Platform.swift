// All libc differences live here: the rest of the package imports `SystemSupport`
// and uses these names instead of importing Glibc, Musl or Darwin itself.

#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("PageScript needs a POSIX C library (Glibc, Musl or Darwin).")
#endif

/// The platform's name for the C `errno` value, read right after a failing call.
public var currentErrno: Int32 { errno }

/// A human-readable message for a C `errno` value.
public func errnoDescription(_ code: Int32) -> String {
    String(cString: strerror(code))
}
