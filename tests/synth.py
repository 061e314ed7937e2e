"""Synthetic photos of printed puzzles for tests: a grid drawn flat, then put in perspective."""

from __future__ import annotations

import cv2
import numpy as np

PUZZLE = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def flat_grid(board: str, side: int = 450) -> np.ndarray:
    """A white square with a 9x9 grid (thick box lines) and the board's digits in black."""
    img = np.full((side, side), 255, np.uint8)
    cell = side / 9
    for i in range(10):
        t = 4 if i % 3 == 0 else 1
        p = int(round(i * cell))
        p = min(p, side - 1)
        cv2.line(img, (p, 0), (p, side - 1), 0, t)
        cv2.line(img, (0, p), (side - 1, p), 0, t)
    for k, ch in enumerate(board):
        if ch == "0":
            continue
        r, c = divmod(k, 9)
        scale = cell / 36
        (w, h), _ = cv2.getTextSize(ch, cv2.FONT_HERSHEY_DUPLEX, scale, 2)
        org = (int(c * cell + (cell - w) / 2), int(r * cell + (cell + h) / 2))
        cv2.putText(img, ch, org, cv2.FONT_HERSHEY_DUPLEX, scale, 0, 2, cv2.LINE_AA)
    return img


def photo(
    board: str = PUZZLE,
    size: tuple[int, int] = (640, 480),
    corners: np.ndarray | None = None,
    turns: int = 0,
    noise: float = 4.0,
    seed: int = 0,
    flat: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """A BGR 'photo' of the board (turned by `turns` quarter turns counter-clockwise on the
    paper) and the grid's corners (TL, TR, BR, BL in the image frame); `flat`, when given,
    is the drawn grid to photograph instead of flat_grid(board)."""
    width, height = size
    if corners is None:
        corners = np.array(
            [[0.22 * width, 0.12 * height], [0.80 * width, 0.10 * height],
             [0.84 * width, 0.92 * height], [0.18 * width, 0.88 * height]],
            np.float32,
        )
    flat = np.rot90(flat_grid(board) if flat is None else flat, turns).copy()
    side = flat.shape[0]
    src = np.array([[0, 0], [side - 1, 0], [side - 1, side - 1], [0, side - 1]], np.float32)
    h = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    paper = np.full((height, width), 255, np.uint8)
    warped = cv2.warpPerspective(flat, h, (width, height), dst=paper,
                                 borderMode=cv2.BORDER_TRANSPARENT)
    rng = np.random.default_rng(seed)
    shade = np.linspace(0.85, 1.0, width)[None, :] * np.ones((height, 1))
    grey = warped.astype(np.float64) * 0.8 * shade + 30 + rng.normal(0, noise, warped.shape)
    grey = cv2.GaussianBlur(np.clip(grey, 0, 255).astype(np.uint8), (3, 3), 0)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), corners


def faint_photo(cell: int) -> np.ndarray:
    """The puzzle photographed with one given printed so faintly that it reads as empty."""
    flat = flat_grid(PUZZLE[:cell] + "0" + PUZZLE[cell + 1 :])
    size = flat.shape[0] / 9
    r, c = divmod(cell, 9)
    scale = size / 36
    (w, h), _ = cv2.getTextSize(PUZZLE[cell], cv2.FONT_HERSHEY_DUPLEX, scale, 1)
    origin = (int(c * size + (size - w) / 2), int(r * size + (size + h) / 2))
    cv2.putText(flat, PUZZLE[cell], origin, cv2.FONT_HERSHEY_DUPLEX, scale, 215, 1, cv2.LINE_AA)
    return photo(flat=flat)[0]
