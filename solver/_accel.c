/* _accel: the solver's search in C, an optional speed-up of solver/search.py.
 *
 * One function, search(board, box, limit, max_nodes) -> (solutions, nodes, finished):
 * up to `limit` solutions of a canonical board string ('0' empty, '1'-'9', 'A'.. for the
 * values 1..n) of box side 2..5 (4x4 to 25x25), the search nodes used, and whether the
 * search finished within `max_nodes` nodes (False: it ran out, like SearchLimit).
 *
 * The method is the pure engine's, pared down to what pays in C: candidates as bitmasks
 * (one bit a value, so n <= 25 fits in 32 bits), propagation by naked singles (a solved
 * cell's value leaves its peers) and hidden singles (a value with one place left in a
 * unit goes there), then depth-first search on a cell with the fewest candidates.
 * The search is iterative: one saved board per level on a heap stack, at most one level
 * per empty cell, so neither recursion nor a deep board can exhaust the C stack.
 *
 * The only static data is the geometry of each size, computed once when the module is
 * first imported and read-only after that. The GIL is released while searching.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MIN_BOX 2
#define MAX_BOX 5
#define MAX_N (MAX_BOX * MAX_BOX)          /* values, cells in a unit */
#define MAX_CELLS (MAX_N * MAX_N)          /* 625 */
#define MAX_UNITS (3 * MAX_N)              /* rows, columns, boxes */
#define MAX_PEERS (2 * (MAX_N - 1) + (MAX_BOX - 1) * (MAX_BOX - 1))  /* 64 */

static const char SYMBOLS[] = "123456789ABCDEFGHIJKLMNOP";

/* The cells of every unit and the peers of every cell, for one box side. */
typedef struct {
    int box, n, cells, units, npeers;
    uint32_t all;                          /* every value possible */
    uint16_t unit_cells[MAX_UNITS][MAX_N];
    uint16_t peers[MAX_CELLS][MAX_PEERS];
    uint8_t unit_of[MAX_CELLS][3];         /* row, column, box of each cell */
} Geometry;

static Geometry GEOMETRY[MAX_BOX + 1];     /* filled by geometry_init, then read-only */

static int box_of(int box, int n, int cell)
{
    return (cell / n) / box * box + (cell % n) / box;
}

static void geometry_init(Geometry *g, int box)
{
    int n = box * box;
    g->box = box;
    g->n = n;
    g->cells = n * n;
    g->units = 3 * n;
    g->all = (1u << n) - 1u;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            g->unit_cells[i][j] = (uint16_t)(n * i + j);                       /* row i */
            g->unit_cells[n + i][j] = (uint16_t)(n * j + i);                   /* column i */
            g->unit_cells[2 * n + i][j] = (uint16_t)(n * (i / box * box + j / box)
                                                     + i % box * box + j % box); /* box i */
        }
    }
    for (int c = 0; c < g->cells; c++) {
        int k = 0;
        for (int p = 0; p < g->cells; p++) {
            if (p != c && (p / n == c / n || p % n == c % n
                           || box_of(box, n, p) == box_of(box, n, c)))
                g->peers[c][k++] = (uint16_t)p;
        }
        g->npeers = k;
        g->unit_of[c][0] = (uint8_t)(c / n);
        g->unit_of[c][1] = (uint8_t)(c % n);
        g->unit_of[c][2] = (uint8_t)box_of(box, n, c);
    }
}

static int popcount32(uint32_t x)   /* portable: no popcnt instruction assumed */
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
}

static int lowest_index(uint32_t x)   /* x != 0 */
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(x);
#else
    int i = 0;
    while (!(x & 1u)) {
        x >>= 1;
        i++;
    }
    return i;
#endif
}

/* A board under search: the candidate masks of its cells, and how many are solved
 * (one candidate). `pending` holds solved cells whose value has not left their peers. */
