"""Light print on dark paper (an app in dark mode, a negative scan): read as its negative.

The grid stage looks for dark lines on light paper: as it is, such a photo has no grid, or
its light lines bound a grid of dark cells that reads as nonsense. When a photo as it is has
no grid or no one solution and its paper is the dark side of its grey levels
(`on_dark_paper`), the stages read its negative too (`stages._solved_as_negative`); the
solution is drawn on the photo itself, whose geometry the negative shares pixel for pixel.
"""

from __future__ import annotations

import cv2
import numpy as np

from ._image import to_grey
from ._stats import quantiles
from .products import Photo

SAMPLE = 4  # every 4th pixel each way is enough to tell the paper's side (a grid is more)
SPREAD = (0.01, 0.5, 0.99)  # the darkest ink or paper, the paper (most of a page), the lightest


def on_dark_paper(pixels: np.ndarray) -> bool:
    """Whether the paper (the median grey level: most of a page) lies nearer the darkest
    levels than the lightest: light ink on dark paper. A dim photo of print is dark all
    over, its paper still at the light end of its own levels."""
    grey = to_grey(np.ascontiguousarray(pixels[::SAMPLE, ::SAMPLE]))
    darkest, paper, lightest = quantiles(grey, SPREAD)
    return paper - darkest < lightest - paper


def negative(photo: Photo) -> Photo:
    """The photo with every level turned over (255 - v), its header kept."""
    return Photo(cv2.bitwise_not(photo.pixels), photo.header)
