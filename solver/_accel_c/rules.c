/* rules.c: the deductions that narrow a board's candidates, cheap to dear.
 *
 * - naked single: a solved cell's value leaves its peers (accel_eliminate);
 * - hidden single: a value with one place left in a unit goes there;
 * - locked candidates: a value confined to a box/line intersection within the box
 *   (pointing) or within the line (claiming) leaves the rest of the line (or box).
 * Each returns -1 (or 0 for the two accel_ ones) when the board cannot be completed.
 */
#include "accel.h"

static int box_of(int box, int n, int cell)
{
    return (cell / n) / box * box + (cell % n) / box;
}

void accel_geometry_init(Geometry *g, int box)
{
    int n = box * box;
    g->box = box;
    g->n = n;
    g->cells = n * n;
    g->units = 3 * n;
    g->all = (1u << n) - 1u;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            g->unit_cells[i][j] = (uint16_t)(n * i + j);                /* row i */
            g->unit_cells[n + i][j] = (uint16_t)(n * j + i);            /* column i */
            g->unit_cells[2 * n + i][j] =                               /* box i */
                (uint16_t)(n * (i / box * box + j / box) + i % box * box + j % box);
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

/* Take `mask` from a cell, settling it when one value is left: 1 when that changed the
 * cell, 0 when it had none of `mask`, -1 when it would have nothing left. */
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

/* Naked singles: each pending solved cell's value leaves its peers, and the peers left
 * with one value become pending in turn. 0 when a cell is left with none. */
int accel_eliminate(Work *w)
{
    const Geometry *g = w->g;
    while (w->npending > 0) {
        int cell = w->pending[--w->npending];
        uint32_t bit = w->cand[cell];
        const uint16_t *peer = g->peers[cell];
        for (int i = 0; i < g->npeers; i++)
            if (take(w, peer[i], bit) < 0)
                return 0;
    }
    return 1;
}

/* Hidden singles in the units changed since they were last looked at: how many cells
 * were settled, or -1 when a value has no place in a unit or two need the same cell. */
static int hidden_singles(Work *w)
{
    const Geometry *g = w->g;
    const uint32_t *cand = w->cand;
    int settled = 0;
    for (int kind = 0; kind < 3; kind++) {
        for (; w->dirty[kind]; w->dirty[kind] &= w->dirty[kind] - 1) {
            const uint16_t *cells = g->unit_cells[kind * g->n + lowest_index(w->dirty[kind])];
            uint32_t once = 0, twice = 0, solved = 0;
            for (int i = 0; i < g->n; i++) {
                uint32_t m = cand[cells[i]];
                twice |= once & m;
                once |= m;
                solved |= (m & (m - 1)) ? 0 : m;
            }
            if (once != g->all)
                return -1;
            for (uint32_t lone = once & ~twice & ~solved; lone; lone &= lone - 1) {
                uint32_t bit = lowest_bit(lone);
                int i = 0;
                while (i < g->n && !(cand[cells[i]] & bit))
                    i++;
                if (i == g->n)
                    return -1;   /* its one place went to another lone value */
                settle(w, cells[i], bit);
                settled++;
            }
        }
    }
    return settled;
}

/* Locked candidates at the box/line intersections along one direction: rows when
 * `across` is n and `along` 1, columns when swapped. 1 when something changed, 0 if
 * not, -1 on a contradiction. */
static int locked_lines(Work *w, int across, int along)
{
    const Geometry *g = w->g;
    int n = g->n, box = g->box, changed = 0;
    uint32_t seg[MAX_N][MAX_BOX];   /* seg[line][s]: the values in the line's s-th box */
    for (int line = 0; line < n; line++) {
        for (int s = 0; s < box; s++) {
            uint32_t m = 0;
            for (int k = 0; k < box; k++)
                m |= w->cand[line * across + (s * box + k) * along];
            seg[line][s] = m;
        }
    }
    for (int line = 0; line < n; line++) {
        int band = line - line % box;   /* the first line through the same boxes */
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
                int r = k / box == s ? 0 : take(w, line * across + k * along, pointing);
                if (r < 0)
                    return -1;
                changed |= r;
            }
            for (int j = 0; claiming && j < box; j++) {  /* the box outside the line */
                for (int k = 0; band + j != line && k < box; k++) {
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

/* Singles until nothing changes, then locked candidates, and again. 0 on a
 * contradiction. */
int accel_propagate(Work *w)
{
    for (;;) {
        if (!accel_eliminate(w))
            return 0;
        int settled = hidden_singles(w);
        if (settled < 0)
            return 0;
        if (settled > 0)
            continue;
        int rows = locked_lines(w, w->g->n, 1);
        if (rows < 0)
            return 0;
        int cols = locked_lines(w, 1, w->g->n);
        if (cols < 0)
            return 0;
        if (!rows && !cols)
            return 1;
    }
}
