"""solver._fast without the C search: the package still imports and solves in pure Python.

Runs whether or not the extension is built (it is hidden from a child interpreter, or
switched off by SNAPSOLVE_PURE)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from solver import _fast, solve
from solver.size import size_of

ROOT = Path(__file__).resolve().parent.parent
EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
EASY_SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def test_without_the_extension_the_package_imports_and_solves():
    # a child interpreter in which `solver._accel` cannot be imported, as after
    # `pip install .` on a machine without a compiler
    code = textwrap.dedent(
        f"""
        import sys
        sys.modules["solver._accel"] = None  # import of it raises ImportError
        import solver
        from solver import _fast
        from solver.size import size_of
        assert _fast._accel is None and not _fast.available()
        assert _fast.fast_search("0" * 81, size_of(3), 2, 10) is None
        assert solver.solve("{EASY}") == "{EASY_SOLUTION}"
        assert solver.count_solutions("{EASY}") == 1
        print("pure ok")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "pure ok"


def test_snapsolve_pure_switches_the_c_search_off(monkeypatch):
    monkeypatch.setenv(_fast.PURE_ENV, "1")
    assert not _fast.available()
    assert _fast.fast_search("0" * 81, size_of(3), 2, 10) is None
    assert solve(EASY) == EASY_SOLUTION


def test_snapsolve_pure_0_or_empty_leaves_it_on(monkeypatch):
    for value in ("0", ""):
        monkeypatch.setenv(_fast.PURE_ENV, value)
        assert _fast.available() == (_fast._accel is not None)


def test_a_missing_extension_gives_none(monkeypatch):
    monkeypatch.setattr(_fast, "_accel", None)
    monkeypatch.delenv(_fast.PURE_ENV, raising=False)
    assert _fast.fast_search("0" * 81, size_of(3), 2, 10) is None
    assert solve(EASY) == EASY_SOLUTION
