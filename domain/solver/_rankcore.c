/* The compiled core of the ranks-only AND/OR search (斗地主, 三打一, 挖坑): `RankGame.decide` of
 * domain/solver/shedding.py, the same search over the same positions, in C.
 *
 * It knows no rule of any game. Python hands it what the Python search computes from the game's own patterns
 * module (domain/solver/rankcore.py):
 *   - each seat's leads from its hand at the query's root, in the search's best-first order: the packed cards
 *     (4 bits of count per rank), the id of their readings and whether they are a bomb. The leads of a hand the
 *     search reaches are exactly the root hand's leads that it holds (a search's hands only lose cards);
 *   - the readings as ids, and for each (readings of a lead, readings on the table) the readings that beat the
 *     table (-1: they do not), with each readings' bomb flag: the game's own `answers` and `is_bomb`, asked once
 *     per pair;
 *   - the teams, the maximising team, and for 斗地主 the ranks the transposition key may leave out.
 * A position is the hands, the seat to act, the play to answer (its seat and readings id, -1 when leading) and
 * the bombs each seat may still play (-1: any). Everything a node does is the Python search's, step for step:
 * a forced move is walked on without a table entry, the table is looked up, the static wins are tried (the
 * seat goes out with its next play; or plays one that no opponent can answer and then goes out in one lead),
 * then the moves in the search's order until one wins for the side to move (a search that outgrows its first
 * share of nodes goes on in two orders taking turns: `decide_in_turns`). Only exact values are stored, in
 * a fixed-size table (memory bounded; freed with the object). The search gives up — "unknown", never a guess —
 * past its node limit or its time limit, checked every 256 nodes, and runs without the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/mman.h>

/* Bumped with rankcore.py's INTERFACE whenever a call's arguments or answers change. */
#define RANKCORE_INTERFACE 2
#endif

#define MAXSEATS 4
#define BITS 4
#define MASK 0xFull
#define LOW_BITS 0x1111111111111111ull
#define HIGH_BITS 0x8888888888888888ull
#define CHECK_EVERY 256
#define MAX_DEPTH 1024
#define TT_FIRST_BITS 16 /* transposition entries at first: 2^16 (3 MB); doubled when 3/4 full */
#define TT_MOST_BITS 22  /* ... up to 2^22 (192 MB): a query's memory is bounded */
#define TT_PROBES 8
#define NODE_SLOTS_BITS 18
#define STEP_ARENA (1u << 21)  /* move entries cached per query (32 MB); past it a node's moves are made afresh */
#define SPLIT_ARENA (1u << 20)
#define GREEDY_BITS 18

#define UNKNOWN -1

typedef struct {
    uint64_t pack;
    int32_t table; /* the readings this play leaves on the table */
    int32_t bomb;
} Step;

typedef struct {
    uint64_t pack;
    int32_t reading;
    int32_t bomb;
} Lead;

typedef struct {
    uint64_t hands[MAXSEATS];
    int32_t table; /* readings id to answer, -1 leading; -2: a key over the ranks held */
    int8_t to_act, last_seat, winner, pad;
    int8_t bombs[MAXSEATS]; /* -1: any */
} Pos;

typedef struct {
    Pos key;
    uint8_t used, value;
    uint8_t work; /* the nodes its value cost, as a power of two: a full probe gives up the cheapest entry */
} TTEntry;

typedef struct {
    uint64_t hand;
    int32_t table, allowance;
    uint32_t steps_off, nsteps, splits_off, nsplits;
    int32_t best[2]; /* the play that last won for the side to move here, in each order: tried first (the order only) */
    uint8_t used, whole;
} NodeEntry;

typedef struct {
    uint64_t hand;
    int32_t count; /* 0: empty slot */
} GreedyEntry;

typedef struct {
    PyObject_HEAD
    int seats, max_team, nread, busy;
    int reordered_from; /* cards in a hand from which the plays are tried in the search's own order */
    long long first_share; /* the nodes of the first order's first turn (`decide_in_turns`) */
    int teams[MAXSEATS];
    int32_t *answers; /* nread * nread: answers[lead readings * nread + table] */
    uint8_t *rbomb;
    Lead *leads[MAXSEATS];
    int nleads[MAXSEATS];
    uint64_t roots[MAXSEATS];
    /* every lead of the root hands, by packed cards: whether a hand's rest is a lead, and a bomb */
    uint64_t *lead_keys;
    int8_t *lead_bombs; /* -1 empty */
    uint64_t lead_mask;
    /* the 斗地主 key over the ranks held */
    int ranks_held_key;
    uint64_t always_kept, plain_bits;
    int nranks;
    /* tables */
    TTEntry *tt;
    int tt_bits;
    uint64_t tt_used;
    NodeEntry *nodes;
    Step *steps;
    uint32_t steps_used;
    int32_t *splits;
    uint32_t splits_used, nodes_used;
    GreedyEntry *greedy;
    uint32_t greedy_used;
    Step *scratch[MAX_DEPTH];
    int32_t *scratch_splits[MAX_DEPTH];
    int32_t *order[MAX_DEPTH]; /* each depth's order of its moves */
    int scratch_cap;
    /* a search's budget */
    long long nodes_count, node_limit, cut; /* cut: the end of the current order's share (<= node_limit) */
    int order_kind; /* which of the search's orders is searching (`ORDERS`) */
    double deadline;
    int clock_kind, aborted, depth;
    long long tt_stores;
} Core;

