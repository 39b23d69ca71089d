/* fuzz_image.c — a ruleset image (core/store/image.h) read back. The first byte
 * picks how the rest is taken: odd, as a body behind a header made to fit
 * (this build's id, the body's length, the seal under the target's key),
 * which is what a crafted image sealed with the key gets past the header
 * with; 2 mod 4, as a forged header — its first IMAGE_SEAL_OFFSET bytes
 * as given, magic, version, build id and length alike (but this build's id
 * when the first byte has bit 2 set, so that seeds outlive a rebuild) — and
 * a body, sealed under the key, so that every check of the header is
 * reached with a seal that passes;
 * 0 mod 4, as a whole file, header, seal and all (the seal refuses nearly
 * every such input, as it refuses any image made without the key).
 * Whatever image_decode accepts must be whole: written again it gives the
 * same bytes, and its tests run (testrun_all, eval_rule). */
#include "fuzz.h"

#include "image.h"
#include "testrun.h"

/* The key the images are sealed with, as the cache's own would be. */
static const unsigned char FUZZ_KEY[IMAGE_KEY_SIZE] = "fuzz_image's key, for the seal";

static void put64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put_build_id(uint8_t *img) {
    const char *id = image_build_id();
    memset(img + 16, 0, 32);
    memcpy(img + 16, id, strlen(id) < 32 ? strlen(id) : 32);
}

/* An image of the body behind the header given (its first IMAGE_SEAL_OFFSET
 * bytes; NULL for the one image_encode writes), sealed under FUZZ_KEY. */
static uint8_t *sealed(const uint8_t *header, bool this_build, const uint8_t *body, size_t n) {
    uint8_t *img = calloc(1, IMAGE_HEADER_SIZE + n + 1);
    if (!img) abort();
    if (header) {
        memcpy(img, header, IMAGE_SEAL_OFFSET);
        if (this_build) put_build_id(img);
    } else {
        memcpy(img, IMAGE_MAGIC, 8);
        img[8] = IMAGE_VERSION;
        put_build_id(img);
        put64(img + 48, n);
    }
    memcpy(img + IMAGE_HEADER_SIZE, body, n);
    image_seal(FUZZ_KEY, img, IMAGE_HEADER_SIZE + n, img + IMAGE_SEAL_OFFSET);
    return img;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    uint8_t *img;
    size_t len;
    if (data[0] & 1) {
        img = sealed(NULL, false, data + 1, size - 1);
        len = IMAGE_HEADER_SIZE + size - 1;
    } else if ((data[0] & 2) && size > IMAGE_SEAL_OFFSET) {
        size_t n = size - 1 - IMAGE_SEAL_OFFSET;
        img = sealed(data + 1, data[0] & 4, data + 1 + IMAGE_SEAL_OFFSET, n);
        len = IMAGE_HEADER_SIZE + n;
    } else {
        img = (uint8_t *)fuzz_cstring(data + 1, size - 1);
        len = size - 1;
    }
    const char *extra;
    ruleset *rs = image_decode(img, len, "tests/rules/toy", FUZZ_KEY, &extra, NULL, 0);
    if (rs) {
        strbuf again;
        sb_init(&again);
        image_encode(rs, extra, FUZZ_KEY, &again);
        ruleset *rs2 =
            image_decode(again.data, again.len, "tests/rules/toy", FUZZ_KEY, NULL, NULL, 0);
        if (!rs2) abort(); /* what was accepted, written again, must be accepted */
        strbuf third;
        sb_init(&third);
        image_encode(rs2, extra, FUZZ_KEY, &third);
        if (third.len != again.len || memcmp(third.data, again.data, again.len) != 0) abort();
        testrun_all(rs, NULL, fuzz_devnull(), true, true);
        sb_free(&again);
        sb_free(&third);
        ruleset_free(rs2);
        ruleset_free(rs);
    }
    free(img);
    return 0;
}