typedef struct {
    const Geometry *g;
    uint32_t *cand;
    int *solved;
    uint16_t pending[MAX_CELLS];
    int npending;
    uint32_t dirty[3];   /* rows, columns, boxes changed since their last hidden-single scan */
} Work;

/* Note that a cell changed: its row, column and box need a new look for hidden singles. */
static void touch(Work *w, int cell)
{
    const uint8_t *unit = w->g->unit_of[cell];
    w->dirty[0] |= 1u << unit[0];
    w->dirty[1] |= 1u << unit[1];
    w->dirty[2] |= 1u << unit[2];
}

/* Narrow a cell with several candidates to `bit` (a value it has). */
static void settle(Work *w, int cell, uint32_t bit)
{
    w->cand[cell] = bit;
    touch(w, cell);
    ++*w->solved;
    w->pending[w->npending++] = (uint16_t)cell;
}

/* Naked singles: take each pending solved cell's value from its peers, settling the
 * peers left with one. 0 when a cell is left with none. A cell is pending at most once
 * per board (only when it goes from several candidates to one), so `pending` never
 * overflows. */
static int eliminate(Work *w)
{
    const Geometry *g = w->g;
    uint32_t *cand = w->cand;
    while (w->npending > 0) {
        int cell = w->pending[--w->npending];
        uint32_t bit = cand[cell];
        const uint16_t *peer = g->peers[cell];
        for (int i = 0; i < g->npeers; i++) {
            uint32_t m = cand[peer[i]];
            if (m & bit) {
                m &= ~bit;
                if (!m)
                    return 0;
                cand[peer[i]] = m;
                touch(w, peer[i]);
                if (!(m & (m - 1))) {
                    ++*w->solved;
                    w->pending[w->npending++] = peer[i];
                }
            }
        }
    }
    return 1;
}

/* Hidden singles: settle every value with one place left in a unit, looking only at the
 * units changed since they were last looked at. Returns how many cells were settled, or
 * -1 when a value has no place in a unit or two values need the same cell. */
static int hidden_singles(Work *w)
{
    const Geometry *g = w->g;
    uint32_t *cand = w->cand;
    int settled = 0;
    for (int kind = 0; kind < 3; kind++) {
      while (w->dirty[kind]) {
        int u = kind * g->n + lowest_index(w->dirty[kind]);
        w->dirty[kind] &= w->dirty[kind] - 1;
        const uint16_t *cells = g->unit_cells[u];
        uint32_t once = 0, twice = 0, solved = 0;
        for (int i = 0; i < g->n; i++) {
            uint32_t m = cand[cells[i]];
            twice |= once & m;
            once |= m;
            solved |= (m & (m - 1)) ? 0 : m;
        }
        if (once != g->all)
            return -1;
        uint32_t lone = once & ~twice & ~solved;
        while (lone) {
            uint32_t bit = lone & (~lone + 1u);
            lone ^= bit;
            int i = 0;
            while (i < g->n && !(cand[cells[i]] & bit))
                i++;
            if (i == g->n)
                return -1;   /* its one place was taken by another lone value */
            settle(w, cells[i], bit);
            settled++;
        }
      }
    }
    return settled;
}

/* Take `mask` from cell; returns 1 if it changed, 0 if not, -1 if nothing is left. */
static int take(Work *w, int cell, uint32_t mask)
{
    uint32_t m = w->cand[cell];
    if (!(m & mask))
        return 0;
    m &= ~mask;
    if (!m)
        return -1;
    w->cand[cell] = m;
    touch(w, cell);
    if (!(m & (m - 1))) {
        ++*w->solved;
        w->pending[w->npending++] = (uint16_t)cell;
    }
    return 1;
}

/* Locked candidates for the box/line intersections along one direction (rows when
 * `across` is n and `along` 1, columns when swapped): a value whose places in a box lie
 * in one line leaves the rest of that line (pointing), and a value whose places in a
 * line lie in one box leaves the rest of that box (claiming). Returns 1 when something
 * changed, 0 if not, -1 on a contradiction. */
