"""The solvers that benchmarks/peers.py races: snapsolve's paths and pip-installable peers.

Each is an `Engine`: a name, a `solve(board)` that returns the first solution (or None)
of a canonical board string ('0' blank, '1'-'9', 'A'.. for values), and where the peer
can, a `count(board, limit)` that counts solutions up to `limit`. Every peer gets the
board as that string and must hand back a string, so conversions are part of its time,
as they are of ours. Peers are the `bench` extra (`pip install -e '.[bench]'`); a peer
that is not installed is left out.

The exact-cover peers get the usual encoding: one option per (cell, value) with four
items (the cell, the value in the row, in the column, in the box), only the given value
for a given cell, built once per size and cut per board with NumPy.
"""

from __future__ import annotations

import functools
import itertools
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from solver.size import SYMBOLS, size_of

BIG = 10**9  # node budget for snapsolve's paths: never reached on these sets


@dataclass(frozen=True)
class Engine:
    """One solver as the benchmark drives it."""

    name: str
    solve: Callable[[str], str | None]
    count: Callable[[str, int], int] | None = None  # solutions up to a limit
    boxes: tuple[int, ...] = (3,)  # the box sides it takes (3: 9x9 only)
    counts_all: bool = False  # count() ignores the limit and counts every solution
    env: dict[str, str] = field(default_factory=dict)  # set while it runs
    note: str = ""

    @contextmanager
    def running(self) -> Iterator[None]:
        """The environment this engine runs in (SNAPSOLVE_PURE for the pure path)."""
        saved = {k: os.environ.get(k) for k in self.env}
        os.environ.update(self.env)
        try:
            yield
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v


def box_of(board: str) -> int:
    """The box side of a board from its length (16, 81, 256, 625 cells)."""
    return round(len(board) ** 0.25)


# --- snapsolve --------------------------------------------------------------------------


def snapsolve_engines() -> list[Engine]:
    """The public API as users get it, the same forced to pure Python, and the C search
    alone (without parsing and the conflict check), when it is built."""
    import solver
    from solver import _fast

    engines = [
        Engine("snapsolve", solver.solve, solver.count_solutions, (2, 3, 4, 5)),
        Engine(
            "snapsolve pure",
            solver.solve,
            solver.count_solutions,
            (2, 3, 4, 5),
            env={_fast.PURE_ENV: "1"},
        ),
    ]
    if _fast.available():

        def c_count(board: str, limit: int) -> int:
            return len(_fast.fast_search(board, size_of(box_of(board)), limit, BIG)[0])

        def c_solve(board: str) -> str | None:
            found = _fast.fast_search(board, size_of(box_of(board)), 1, BIG)[0]
            return found[0] if found else None

        engines.append(Engine("snapsolve C search", c_solve, c_count, (2, 3, 4, 5)))
    return engines


def norvig_engine() -> Engine:
    from benchmarks import baseline

    return Engine("Norvig", baseline.solve, note="benchmarks/baseline.py, solves only")


# --- exact cover ------------------------------------------------------------------------


@functools.cache
def _cover(box: int):
    """For one size: the four items of every (cell, value) option, the same as a dense
    0/1 matrix, and a table from symbol code to value."""
    import numpy as np

    n = box * box
    cells = n * n
    option = np.arange(n * cells)
    cell, value = option // n, option % n
    row, col = cell // n, cell % n
    square = row // box * box + col // box
    in_row, in_col = cells + row * n + value, 2 * cells + col * n + value
    in_box = 3 * cells + square * n + value
    items = np.stack([cell, in_row, in_col, in_box], axis=1).astype(np.uint32)
    dense = np.zeros((n * cells, 4 * cells), dtype=bool)
    dense[option[:, None], items] = True
    values = np.zeros(256, dtype=np.int64)
    for v, s in enumerate(SYMBOLS[:n], 1):
        values[ord(s)] = v
    return items, dense, values


def _options(board: str):
    """The options a board leaves open: all values of a blank, the given one of a given."""
    import numpy as np

    box = box_of(board)
    n = box * box
    _, _, values = _cover(box)
    given = values[np.frombuffer(board.encode(), dtype=np.uint8)]
    open_ = np.ones((n * n, n), dtype=bool)
    filled = np.flatnonzero(given)
    open_[filled] = False
    open_[filled, given[filled] - 1] = True
    return np.flatnonzero(open_)


def _grid(board: str, options, chosen) -> str:
    """The solution made of the chosen options (indices into `options`)."""
    n = box_of(board) ** 2
    cells = ["0"] * len(board)
    for k in chosen:
        cell, value = divmod(int(options[k]), n)
        cells[cell] = SYMBOLS[value]
    return "".join(cells)