static inline int within(uint64_t part, uint64_t hand) {
    return !(((~hand & part) | (~(hand ^ part) & (hand - part))) & HIGH_BITS);
}

static inline uint64_t held_bits(uint64_t hand) { return (hand | hand >> 1 | hand >> 2 | hand >> 3) & LOW_BITS; }

static inline int size_of(uint64_t hand) {
    int total = 0;
    while (hand) {
        total += (int)(hand & MASK);
        hand >>= BITS;
    }
    return total;
}

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

static double now(int kind) {
    struct timespec ts;
    clock_gettime(kind ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A zeroed table of `size` bytes (freed with free()) on 2 MB pages where the system gives them: the search's
 * tables are read at random, and most of its time went to waiting for those reads (the page-table walks of
 * 4 kB pages among them). */
static void *table_alloc(size_t size) {
    void *found = NULL;
    size_t huge = (size_t)1 << 21;
    if (size < huge) return calloc(1, size);
    if (posix_memalign(&found, huge, size)) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(found, size, MADV_HUGEPAGE);
#endif
    memset(found, 0, size);
    return found;
}

/* ---- the leads of the root hands, by packed cards ---- */

static int lead_bomb(Core *c, uint64_t pack) { /* -1: not a lead */
    uint64_t i = mix(pack) & c->lead_mask;
    while (c->lead_bombs[i] >= 0) {
        if (c->lead_keys[i] == pack) return c->lead_bombs[i];
        i = (i + 1) & c->lead_mask;
    }
    return -1;
}

static void lead_insert(Core *c, uint64_t pack, int bomb) {
    uint64_t i = mix(pack) & c->lead_mask;
    while (c->lead_bombs[i] >= 0) {
        if (c->lead_keys[i] == pack) return;
        i = (i + 1) & c->lead_mask;
    }
    c->lead_keys[i] = pack;
    c->lead_bombs[i] = (int8_t)bomb;
}

/* ---- the greedy count (the order only) ---- */

/* The first lead of `hand` (a sub-multiset of the seat's root hand): the whole hand when it is a lead, else the
 * first of the root's leads it holds (the root's list is in the order of `_order_of`). */
static uint64_t first_lead(Core *c, int seat, uint64_t hand) {
    if (lead_bomb(c, hand) >= 0) return hand;
    Lead *leads = c->leads[seat];
    for (int i = 0; i < c->nleads[seat]; i++)
        if (within(leads[i].pack, hand)) return leads[i].pack;
    return hand; /* no lead at all: cannot happen for a non-empty hand (a single card is a lead) */
}

static int greedy_plays(Core *c, int seat, uint64_t hand) {
    uint64_t seen[64];
    int nseen = 0, count = 0;
    uint64_t mask = (1ull << GREEDY_BITS) - 1;
    while (hand) {
        uint64_t i = mix(hand) & mask;
        int found = 0;
        while (c->greedy[i].count) {
            if (c->greedy[i].hand == hand) {
                found = c->greedy[i].count;
                break;
            }
            i = (i + 1) & mask;
        }
        if (found) {
            count += found;
            break;
        }
        if (nseen < 64) seen[nseen++] = hand;
        hand -= first_lead(c, seat, hand);
        count++;
    }
    for (int at = 0; at < nseen; at++) {
        if (c->greedy_used * 2 >= (1u << GREEDY_BITS)) break;
        uint64_t i = mix(seen[at]) & mask;
        while (c->greedy[i].count && c->greedy[i].hand != seen[at]) i = (i + 1) & mask;
        if (!c->greedy[i].count) c->greedy_used++;
        c->greedy[i].hand = seen[at];
        c->greedy[i].count = count - at;
    }
    return count;
}

/* ---- a node's moves ---- */

/* The ranks of a play summed (rank index times count): of two plays alike in the search's order, the one of the
 * lower cards is tried first (the order only). */
static inline int rank_sum(uint64_t pack) {
    int total = 0;
    for (int i = 0; pack; i++, pack >>= BITS) total += i * (int)(pack & MASK);
    return total;
}

typedef struct {
    int whole_first, bomb, greedy, minus_size, ranks, low, index;
} SortKey;

static int compare_keys(const void *a, const void *b) {
    const SortKey *x = a, *y = b;
    if (x->whole_first != y->whole_first) return x->whole_first - y->whole_first;
    if (x->bomb != y->bomb) return x->bomb - y->bomb;
    if (x->greedy != y->greedy) return x->greedy - y->greedy;
    if (x->minus_size != y->minus_size) return x->minus_size - y->minus_size;
    if (x->ranks != y->ranks) return x->ranks - y->ranks;
    if (x->low != y->low) return x->low - y->low;
    return x->index - y->index;
}

/* The plays of `hand` (seat `seat`) against `table` with `allowance` bombs left, in the Python search's order
 * (`RankGame.plays`, then `_node_of`'s sort from 7 cards), into `out`; and the static-win split (`_splits`).
 * Returns the number of plays. */
static int make_plays(Core *c, int seat, uint64_t hand, int table, int allowance, Step *out, int32_t *splits,
                      int *nsplits, int *whole) {
    Lead *leads = c->leads[seat];
    int n = 0, bombs_allowed = allowance != 0;
    for (int i = 0; i < c->nleads[seat]; i++) {
        if (!within(leads[i].pack, hand)) continue;
        int next, bomb;
        if (table < 0) {
            next = leads[i].reading;
            bomb = leads[i].bomb;
        } else {
            next = c->answers[(size_t)leads[i].reading * c->nread + table];
            if (next < 0) continue;
            bomb = c->rbomb[next];
        }
        if (bomb && !bombs_allowed) continue;
        out[n].pack = leads[i].pack;
        out[n].table = next;
        out[n].bomb = bomb;
        n++;
    }
    /* the listed order: the whole hand, then non-bombs before bombs, more cards first (a stable sort) */
    int size = size_of(hand);
    SortKey *keys = malloc(sizeof(SortKey) * (n ? n : 1));
    Step *copy = malloc(sizeof(Step) * (n ? n : 1));
    for (int i = 0; i < n; i++) {
        keys[i].whole_first = out[i].pack != hand;
        keys[i].bomb = out[i].bomb;
        keys[i].greedy = 0;
        keys[i].minus_size = -size_of(out[i].pack);
        keys[i].ranks = 0;
        keys[i].low = 0;
        keys[i].index = i;
        copy[i] = out[i];
    }
    qsort(keys, n, sizeof(SortKey), compare_keys);
    for (int i = 0; i < n; i++) out[i] = copy[keys[i].index];
    /* the splits, in the listed order (`_splits`) */
    *whole = 0;
    *nsplits = 0;
    for (int i = 0; i < n; i++) {
        if (out[i].pack == hand) {
            *whole = 1;
            break;
        }
        int rest = lead_bomb(c, hand - out[i].pack);
        if (rest >= 0) {
            int spent = (out[i].bomb && allowance >= 0) ? allowance - 1 : allowance;
            if (!rest || spent != 0) splits[(*nsplits)++] = out[i].table;
        }
    }
    if (size >= c->reordered_from) {
        for (int i = 0; i < n; i++) {
            uint64_t rest = hand - out[i].pack;
            keys[i].whole_first = out[i].pack != hand;
            keys[i].bomb = out[i].bomb;
            keys[i].greedy = rest ? greedy_plays(c, seat, rest) : 0;
            keys[i].minus_size = -size_of(out[i].pack);
            keys[i].ranks = __builtin_popcountll(held_bits(rest));
            keys[i].low = rank_sum(out[i].pack);
            keys[i].index = i;
            copy[i] = out[i];
        }
        qsort(keys, n, sizeof(SortKey), compare_keys);
        for (int i = 0; i < n; i++) out[i] = copy[keys[i].index];
    }
    free(keys);
    free(copy);
    return n;
}

/* The node's plays, from the per-query table (made once per hand, table and allowance), or made afresh into the
 * depth's scratch space once the table is full. */
static int node_of(Core *c, int seat, uint64_t hand, int table, int allowance, Step **steps, int32_t **splits,
                   int *nsplits, int *whole, int32_t *entry) {
    uint64_t mask = (1ull << NODE_SLOTS_BITS) - 1;
    uint64_t h = mix(hand ^ mix(((uint64_t)(uint32_t)table << 32) | (uint32_t)(allowance + 2))) & mask;
    NodeEntry *e;
    for (;;) {
        e = &c->nodes[h];
        if (!e->used) break;
        if (e->hand == hand && e->table == table && e->allowance == allowance) {
            *steps = c->steps + e->steps_off;
            *splits = c->splits + e->splits_off;
            *nsplits = (int)e->nsplits;
            *whole = e->whole;
            *entry = (int32_t)h;
            return (int)e->nsteps;
        }
        h = (h + 1) & mask;
    }
    int cap = c->nleads[seat];
    int room = c->steps_used + cap <= STEP_ARENA && c->splits_used + cap <= SPLIT_ARENA &&
               c->nodes_used < (1u << NODE_SLOTS_BITS) / 2;
    Step *out;
    int32_t *sp;
    if (room) {
        out = c->steps + c->steps_used;
        sp = c->splits + c->splits_used;
    } else {
        int depth = c->depth < MAX_DEPTH ? c->depth : MAX_DEPTH - 1;
        if (!c->scratch[depth]) {
            c->scratch[depth] = malloc(sizeof(Step) * (c->scratch_cap ? c->scratch_cap : 1));
            c->scratch_splits[depth] = malloc(sizeof(int32_t) * (c->scratch_cap ? c->scratch_cap : 1));
        }
        out = c->scratch[depth];
        sp = c->scratch_splits[depth];
    }
    int n = make_plays(c, seat, hand, table, allowance, out, sp, nsplits, whole);
    *entry = -1;
    if (room) {
        e->used = 1;
        e->hand = hand;
        e->table = table;
        e->allowance = allowance;
        e->steps_off = c->steps_used;
        e->nsteps = (uint32_t)n;
        e->splits_off = c->splits_used;
        e->nsplits = (uint32_t)*nsplits;
        e->whole = (uint8_t)*whole;
        e->best[0] = e->best[1] = -1;
        *entry = (int32_t)h;
        c->steps_used += (uint32_t)n;
        c->nodes_used++;
        c->splits_used += (uint32_t)*nsplits;
    }
    *steps = out;
    *splits = sp;
    return n;
}

/* Whether some opponent of `seat` can answer the readings `table` (`_unanswered`, one split). */
static int answerable(Core *c, const Pos *p, int seat, int table) {
    for (int o = 0; o < c->seats; o++) {
        if (c->teams[o] == c->teams[seat]) continue;
        uint64_t hand = p->hands[o];
        int bombs_allowed = p->bombs[o] != 0;
        Lead *leads = c->leads[o];
        for (int i = 0; i < c->nleads[o]; i++) {
            if (!within(leads[i].pack, hand)) continue;
            int next = c->answers[(size_t)leads[i].reading * c->nread + table];
            if (next < 0 || (c->rbomb[next] && !bombs_allowed)) continue;
            return 1;
        }
    }
    return 0;
}

/* ---- the key over the ranks held (斗地主) ---- */

static int64_t compress(Core *c, uint64_t hand, uint64_t held) {
    uint64_t out = 0;
    int slot = 0, singles = 0, pairs = 0, trios = 0;
    for (int i = 0; i < c->nranks; i++) {
        uint64_t bit = 1ull << (BITS * i);
        if (!(held & bit) || !(c->plain_bits & bit)) continue;
        uint64_t count = (hand >> (BITS * i)) & MASK;
        if (count) {
            out |= count << slot;
            singles++;
            if (count >= 2) {
                pairs++;
                trios = count >= 3 ? trios + 1 : 0;
                if (pairs >= 3 || trios >= 2) return -1;
            } else {
                pairs = trios = 0;
            }
            if (singles >= 5) return -1;
        } else {
            singles = pairs = trios = 0;
        }
        slot += BITS;
    }
    for (int i = 0; i < c->nranks; i++) {
        uint64_t bit = 1ull << (BITS * i);
        if (!(held & bit) || (c->plain_bits & bit)) continue;
        out |= ((hand >> (BITS * i)) & MASK) << slot;
        slot += BITS;
    }
    return (int64_t)out;
}

static void key_of(Core *c, const Pos *p, Pos *key) {
    *key = *p;
    if (!c->ranks_held_key || p->table >= 0) return;
    uint64_t held = c->always_kept;
    for (int s = 0; s < c->seats; s++) held |= held_bits(p->hands[s]);
    Pos k;
    memset(&k, 0, sizeof k);
    for (int s = 0; s < c->seats; s++) {
        int64_t found = compress(c, p->hands[s], held);
        if (found < 0) return;
        k.hands[s] = (uint64_t)found;
    }
    k.table = -2;
    k.last_seat = (int8_t)__builtin_popcountll(held & c->plain_bits);
    k.to_act = p->to_act;
    k.winner = -1;
    memcpy(k.bombs, p->bombs, sizeof k.bombs);
    *key = k;
}

static inline uint64_t hash_pos(const Pos *k) {
    uint64_t h = mix(k->hands[0] ^ 0x9e3779b97f4a7c15ull);
    h = mix(h ^ k->hands[1]);
    h = mix(h ^ k->hands[2]);
    h = mix(h ^ k->hands[3]);
    uint64_t rest;
    memcpy(&rest, &k->table, 8);
    h = mix(h ^ rest);
    uint32_t bombs;
    memcpy(&bombs, k->bombs, 4);
    return mix(h ^ bombs);
}

static int tt_get(Core *c, const Pos *k) {
    uint64_t mask = (1ull << c->tt_bits) - 1, i = hash_pos(k) & mask;
    for (int probe = 0; probe < TT_PROBES; probe++, i = (i + 1) & mask) {
        TTEntry *e = &c->tt[i];
        if (!e->used) return -1;
        if (!memcmp(&e->key, k, sizeof(Pos))) return e->value;
    }
    return -1;
}

static void tt_place(TTEntry *tt, int bits, uint64_t *used, const Pos *k, int value, int work) {
    uint64_t mask = (1ull << bits) - 1, i = hash_pos(k) & mask, cheapest = i;
    for (int probe = 0; probe < TT_PROBES; probe++, i = (i + 1) & mask) {
        TTEntry *e = &tt[i];
        if (!e->used || !memcmp(&e->key, k, sizeof(Pos))) {
            if (!e->used) (*used)++;
            e->used = 1;
            e->key = *k;
            e->value = (uint8_t)value;
            e->work = (uint8_t)work;
            return;
        }
        if (e->work < tt[cheapest].work) cheapest = i;
    }
    /* every probed slot taken: the entry that cost the fewest nodes is given up, unless it cost more than this
     * one (an exact value lost costs a search again, never an answer) */
    if (tt[cheapest].work > work) return;
    tt[cheapest].key = *k;
    tt[cheapest].value = (uint8_t)value;
    tt[cheapest].work = (uint8_t)work;
}

/* Twice the entries, each moved over; kept as it is when the memory is not there. */
static void tt_grow(Core *c) {
    TTEntry *bigger = table_alloc(sizeof(TTEntry) << (c->tt_bits + 1));
    if (!bigger) return;
    uint64_t used = 0, size = 1ull << c->tt_bits;
    for (uint64_t i = 0; i < size; i++)
        if (c->tt[i].used) tt_place(bigger, c->tt_bits + 1, &used, &c->tt[i].key, c->tt[i].value, c->tt[i].work);
    free(c->tt);
    c->tt = bigger;
    c->tt_bits++;
    c->tt_used = used;
}

static inline int work_of(long long nodes) { return nodes > 1 ? 63 - __builtin_clzll((unsigned long long)nodes) : 0; }

static void tt_put(Core *c, const Pos *k, int value, long long nodes) {
    if (c->tt_bits < TT_MOST_BITS && c->tt_used * 4 > (3ull << c->tt_bits)) tt_grow(c);
    tt_place(c->tt, c->tt_bits, &c->tt_used, k, value, work_of(nodes));
    c->tt_stores++;
}

/* ---- the search ---- */

static void after(Core *c, const Pos *p, const Step *step, Pos *child) {
    int seat = p->to_act, following = (seat + 1) % c->seats;
    *child = *p;
    child->winner = -1;
    if (!step) { /* a pass: after every other seat passed, the last player leads */
        child->to_act = (int8_t)following;
        if (following == p->last_seat) {
            child->last_seat = -1;
            child->table = -1;
        }
        return;
    }
    uint64_t hand = p->hands[seat] - step->pack;
    child->hands[seat] = hand;
    if (step->bomb && p->bombs[seat] >= 0) child->bombs[seat] = (int8_t)(p->bombs[seat] - 1);
    if (!hand) { /* the first player out ends the deal */
        child->to_act = (int8_t)seat;
        child->last_seat = -1;
        child->table = -1;
        child->winner = (int8_t)seat;
        return;
    }
    child->to_act = (int8_t)following;
    child->last_seat = (int8_t)seat;
    child->table = step->table;
}

static int over_budget(Core *c) {
    if (c->nodes_count > c->node_limit) return 1;
    return now(c->clock_kind) > c->deadline;
}

static int decide(Core *c, const Pos *start) {
    Pos pos = *start, next;
    Step *steps;
    int32_t *splits;
    int nsplits, whole, nplays, seat, table, partner;
    int32_t entry;
    for (;;) {
        if (pos.winner >= 0) return c->teams[pos.winner] == c->max_team;
        c->nodes_count++;
        if (c->nodes_count > c->cut || !(c->nodes_count % CHECK_EVERY)) {
            if (over_budget(c)) {
                c->aborted = 1;
                return UNKNOWN;
            }
            if (c->nodes_count > c->cut) return UNKNOWN; /* this order's share is spent: the other goes on */
        }
        seat = pos.to_act;
        table = pos.table;
        partner = table >= 0 && c->teams[pos.last_seat] == c->teams[seat];
        nplays = node_of(c, seat, pos.hands[seat], table, pos.bombs[seat], &steps, &splits, &nsplits, &whole, &entry);
        int nmoves = nplays + (table >= 0);
        if (nmoves != 1) break;
        after(c, &pos, nplays ? &steps[0] : NULL, &next); /* one move only: walked on without a table entry */
        pos = next;
    }
    Pos key;
    key_of(c, &pos, &key);
    int known = tt_get(c, &key);
    if (known >= 0) return known;
    long long first_node = c->nodes_count;
    int wins = c->teams[seat] == c->max_team;
    if (whole) {
        tt_put(c, &key, wins, 1);
        return wins;
    }
    for (int i = 0; i < nsplits; i++) {
        if (!answerable(c, &pos, seat, splits[i])) {
            tt_put(c, &key, wins, 1);
            return wins;
        }
    }
    int value = 1 - wins;
    /* The moves in the Python search's order (a pass first when answering a partner, last otherwise), except
     * that the play that last won at a node of the same hand, play to answer and allowance is tried first: an
     * order changes no value, only how soon a win is found. (The play that last won at the same depth, tried
     * next, lost more than it gained: docs/PERFORMANCE.md, "Reach".) */
    int depth = c->depth < MAX_DEPTH ? c->depth : MAX_DEPTH - 1;
    int32_t *order = c->order[depth];
    if (!order) order = c->order[depth] = malloc(sizeof(int32_t) * (c->scratch_cap + 2));
    int total = 0, best = entry >= 0 ? c->nodes[entry].best[c->order_kind] : -1;
    /* The second order (`ORDERS`): a seat answering an opponent passes first, too, when the next seat is its
     * partner (who may answer instead). */
    int pass_first = partner ||
                     (c->order_kind == 1 && table >= 0 && c->teams[(seat + 1) % c->seats] == c->teams[seat]);
    if (table >= 0 && pass_first) order[total++] = -1;
    if (best >= 0 && best < nplays) order[total++] = best;
    for (int i = 0; i < nplays; i++)
        if (i != best) order[total++] = i;
    if (table >= 0 && !pass_first) order[total++] = -1;
    c->depth++;
    for (int m = 0; m < total; m++) {
        int i = order[m];
        after(c, &pos, i >= 0 ? &steps[i] : NULL, &next);
        int found = decide(c, &next);
        if (found == UNKNOWN) {
            c->depth--;
            return UNKNOWN;
        }
        if (found == wins) {
            value = wins;
            if (i >= 0 && entry >= 0) c->nodes[entry].best[c->order_kind] = i;
            break;
        }
    }
    c->depth--;
    tt_put(c, &key, value, c->nodes_count - first_node + 1);
    return value;
}

/* The orders take turns on one search, each with a share of nodes that doubles every round (the second order
 * twice the first's), until one settles the position or the budget runs out. Which order finds a proof soon
 * differs by orders of magnitude from position to position (docs/PERFORMANCE.md, "The compiled core"); the
 * value does not depend on it, and the table — exact values only — carries what each settled over to the
 * other, so a turn resumes where it stopped but for the line it was walking. */
#define ORDERS 2

static int decide_in_turns(Core *c, const Pos *p) {
    long long share = c->first_share;
    for (;;) {
        for (int kind = 0; kind < ORDERS; kind++) {
            long long mine = c->nodes_count + (kind == 0 ? share : 2 * share);
            c->order_kind = kind;
            c->cut = mine < c->node_limit ? mine : c->node_limit;
            c->depth = 0;
            int value = decide(c, p);
            if (value != UNKNOWN || c->aborted) return value;
        }
        share *= 2;
    }
}

/* ---- the Python object ---- */

static void core_dealloc(Core *c) {
    free(c->answers);
    free(c->rbomb);
    for (int s = 0; s < MAXSEATS; s++) free(c->leads[s]);
    free(c->lead_keys);
    free(c->lead_bombs);
    free(c->tt);
    free(c->nodes);
    free(c->steps);
    free(c->splits);
    free(c->greedy);
    for (int d = 0; d < MAX_DEPTH; d++) {
        free(c->scratch[d]);
        free(c->scratch_splits[d]);
        free(c->order[d]);
    }
    Py_TYPE(c)->tp_free((PyObject *)c);
}

static int read_bytes(PyObject *obj, void *into, Py_ssize_t size) {
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_SIMPLE) < 0) return -1;
    if (view.len != size) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "a table of the wrong size");
        return -1;
    }
    memcpy(into, view.buf, (size_t)size);
    PyBuffer_Release(&view);
    return 0;
}

