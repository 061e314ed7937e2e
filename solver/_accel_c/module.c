/* solver._accel: the solver's search in C, an optional speed-up of solver/search.py.
 *
 * One function, search(board, box, limit, max_nodes) -> (solutions, nodes, finished):
 * up to `limit` solutions of a canonical board string ('0' empty, '1'-'9', 'A'.. for the
 * values 1..n) of box side 2..5 (4x4 to 25x25), the search nodes used, and whether the
 * search finished within `max_nodes` nodes (False: it ran out, like SearchLimit).
 *
 * The method is the pure engine's, pared down to what pays in C: candidates as bitmasks,
 * propagation by naked and hidden singles and locked candidates (rules.c), and depth-
 * first search with restarts (search.c). solver/_fast.py is its only caller.
 *
 * The only static data is the geometry of each size, computed when the module is first
 * imported and read-only after that. The GIL is released while searching.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#include "accel.h"

static Geometry GEOMETRY[MAX_BOX + 1];   /* by box side; filled by PyInit__accel */

/* The value of a symbol of a canonical board of n values, or -1 when it is none. */
static int symbol_value(char ch, int n)
{
    if (ch == '0')
        return 0;
    const char *at = ch ? memchr(ACCEL_SYMBOLS, ch, (size_t)n) : NULL;
    return at ? (int)(at - ACCEL_SYMBOLS) + 1 : -1;
}

/* The solutions as a list of str (NULL with an exception set on failure). */
static PyObject *solution_list(const Found *found, int cells)
{
    PyObject *list = PyList_New((Py_ssize_t)found->count);
    for (long long i = 0; list && i < found->count; i++) {
        PyObject *s = PyUnicode_DecodeASCII(found->text + i * cells, cells, NULL);
        if (!s)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)i, s);
    }
    return list;
}

PyDoc_STRVAR(search_doc,
"search(board, box, limit, max_nodes) -> (solutions, nodes, finished)\n\n"
"Up to `limit` solutions of a canonical board string of box side 2..5, the search\n"
"nodes used, and finished=False when `max_nodes` nodes did not suffice (no solutions\n"
"are returned then). Conflicting givens give no solution in 0 nodes. Raises\n"
"ValueError for a board of another length or with other symbols, box outside 2..5,\n"
"or limit < 1.");

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
    if (PyUnicode_GET_LENGTH(board) != g->cells || length != g->cells)   /* so ASCII */
        return PyErr_Format(PyExc_ValueError, "a board of box side %d has %d cells, not %zd",
                            box, g->cells, PyUnicode_GET_LENGTH(board));
    int blanks = 0;
    for (int c = 0; c < g->cells; c++) {
        int v = symbol_value(text[c], g->n);
        if (v < 0)
            return PyErr_Format(PyExc_ValueError, "unexpected symbol '%c' at cell %d",
                                (int)(unsigned char)text[c], c);
        blanks += (v == 0);
    }

    /* the root board, and room for the search's */
    Stack stack;
    uint32_t *root = malloc(((size_t)g->cells + 1) * sizeof(uint32_t));
    if (!root || !accel_stack_alloc(&stack, g, blanks)) {
        free(root);
        return PyErr_NoMemory();
    }

    /* the givens, settled at once; their values leave their peers next */
    Work w;
    w.g = g;
    w.cand = root;
    w.solved = &root[g->cells];
    *w.solved = 0;
    w.npending = 0;
    w.dirty[0] = w.dirty[1] = w.dirty[2] = g->all;   /* every unit: n of each kind */
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
    if (accel_eliminate(&w))   /* else conflicting givens: no solution, no node */
        status = accel_find(&w, &stack, limit, max_nodes, &found, &nodes);
    Py_END_ALLOW_THREADS
    free(root);
    accel_stack_free(&stack);

    PyObject *solutions = status == OUT_OF_MEMORY ? PyErr_NoMemory()
                                                  : solution_list(&found, g->cells);
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
    "The solver's search in C (optional: solver/_fast.py falls back to pure Python).",
    -1, METHODS, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__accel(void)
{
    for (int box = MIN_BOX; box <= MAX_BOX; box++)
        accel_geometry_init(&GEOMETRY[box], box);
    return PyModule_Create(&MODULE);
}
