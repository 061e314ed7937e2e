"""Train the 16-symbol CNN (hex 0-9 A-F of 16x16 Super Sudoku) and export it to
pipeline/models/symbols16.npz.

    PYTHONPATH=. python training/train_symbols16.py [--photos 600] [--epochs 10]

The glyphs come from rendered 16x16 newspaper photos (`benchmarks/render16.py`) through
the runtime's own stages (`pipeline.stages.cut_glyphs` from the known corners), so
training and runtime glyphs are made alike. Fonts: OpenCV's Hershey faces and its sans
(OPENCV_SHARE of the photos), except HELD_OUT, kept for the benchmark; and every installed
TrueType face (the font packages of training/README.md) one face per look
(`training_fonts`). The OpenType faces are never drawn: `benchmarks.photos16
--other-fonts` reads them as faces unseen. Grids are drawn 28-50 px a cell,
straight or in perspective, sharp or blurred; a share of the photos (TAKEN_WORSE) is then
taken as an old phone takes it (`taken_worse`: uneven light, a shaking hand, sensor noise,
a squeezed JPEG, as the digit reader's synthetic photos are), and some of those are
creased (`creased`: a fold or a pen line through the glyphs). The classes are the
canonical symbols 1-9 A-G of values 1..16 (printed 0-9 A-F). The temperature is fitted on
glyphs of photos rendered with another seed. Needs torch (training only).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import time
from collections.abc import Iterable
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

from benchmarks.render16 import (
    CANONICAL,
    HERSHEY,
    HEX,
    glyph_mask,
    hex_puzzle,
    render_photo,
    truetype_files,
)
from benchmarks.robustness import motion_blurred
from pipeline._cnn import NumpyCNN
from pipeline._glyph import GLYPH
from pipeline.errors import NoGrid
from pipeline.stages import cut_glyphs, outline_at
from solver.size import Size
from training.render import noised, squeezed, uneven_light
from training.train_digits import augment, check_export, export

OUT = "pipeline/models/symbols16.npz"
HELD_OUT = ("hershey-complex",)  # fonts the reader never sees in training (benchmark only)
SIDES = (450.0, 800.0)  # px: grid sides of the training photos, 28-50 px cells
CHANNELS = (12, 24, 48)  # conv block widths: 16 classes with look-alikes (0/D, 8/B) need
DENSE = 128  # more than the digit net's 8/16/32 and 96
SIXTEEN = Size(4)
TAKEN_WORSE = 0.5  # share of training photos taken as an old phone takes them (as many
# clean renders left as worse photos: the clean figures must not drop)
CREASED = 0.5  # of those, the share with folds or pen lines across
CREASES = (1, 4)  # lines across a creased photo, fewest and most (exclusive)
CREASE_SHADE = (0.35, 0.8)  # what a crease leaves of the paper's light: dark to faint
SHAKEN = 0.25  # of the photos taken worse, the share with a shaking hand's blur ...
SHAKE = (3, 10)  # ... 3-9 px long, odd (a fifth of the smallest cell at most)
NOISE = 10.0  # grey levels: the strongest sensor noise
LOOK = (12, 16)  # px (w, h): a symbol's thumbnail, by which faces that look alike are one
WIDEST = 1.6  # of its height: a symbol wider is no newspaper's (an ornamental face)
OPENCV_SHARE = 0.1  # of the photos, in OpenCV's own faces (as when 4 of the 42 faces were)
SAME_LOOK = 0.015  # mean ink difference of the thumbnails under which faces look alike:
# Noto Sans and Noto Sans Math 0.008, the nearest weights or widths of one family
# 0.027-0.043. One face drawn at two sizes differs by 0.009-0.022 (each file is drawn at a
# size of its own: `render16.face_px`), across this line, so a file whose bytes are a kept
# file's (a face installed twice) is dropped before its look is compared


def creased(grey: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Folds or pen lines: a few straight dark lines right across the photo, at any angle
    (most near the rows or columns, as a newspaper is folded), 1-3 px wide."""
    h, w = grey.shape
    shade = np.ones((h, w), np.float32)
    for _ in range(int(rng.integers(*CREASES))):
        near_axis = rng.random() < 0.7
        angle = rng.uniform(-12, 12) + rng.choice([0, 90]) if near_axis else rng.uniform(0, 180)
        cx, cy = rng.uniform(0.15, 0.85) * w, rng.uniform(0.15, 0.85) * h
        dx, dy = np.cos(np.radians(angle)) * 2 * (h + w), np.sin(np.radians(angle)) * 2 * (h + w)
        cv2.line(shade, (round(cx - dx), round(cy - dy)), (round(cx + dx), round(cy + dy)),
                 float(rng.uniform(*CREASE_SHADE)), int(rng.integers(1, 4)), cv2.LINE_AA)
    return np.clip(grey * shade, 0, 255).astype(np.uint8)


