/* digest.h — the cryptography of the image cache: SHA-256 of the rule
 * files, HMAC-SHA-256 seals, a comparison in constant time and fresh
 * random keys.
 *
 * One module so that the rest of core/store names no crypto library: the
 * native build uses nettle (a small library: a start that loads it costs
 * a fraction of what libcrypto's relocations and initialisers did) and the
 * kernel's random source; the WebAssembly build, which keeps no image
 * cache, links core/web/shim/digest.c instead, whose every call fails. */
#ifndef ARB_DIGEST_H
#define ARB_DIGEST_H

#include <stdbool.h>
#include <stddef.h>

#define DIGEST_SIZE 32 /* SHA-256 and HMAC-SHA-256 */

typedef struct digest_sha256 digest_sha256;

/* A running SHA-256 (NULL when it cannot be made); free with _free. */
digest_sha256 *digest_sha256_new(void);
void digest_sha256_update(digest_sha256 *d, const void *data, size_t len);
/* The digest of everything given; false when there is none to give. */
bool digest_sha256_final(digest_sha256 *d, unsigned char out[DIGEST_SIZE]);
void digest_sha256_free(digest_sha256 *d);

/* One piece of a message, for a MAC over pieces that are not contiguous. */
typedef struct digest_part {
    const void *data;
    size_t len;
} digest_part;

/* HMAC-SHA-256 under key of the parts in order; false when it cannot be
 * computed (then no seal can be trusted). */
bool digest_hmac_sha256(const unsigned char *key, size_t keylen, const digest_part *parts,
                        int nparts, unsigned char out[DIGEST_SIZE]);

/* Whether a and b hold the same n bytes, in a time that does not depend
 * on where they differ. */
bool digest_equal(const void *a, const void *b, size_t n);

/* n bytes fit for a secret key; false when the system has none to give. */
bool digest_random(void *buf, size_t n);

#endif
