/* image.h — a compiled ruleset saved to a file and read back, so that a
 * program that rules once need not compile the rule files first (as
 * Python keeps bytecode beside its sources; core/cache.c decides when an
 * image may stand in for the rule files).
 *
 * An image is a header — magic, format version, the identity of the build
 * that wrote it, the body's length and checksum — and a body: one string
 * table (every name, text and source file), one table of the types the
 * ruleset's parts point to, then the ruleset field by field, the graph with
 * it. Reading checks the header, the checksum and every count and index
 * against the image before anything points into it: a truncated, garbled
 * or foreign image is refused, never trusted. */
#ifndef ARBITER_IMAGE_H
#define ARBITER_IMAGE_H

#include "ruleset.h"

#include <stddef.h>

#define IMAGE_MAGIC "ARBIMAGE"
#define IMAGE_VERSION 2
#define IMAGE_HEADER_SIZE 64

/* The build that wrote an image: a hash of the compiler's sources, made
 * by the Makefile. Two builds of different sources never trust each
 * other's images; the same sources built twice (or with other flags) do,
 * because the format is defined field by field, not by memory layout. */
const char *image_build_id(void);

/* rs as an image, appended to out. `extra` (may be NULL) is kept with it
 * verbatim: the cache's record of the rule files' directories. */
void image_encode(const ruleset *rs, const char *extra, strbuf *out);

/* A ruleset read from an image, owned as a compiled one (ruleset_free).
 * dir is the path it is loaded as (rs->dir): source file names that were
 * under the directory it was compiled from are moved under dir, so that
 * messages name the files as a compile of dir would. *extra (may be NULL) receives
 * the text given to image_encode, in rs's arena. NULL, with the reason in
 * err, when the image is not a whole, valid image of this build. */
ruleset *image_decode(const void *data, size_t len, const char *dir, const char **extra, char *err,
                      size_t errsz);

/* The same for files: image_save writes a temporary file beside path and
 * renames it, so that a reader sees the old image or the new one, never
 * half of one. */
bool image_save(const ruleset *rs, const char *extra, const char *path, char *err, size_t errsz);
ruleset *image_load(const char *path, const char *dir, const char **extra, char *err, size_t errsz);

/* The checksum of the body (64-bit, a word at a time): what the header
 * holds. The fuzz target uses it to make garbled bodies look whole. */
uint64_t image_checksum(const void *data, size_t len);

#endif