/* Core(teams, max_team, nread, answers: bytes of int32, rbomb: bytes, leads: [[(pack, reading, bomb)...] per
 * seat], roots: (pack per seat), ranks_held_key, always_kept, plain_bits, nranks, reordered_from, first_share) */
static int core_init(Core *c, PyObject *args, PyObject *kwds) {
    PyObject *teams, *answers, *rbomb, *leads, *roots;
    int max_team, nread, ranks_held_key, nranks, reordered_from;
    long long first_share;
    unsigned long long always_kept, plain_bits;
    (void)kwds;
    if (!PyArg_ParseTuple(args, "OiiOOOOpKKiiL", &teams, &max_team, &nread, &answers, &rbomb, &leads, &roots,
                          &ranks_held_key, &always_kept, &plain_bits, &nranks, &reordered_from, &first_share))
        return -1;
    if (c->tt) {
        PyErr_SetString(PyExc_RuntimeError, "a core is made once");
        return -1;
    }
    Py_ssize_t seats = PySequence_Size(teams);
    if (seats < 2 || seats > MAXSEATS || PySequence_Size(leads) != seats || PySequence_Size(roots) != seats) {
        PyErr_SetString(PyExc_ValueError, "2 to 4 seats");
        return -1;
    }
    c->seats = (int)seats;
    c->max_team = max_team;
    c->nread = nread;
    c->ranks_held_key = ranks_held_key;
    c->always_kept = always_kept;
    c->plain_bits = plain_bits;
    c->nranks = nranks;
    c->reordered_from = reordered_from;
    c->first_share = first_share > 0 ? first_share : 1;
    for (int s = 0; s < c->seats; s++) {
        PyObject *item = PySequence_GetItem(teams, s);
        c->teams[s] = (int)PyLong_AsLong(item);
        Py_XDECREF(item);
        item = PySequence_GetItem(roots, s);
        c->roots[s] = PyLong_AsUnsignedLongLong(item);
        Py_XDECREF(item);
    }
    if (PyErr_Occurred()) return -1;
    c->answers = malloc(sizeof(int32_t) * (size_t)nread * nread + 4);
    c->rbomb = malloc((size_t)nread + 1);
    if (!c->answers || !c->rbomb) {
        PyErr_NoMemory();
        return -1;
    }
    if (read_bytes(answers, c->answers, (Py_ssize_t)sizeof(int32_t) * nread * nread) < 0) return -1;
    if (read_bytes(rbomb, c->rbomb, nread) < 0) return -1;
    int total = 0, most = 1;
    for (int s = 0; s < c->seats; s++) {
        PyObject *list = PySequence_GetItem(leads, s);
        if (!list) return -1;
        Py_ssize_t n = PySequence_Size(list);
        c->leads[s] = malloc(sizeof(Lead) * (n ? n : 1));
        c->nleads[s] = (int)n;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *entry = PySequence_GetItem(list, i);
            unsigned long long pack;
            int reading, bomb;
            if (!entry || !PyArg_ParseTuple(entry, "Kii", &pack, &reading, &bomb)) {
                Py_XDECREF(entry);
                Py_DECREF(list);
                return -1;
            }
            Py_DECREF(entry);
            if (reading < 0 || reading >= nread) {
                Py_DECREF(list);
                PyErr_SetString(PyExc_ValueError, "a readings id out of range");
                return -1;
            }
            c->leads[s][i].pack = pack;
            c->leads[s][i].reading = reading;
            c->leads[s][i].bomb = bomb;
        }
        Py_DECREF(list);
        total += (int)n;
        if (n > most) most = (int)n;
    }
    c->scratch_cap = most;
    uint64_t slots = 16;
    while (slots < (uint64_t)total * 2) slots <<= 1;
    c->lead_mask = slots - 1;
    c->lead_keys = calloc(slots, sizeof(uint64_t));
    c->lead_bombs = malloc(slots);
    c->tt_bits = TT_FIRST_BITS;
    c->tt = table_alloc(sizeof(TTEntry) << c->tt_bits);
    c->nodes = table_alloc(sizeof(NodeEntry) << NODE_SLOTS_BITS);
    c->steps = malloc(sizeof(Step) * STEP_ARENA);
    c->splits = malloc(sizeof(int32_t) * SPLIT_ARENA);
    c->greedy = table_alloc(sizeof(GreedyEntry) << GREEDY_BITS);
    if (!c->lead_keys || !c->lead_bombs || !c->tt || !c->nodes || !c->steps || !c->splits || !c->greedy) {
        PyErr_NoMemory();
        return -1;
    }
    memset(c->lead_bombs, -1, slots);
    for (int s = 0; s < c->seats; s++)
        for (int i = 0; i < c->nleads[s]; i++) lead_insert(c, c->leads[s][i].pack, c->leads[s][i].bomb);
    return 0;
}