def taken_worse(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The rendered BGR photo maybe creased, then taken by an old phone (the digit
    reader's pieces, `training.render`): light falling off across it, maybe a shaking hand,
    sensor noise, a JPEG of any quality."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if rng.random() < CREASED:
        grey = creased(grey, rng)
    photo = uneven_light(grey.astype(np.float32), rng)
    if rng.random() < SHAKEN:
        photo = motion_blurred(photo, int(rng.integers(*SHAKE)) | 1, float(rng.uniform(0, 180)))
    return cv2.cvtColor(squeezed(noised(photo, rng, NOISE), rng), cv2.COLOR_GRAY2BGR)


@functools.cache
def training_fonts() -> tuple[str, ...]:
    """Hershey faces (but HELD_OUT), OpenCV's sans, and the installed TrueType faces
    (`distinct_faces`)."""
    fonts = [f for f in (*HERSHEY, "opencv-sans") if f not in HELD_OUT]
    return (*fonts, *distinct_faces(map(str, truetype_files())))


def distinct_faces(paths: Iterable[str]) -> list[str]:
    """The font files that draw 16 distinct symbols no wider than WIDEST of their height,
    one file per look (most of a script's Noto face is Noto Sans's Latin; a face without
    the symbols draws boxes; a file installed twice is one file)."""
    kept: list[str] = []
    looks: list[np.ndarray] = []
    contents: set[bytes] = set()
    for path in paths:
        content = _content(path)
        if content in contents:  # the same file again: its look is a kept one's
            continue
        try:
            masks = [glyph_mask(path, symbol, LOOK[1]) for symbol in HEX]
        except (cv2.error, ValueError):  # no font, or no ink for a symbol
            continue
        look = np.stack([cv2.resize(m, LOOK, interpolation=cv2.INTER_AREA) for m in masks])
        distinct = len({(t > 0.5).tobytes() for t in look}) == len(HEX)
        if not distinct or any(m.shape[1] > WIDEST * m.shape[0] for m in masks):
            continue
        if all(np.abs(look - seen).mean() >= SAME_LOOK for seen in looks):
            looks.append(look)
            kept.append(path)
            contents.add(content)
    return kept


def _content(path: str) -> bytes:
    """A digest of the file's bytes (of its name, when it cannot be read)."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).digest()
    except OSError:
        return path.encode()


def photo_glyphs(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Glyphs (k, GLYPH, GLYPH) and class indices of one rendered photo's givens."""
    rng = np.random.default_rng(seed)
    fonts = training_fonts()
    opencv = [font for font in fonts if font in HERSHEY or font == "opencv-sans"]
    others = fonts[len(opencv):]  # none where no TrueType font is installed
    faces = opencv if rng.random() < OPENCV_SHARE or not others else others
    font = faces[int(rng.integers(len(faces)))]
    board, solution = hex_puzzle(rng, givens=int(rng.integers(110, 160)))
    blur = float(rng.choice([0.0, 0.7, 1.2, 1.8]))
    photo = render_photo(board, solution, font, bool(rng.random() < 0.6), blur, seed, SIDES)
    image = taken_worse(photo.image, rng) if rng.random() < TAKEN_WORSE else photo.image
    try:
        glyphs = cut_glyphs(outline_at(image, photo.corners, SIXTEEN))
    except NoGrid:  # taken so badly that the cells stage sees no puzzle: the clean photo
        glyphs = cut_glyphs(outline_at(photo.image, photo.corners, SIXTEEN))
    truth = np.array([CANONICAL.find(ch) for ch in board])
    use = glyphs.present & (truth >= 0)
    return glyphs.images[use].astype(np.float16), truth[use]


def glyph_set(photos: int, seed: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    with Pool(workers) as pool:
        parts = pool.map(photo_glyphs, range(seed, seed + photos), chunksize=8)
    return np.concatenate([x for x, _ in parts]), np.concatenate([y for _, y in parts])


def make_net(channels: tuple[int, ...] = CHANNELS, dense: int = DENSE, classes: int = 16):
    """[3x3 conv -> batch norm -> ReLU -> 2x2 max-pool] per width, dense -> ReLU -> dropout
    -> logits: the layout pipeline/_cnn.py runs."""
    import torch.nn as nn

    layers, cin, side = [], 1, GLYPH
    for cout in channels:
        layers += [nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(),
                   nn.MaxPool2d(2)]
        cin, side = cout, side // 2
    return nn.Sequential(*layers, nn.Flatten(), nn.Linear(cin * side * side, dense), nn.ReLU(),
                         nn.Dropout(0.3), nn.Linear(dense, classes))


def train(net, x: np.ndarray, y: np.ndarray, epochs: int, seed: int, lr: float = 3e-3) -> None:
    import torch
    import torch.nn.functional as F

    gen = torch.Generator().manual_seed(seed)
    xt = torch.from_numpy(x.astype(np.float32)).unsqueeze(1)
    yt = torch.from_numpy(y.astype(np.int64))
    batch = 256
    steps = len(y) // batch
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=epochs * steps)
    for epoch in range(epochs):
        net.train()
        started, right, loss_sum = time.time(), 0, 0.0
        order = torch.randperm(len(y), generator=gen)
        for b in range(steps):
            sel = order[b * batch : (b + 1) * batch]
            out = net(augment(xt[sel], gen))
            loss = F.cross_entropy(out, yt[sel], label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            right += int((out.argmax(1) == yt[sel]).sum())
            loss_sum += loss.item() * len(sel)
        print(f"  epoch {epoch + 1}/{epochs}: loss {loss_sum / (steps * batch):.4f} "
              f"acc {right / (steps * batch):.4%} ({time.time() - started:.0f}s)", flush=True)


def fit_temperature(params: dict[str, np.ndarray], x: np.ndarray, y: np.ndarray) -> float:
    """The temperature that minimises the held-out glyphs' negative log-likelihood."""
    logits = NumpyCNN(params).logits(x.astype(np.float32)).astype(np.float64)
    best, best_nll = 1.0, np.inf
    for t in np.exp(np.linspace(np.log(0.3), np.log(5.0), 60)):
        z = logits / t
        z = z - z.max(axis=1, keepdims=True)
        nll = float(np.mean(np.log(np.exp(z).sum(axis=1)) - z[np.arange(len(y)), y]))
        if nll < best_nll:
            best, best_nll = float(t), nll
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--photos", type=int, default=600)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    started = time.time()
    x, y = glyph_set(args.photos, 1_000_000 + args.seed, args.workers)
    xv, yv = glyph_set(max(20, args.photos // 10), 2_000_000 + args.seed, args.workers)
    print(f"glyphs: {len(y)} training, {len(yv)} validation ({time.time() - started:.0f}s)",
          flush=True)
    net = make_net()
    train(net, x, y, args.epochs, args.seed)
    params = export(net)
    params["symbols"] = np.array([CANONICAL])
    params["alphabet"] = np.array(["hex"])  # printed 0-9 A-F (pipeline.alphabet)
    check_export(net, params, x)
    params["temperature"] = np.array([fit_temperature(params, xv, yv)], np.float32)
    model = NumpyCNN(params)
    wrong = int((model.read(xv.astype(np.float32)).argmax(1) != yv).sum())
    print(f"validation: {wrong} wrong of {len(yv)}, temperature {params['temperature'][0]:.3f}",
          flush=True)
    np.savez(args.out, **params)  # uncompressed: loads in half the time (weights hardly compress)
    print(f"wrote {args.out}", flush=True)


if __name__ == "__main__":
    main()
