"""Train the 16-symbol CNN (hex 0-9 A-F of 16x16 Super Sudoku) and export it to
pipeline/models/symbols16.npz.

    PYTHONPATH=. python training/train_symbols16.py [--photos 450] [--epochs 10]

The glyphs come from rendered 16x16 newspaper photos (`benchmarks/render16.py`) through
the runtime's own stages (`pipeline.stages.cut_glyphs` from the known corners), so
training and runtime glyphs are made alike. Fonts: OpenCV's Hershey faces and its sans,
and every installed TrueType file (DejaVu, Liberation: regular, bold, italic, condensed,
mono, serif), except HELD_OUT, kept for the benchmark. Grids are drawn 28-50 px a cell,
straight or in perspective, sharp or blurred. The classes are the canonical symbols
1-9 A-G of values 1..16 (printed 0-9 A-F). The temperature is fitted on glyphs of photos
rendered with another seed. Needs torch (training only).
"""

from __future__ import annotations

import argparse
import time
from multiprocessing import Pool

import numpy as np

from benchmarks.render16 import (
    CANONICAL,
    HERSHEY,
    hex_puzzle,
    render_photo,
    truetype_files,
)
from pipeline._cnn import NumpyCNN
from pipeline._glyph import GLYPH
from pipeline.stages import cut_glyphs, outline_at
from solver.size import Size
from training.train_digits import augment, check_export, export

OUT = "pipeline/models/symbols16.npz"
HELD_OUT = ("hershey-complex",)  # fonts the reader never sees in training (benchmark only)
SIDES = (450.0, 800.0)  # px: grid sides of the training photos, 28-50 px cells
CHANNELS = (12, 24, 48)  # conv block widths: 16 classes with look-alikes (0/D, 8/B) need
DENSE = 128  # more than the digit net's 8/16/32 and 96
SIXTEEN = Size(4)


def training_fonts() -> list[str]:
    fonts = [f for f in (*HERSHEY, "opencv-sans") if f not in HELD_OUT]
    return fonts + [str(p) for p in truetype_files()]


def photo_glyphs(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Glyphs (k, GLYPH, GLYPH) and class indices of one rendered photo's givens."""
    rng = np.random.default_rng(seed)
    fonts = training_fonts()
    font = fonts[int(rng.integers(len(fonts)))]
    board, solution = hex_puzzle(rng, givens=int(rng.integers(110, 160)))
    blur = float(rng.choice([0.0, 0.7, 1.2, 1.8]))
    photo = render_photo(board, solution, font, bool(rng.random() < 0.6), blur, seed, SIDES)
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
    ap.add_argument("--photos", type=int, default=450)
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
