/* openssl/crypto.h for the WebAssembly build: see evp.h. */
#ifndef ARB_WEB_OPENSSL_CRYPTO_H
#define ARB_WEB_OPENSSL_CRYPTO_H

#include <stddef.h>

int CRYPTO_memcmp(const void *a, const void *b, size_t len);

#endif
