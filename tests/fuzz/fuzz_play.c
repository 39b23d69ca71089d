/* fuzz_play.c — a deal (PBN) and the compact play record ("W:SK N:S2 …")
 * and their analysis: tricks, leads out of turn, revokes. The input is
 * "DEAL|PLAY"; its first byte also picks declarer and the trump suit. */
#include "fuzz.h"

#include "cards.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    char *text = fuzz_cstring(data + 1, size - 1);
    static bridge_play p;
    memset(&p, 0, sizeof p);
    p.declarer = (enum bridge_seat)(data[0] & 3);
    p.first_leader = (enum bridge_seat)((data[0] + 1) & 3);
    p.trump = (data[0] >> 2) % 5;
    char err[200];
    err[0] = 0;
    char *play = strchr(text, '|');
    if (play) {
        *play++ = 0;
        if (!bridge_parse_deal(text, &p.deal, err, sizeof err)) goto done;
        p.has_deal = true;
    } else {
        play = text;
    }
    if (bridge_parse_play(play, &p, err, sizeof err)) {
        if (p.nplays < 0 || p.nplays > BRIDGE_MAX_PLAYS) abort();
        play_facts f;
        if (!bridge_analyse_play(&p, &f, err, sizeof err) && !err[0]) abort();
    } else if (!err[0]) {
        abort(); /* a failure must say why */
    }
done:
    free(text);
    return 0;
}
