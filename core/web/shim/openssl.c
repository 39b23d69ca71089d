/* openssl.c — the libcrypto calls of the image cache (core/store), for the
 * WebAssembly build, each answering with a failure.
 *
 * The web app keeps no image cache: the glue (core/web/glue.c) turns
 * ARBITER_CACHE off before it loads a ruleset, so arb_load compiles the
 * rule files and never seals, reads or hashes an image. Should a call come
 * all the same, it fails as a broken libcrypto would: no key (RAND_bytes),
 * no digest, no seal — the cache is then unusable and no image is trusted.
 * CRYPTO_memcmp is the one real function: a comparison in constant time. */
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

int CRYPTO_memcmp(const void *a, const void *b, size_t len) {
    const unsigned char *x = a, *y = b;
    unsigned char diff = 0;
    for (size_t i = 0; i < len; i++)
        diff |= x[i] ^ y[i];
    return diff != 0;
}

int RAND_bytes(unsigned char *buf, int num) {
    (void)buf;
    (void)num;
    return 0;
}

EVP_MD_CTX *EVP_MD_CTX_new(void) {
    return NULL;
}

void EVP_MD_CTX_free(EVP_MD_CTX *ctx) {
    (void)ctx;
}

const EVP_MD *EVP_sha256(void) {
    return NULL;
}

int EVP_DigestInit_ex(EVP_MD_CTX *ctx, const EVP_MD *type, ENGINE *impl) {
    (void)ctx, (void)type, (void)impl;
    return 0;
}

int EVP_DigestUpdate(EVP_MD_CTX *ctx, const void *d, size_t cnt) {
    (void)ctx, (void)d, (void)cnt;
    return 0;
}

int EVP_DigestFinal_ex(EVP_MD_CTX *ctx, unsigned char *md, unsigned int *s) {
    (void)ctx, (void)md;
    if (s) *s = 0;
    return 0;
}

EVP_MAC *EVP_MAC_fetch(OSSL_LIB_CTX *libctx, const char *algorithm, const char *properties) {
    (void)libctx, (void)algorithm, (void)properties;
    return NULL;
}

void EVP_MAC_free(EVP_MAC *mac) {
    (void)mac;
}

EVP_MAC_CTX *EVP_MAC_CTX_new(EVP_MAC *mac) {
    (void)mac;
    return NULL;
}

void EVP_MAC_CTX_free(EVP_MAC_CTX *ctx) {
    (void)ctx;
}

int EVP_MAC_init(EVP_MAC_CTX *ctx, const unsigned char *key, size_t keylen,
                 const OSSL_PARAM params[]) {
    (void)ctx, (void)key, (void)keylen, (void)params;
    return 0;
}

int EVP_MAC_update(EVP_MAC_CTX *ctx, const unsigned char *data, size_t datalen) {
    (void)ctx, (void)data, (void)datalen;
    return 0;
}

int EVP_MAC_final(EVP_MAC_CTX *ctx, unsigned char *out, size_t *outl, size_t outsize) {
    (void)ctx, (void)out, (void)outsize;
    if (outl) *outl = 0;
    return 0;
}

OSSL_PARAM OSSL_PARAM_construct_utf8_string(const char *key, char *buf, size_t bsize) {
    OSSL_PARAM p = {key, 0, buf, bsize, 0};
    return p;
}

OSSL_PARAM OSSL_PARAM_construct_end(void) {
    OSSL_PARAM p = {0, 0, 0, 0, 0};
    return p;
}
