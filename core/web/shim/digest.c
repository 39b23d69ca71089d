/* digest.c — the image cache's cryptography (core/store/digest.h) for the
 * WebAssembly build, each call answering with a failure.
 *
 * The web app keeps no image cache: the glue (core/web/glue.c) turns
 * ARBITER_CACHE off before it loads a ruleset, so arb_load compiles the
 * rule files and never seals, reads or hashes an image. Should a call come
 * all the same, it fails: no key, no digest, no seal — the cache is then
 * unusable and no image is trusted. digest_equal is the one real function:
 * a comparison in constant time. */
#include "digest.h"

digest_sha256 *digest_sha256_new(void) {
    return NULL;
}

void digest_sha256_update(digest_sha256 *d, const void *data, size_t len) {
    (void)d, (void)data, (void)len;
}

bool digest_sha256_final(digest_sha256 *d, unsigned char out[DIGEST_SIZE]) {
    (void)d, (void)out;
    return false;
}

void digest_sha256_free(digest_sha256 *d) {
    (void)d;
}

bool digest_hmac_sha256(const unsigned char *key, size_t keylen, const digest_part *parts,
                        int nparts, unsigned char out[DIGEST_SIZE]) {
    (void)key, (void)keylen, (void)parts, (void)nparts, (void)out;
    return false;
}

bool digest_equal(const void *a, const void *b, size_t n) {
    const unsigned char *x = a, *y = b;
    unsigned char diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= x[i] ^ y[i];
    return diff == 0;
}

bool digest_random(void *buf, size_t n) {
    (void)buf, (void)n;
    return false;
}
