/* image.h — a compiled ruleset saved to a file and read back, so that a
 * program that rules once need not compile the rule files first (as
 * Python keeps bytecode beside its sources; core/store/cache.c decides when an
 * image may stand in for the rule files).
 *
 * An image is a header — magic, format version, the identity of the build
 * that wrote it, the body's length and its seal — and a body: one string
 * table (every name, text and source file), one table of the types the
 * ruleset's parts point to, then the ruleset field by field, the graph with
 * it. The seal is an HMAC-SHA-256, under a key only its user can read,
 * of the rest of the header and the whole body: whoever lacks the key
 * cannot make or alter an image that passes (a checksum anyone can compute
 * would let an image of other rules pass as this one's). Reading checks the
 * seal, the header and every count and index against the image before
 * anything points into it: a truncated, garbled, foreign or forged image
 * is refused, never trusted. */
#ifndef ARBITER_IMAGE_H
#define ARBITER_IMAGE_H

#include "ruleset.h"

#include <stddef.h>

#define IMAGE_MAGIC "ARBIMAGE"
#define IMAGE_VERSION 13
#define IMAGE_HEADER_SIZE 88
#define IMAGE_SEAL_OFFSET 56 /* the seal ends the header; it covers all before it */
#define IMAGE_SEAL_SIZE 32   /* HMAC-SHA-256 */
#define IMAGE_KEY_SIZE 32

/* A file whose times are less than this old when something about it is
 * recorded is "racy": a write in the same tick of the clock would leave
 * its times as recorded, so the record is not trusted (as git treats its
 * index). For the rule files an image was made from (cache.c) and for an
 * image whose seal was checked (image_load). */
#define RACY_SECONDS 2

/* The build that wrote an image: a hash of the compiler's sources, made
 * by the Makefile. Two builds of different sources never trust each
 * other's images; the same sources built twice (or with other flags) do,
 * because the format is defined field by field, not by memory layout. */
const char *image_build_id(void);

/* rs as an image sealed with key, appended to out. `extra` (may be NULL)
 * is kept with it verbatim, under the seal: the cache's record of the rule
 * files the image was compiled from. */
void image_encode(const ruleset *rs, const char *extra, const unsigned char key[IMAGE_KEY_SIZE],
                  strbuf *out);

/* A ruleset read from an image, owned as a compiled one (ruleset_free).
 * dir is the path it is loaded as (rs->dir): source file names that were
 * under the directory it was compiled from are moved under dir, so that
 * messages name the files as a compile of dir would. *extra (may be NULL) receives
 * the text given to image_encode, in rs's arena. NULL, with the reason in
 * err, when the image is not a whole, valid image of this build. */
ruleset *image_decode(const void *data, size_t len, const char *dir,
                      const unsigned char key[IMAGE_KEY_SIZE], const char **extra, char *err,
                      size_t errsz);

/* The same for files. image_save writes a temporary file (mode 0600)
 * beside path and renames it, so that a reader sees the old image or the
 * new one, never half of one. image_load opens path without following a
 * symbolic link and refuses a file that is not the current user's own or
 * that group or others may write (as ssh refuses such a key): another user
 * who could replace it could choose the rulings. image_load checks the seal
 * once per file: a note beside it (NAME.seen for NAME.arb, written with
 * mode 0600) records the file it checked, and while the file is that one
 * the seal is not hashed again (image.c, "a seal checked before"). */
bool image_save(const ruleset *rs, const char *extra, const unsigned char key[IMAGE_KEY_SIZE],
                const char *path, char *err, size_t errsz);
ruleset *image_load(const char *path, const char *dir, const unsigned char key[IMAGE_KEY_SIZE],
                    const char **extra, char *err, size_t errsz);

/* The seal of the image at data (len bytes, header included): the HMAC-
 * SHA-256 under key of its first IMAGE_SEAL_OFFSET bytes and its body.
 * What image_encode writes at IMAGE_SEAL_OFFSET; the tests and the fuzz
 * target use it to make forged headers and bodies pass the seal. */
void image_seal(const unsigned char key[IMAGE_KEY_SIZE], const void *data, size_t len,
                unsigned char seal[IMAGE_SEAL_SIZE]);

#endif