static int locked_lines(Work *w, int box, int across, int along)
{
    const Geometry *g = w->g;
    const uint32_t *cand = w->cand;
    int n = g->n, changed = 0;
    uint32_t seg[MAX_N][MAX_BOX];   /* seg[line][s]: values in the line's s-th segment */
    for (int line = 0; line < n; line++) {
        for (int s = 0; s < box; s++) {
            uint32_t m = 0;
            for (int k = 0; k < box; k++)
                m |= cand[line * across + (s * box + k) * along];
            seg[line][s] = m;
        }
    }
    for (int line = 0; line < n; line++) {
        int band = line - line % box;
        for (int s = 0; s < box; s++) {
            uint32_t box_rest = 0, line_rest = 0;
            for (int k = 0; k < box; k++) {
                if (band + k != line)
                    box_rest |= seg[band + k][s];
                if (k != s)
                    line_rest |= seg[line][k];
            }
            uint32_t pointing = seg[line][s] & ~box_rest & line_rest;
            uint32_t claiming = seg[line][s] & ~line_rest & box_rest;
            for (int k = 0; pointing && k < n; k++) {   /* the line outside the box */
                if (k / box == s)
                    continue;
                int r = take(w, line * across + k * along, pointing);
                if (r < 0)
                    return -1;
                changed |= r;
            }
            for (int j = 0; claiming && j < box; j++) {  /* the box outside the line */
                if (band + j == line)
                    continue;
                for (int k = 0; k < box; k++) {
                    int r = take(w, (band + j) * across + (s * box + k) * along, claiming);
                    if (r < 0)
                        return -1;
                    changed |= r;
                }
            }
        }
    }
    return changed;
}

/* Singles until nothing changes, then locked candidates, and again; 0 on a
 * contradiction. */
static int propagate(Work *w)
{
    for (;;) {
        if (!eliminate(w))
            return 0;
        int settled = hidden_singles(w);
        if (settled < 0)
            return 0;
        if (settled > 0)
            continue;
        int rows = locked_lines(w, w->g->box, w->g->n, 1);
        if (rows < 0)
            return 0;
        int cols = locked_lines(w, w->g->box, 1, w->g->n);
        if (cols < 0)
            return 0;
        if (!rows && !cols)
            return 1;
    }
}

/* A branch: the values of one cell (unit < 0), or the places of one value in a unit;
 * `untried` holds the values (or the unit's positions) not tried yet. */
typedef struct {
    int unit, cell;
    uint32_t bit, untried;
} Level;

/* How far a peer with k candidates gets towards solved when it loses one: one left with
 * one is settled (and cascades), one left with two is often the next branch. */
static const int PULL[MAX_N + 1] = {0, 0, 6, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

/* A two-place value's places weigh PAIR_WEIGHT/2 as much as a two-value cell's values
 * (3, as in solver/search.py). */
#define PAIR_WEIGHT 3

/* The pull of the peers of `cell` that hold any value of `mask`. */
static int pull_of(const Geometry *g, const uint32_t *cand, int cell, uint32_t mask)
{
    int pull = 0;
    const uint16_t *peer = g->peers[cell];
    for (int i = 0; i < g->npeers; i++) {
        uint32_t pm = cand[peer[i]];
        if (pm & mask)
            pull += PULL[popcount32(pm)];
    }
    return pull;
}

/* The unsolved cell with the fewest candidates (the first one found with two). */
static void fewest_values(const Geometry *g, const uint32_t *cand, Level *level)
{
    int best = -1, best_count = MAX_N + 1;
    for (int c = 0; c < g->cells; c++) {
        int k = popcount32(cand[c]);
        if (k > 1 && k < best_count) {
            best = c;
            best_count = k;
            if (k == 2)
                break;
        }
    }
    level->unit = -1;
    level->cell = best;
    level->untried = cand[best];
}

/* The most telling two-way choice: a cell with two values, or (when `places`) a value
 * with two places in a unit, scored by how hard it pulls on the cells around it (see
 * PULL); without one, the cell with the fewest values. The board is not solved. */
static void choose(const Geometry *g, const uint32_t *cand, int places, Level *level)
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
            uint32_t bit = two & (~two + 1u);
            uint32_t where = 0;
            int pull = 0;
            for (int i = 0; i < g->n; i++) {
                if (cand[cells[i]] & bit) {
                    where |= 1u << i;
                    /* the two places are peers of each other: leave that out */
                    pull += pull_of(g, cand, cells[i], bit) - PULL[popcount32(cand[cells[i]])];
                }
            }
            pull *= PAIR_WEIGHT;
            if (pull > best_pull) {
                best_pull = pull;
                level->unit = u;
                level->bit = bit;
                level->untried = where;
            }
        }
    }
    if (best_pull < 0)
        fewest_values(g, cand, level);
}

