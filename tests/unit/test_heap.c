/* test_heap.c — the memory a plugin's Lua state lives in (plugins/heap.c),
 * through heap_realloc as Lua calls it.
 *
 * Covers: blocks while building are aligned, apart, and keep their bytes
 * when they grow or shrink; a freed block is taken again by the next block
 * of its size, and one that ends the carved part gives its bytes back; the
 * limit refuses (without *starved); frozen, a block of the loaded state
 * freed, shrunk or grown keeps its bytes for heap_restore, new blocks are
 * apart from the chunks and keep their bytes through realloc (in the
 * scratch, past it, and from one to the other), and heap_restore puts
 * every byte of the chunks back and empties the scratch, again and again;
 * runs of free bytes are left out of the copy. The
 * plugin-level behaviour is tests/unit/test_plugin.c's. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"

static void *grab(heap *h, size_t n, int fill) {
    bool starved = false;
    void *q = heap_realloc(h, NULL, 0, n, &starved);
    assert_non_null(q);
    assert_false(starved);
    assert_int_equal((uintptr_t)q % 16, 0);
    memset(q, fill, n);
    return q;
}

static void release(heap *h, void *ptr, size_t n) {
    bool starved = false;
    assert_null(heap_realloc(h, ptr, n, 0, &starved));
    assert_false(starved);
}

static bool all(const void *ptr, int fill, size_t n) {
    const unsigned char *b = ptr;
    for (size_t i = 0; i < n; i++)
        if (b[i] != (unsigned char)fill) return false;
    return true;
}

static void test_building(void **state) {
    (void)state;
    heap *h = heap_new(1u << 20);
    assert_non_null(h);
    char *a = grab(h, 40, 'a'), *b = grab(h, 100, 'b');
    assert_true(a + 48 <= b);
    /* b ends the carved part: it grows in place */
    bool starved = false;
    char *b2 = heap_realloc(h, b, 100, 300, &starved);
    assert_ptr_equal(b2, b);
    assert_true(all(b2, 'b', 100));
    /* a does not: it moves, with its bytes, and its old place is taken
     * again by the next block of its size */
    char *a2 = heap_realloc(h, a, 40, 200, &starved);
    assert_ptr_not_equal(a2, a);
    assert_true(all(a2, 'a', 40));
    char *c = grab(h, 33, 'c'); /* 48 bytes, as a's were */
    assert_ptr_equal(c, a);
    /* a block that ends the carved part gives its bytes back */
    char *d = grab(h, 64, 'd');
    release(h, d, 64);
    assert_ptr_equal(grab(h, 64, 'e'), d);
    /* shrinking keeps the bytes in place */
    assert_ptr_equal(heap_realloc(h, b2, 300, 50, &starved), b2);
    assert_true(all(b2, 'b', 50));
    heap_free(h);
}

static void test_limit(void **state) {
    (void)state;
    heap *h = heap_new(100000);
    bool starved = false;
    assert_non_null(heap_realloc(h, NULL, 0, 60000, &starved));
    assert_null(heap_realloc(h, NULL, 0, 60000, &starved));
    assert_false(starved); /* the limit, not the machine */
    assert_non_null(heap_realloc(h, NULL, 0, 30000, &starved));
    heap_free(h);
    /* blocks larger than a chunk get a chunk of their own */
    h = heap_new(8u << 20);
    char *big = grab(h, 300000, 'g');
    assert_true(all(big, 'g', 300000));
    heap_free(h);
}

static void test_frozen_and_restored(void **state) {
    (void)state;
    heap *h = heap_new(8u << 20);
    enum { N = 200 };
    char *block[N];
    for (int i = 0; i < N; i++)
        block[i] = grab(h, 16 + (size_t)i * 8, i);
    char *big = grab(h, 200000, 'B'); /* a second chunk */
    assert_true(heap_freeze(h));
    assert_true(heap_frozen(h));
    assert_true(heap_frozen_bytes(h) >= 200000);
    char *first_new = NULL; /* where a call's first new block goes: the same every call */
    for (int round = 0; round < 3; round++) {
        bool starved = false;
        /* a call frees some blocks of the loaded state, shrinks and grows
         * others, writes over the rest, and makes new ones */
        for (int i = 0; i < N; i += 3)
            release(h, block[i], 16 + (size_t)i * 8);
        for (int i = 1; i < N; i += 3) {
            size_t n = 16 + (size_t)i * 8;
            char *moved = heap_realloc(h, block[i], n, n * 4, &starved);
            assert_non_null(moved);
            assert_ptr_not_equal(moved, block[i]);
            if (i == 1 && round == 0) first_new = moved;
            if (i == 1) assert_ptr_equal(moved, first_new);
            assert_true(all(moved, i, n));
            memset(moved, 'm', n * 4);
        }
        for (int i = 2; i < N; i += 3) {
            size_t n = 16 + (size_t)i * 8;
            assert_ptr_equal(heap_realloc(h, block[i], n, 8, &starved), block[i]);
            memset(block[i], 'w', n);
        }
        memset(big, 'w', 200000);
        char *fresh = grab(h, 1000, 'f');
        fresh = heap_realloc(h, fresh, 1000, 100000, &starved);
        assert_non_null(fresh);
        assert_true(all(fresh, 'f', 1000));
        char *other = grab(h, 24, 'o');
        release(h, other, 24);
        grab(h, 5000, 'x');
        /* what it made is freed, and every byte of the state is back */
        heap_restore(h);
        for (int i = 0; i < N; i++)
            assert_true(all(block[i], i, 16 + (size_t)i * 8));
        assert_true(all(big, 'B', 200000));
    }
    heap_free(h);
}

/* Runs of free bytes (small blocks next to each other, a large block) are
 * left out of the copy; what is around them comes back. */
static void test_free_runs_left_out(void **state) {
    (void)state;
    heap *h = heap_new(8u << 20);
    char *before = grab(h, 100, 'b');
    char *small[40];
    for (int i = 0; i < 40; i++)
        small[i] = grab(h, 64, 's');
    char *middle = grab(h, 100, 'm');
    char *large = grab(h, 5000, 'l');
    char *after = grab(h, 100, 'a');
    for (int i = 0; i < 40; i++)
        release(h, small[i], 64); /* 2,560 bytes in a row, on a free list */
    release(h, large, 5000);      /* not at the top: kept apart */
    assert_true(heap_freeze(h));
    assert_true(heap_frozen_bytes(h) < 3 * 112 + 1000); /* the three blocks, and less than a run */
    memset(before, 'x', 100);
    memset(middle, 'x', 100);
    memset(after, 'x', 100);
    heap_restore(h);
    assert_true(all(before, 'b', 100));
    assert_true(all(middle, 'm', 100));
    assert_true(all(after, 'a', 100));
    heap_free(h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_building),
        cmocka_unit_test(test_limit),
        cmocka_unit_test(test_frozen_and_restored),
        cmocka_unit_test(test_free_runs_left_out),
    };
    return cmocka_run_group_tests_name("heap", tests, NULL, NULL);
}
