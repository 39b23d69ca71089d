/* digest.c — the image cache's cryptography over nettle (digest.h). */
#include "digest.h"

#include "mem.h"

#include <errno.h>
#include <nettle/hmac.h>
#include <nettle/memops.h>
#include <nettle/sha2.h>
#include <sys/random.h>

struct digest_sha256 {
    struct sha256_ctx ctx;
};

digest_sha256 *digest_sha256_new(void) {
    digest_sha256 *d = xmalloc(sizeof *d);
    sha256_init(&d->ctx);
    return d;
}

void digest_sha256_update(digest_sha256 *d, const void *data, size_t len) {
    sha256_update(&d->ctx, len, data);
}

bool digest_sha256_final(digest_sha256 *d, unsigned char out[DIGEST_SIZE]) {
    sha256_digest(&d->ctx, DIGEST_SIZE, out);
    return true;
}

void digest_sha256_free(digest_sha256 *d) {
    xfree(d);
}

bool digest_hmac_sha256(const unsigned char *key, size_t keylen, const digest_part *parts,
                        int nparts, unsigned char out[DIGEST_SIZE]) {
    struct hmac_sha256_ctx ctx;
    hmac_sha256_set_key(&ctx, keylen, key);
    for (int i = 0; i < nparts; i++)
        hmac_sha256_update(&ctx, parts[i].len, parts[i].data);
    hmac_sha256_digest(&ctx, DIGEST_SIZE, out);
    return true;
}

bool digest_equal(const void *a, const void *b, size_t n) {
    return memeql_sec(a, b, n) != 0;
}

/* getrandom(2) without flags: the kernel's pool, which blocks only until
 * it is first seeded at boot, never once it is. */
bool digest_random(void *buf, size_t n) {
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t got = getrandom(p, n, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        p += got;
        n -= (size_t)got;
    }
    return true;
}
