"""Grey working copies of a photo, for finding the grid: grey, shrunk, stretched, inked.

The grid stage works on a copy whose longest side is about WORK_SIDE px (big enough for
the grid's lines, small enough to be quick), with its contrast raised when the photo is
dim or washed out, thresholded locally so that shadows and dim light do not matter.
"""

from __future__ import annotations

import cv2
import numpy as np

WORK_SIDE = 800  # longest side of the working copy, px
INK_DELTA = 7  # grey levels below the local mean that make ink
PAPER_SPAN = 9  # px of the working copy: the paper's level near a pixel is the brightest
# within this span (wider than a digit's stroke or a thick line there), smoothed as wide
LOW_SPAN = 70  # a grey span under this is stretched: the lowest among the training photos is 74
TYPICAL_SPAN = 110  # median 1st-99th percentile span of the training photos' grey levels
SPAN_QUANTILES = (0.01, 0.99)  # a photo's grey span: between these quantiles of its levels
TYPICAL_LOW = 60  # ... and their median 1st percentile: a stretched photo looks like that
LARGE = 1600  # px: a photo at least this long (12 MP ones: twice WORK_SIDE) is shrunk by
# whole factors, OpenCV's fast paths (a fractional factor costs 2-10x more); smaller ones to
# the size asked for exactly
BOX_STEP = 3  # a shrink by 3 (12 MP photos' square, 2400-3199 px photos' grid) is taken
# as a box filter's means, every third kept: the same pixels as INTER_AREA in half its time
# (its whole-factor path is generic but for 2); for 5 and more the box filter's waste
# (every pixel's mean, not every 25th) costs as much as it saves
BAND = 128  # rows of a LARGE colour photo made grey and shrunk at a time (about a tenth of
# the cache's worth: the grey rows are shrunk before they leave it)
BLOCKS = 40  # the local mean is taken over 1/BLOCKS of the frame's side: about a cell's width
WIDEST = (16, 9)  # the widest frame a phone takes: a photo wider than this is a page or a
# strip, whose grid is no larger for its length, so its frame's side is counted as this


