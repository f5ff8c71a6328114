// The system's OpenSSL libcrypto (Debian: libssl-dev), for the digests of integrity hashes on
// Linux; Apple platforms use CryptoKit.
#ifndef PAGESCRIPT_CLIBCRYPTO_H
#define PAGESCRIPT_CLIBCRYPTO_H

#include <openssl/evp.h>

#endif
