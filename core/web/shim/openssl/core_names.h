/* openssl/core_names.h for the WebAssembly build: see evp.h (no names are used). */
#ifndef ARB_WEB_OPENSSL_CORE_NAMES_H
#define ARB_WEB_OPENSSL_CORE_NAMES_H
#endif