/* The next alternative of a branch: a cell and the value to put there. */
static void next_try(const Geometry *g, Level *level, int *cell, uint32_t *bit)
{
    uint32_t low = level->untried & (~level->untried + 1u);
    level->untried ^= low;
    if (level->unit < 0) {
        *cell = level->cell;
        *bit = low;
    } else {
        *cell = g->unit_cells[level->unit][lowest_index(low)];
        *bit = level->bit;
    }
}

typedef struct {
    char *text;       /* found solutions, `cells` characters each */
    long long count;
    long long room;
} Found;

static int record(Found *found, const Geometry *g, const uint32_t *cand)
{
    if (found->count == found->room) {
        long long room = found->room ? 2 * found->room : 4;
        char *text = realloc(found->text, (size_t)(room * g->cells));
        if (!text)
            return 0;
        found->text = text;
        found->room = room;
    }
    char *out = found->text + found->count * g->cells;
    for (int c = 0; c < g->cells; c++)
        out[c] = SYMBOLS[lowest_index(cand[c])];
    found->count++;
    return 1;
}

enum { DONE = 0, OUT_OF_NODES = 1, OUT_OF_MEMORY = 2 };

/* The places, in its tightest unit, of the value with the fewest open places on the
 * board. Settling the scarcest value first finds the contradictions of boards that are
 * impossible because of how a few values interlock, where cell-first search wanders.
 * After propagation every open place has a rival in each of its units. */
