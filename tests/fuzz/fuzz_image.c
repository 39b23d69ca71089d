/* fuzz_image.c — a ruleset image (core/image.h) read back. The first byte
 * picks how the rest is taken: odd, as a body behind a header made to fit
 * (this build's id, the body's length and checksum), which is what a
 * crafted image gets past the header with; even, as a whole file, header
 * and all. Whatever image_decode accepts must be whole: written again it
 * gives the same bytes, and its tests run (testrun_all, eval_rule). */
#include "fuzz.h"

#include "../../core/image.h"
#include "../../core/testrun.h"

static void put64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* A header for the body, as image_encode writes one. */
static uint8_t *with_header(const uint8_t *body, size_t n) {
    uint8_t *img = calloc(1, IMAGE_HEADER_SIZE + n + 1);
    if (!img) abort();
    memcpy(img, IMAGE_MAGIC, 8);
    img[8] = IMAGE_VERSION;
    const char *id = image_build_id();
    memcpy(img + 16, id, strlen(id) < 32 ? strlen(id) : 32);
    put64(img + 48, n);
    put64(img + 56, image_checksum(body, n));
    memcpy(img + IMAGE_HEADER_SIZE, body, n);
    return img;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    bool fit = data[0] & 1;
    uint8_t *img =
        fit ? with_header(data + 1, size - 1) : (uint8_t *)fuzz_cstring(data + 1, size - 1);
    size_t len = fit ? IMAGE_HEADER_SIZE + size - 1 : size - 1;
    const char *extra;
    ruleset *rs = image_decode(img, len, "tests/rules/toy", &extra, NULL, 0);
    if (rs) {
        strbuf again;
        sb_init(&again);
        image_encode(rs, extra, &again);
        ruleset *rs2 = image_decode(again.data, again.len, "tests/rules/toy", NULL, NULL, 0);
        if (!rs2) abort(); /* what was accepted, written again, must be accepted */
        strbuf third;
        sb_init(&third);
        image_encode(rs2, extra, &third);
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