def to_grey(image: np.ndarray) -> np.ndarray:
    """Grey uint8 view of a BGR, BGRA or grey image."""
    if image.ndim == 2:
        return image
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY)
    if image.shape[2] == 1:
        return image[:, :, 0]
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def downscale(grey: np.ndarray, side: int = WORK_SIDE) -> tuple[np.ndarray, float]:
    """Shrink so the longest side is about `side`; returns the copy and the scale back up.

    A LARGE photo (and at least twice `side`) is shrunk by a whole factor (`shrunk`), to
    between `side` and 1.5 `side`. A smaller one is shrunk to exactly `side`."""
    longest = max(grey.shape[:2])
    if longest <= side:
        return grey, 1.0
    h, w = grey.shape[:2]
    if longest >= max(LARGE, 2 * side):
        factor = longest // side
        return shrunk(grey, factor), float(factor)
    scale = side / longest
    small = cv2.resize(grey, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    return small, longest / max(small.shape[:2])


def grey_and_small(
    image: np.ndarray, side: int = WORK_SIDE
) -> tuple[np.ndarray, np.ndarray, float]:
    """`to_grey(image)`, and `downscale` of it, value for value. A LARGE BGR photo shrunk by
    a whole factor is made grey and shrunk BAND rows (a multiple of the factor) at a time:
    each shrunk pixel covers its own factor x factor pixels, so the bands' are the whole's,
    and the grey rows are shrunk while still in the cache rather than read back from
    memory (a 12 MP grey is 12 MB)."""
    longest = max(image.shape[:2])
    factor = longest // side
    whole = longest >= max(LARGE, 2 * side)
    if not (whole and image.ndim == 3 and image.shape[2] == 3 and image.flags.c_contiguous):
        grey = to_grey(image)
        return (grey, *downscale(grey, side))
    grey = np.empty(image.shape[:2], np.uint8)
    band = factor * max(1, BAND // factor)
    height = image.shape[0] // factor * factor  # the rows left out are shrunk to none
    parts = []
    for top in range(0, image.shape[0], band):
        rows = slice(top, min(top + band, image.shape[0]))
        cv2.cvtColor(image[rows], cv2.COLOR_BGR2GRAY, dst=grey[rows])
        if top < height:
            parts.append(shrunk(grey[top : min(top + band, height)], factor))
    return grey, np.vstack(parts), float(factor)


def shrunk(grey: np.ndarray, factor: int) -> np.ndarray:
    """`grey` shrunk by the whole `factor`, each pixel the mean of factor x factor pixels
    (rounded): halved while the factor is even (OpenCV's fastest INTER_AREA path, 4-8x
    quicker than its other whole factors), the rest in one step (a BOX_STEP by a box
    filter). The far edge's last rows and columns (fewer than `factor`) are left out, so
    pixel i covers pixels factor i to factor (i + 1) exactly."""
    while factor > 1:
        step = 2 if factor % 2 == 0 else factor
        h, w = grey.shape[0] // step, grey.shape[1] // step
        whole = grey[: step * h, : step * w]
        if step == BOX_STEP and grey.dtype == np.uint8:
            grey = box_means(whole, step)
        else:
            grey = cv2.resize(whole, (w, h), interpolation=cv2.INTER_AREA)
        factor //= step
    return grey


def box_means(grey: np.ndarray, step: int) -> np.ndarray:
    """The uint8 `grey` (its sides multiples of `step`) shrunk by `step`, each pixel the
    mean of its step x step block, rounded: INTER_AREA's value, pixel for pixel (both
    round the exact mean to the nearest level; an odd block's mean is never half way).
    Every pixel's block mean is taken by a box filter anchored at its top-left corner,
    then every step-th kept: the blocks' means never reach past the image's edge."""
    means = cv2.boxFilter(grey, -1, (step, step), anchor=(0, 0),
                          borderType=cv2.BORDER_REPLICATE)
    return np.ascontiguousarray(means[::step, ::step])


def stretched(grey: np.ndarray) -> np.ndarray:
    """The grey copy with its contrast raised to that of a typical photo when it is much
    lower: the ink threshold (INK_DELTA) is in grey levels, so in a dim or washed-out photo
    (the span between its 1st and 99th percentile under LOW_SPAN) the grid lines would be
    lost. Photos of ordinary contrast are left exactly as they are."""
    sample = grey[::4, ::4].ravel()
    n = sample.size
    lo_at, hi_at = (int(q * (n - 1)) for q in SPAN_QUANTILES)
    part = np.partition(sample, (lo_at, hi_at))
    lo, hi = float(part[lo_at]), float(part[hi_at])
    if hi - lo >= LOW_SPAN or hi - lo < 1:
        return grey
    gain = TYPICAL_SPAN / (hi - lo)
    return cv2.convertScaleAbs(grey, alpha=gain, beta=TYPICAL_LOW - lo * gain)


def unshaded(grey: np.ndarray) -> np.ndarray:
    """The grey copy divided by its paper (its closing by a square of `block_side`: wider
    than any line or stroke, narrower than a shaded box), so that
    boxes or bands printed in a tint become paper-white. A closing keeps a tint's edges
    where they are, where a local mean (`ink_mask`) sees a band of ink along them."""
    k = block_side(grey.shape)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    paper = cv2.morphologyEx(grey, cv2.MORPH_CLOSE, kernel)
    return cv2.divide(grey, cv2.max(paper, 1), scale=255)


def block_side(shape: tuple[int, ...]) -> int:
    """The odd side, px, of the square a local mean or a paper closing is taken over: 1/BLOCKS
    of the frame's longest side, the frame no wider than WIDEST (a grid spans at most the
    short side: a page made long by text or a second puzzle beside its grid would
    otherwise average the grid's lines away with its cells)."""
    short, long = sorted(shape[:2])
    wide, high = WIDEST
    return max(3, (min(long, short * wide // high) // BLOCKS) | 1)


def ink_mask(grey: np.ndarray, delta: int = INK_DELTA) -> np.ndarray:
    """Binary mask (255 = ink) by local mean threshold, robust to shadows and dim light.

    Ink is a pixel at least `delta` grey levels darker than the mean of its block. This is
    cv2.adaptiveThreshold (MEAN_C, binary inverted, C = delta) bit for bit, spelt out as a box
    filter, a saturating subtraction and a threshold: all vectorised, unlike its lookup.
    """
    block = block_side(grey.shape)
    blurred = cv2.GaussianBlur(grey, (3, 3), 0)
    mean = cv2.boxFilter(blurred, -1, (block, block), borderType=cv2.BORDER_REPLICATE)
    darker = cv2.subtract(mean, blurred)  # saturates at 0 where the pixel is lighter
    return cv2.threshold(darker, delta - 1, 255, cv2.THRESH_BINARY)[1]


def under_paper_mask(grey: np.ndarray, delta: int) -> np.ndarray:
    """Binary mask (255 = ink) of the pixels at least `delta` grey levels darker than the
    paper around them: the brightest pixel within PAPER_SPAN, smoothed as wide. Unlike
    `ink_mask`'s block mean, the paper's level is not dragged down by thick lines and
    digits nearby, so a faint thin line beside them still passes."""
    blurred = cv2.GaussianBlur(grey, (3, 3), 0)
    span = cv2.getStructuringElement(cv2.MORPH_RECT, (PAPER_SPAN, PAPER_SPAN))
    paper = cv2.blur(cv2.dilate(blurred, span), (PAPER_SPAN, PAPER_SPAN))
    return cv2.threshold(cv2.subtract(paper, blurred), delta - 1, 255, cv2.THRESH_BINARY)[1]


def clamped_box(points: np.ndarray, width: int, height: int) -> tuple[int, int, int, int]:
    """x0, y0, x1, y1: the box around `points` grown by a few pixels, clamped to an image of
    width x height and never empty."""
    x0, y0 = np.floor(points.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(points.max(axis=0)).astype(int) + 3
    x0, y0 = min(max(int(x0), 0), width - 1), min(max(int(y0), 0), height - 1)
    x1, y1 = max(min(int(x1), width), x0 + 1), max(min(int(y1), height), y0 + 1)
    return x0, y0, x1, y1
