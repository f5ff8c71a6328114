// The system's zlib (Debian: zlib1g-dev), for reading the deflated entries of zip archives.
#ifndef PAGESCRIPT_CZLIB_H
#define PAGESCRIPT_CZLIB_H

#include <zlib.h>

/// `inflateInit2` is a macro, which Swift cannot call: the same call as a function.
static inline int CZlib_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

#endif
