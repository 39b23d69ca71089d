/* openssl/rand.h for the WebAssembly build: see evp.h. */
#ifndef ARB_WEB_OPENSSL_RAND_H
#define ARB_WEB_OPENSSL_RAND_H

int RAND_bytes(unsigned char *buf, int num);

#endif
