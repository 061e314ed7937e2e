/* accel.h: what the parts of the C search share. module.c tells what the whole does;
 * rules.c narrows the candidates, search.c branches.
 *
 * A board is `cells + 1` 32-bit slots: the candidate mask of each cell (bit v-1 for the
 * value v; n <= 25 values fit) and, in the last slot, how many cells are solved.
 */
#ifndef SNAPSOLVE_ACCEL_H
#define SNAPSOLVE_ACCEL_H

#include <stdint.h>

#define MIN_BOX 2
#define MAX_BOX 5
#define MAX_N (MAX_BOX * MAX_BOX)          /* values; cells in a unit */
#define MAX_CELLS (MAX_N * MAX_N)          /* 625 */
#define MAX_UNITS (3 * MAX_N)              /* rows, columns, boxes */
#define MAX_PEERS (2 * (MAX_N - 1) + (MAX_BOX - 1) * (MAX_BOX - 1))  /* 64 */

/* The canonical symbols of the values 1..25 (solver/size.py). */
static const char ACCEL_SYMBOLS[] = "123456789ABCDEFGHIJKLMNOP";

/* The cells of every unit and the peers of every cell, for one box side. */
typedef struct {
    int box, n, cells, units, npeers;
    uint32_t all;                          /* every value possible */
    uint16_t unit_cells[MAX_UNITS][MAX_N]; /* rows, then columns, then boxes */
    uint16_t peers[MAX_CELLS][MAX_PEERS];
    uint8_t unit_of[MAX_CELLS][3];         /* the row, column and box of each cell */
} Geometry;

/* A board being narrowed: its candidates, its count of solved cells, the solved cells
 * whose value has not yet left their peers, and the units changed since they were last
 * looked at for hidden singles (one bit a unit: rows, columns, boxes). */
typedef struct {
    const Geometry *g;
    uint32_t *cand;
    uint32_t *solved;
    uint16_t pending[MAX_CELLS];
    int npending;
    uint32_t dirty[3];
} Work;

/* How a search ended. */
enum { DONE = 0, OUT_OF_NODES = 1, OUT_OF_MEMORY = 2 };

/* The solutions found: `count` of them, `cells` symbols each. */
typedef struct {
    char *text;
    long long count, room;
} Found;

typedef struct Level Level;   /* one branch of the search (search.c) */

/* Room for one search: a board and a branch for each level (accel_stack_alloc). */
typedef struct {
    uint32_t *boards;
    Level *level;
    int levels;
} Stack;

static inline int popcount32(uint32_t x)   /* portable: no popcnt instruction assumed */
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
}

static inline int lowest_index(uint32_t x)   /* x != 0 */
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(x);
#else
    int i = 0;
    for (; !(x & 1u); x >>= 1)
        i++;
    return i;
#endif
}

static inline uint32_t lowest_bit(uint32_t x)
{
    return x & (~x + 1u);
}

/* Note that a cell changed: its row, column and box need a new look for hidden singles. */
static inline void touch(Work *w, int cell)
{
    const uint8_t *unit = w->g->unit_of[cell];
    w->dirty[0] |= 1u << unit[0];
    w->dirty[1] |= 1u << unit[1];
    w->dirty[2] |= 1u << unit[2];
}

/* Narrow a cell with several candidates to `bit`, one of them. A cell is pending at most
 * once a board (only when it goes from several candidates to one): no overflow. */
static inline void settle(Work *w, int cell, uint32_t bit)
{
    w->cand[cell] = bit;
    touch(w, cell);
    ++*w->solved;
    w->pending[w->npending++] = (uint16_t)cell;
}

void accel_geometry_init(Geometry *g, int box);
int accel_eliminate(Work *w);
int accel_propagate(Work *w);
int accel_stack_alloc(Stack *stack, const Geometry *g, int blanks);
void accel_stack_free(Stack *stack);
int accel_find(const Work *root, const Stack *stack, long long limit, long long max_nodes,
               Found *found, long long *nodes);

#endif