static void choose_value(const Geometry *g, const uint32_t *cand, Level *level)
{
    int places[MAX_N] = {0};
    for (int c = 0; c < g->cells; c++) {
        uint32_t m = cand[c];
        if (m & (m - 1))
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

/* How many levels from the root also weigh the values with two places in a unit when
 * branching by pull. It costs much per node: on 9x9 boards it never paid (forum_hardest
 * 247 nodes a puzzle without, 229 with it in 2 levels but 5% slower; top95 30% slower);
 * on 16x16 ones 2 levels took 573 nodes to 322 and 1.45x the puzzles a second. */
static int places_depth(const Geometry *g)
{
    return g->n >= 16 ? 2 : 0;
}

/* The two ways of branching: on the most telling two-way choice, or on the scarcest
 * value. A search that takes long with one is restarted with the other (see `find`). */
enum { BY_PULL = 0, BY_VALUE = 1 };

/* Room for one search: the boards of its levels (`cells + 1` slots each: the last counts
 * the solved cells) and the branch taken at each. `levels` exceeds the empty cells of the
 * root, and each level settles one more cell, so the search never goes deeper. */
typedef struct {
    uint32_t *boards;
    Level *level;
    int levels;
} Stack;

/* One depth-first search from `root` (givens placed, their values not yet taken from
 * their peers: `root` as `work` left it) until `limit` solutions are found, the tree is
 * exhausted, or `allowed` more nodes are used. */
static int search(const Work *root, const Stack *stack, int strategy, long long limit,
                  long long allowed, Found *found, long long *nodes)
{
    const Geometry *g = root->g;
    size_t stride = (size_t)g->cells + 1;
    uint32_t *boards = stack->boards;
    Level *level = stack->level;
    Work w = *root;
    memcpy(boards, root->cand, stride * sizeof(uint32_t));
    w.cand = boards;
    w.solved = (int *)&boards[g->cells];
    level[0].untried = 0;
    found->count = 0;
    int depth = 0;
    for (long long used = 0;; used++) {
        /* a node: the board at `depth`, with w.pending and w.dirty holding what changed */
        uint32_t *cand = boards + stride * (size_t)depth;
        int dead = 0;
        if (used >= allowed)
            return OUT_OF_NODES;
        ++*nodes;
        if (!propagate(&w)) {
            dead = 1;
        } else if (*w.solved == g->cells) {
            if (!record(found, g, cand))
                return OUT_OF_MEMORY;
            if (found->count >= limit)
                return DONE;
            dead = 1;
        } else if (strategy == BY_VALUE) {
            choose_value(g, cand, &level[depth]);
        } else {
            choose(g, cand, depth < places_depth(g), &level[depth]);
        }
        if (dead) {   /* back up to the deepest level with an alternative left */
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
        uint32_t *child = boards + stride * (size_t)depth;
        if (level[depth].untried) {
            if (depth + 1 >= stack->levels)
                return OUT_OF_MEMORY;   /* cannot happen: see Stack */
            memcpy(child + stride, child, stride * sizeof(uint32_t));
            child += stride;
            depth++;
            level[depth].untried = 0;
        }
        w.cand = child;
        w.solved = (int *)&child[g->cells];
        w.npending = 0;
        w.dirty[0] = w.dirty[1] = w.dirty[2] = 0;
        settle(&w, cell, bit);
    }
}

/* Nodes for the first run. Search times are heavy-tailed, and what one way of branching
 * finds late the other often finds at once, so a run that takes longer is restarted with
 * the other way, the budget doubling after each pair of runs (as solver/search.py does;
 * without it Norvig's hard1 takes 74,000 nodes to count to 2, with it 40). */
#define FIRST_BUDGET 1024

/* Search with restarts until an answer or `max_nodes` nodes in all. */
static int find(const Work *root, const Stack *stack, long long limit, long long max_nodes,
                Found *found, long long *nodes)
{
    long long budget = FIRST_BUDGET;
    for (int round = 0;; round++) {
        long long allowed = max_nodes - *nodes < budget ? max_nodes - *nodes : budget;
        int status = search(root, stack, round % 2, limit, allowed, found, nodes);
        if (status != OUT_OF_NODES)
            return status;
        if (*nodes >= max_nodes) {
            found->count = 0;
            return OUT_OF_NODES;
        }
        if (round % 2 == 1 && budget <= LLONG_MAX / 2)
            budget *= 2;
    }
}

/* The value of each symbol of a canonical board, or -1 when it is none of size n. */
static int symbol_value(char ch, int n)
{
    if (ch == '0')
        return 0;
    const char *at = memchr(SYMBOLS, ch, (size_t)n);
    return (at && ch) ? (int)(at - SYMBOLS) + 1 : -1;
}

PyDoc_STRVAR(search_doc,
"search(board, box, limit, max_nodes) -> (solutions, nodes, finished)\n\n"
"Up to `limit` solutions of a canonical board string of box side 2..5, the search\n"
"nodes used, and False in `finished` when the search stopped at `max_nodes` nodes\n"
"before it could answer (the solutions found so far are then incomplete).\n"
"Conflicting givens give no solution and 0 nodes.");

static PyObject *py_search(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *board;
    int box;
    long long limit, max_nodes;
    if (!PyArg_ParseTuple(args, "UiLL:search", &board, &box, &limit, &max_nodes))
        return NULL;
    if (box < MIN_BOX || box > MAX_BOX)
        return PyErr_Format(PyExc_ValueError, "box side %d not supported (2 to 5)", box);
    if (limit < 1)
        return PyErr_Format(PyExc_ValueError, "limit must be at least 1, not %lld", limit);
    const Geometry *g = &GEOMETRY[box];
    Py_ssize_t length;
    const char *text = PyUnicode_AsUTF8AndSize(board, &length);
    if (!text)
        return NULL;
    if (PyUnicode_GET_LENGTH(board) != g->cells || length != g->cells)
        return PyErr_Format(PyExc_ValueError, "a board of box side %d has %d cells, not %zd",
                            box, g->cells, PyUnicode_GET_LENGTH(board));

    int empty = 0;
    for (int c = 0; c < g->cells; c++) {
        int v = symbol_value(text[c], g->n);
        if (v < 0)
            return PyErr_Format(PyExc_ValueError, "unexpected symbol '%c' at cell %d",
                                (int)(unsigned char)text[c], c);
        empty += (v == 0);
    }
    /* the root board, then the search's boards: one a level, at most one a blank cell */
    size_t stride = (size_t)g->cells + 1;
    Stack stack;
    stack.levels = empty + 1;
    uint32_t *root = PyMem_RawMalloc(stride * (size_t)(stack.levels + 1) * sizeof(uint32_t));
    stack.level = PyMem_RawMalloc((size_t)stack.levels * sizeof(Level));
    if (!root || !stack.level) {
        PyMem_RawFree(root);
        PyMem_RawFree(stack.level);
        return PyErr_NoMemory();
    }
    stack.boards = root + stride;

    /* the givens, placed at once; their values leave their peers next */
    Work w;
    w.g = g;
    w.cand = root;
    w.solved = (int *)&root[g->cells];
    *w.solved = 0;
    w.npending = 0;
    w.dirty[0] = w.dirty[1] = w.dirty[2] = g->all;   /* every unit (one bit a unit) */
    for (int c = 0; c < g->cells; c++)
        root[c] = g->all;
    for (int c = 0; c < g->cells; c++) {
        int v = symbol_value(text[c], g->n);
        if (v > 0)
            settle(&w, c, 1u << (v - 1));
    }
    Found found = {NULL, 0, 0};
    long long nodes = 0;
    int status = DONE;
    Py_BEGIN_ALLOW_THREADS
    if (eliminate(&w))   /* else conflicting givens: no solution, no node */
        status = find(&w, &stack, limit, max_nodes, &found, &nodes);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(root);
    PyMem_RawFree(stack.level);

    PyObject *solutions = NULL;
    if (status == OUT_OF_MEMORY) {
        PyErr_NoMemory();
    } else if ((solutions = PyList_New((Py_ssize_t)found.count))) {
        for (long long i = 0; i < found.count; i++) {
            PyObject *s = PyUnicode_DecodeASCII(found.text + i * g->cells, g->cells, NULL);
            if (!s) {
                Py_CLEAR(solutions);
                break;
            }
            PyList_SET_ITEM(solutions, (Py_ssize_t)i, s);
        }
    }
    free(found.text);
    if (!solutions)
        return NULL;
    return Py_BuildValue("(NLO)", solutions, nodes, status == DONE ? Py_True : Py_False);
}

static PyMethodDef METHODS[] = {
    {"search", py_search, METH_VARARGS, search_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_accel",
    "The solver's search in C (optional; solver/_fast.py falls back to pure Python).",
    -1, METHODS, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__accel(void)
{
    for (int box = MIN_BOX; box <= MAX_BOX; box++)
        geometry_init(&GEOMETRY[box], box);
    return PyModule_Create(&MODULE);
}