static int read_pos(Core *c, PyObject *hands, int to_act, int last_seat, int table, PyObject *bombs, Pos *p) {
    memset(p, 0, sizeof *p);
    if (PySequence_Size(hands) != c->seats || PySequence_Size(bombs) != c->seats) {
        PyErr_SetString(PyExc_ValueError, "one hand and one bomb allowance per seat");
        return -1;
    }
    for (int s = 0; s < c->seats; s++) {
        PyObject *item = PySequence_GetItem(hands, s);
        p->hands[s] = PyLong_AsUnsignedLongLong(item);
        Py_XDECREF(item);
        item = PySequence_GetItem(bombs, s);
        p->bombs[s] = (int8_t)(item == Py_None ? -1 : PyLong_AsLong(item));
        Py_XDECREF(item);
        if (PyErr_Occurred()) return -1;
        if (!within(p->hands[s], c->roots[s])) {
            PyErr_SetString(PyExc_ValueError, "a hand outside the root hand of its seat");
            return -1;
        }
    }
    if (to_act < 0 || to_act >= c->seats || table < -1 || table >= c->nread ||
        (table >= 0 && (last_seat < 0 || last_seat >= c->seats))) {
        PyErr_SetString(PyExc_ValueError, "a seat or a table out of range");
        return -1;
    }
    p->to_act = (int8_t)to_act;
    p->last_seat = (int8_t)(table >= 0 ? last_seat : -1);
    p->table = table;
    p->winner = -1;
    return 0;
}