def xcover_engine() -> Engine:
    import numpy as np
    from xcover import algorithm_c

    def covers(board: str):
        options = _options(board)
        items = _cover(box_of(board))[0][options].ravel()
        starts = np.arange(0, items.size + 1, 4, dtype=np.uint32)
        colors = np.zeros(items.size, dtype=np.uint32)
        return options, algorithm_c(items, starts, colors, 4 * len(board), 0)

    def solve(board: str) -> str | None:
        options, found = covers(board)
        first = next(found, None)
        return None if first is None else _grid(board, options, first)

    def count(board: str, limit: int) -> int:
        return sum(1 for _ in itertools.islice(covers(board)[1], limit))

    # Numba compiles on first use: warm up here, so compile time is not timed
    count("0" * 81, 2)
    return Engine("xcover", solve, count, (2, 3, 4, 5), note="Numba JIT warmed up first")


def exact_cover_engine() -> Engine:
    import exact_cover

    def solve(board: str) -> str | None:
        options = _options(board)
        try:
            chosen = exact_cover.get_exact_cover(_cover(box_of(board))[1][options])
        except exact_cover.error.NoSolution:
            return None
        return _grid(board, options, chosen)

    def count(board: str, limit: int) -> int:
        options = _options(board)
        try:
            return len(exact_cover.get_all_solutions(_cover(box_of(board))[1][options], limit))
        except exact_cover.error.NoSolution:
            return 0

    return Engine("exact-cover (C)", solve, count, (2, 3, 4, 5))


def dlx_cython_engine() -> Engine:
    from dlxsolver import DLXSolver

    def solve(board: str) -> str | None:
        options = _options(board)
        chosen = DLXSolver(_cover(box_of(board))[1][options]).solve_one()
        return None if chosen is None else _grid(board, options, chosen)

    def count(board: str, limit: int) -> int:
        options = _options(board)
        return len(DLXSolver(_cover(box_of(board))[1][options]).solve(find_all=True))

    return Engine("dlx-cython", solve, count, (2, 3, 4, 5), counts_all=True)


# --- Sudoku solvers ---------------------------------------------------------------------


def lib_sudoku_engine() -> Engine:
    import lib_sudoku

    def solve(board: str) -> str | None:
        solved = lib_sudoku.solve(bytearray(int(ch) for ch in board))
        text = "".join(map(str, solved))
        return None if "0" in text else text

    return Engine("lib-sudoku (Rust)", solve, note="solves only")


def sudoku_rust_engine() -> Engine:
    import numpy as np
    import sudoku_rust

    def solve(board: str) -> str | None:
        grid = np.array([int(ch) for ch in board], dtype=np.uint16).reshape(9, 9)
        text = "".join(map(str, sudoku_rust.solve(grid).ravel()))
        return None if "0" in text else text

    return Engine("sudoku-rust", solve, note="solves only")


def ortools_engine() -> Engine:
    from ortools.sat.python import cp_model

    def model_of(board: str):
        box = box_of(board)
        size = size_of(box)
        model = cp_model.CpModel()
        cells = []
        for ch in board:
            v = size.value_of(ch)
            cells.append(model.new_int_var(v or 1, v or size.n, ""))
        for unit in size.units:
            model.add_all_different([cells[c] for c in unit])
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        return model, solver, cells, size

    def solve(board: str) -> str | None:
        model, solver, cells, size = model_of(board)
        if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        return "".join(size.symbol_of(solver.value(x)) for x in cells)

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self, limit: int):
            super().__init__()
            self.limit, self.found = limit, 0

        def on_solution_callback(self) -> None:
            self.found += 1
            if self.found >= self.limit:
                self.stop_search()

    def count(board: str, limit: int) -> int:
        model, solver, _, _ = model_of(board)
        solver.parameters.enumerate_all_solutions = True
        counter = Counter(limit)
        solver.solve(model, counter)
        return counter.found

    return Engine("OR-tools CP-SAT", solve, count, (2, 3, 4, 5), note="one worker")


def py_sudoku_engine() -> Engine:
    from sudoku import Sudoku

    def puzzle(board: str):
        box = box_of(board)
        size = size_of(box)
        values = [size.value_of(ch) or None for ch in board]
        rows = [values[i : i + size.n] for i in range(0, size.cells, size.n)]
        return Sudoku(box, box, board=rows)

    def solve(board: str) -> str | None:
        solved = puzzle(board).solve()
        size = size_of(box_of(board))
        text = "".join(size.symbol_of(v or 0) for row in solved.board for v in row)
        return None if "0" in text else text

    # has_multiple_solutions() tells several solutions from fewer, not one from none
    return Engine("py-sudoku", solve, None, (2, 3, 4, 5), note="solves only")


PEERS = (
    xcover_engine,
    exact_cover_engine,
    dlx_cython_engine,
    lib_sudoku_engine,
    sudoku_rust_engine,
    ortools_engine,
    py_sudoku_engine,
)


def all_engines() -> tuple[list[Engine], list[str]]:
    """snapsolve's paths, the installed peers and Norvig's, and the names left out."""
    engines = snapsolve_engines()
    missing = []
    for make in PEERS:
        try:
            engines.append(make())
        except ImportError as error:
            missing.append(f"{make.__name__.removesuffix('_engine')} ({error.name})")
    engines.append(norvig_engine())
    return engines, missing
