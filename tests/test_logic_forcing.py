"""Bounded forcing chains, and the singles propagation under them."""

from __future__ import annotations

import pytest

from solver import count_solutions, solve
from solver.logic._propagate import assume, solve_values
from solver.logic.forcing import forcing_chain, quick_forcing_chain
from solver.logic.grid import Grid
from solver.logic.ladder import LADDER, first_step
from solver.size import size_of

# From the "hardest" set (Norvig's essay): after its singles, nothing short of a forcing
# chain applies.
HARD = "100007090030020008009600500005300900010080002600004000300000010041000007007000300"
# A board with many solutions where a cell forcing chain is the first thing that works.
OPEN = "100000000800000009000008007900012006000000003010007000090020075000800021000000000"


def with_value(board: str, cell: int, v: int) -> str:
    return board[:cell] + str(v) + board[cell + 1 :]


def test_nishio_forcing_chain_removes_a_value_that_leads_nowhere():
    grid = Grid.from_board(HARD)
    while (step := first_step(grid, rungs=LADDER[:3])) is not None:
        grid = grid.apply(step)
    assert first_step(grid, rungs=LADDER[:-1]) is None
    step = next(forcing_chain(grid))
    assert step.technique == "Nishio forcing chain"
    ((cell, v),) = step.eliminations
    assert count_solutions(with_value(grid.board(), cell, v)) == 0
    assert step.explanation.startswith(f"If {grid.size.cell_name(cell)} were {v}, the ")
    assert step.explanation.endswith(f"so {v} can be removed from {grid.size.cell_name(cell)}.")


def test_cell_forcing_chain_eliminates_what_both_branches_rule_out():
    grid = Grid.from_board(OPEN)
    assert first_step(grid, rungs=LADDER[:-1]) is None
    step = next(quick_forcing_chain(grid))
    assert step.technique == "cell forcing chain"
    assert step.explanation.startswith("Whichever of 4 and 8 goes in r9c9, the singles")
    for cell, v in step.eliminations:
        assert count_solutions(with_value(OPEN, cell, v)) == 0


def test_cell_forcing_chain_places_what_both_branches_place():
    four = size_of(2)
    solution = [3, 1, 4, 2, 4, 2, 3, 1, 2, 3, 1, 4, 1, 4, 2, 3]
    marks = [
        [1, 3, 4],
        [1, 2, 3, 4],
        [1, 4],
        [2, 4],
        [1, 2, 4],
        [2, 4],
        [2, 3, 4],
        [1, 3],
        [1, 2],
        [1, 2, 3, 4],
        [1, 2, 3, 4],
        [1, 2, 4],
        [1, 2, 3, 4],
        [1, 3, 4],
        [1, 2, 4],
        [2, 3, 4],
    ]
    grid = Grid.from_marks(four, dict(enumerate(marks)))
    step = next(quick_forcing_chain(grid))
    assert step.technique == "cell forcing chain"
    assert step.placements == ((3, 2),) and solution[3] == 2
    assert step.explanation == (
        "Whichever of 1 and 4 goes in r1c3, the singles that follow put 2 in r1c4 (cell "
        "forcing chain), so r1c4 must be 2."
    )


@pytest.mark.parametrize("rounds", [0, 1, 2])
def test_assumptions_follow_at_most_the_rounds_asked(rounds):
    grid = Grid.from_board(HARD)
    cell = next(c for c in range(81) if grid.cands[c])
    v = grid.candidates(cell)[0]
    bounded, _ = assume(grid, cell, v, rounds)
    more, _ = assume(grid, cell, v, rounds + 1)
    assert len(bounded.order) <= len(more.order)
    if rounds == 0:
        assert bounded.order == {cell: v}


def test_the_shortest_chain_comes_first():
    grid = Grid.from_board(OPEN)
    quick, shortest = next(quick_forcing_chain(grid)), next(forcing_chain(grid))
    assert quick.technique == "cell forcing chain"
    assert shortest.technique == "Nishio forcing chain"
    assert shortest.eliminations == quick.eliminations  # the same, by a shorter way
    assert shortest.explanation == (
        "If r9c3 were 4, the 2 singles that follow would leave 8 no place in row 7 "
        "(Nishio forcing chain), so 4 can be removed from r9c3."
    )


def test_solve_values_finds_the_solution():
    values = solve_values(Grid.from_board(HARD))
    assert "".join(map(str, values)) == solve(HARD)