/* decide(hands, to_act, last_seat, table, bombs, nodes, node_limit, ms_left, cpu_clock) -> (value | -1, nodes) */
static PyObject *core_decide(Core *c, PyObject *args) {
    PyObject *hands, *bombs;
    int to_act, last_seat, table, cpu_clock;
    long long nodes, node_limit;
    double ms_left;
    if (!PyArg_ParseTuple(args, "OiiiOLLdp", &hands, &to_act, &last_seat, &table, &bombs, &nodes, &node_limit,
                          &ms_left, &cpu_clock))
        return NULL;
    Pos p;
    if (read_pos(c, hands, to_act, last_seat, table, bombs, &p) < 0) return NULL;
    if (c->busy) {
        PyErr_SetString(PyExc_RuntimeError, "one search at a time");
        return NULL;
    }
    c->busy = 1;
    /* a full table of moves is emptied between searches, never during one (the lists are read in place) */
    if (c->steps_used > STEP_ARENA / 2 || c->splits_used > SPLIT_ARENA / 2 ||
        c->nodes_used > (1u << NODE_SLOTS_BITS) / 4) {
        memset(c->nodes, 0, sizeof(NodeEntry) << NODE_SLOTS_BITS);
        c->steps_used = c->splits_used = c->nodes_used = 0;
    }
    c->nodes_count = nodes;
    c->node_limit = node_limit;
    c->clock_kind = cpu_clock;
    c->aborted = 0;
    c->depth = 0;
    int value;
    Py_BEGIN_ALLOW_THREADS
    c->deadline = now(cpu_clock) + ms_left / 1000.0;
    value = decide_in_turns(c, &p);
    Py_END_ALLOW_THREADS
    c->busy = 0;
    return Py_BuildValue("iL", value, c->nodes_count);
}

