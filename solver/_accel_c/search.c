/* search.c: depth-first search with restarts, as solver/search.py does it.
 *
 * Each node narrows its board (rules.c), then branches: on the most telling two-way
 * choice, scored by how hard it pulls on the cells around it, or, in the restarted runs,
 * on the value with the fewest places. The search is iterative: one saved board per
 * level on a heap stack (Stack), so neither recursion nor a big board can exhaust the
 * C stack.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "accel.h"

/* A branch: the values of one cell (unit < 0), or the places of one value in a unit;
 * `untried` holds the values (or the unit's positions) not tried yet. */
struct Level {
    int unit, cell;
    uint32_t bit, untried;
};

/* How far a peer with k candidates gets towards solved when it loses one: one left with
 * one is settled (and cascades), one left with two is often the next branch. */
static const int PULL[MAX_N + 1] = {0, 0, 6, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

/* A value's two places in a unit weigh PAIR_WEIGHT/2 as much as a cell's two values
 * (as in solver/search.py). */
#define PAIR_WEIGHT 3

/* Nodes for the first run. Search times are heavy-tailed, and what one way of branching
 * finds late the other often finds at once, so a run that takes longer is restarted with
 * the other way, the budget doubling after each pair of runs. Without restarts Norvig's
 * hard1 took 74,000 nodes to count to 2 (before places_depth), with them 1,058; 256
 * doubled the nodes on forum_hardest, 4096 saved none. */
#define FIRST_BUDGET 1024

/* How many levels from the root also weigh the values with two places in a unit. It
 * costs much a node. On 9x9 boards, at the root only: 12-17% slower on top95, top1465
 * and 17-clue, 3% on forum_hardest, but Norvig's hard1 (many solutions) is counted to 2
 * in 26 nodes, not 1,058 (found only after a restart); deeper never paid. On 16x16,
 * 2 levels took the nodes on hard puzzles from 573 to 322, 1.45x as fast. */
static int places_depth(const Geometry *g)
{
    return g->n >= 16 ? 2 : 1;
}

/* The pull of the peers of `cell` that hold any value of `mask`. */
static int pull_of(const Geometry *g, const uint32_t *cand, int cell, uint32_t mask)
{
    int pull = 0;
    const uint16_t *peer = g->peers[cell];
    for (int i = 0; i < g->npeers; i++) {
        uint32_t m = cand[peer[i]];
        if (m & mask)
            pull += PULL[popcount32(m)];
    }
    return pull;
}

/* The first unsolved cell with the fewest values. */
static void fewest_values(const Geometry *g, const uint32_t *cand, Level *level)
{
    int best = 0, best_count = MAX_N + 1;
    for (int c = 0; c < g->cells && best_count > 2; c++) {
        int k = popcount32(cand[c]);
        if (k > 1 && k < best_count) {
            best = c;
            best_count = k;
        }
    }
    level->unit = -1;
    level->cell = best;
    level->untried = cand[best];
}

/* The best two-way choice by pull: a cell with two values, or (with `places`) a value
 * with two places in a unit; else the cell with the fewest values. */
static void choose_by_pull(const Geometry *g, const uint32_t *cand, int places, Level *level)
{
    int best_pull = -1;
    for (int c = 0; c < g->cells; c++) {
        uint32_t m = cand[c];
        if (popcount32(m) != 2)
            continue;
        int pull = 2 * pull_of(g, cand, c, m);
        if (pull > best_pull) {
            best_pull = pull;
            level->unit = -1;
            level->cell = c;
            level->untried = m;
        }
    }
    for (int u = 0; places && u < g->units; u++) {
        const uint16_t *cells = g->unit_cells[u];
        uint32_t once = 0, twice = 0, thrice = 0;
        for (int i = 0; i < g->n; i++) {
            uint32_t m = cand[cells[i]];
            thrice |= twice & m;
            twice |= once & m;
            once |= m;
        }
        for (uint32_t two = twice & ~thrice; two; two &= two - 1) {
            uint32_t bit = lowest_bit(two), where = 0;
            int pull = 0;
            for (int i = 0; i < g->n; i++) {
                if (cand[cells[i]] & bit) {
                    where |= 1u << i;
                    /* the two places are peers of each other: leave that out */
                    pull += pull_of(g, cand, cells[i], bit) - PULL[popcount32(cand[cells[i]])];
                }
            }
            if (PAIR_WEIGHT * pull > best_pull) {
                best_pull = PAIR_WEIGHT * pull;
                level->unit = u;
                level->bit = bit;
                level->untried = where;
            }
        }
    }
    if (best_pull < 0)
        fewest_values(g, cand, level);
}

/* The places, in its tightest unit, of the value with the fewest open places. Settling
 * the scarcest value first finds the contradictions of boards that are impossible
 * because of how a few values interlock, where cell-first search wanders. After
 * propagation each open place has a rival in each of its units, so one is found. */
static void choose_by_value(const Geometry *g, const uint32_t *cand, Level *level)
{
    int places[MAX_N] = {0};
    for (int c = 0; c < g->cells; c++) {
        uint32_t m = cand[c];
        if (m & (m - 1))   /* open cells only */
            for (; m; m &= m - 1)
                places[lowest_index(m)]++;
    }
    int value = -1;
    for (int v = 0; v < g->n; v++)
        if (places[v] > 0 && (value < 0 || places[v] < places[value]))
            value = v;
    uint32_t bit = 1u << value;
    int fewest = MAX_N + 1;
    for (int u = 0; u < g->units; u++) {
        uint32_t where = 0;
        for (int i = 0; i < g->n; i++) {
            uint32_t m = cand[g->unit_cells[u][i]];
            if ((m & bit) && (m & (m - 1)))
                where |= 1u << i;
        }
        int k = popcount32(where);
        if (k > 1 && k < fewest) {
            fewest = k;
            level->unit = u;
            level->bit = bit;
            level->untried = where;
        }
    }
}

/* The next alternative of a branch: a cell and the value to put there. */
static void next_try(const Geometry *g, Level *level, int *cell, uint32_t *bit)
{
    uint32_t low = lowest_bit(level->untried);
    level->untried ^= low;
    if (level->unit < 0) {
        *cell = level->cell;
        *bit = low;
    } else {
        *cell = g->unit_cells[level->unit][lowest_index(low)];
        *bit = level->bit;
    }
}

/* Room for a search from a board with `blanks` blank cells: each level settles one
 * more cell, so blanks + 1 levels suffice. 0 when out of memory. */
int accel_stack_alloc(Stack *stack, const Geometry *g, int blanks)
{
    stack->levels = blanks + 1;
    stack->boards = malloc(((size_t)g->cells + 1) * (size_t)stack->levels * sizeof(uint32_t));
    stack->level = malloc((size_t)stack->levels * sizeof(Level));
    if (stack->boards && stack->level)
        return 1;
    accel_stack_free(stack);
    return 0;
}

void accel_stack_free(Stack *stack)
{
    free(stack->boards);
    free(stack->level);
    stack->boards = NULL;
    stack->level = NULL;
}

/* Add a solved board to `found` (room for at most `limit`); 0 when out of memory. */
static int record(Found *found, long long limit, const Geometry *g, const uint32_t *cand)
{
    if (found->count == found->room) {
        long long room = found->room ? 2 * found->room : 4;
        room = room < limit ? room : limit;
        char *text = realloc(found->text, (size_t)room * (size_t)g->cells);
        if (!text)
            return 0;
        found->text = text;
        found->room = room;
    }
    char *out = found->text + found->count * g->cells;
    for (int c = 0; c < g->cells; c++)
        out[c] = ACCEL_SYMBOLS[lowest_index(cand[c])];
    found->count++;
    return 1;
}

/* One run from `root` (as accel_eliminate or a node left it: narrowed, what changed
 * noted) until `limit` solutions are found, the tree is exhausted, or `allowed` more
 * nodes are used. */
static int search(const Work *root, const Stack *stack, int by_value, long long limit,
                  long long allowed, Found *found, long long *nodes)
{
    const Geometry *g = root->g;
    size_t stride = (size_t)g->cells + 1;
    Level *level = stack->level;
    Work w = *root;
    w.cand = memcpy(stack->boards, root->cand, stride * sizeof(uint32_t));
    w.solved = &w.cand[g->cells];
    level[0].untried = 0;
    found->count = 0;
    int depth = 0;
    for (long long used = 0;; used++) {
        /* a node: the board at `depth`, with what changed on it noted in w */
        const uint32_t *cand = w.cand;
        if (used >= allowed)
            return OUT_OF_NODES;
        ++*nodes;
        int alive = accel_propagate(&w);
        if (alive && *w.solved == (uint32_t)g->cells) {
            if (!record(found, limit, g, cand))
                return OUT_OF_MEMORY;
            if (found->count >= limit)
                return DONE;
            alive = 0;   /* solved: nothing below */
        }
        if (alive && by_value) {
            choose_by_value(g, cand, &level[depth]);
        } else if (alive) {
            choose_by_pull(g, cand, depth < places_depth(g), &level[depth]);
        } else {   /* back up to the deepest level with an alternative left */
            while (depth >= 0 && level[depth].untried == 0)
                depth--;
            if (depth < 0)
                return DONE;
        }
        /* the next alternative of the branch at `depth`: the last one in place (nothing
         * will come back to this board), the others on a copy one level down */
        int cell;
        uint32_t bit;
        next_try(g, &level[depth], &cell, &bit);
        w.cand = stack->boards + stride * (size_t)depth;
        if (level[depth].untried) {
            if (depth + 1 >= stack->levels)
                return OUT_OF_MEMORY;   /* cannot happen: see accel_stack_alloc */
            w.cand = memcpy(w.cand + stride, w.cand, stride * sizeof(uint32_t));
            level[++depth].untried = 0;
        }
        w.solved = &w.cand[g->cells];
        w.npending = 0;
        w.dirty[0] = w.dirty[1] = w.dirty[2] = 0;
        settle(&w, cell, bit);
    }
}

/* Runs from `root`, branching by pull and by value in turn, until one answers or
 * `max_nodes` nodes are used in all (then OUT_OF_NODES and nothing found). */
int accel_find(const Work *root, const Stack *stack, long long limit, long long max_nodes,
               Found *found, long long *nodes)
{
    long long budget = FIRST_BUDGET;
    for (int run = 0;; run++) {
        long long left = max_nodes - *nodes;
        int status = search(root, stack, run % 2, limit, left < budget ? left : budget,
                            found, nodes);
        if (status != OUT_OF_NODES)
            return status;
        if (*nodes >= max_nodes) {
            found->count = 0;
            return OUT_OF_NODES;
        }
        if (run % 2 == 1 && budget <= LLONG_MAX / 2)
            budget *= 2;
    }
}
