"""The page in a real browser: headless Chromium (Debian's package) driven by Playwright.

The test starts the real server, opens the page at phone size, takes a photo through the
file input, waits for the annotated photo and the board, then fixes a cell as a user would
and sees the board solved again. Nothing downloads a browser: Playwright is given Debian's
/usr/bin/chromium, and the test skips when it is not installed (CI installs it).
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from tests.web_helpers import SMALL_BOARD, SMALL_SOLUTION, TALL, server

CHROMIUM = os.environ.get("SNAPSOLVE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}
WAIT_MS = 60_000

if not Path(CHROMIUM).exists():
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")
expect = sync_api.expect


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    with server(tmp_path_factory.mktemp("server"), "--jobs", "2") as srv:
        yield srv


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    profile = tmp_path_factory.mktemp("profile")
    with sync_api.sync_playwright() as play:
        context = play.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=FLAGS, headless=True,
            viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        yield context
        context.close()


@pytest.fixture
def page(browser):
    page = browser.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"script error: {exc}"))
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.on("requestfailed", lambda req: problems.append(f"failed: {req.url}"))
    yield page
    page.close()
    assert not problems, problems  # no CSP violation, no script error, nothing unreachable


def wait_for_image(page) -> None:
    """Until the photo shown has loaded (polled: the page's CSP forbids evaluated strings,
    which is what wait_for_function would send)."""
    for _ in range(WAIT_MS // 100):
        if page.locator("#photo").evaluate("img => img.complete && img.naturalWidth > 0"):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the photo never loaded")


def board_text(page) -> str:
    """The board as shown: one character per cell, '0' for an empty one."""
    return "".join(text or "0" for text in page.eval_on_selector_all(
        "#board .cell", "cells => cells.map(c => c.classList.contains('given') ? "
        "c.textContent : '')"))


def test_a_photo_taken_is_solved_and_a_cell_fixed(page, running, tmp_path):
    page.goto(running.url)
    assert page.locator("#camera").get_attribute("capture") == "environment"
    assert page.locator("#camera").get_attribute("accept") == "image/*"
    page.set_input_files("#camera", str(tmp_path_copy(tmp_path)))
    page.wait_for_selector("#photo[src*='/results/']", timeout=WAIT_MS)
    wait_for_image(page)
    expect(page.locator("#status-title")).to_have_text("Solved")
    assert page.locator("#board .cell").count() == 81
    assert board_text(page) == SMALL_BOARD
    shown = page.eval_on_selector_all("#board .cell", "cs => cs.map(c => c.textContent)")
    assert "".join(shown) == SMALL_SOLUTION
    download = page.locator("#download")
    assert download.is_visible() and "/results/" in download.get_attribute("href")
    first_image = page.locator("#photo").get_attribute("src")

    # A misread: r1c1 read as a 4 (it clashes: the board can no longer be solved) ...
    page.click("#board [data-cell='0']")
    page.click("#pad [data-value='4']")
    expect(page.locator("#status-title")).to_have_text("Some digits clash", timeout=WAIT_MS)
    assert "clash" in (page.locator("#board [data-cell='0']").get_attribute("class") or "")
    # the clash stays in sight on the cell being fixed (selected cells have their own colour)
    assert "selected" in (page.locator("#board [data-cell='0']").get_attribute("class") or "")
    assert cell_background(page, 0) == cell_background(page, "clash")
    # ... is fixed by clearing the cell: the board is solved and the photo drawn again.
    page.click("#board [data-cell='0']")
    page.click("#pad [data-value='0']")
    expect(page.locator("#status-title")).to_have_text("Solved", timeout=WAIT_MS)
    expect(page.locator("#photo")).not_to_have_attribute("src", first_image)
    page.wait_for_selector("#photo[src*='/results/']", timeout=WAIT_MS)
    assert board_text(page) == SMALL_BOARD


def cell_background(page, cell: int | str) -> str:
    """The computed background of a board cell, or of a fresh cell with that class."""
    if isinstance(cell, int):
        return page.eval_on_selector(f"#board [data-cell='{cell}']",
                                     "c => getComputedStyle(c).backgroundColor")
    return page.evaluate("""name => { const d = document.createElement('div');
        d.className = 'cell ' + name; document.getElementById('board').appendChild(d);
        const colour = getComputedStyle(d).backgroundColor; d.remove(); return colour; }""",
                         cell)


def test_check_mode_shows_no_digit_not_on_the_paper(page, running, tmp_path):
    page.goto(running.url)
    page.check("#check-only")
    page.set_input_files("#camera", str(tmp_path_copy(tmp_path)))
    page.wait_for_selector("#photo[src*='/results/']", timeout=WAIT_MS)
    wait_for_image(page)
    expect(page.locator("#status-title")).to_have_text("Solved")
    shown = page.eval_on_selector_all("#board .cell", "cs => cs.map(c => c.textContent || '0')")
    assert "".join(shown) == SMALL_BOARD  # the givens only: no solution digit anywhere
    page.uncheck("#check-only")  # the same photo, solved this time
    expect(page.locator("#board [data-cell='0']")).to_have_text(re.compile(r"\S"), timeout=WAIT_MS)
    shown = page.eval_on_selector_all("#board .cell", "cs => cs.map(c => c.textContent)")
    assert "".join(shown) == SMALL_SOLUTION


def _with_entries() -> dict:
    """A record for a photo holding a wrong pen entry, a doubtful one and a right one (a
    synthetic photo has no handwriting to read, so the page is given this answer)."""
    blanks = [i for i, ch in enumerate(SMALL_BOARD) if ch == "0"]
    wrong, doubtful, right = blanks[:3]
    entries = ["0"] * 81
    for cell in (wrong, doubtful):
        entries[cell] = "1" if SMALL_SOLUTION[cell] != "1" else "2"
    entries[right] = SMALL_SOLUTION[right]

    def name(cell: int) -> str:
        return f"r{cell // 9 + 1}c{cell % 9 + 1}"

    return {"input": "photo.png", "status": "solved", "board": SMALL_BOARD,
            "solution": SMALL_SOLUTION, "size": 9, "givens": 81 - len(blanks),
            "message": f"solved; 1 of your 3 entries is wrong: {name(wrong)}; please check "
                       f"1 entry that may be wrong or misread: {name(doubtful)}",
            "corrections": [], "confidence": 0.99, "low_confidence": False,
            "alphabet": "digits", "entries": "".join(entries), "wrong_entries": [name(wrong)],
            "doubtful_entries": [name(doubtful)], "unreadable_entries": [], "id": None,
            "image_url": None}


def test_doubtful_entries_are_ringed_apart_from_wrong_ones(page, running, tmp_path):
    page.route("**/api/solve", lambda route: route.fulfill(json=_with_entries()))
    page.goto(running.url)
    page.set_input_files("#camera", str(tmp_path_copy(tmp_path)))
    expect(page.locator("#status-title")).to_have_text("Solved", timeout=WAIT_MS)
    blanks = [i for i, ch in enumerate(SMALL_BOARD) if ch == "0"]
    wrong, doubtful = (page.locator(f"#board [data-cell='{c}']") for c in blanks[:2])
    expect(wrong).to_have_class(re.compile(r"\bwrong\b"))
    expect(doubtful).to_have_class(re.compile(r"\bdoubtful\b"))
    assert "wrong" not in (doubtful.get_attribute("class") or "").split()
    assert "check it" in (doubtful.get_attribute("aria-label") or "")
    expect(page.locator("#legend")).to_contain_text("entries to check")
    expect(page.locator("#status-message")).to_contain_text("may have been misread")
    expect(page.locator("#status-message")).to_contain_text(re.compile(r"^1 of your 3 entries"))


def test_a_sixteen_photo_shows_its_board_in_hex_and_takes_a_fix(page, running, tmp_path):
    import cv2
    import numpy as np

    from benchmarks.render16 import hex_puzzle, render_photo

    board, solution = hex_puzzle(np.random.default_rng(7))
    shot = render_photo(board, solution, "hershey-simplex", True, 0.8, 7)
    path = tmp_path / "super.png"
    assert cv2.imwrite(str(path), shot.image)
    page.goto(running.url)
    page.set_input_files("#camera", str(path))
    page.wait_for_selector("#photo[src*='/results/']", timeout=WAIT_MS)
    expect(page.locator("#status-title")).to_have_text("Solved")
    assert page.locator("#board .cell").count() == 256
    assert page.locator("#pad [data-value]").count() == 17  # 0-F and Clear
    shown = page.eval_on_selector_all("#board .cell", "cs => cs.map(c => c.textContent)")
    assert set("".join(shown)) <= set("0123456789ABCDEF") and "G" not in "".join(shown)
    given = next(i for i, c in enumerate(board) if c != "0")
    other = next(i for i in range(given - given % 16, given - given % 16 + 16)
                 if i != given and board[i] != "0")  # another given of its row
    first_image = page.locator("#photo").get_attribute("src")
    page.click(f"#board [data-cell='{given}']")  # a misread: it clashes with the other
    page.click(f"#pad [data-value='{shown[other]}']")
    expect(page.locator("#status-title")).to_have_text("Some digits clash", timeout=WAIT_MS)
    page.click(f"#board [data-cell='{given}']")  # and put it back, in hex
    page.click(f"#pad [data-value='{shown[given]}']")
    expect(page.locator("#status-title")).to_have_text("Solved", timeout=WAIT_MS)
    expect(page.locator("#photo")).not_to_have_attribute("src", first_image)


def test_a_hint_shows_the_next_step_instead_of_the_solution(page, running, tmp_path):
    page.goto(running.url)
    page.set_input_files("#camera", str(tmp_path_copy(tmp_path)))
    page.wait_for_selector("#photo[src*='/results/']", timeout=WAIT_MS)
    expect(page.locator("#status-title")).to_have_text("Solved")
    first_image = page.locator("#photo").get_attribute("src")
    page.click("#hint")
    expect(page.locator("#status-title")).to_have_text("The next step", timeout=WAIT_MS)
    expect(page.locator("#status-message")).to_contain_text(re.compile(r"r\dc\d"))
    expect(page.locator("#photo")).not_to_have_attribute("src", first_image)
    shown = page.eval_on_selector_all("#board .cell", "cs => cs.map(c => c.textContent || '0')")
    assert "".join(shown) == SMALL_BOARD  # the solution is not shown with a hint
    page.check("#show-solution")  # ... until asked for
    expect(page.locator("#status-title")).to_have_text("Solved", timeout=WAIT_MS)
    shown = page.eval_on_selector_all("#board .cell", "cs => cs.map(c => c.textContent)")
    assert "".join(shown) == SMALL_SOLUTION


def test_a_page_of_two_puzzles_says_so_and_draws_both(page, running, tmp_path):
    import cv2

    from tests.test_pages import OTHER, two_puzzles

    image, _ = two_puzzles()
    photo = tmp_path / "IMG_0002.png"
    cv2.imwrite(str(photo), image)
    page.goto(running.url)
    page.set_input_files("#camera", str(photo))
    page.wait_for_selector("#photo[src*='/results/']", timeout=WAIT_MS)
    expect(page.locator("#status-title")).to_have_text("Solved")
    expect(page.locator("#status-message")).to_contain_text(
        "Another puzzle is on the photo (left), solved and drawn in too.")
    assert board_text(page) == OTHER  # the board shown is the first puzzle's


def test_typing_the_hinted_digit_gives_the_next_hint_not_the_solution(page, running, tmp_path):
    # the fix after a hint asked for the solution: the photo was redrawn with every digit
    page.goto(running.url)
    page.set_input_files("#camera", str(tmp_path_copy(tmp_path)))
    page.wait_for_selector("#photo[src*='/results/']", timeout=WAIT_MS)
    page.click("#hint")
    expect(page.locator("#status-title")).to_have_text("The next step", timeout=WAIT_MS)
    said = page.locator("#status-message").text_content()
    row, col, digit = re.search(r"r(\d)c(\d) must be (\d)", said).groups()
    page.click(f"#board [data-cell='{9 * (int(row) - 1) + int(col) - 1}']")
    page.click(f"#pad [data-value='{digit}']")
    expect(page.locator("#status-message")).not_to_contain_text(said[:12], timeout=WAIT_MS)
    expect(page.locator("#status-title")).to_have_text("The next step")
    shown = "".join(page.eval_on_selector_all("#board .cell", "cs => cs.map(c => c.textContent"
                                                               " || '0')"))
    assert shown.count("0") == SMALL_BOARD.count("0") - 1  # the user's digit, no solution


def test_a_zoomed_photo_scrolls_in_its_frame_not_the_page(page, running, tmp_path):
    # the page grew as wide as the zoomed photo (1090 px on a 390 px phone), and "fit"
    # did not bring it back
    page.goto(running.url)
    page.set_input_files("#camera", str(tmp_path_copy(tmp_path)))
    page.wait_for_selector("#photo[src*='/results/']", timeout=WAIT_MS)
    wait_for_image(page)
    width = "() => document.documentElement.scrollWidth"
    for _ in range(3):
        page.click("#zoom-in")
    assert page.evaluate(width) <= PHONE["width"]
    assert page.evaluate("() => document.getElementById('viewer').scrollWidth") > PHONE["width"]


def test_an_unsolved_heic_photo_is_not_shown_broken(page, running, tmp_path):
    """The server reads a HEIC photo, but Chromium cannot draw one: a HEIC photo with no
    grid in it gets its status, and no broken picture of itself."""
    pillow_heif = pytest.importorskip("pillow_heif")
    import io

    import numpy as np

    grey = np.full((480, 640, 3), 200, np.uint8)
    heif = pillow_heif.from_bytes(mode="RGB", size=(640, 480), data=grey.tobytes())
    out = io.BytesIO()
    heif.save(out, quality=80)
    path = tmp_path / "IMG_0001.HEIC"
    path.write_bytes(out.getvalue())
    page.goto(running.url)
    page.set_input_files("#camera", str(path))
    expect(page.locator("#status-title")).to_have_text("No Sudoku found", timeout=WAIT_MS)
    assert not page.locator("#photo-pane").is_visible()


def test_a_typed_board_with_a_missing_digit_is_fixed_by_typing_it(page, running):
    page.goto(running.url)
    page.click("#type-board")
    page.wait_for_selector("#board .cell")
    for i, digit in enumerate(SMALL_BOARD):
        if digit != "0":
            page.click(f"#board [data-cell='{i}']")
            page.keyboard.press(digit)
    expect(page.locator("#status-title")).to_have_text("Solved", timeout=WAIT_MS)
    shown = page.eval_on_selector_all("#board .cell", "cs => cs.map(c => c.textContent)")
    assert "".join(shown) == SMALL_SOLUTION


def test_screenshots_at_phone_and_desktop_size(page, running, tmp_path):
    """The page as a person sees it; kept under SNAPSOLVE_SCREENSHOTS when that is set."""
    out = Path(os.environ.get("SNAPSOLVE_SCREENSHOTS", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    page.goto(running.url)
    page.screenshot(path=str(out / "phone-start.png"))
    page.set_input_files("#chooser", str(TALL))
    page.wait_for_selector("#photo[src*='/results/']", timeout=WAIT_MS)
    wait_for_image(page)
    page.wait_for_timeout(600)  # the smooth scroll to the result
    page.screenshot(path=str(out / "phone.png"))
    page.screenshot(path=str(out / "phone-full.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / "desktop.png"))
    for name in ("phone-start", "phone", "phone-full", "desktop"):
        assert (out / f"{name}.png").stat().st_size > 10_000


def tmp_path_copy(tmp_path: Path) -> Path:
    """The sample photo under a name a phone would give it."""
    from tests.web_helpers import SMALL

    copy = tmp_path / "IMG_0001.jpg"
    copy.write_bytes(SMALL.read_bytes())
    return copy