/* plays(hand, seat, table, allowance) -> [(pack, table, bomb)], whole, [split tables]: a node's plays as the
 * core lists them (for the tests). */
static PyObject *core_plays(Core *c, PyObject *args) {
    unsigned long long hand;
    int seat, table, allowance;
    if (!PyArg_ParseTuple(args, "Kiii", &hand, &seat, &table, &allowance)) return NULL;
    if (seat < 0 || seat >= c->seats || !within(hand, c->roots[seat]) || table < -1 || table >= c->nread) {
        PyErr_SetString(PyExc_ValueError, "a hand outside its seat's root hand, or a table out of range");
        return NULL;
    }
    int n = c->nleads[seat];
    Step *out = malloc(sizeof(Step) * (n ? n : 1));
    int32_t *sp = malloc(sizeof(int32_t) * (n ? n : 1));
    int nsplits, whole;
    int count = make_plays(c, seat, hand, table, allowance, out, sp, &nsplits, &whole);
    PyObject *plays = PyList_New(count), *splits = PyList_New(nsplits);
    for (int i = 0; i < count; i++)
        PyList_SET_ITEM(plays, i, Py_BuildValue("Kii", (unsigned long long)out[i].pack, out[i].table, out[i].bomb));
    for (int i = 0; i < nsplits; i++) PyList_SET_ITEM(splits, i, PyLong_FromLong(sp[i]));
    free(out);
    free(sp);
    return Py_BuildValue("NON", plays, whole ? Py_True : Py_False, splits);
}

static PyObject *core_stored(Core *c, PyObject *unused) {
    (void)unused;
    return PyLong_FromLongLong(c->tt_stores);
}

static PyMethodDef core_methods[] = {
    {"decide", (PyCFunction)core_decide, METH_VARARGS, "The exact value of a position, or -1 past the budget."},
    {"plays", (PyCFunction)core_plays, METH_VARARGS, "A node's plays, whole-hand flag and static-win splits."},
    {"stored", (PyCFunction)core_stored, METH_NOARGS, "Values written to the transposition table so far."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "domain.solver._rankcore.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The AND/OR search of one query of a ranks-only shedding game.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)core_init,
    .tp_dealloc = (destructor)core_dealloc,
    .tp_methods = core_methods,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_rankcore",
                                    "The compiled AND/OR search of the ranks-only shedding games.", -1, NULL, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__rankcore(void) {
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    /* The calls' shape, checked by rankcore.py: a module built from older source is not used (INTERFACE there). */
    if (PyModule_AddIntConstant(m, "INTERFACE", RANKCORE_INTERFACE) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
