"""Train the digit CNN and export it to pipeline/models/digits.npz.

    PYTHONPATH=. python training/train_digits.py            # from the repo root

Needs (training only, not runtime): torch, pillow, and the Debian font packages
    fonts-dejavu-core fonts-liberation fonts-freefont-ttf fonts-urw-base35 fonts-noto-core
    fonts-crosextra-carlito fonts-crosextra-caladea fonts-open-sans fonts-roboto
    fonts-linuxlibertine fonts-texgyre fonts-noto-mono fonts-lato fonts-cantarell
Data:
  1. synthetic photos of printed grids (training/render.py), their glyphs cut by the
     runtime's own stages (pipeline.stages.cut_glyphs);
  2. real printed givens from the training part of ../shared/data/photos/train (never the
     held-out part), cut with the outline corners. The board rotation of each photo (some
     read upright only after an EXIF turn) is chosen by a first, synthetic-only model.
Deterministic for a given --seed (torch on 2 threads, seeded generators everywhere).

The shipped model is the one trained so before the synthetic photos had motion blur
and JPEG below quality 15 (git show 7132d19:pipeline/models/digits.npz), trained further
on the photos with them:
    PYTHONPATH=. python training/train_digits.py --start-from OLD.npz --epochs 4 \
        --lr 3e-4 --keep-close 1.0 && python training/calibrate.py
`--keep-close` keeps the starting model's probabilities on the real printed cells and on
the handwritten entries of mixed-train's training part: the ink classifier takes this
network's confidence as a feature, and without the term entries read as more sure print.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing as mp
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.cells import (  # noqa: E402
    cells_for,
    load_photo,
    mask_errors,
    rotate_cells,
    truth_board,
)
from benchmarks.dataset import photos  # noqa: E402
from pipeline._cnn import NumpyCNN  # noqa: E402
from pipeline._glyph import GLYPH  # noqa: E402
from pipeline.errors import NoGrid  # noqa: E402
from pipeline.stages import cut_glyphs, outline_at  # noqa: E402
from training.render import load_fonts, synthetic_photo  # noqa: E402

CACHE = ROOT / "training" / "cache"
OUT = ROOT / "pipeline" / "models" / "digits.npz"
CHUNK = 50  # synthetic photos per work unit (each with its own seed: order-independent)
MAX_MASK_ERRORS = 2  # real photos whose filled mask is further off are not used
CHANNELS = (8, 16, 32)  # conv block widths (--channels)
DENSE = 96  # hidden dense width (--dense)
ANCHOR_BATCH = 128  # glyphs kept close to the starting model, beside each batch of 256


def _synthetic_chunk(args: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, int, int]:
    seed, index = args
    cv2.setNumThreads(1)
    rng = np.random.default_rng([seed, index])
    fonts = _fonts()
    glyphs, labels, missed, total = [], [], 0, 0
    for _ in range(CHUNK):
        photo = synthetic_photo(fonts, rng)
        try:
            cells = cut_glyphs(outline_at(photo.image, photo.corners))
        except NoGrid:
            continue
        use = cells.filled & (photo.board > 0)
        glyphs.append(cells.images[use])
        labels.append(photo.board[use] - 1)
        missed += int(((photo.board > 0) != cells.filled).sum())
        total += 81
    return np.concatenate(glyphs), np.concatenate(labels), missed, total


_FONTS = None


def _fonts():
    global _FONTS  # per worker process: loading the fonts once per chunk would be slow
    if _FONTS is None:
        _FONTS = load_fonts()
    return _FONTS


def _source_digest() -> str:
    """Short hash of the code that makes the glyphs: a changed cutter invalidates the cache."""
    h = hashlib.sha1()
    sources = ("square.py", "cells.py", "glyphs.py", "_components.py", "_folds.py", "_glyph.py")
    for f in [ROOT / "pipeline" / name for name in sources] + [ROOT / "training" / "render.py"]:
        h.update(f.read_bytes())
    return h.hexdigest()[:10]


def synthetic_set(n_photos: int, seed: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    """Glyphs and labels (0..8) from n_photos synthetic photos, cached on disk."""
    path = CACHE / f"synthetic_s{seed}_n{n_photos}_{_source_digest()}.npz"
    if path.exists():
        with np.load(path) as d:
            return d["x"], d["y"]
    t = time.time()
    jobs = [(seed, i) for i in range(n_photos // CHUNK)]
    with mp.get_context("fork").Pool(workers) as pool:
        parts = pool.map(_synthetic_chunk, jobs)
    x = np.concatenate([p[0] for p in parts]).astype(np.float16)
    y = np.concatenate([p[1] for p in parts]).astype(np.int64)
    missed, total = sum(p[2] for p in parts), sum(p[3] for p in parts)
    print(
        f"synthetic: {len(y)} glyphs from {n_photos} photos in {time.time() - t:.0f}s; "
        f"filled-decision errors {missed}/{total}",
        flush=True,
    )
    CACHE.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, x=x, y=y)
    return x, y


def real_candidates() -> list[tuple[str, np.ndarray, np.ndarray, np.ndarray]]:
    """(name, glyphs (81,G,G), board, filled) of usable training-part photos, unrotated."""
    out = []
    for p in photos("train", held_out=False):
        if p.corners is None:
            continue
        cells, _ = cells_for(p, load_photo(p))
        board = truth_board(p)
        if min(mask_errors(cells.filled, board)) > MAX_MASK_ERRORS:
            print(f"  real: {p.name} skipped (filled mask off)", flush=True)
            continue
        glyphs = np.where(cells.filled[:, None, None], cells.images, 0).astype(np.float32)
        out.append((p.name, glyphs, board, cells.filled))
    return out


def real_set(candidates, model: NumpyCNN) -> tuple[np.ndarray, np.ndarray]:
    """Real glyphs at each photo's most likely rotation (mask fits, model agrees)."""
    xs, ys, turned = [], [], 0
    for _name, glyphs, board, filled in candidates:
        scores = []
        for k in range(4):
            f = rotate_cells(filled, k)
            if int((f != (board > 0)).sum()) > MAX_MASK_ERRORS:
                scores.append(-np.inf)
                continue
            use = f & (board > 0)
            p = model.read(rotate_cells(glyphs, k)[use])
            scores.append(float(np.log(p[np.arange(use.sum()), board[use] - 1] + 1e-6).mean()))
        k = int(np.argmax(scores))
        turned += k != 0
        f = rotate_cells(filled, k)
        use = f & (board > 0)
        xs.append(rotate_cells(glyphs, k)[use])
        ys.append(board[use] - 1)
    print(
        f"real: {sum(len(y) for y in ys)} glyphs from {len(candidates)} photos ({turned} turned)",
        flush=True,
    )
    return np.concatenate(xs).astype(np.float16), np.concatenate(ys).astype(np.int64)


def make_net(channels: tuple[int, ...] = CHANNELS, dense: int = DENSE):
    """[3x3 conv -> batch norm -> ReLU -> 2x2 max-pool] per entry of channels, then
    dense -> ReLU -> dropout -> 9 logits."""
    import torch.nn as nn

    layers, cin, side = [], 1, GLYPH
    for cout in channels:
        layers += [
            nn.Conv2d(cin, cout, 3, padding=1),
            nn.BatchNorm2d(cout),
            nn.ReLU(),
            nn.MaxPool2d(2),
        ]
        cin, side = cout, side // 2
    return nn.Sequential(
        *layers,
        nn.Flatten(),
        nn.Linear(cin * side * side, dense),
        nn.ReLU(),
        nn.Dropout(0.3),
        nn.Linear(dense, 9),
    )


def net_from(params: dict[str, np.ndarray]):
    """A net holding exported weights (`export`'s inverse), its batch norms the identity
    (the export folded them into the convolutions), to train further from there."""
    import torch
    import torch.nn as nn

    blocks = sum(1 for k in params if k.startswith("conv") and k.endswith("_w"))
    channels = tuple(int(params[f"conv{i}_b"].shape[0]) for i in range(1, blocks + 1))
    net = make_net(channels, int(params["fc1_b"].shape[0]))
    convs = [m for m in net if isinstance(m, nn.Conv2d)]
    lins = [m for m in net if isinstance(m, nn.Linear)]
    with torch.no_grad():
        for i, conv in enumerate(convs, 1):
            w = params[f"conv{i}_w"].reshape(conv.in_channels, 3, 3, conv.out_channels)
            conv.weight.copy_(torch.from_numpy(w.transpose(3, 0, 1, 2).copy()))
            conv.bias.copy_(torch.from_numpy(params[f"conv{i}_b"]))
        c, side = channels[-1], GLYPH >> blocks
        w1 = params["fc1_w"].T.reshape(-1, side, side, c).transpose(0, 3, 1, 2)
        lins[0].weight.copy_(torch.from_numpy(w1.reshape(w1.shape[0], -1).copy()))
        lins[0].bias.copy_(torch.from_numpy(params["fc1_b"]))
        lins[1].weight.copy_(torch.from_numpy(params["fc2_w"].T.copy()))
        lins[1].bias.copy_(torch.from_numpy(params["fc2_b"]))
    return nn.Sequential(*[nn.Identity() if isinstance(m, nn.BatchNorm2d) else m for m in net])


def widths(text: str) -> tuple[int, ...]:
    """'8,16,32' -> (8, 16, 32): the channels of the conv blocks, for --channels."""
    try:
        out = tuple(int(v) for v in text.split(","))
    except ValueError:
        out = ()
    if not out or min(out) < 1 or GLYPH >> len(out) < 1:
        raise argparse.ArgumentTypeError(f"not 1-4 comma-separated positive widths: {text}")
    return out


def augment(x, gen):
    """Small random shifts, scalings and turns of a batch (N,1,G,G): the glyph box rule
    leaves a pixel or two of play."""
    import torch
    import torch.nn.functional as F

    n = x.shape[0]
    ang = (torch.rand(n, generator=gen) - 0.5) * 2 * np.deg2rad(5)
    sc = 1 + (torch.rand(n, generator=gen) - 0.5) * 0.16
    sh = (torch.rand(n, 2, generator=gen) - 0.5) * (3.0 / GLYPH)
    cos, sin = torch.cos(ang) / sc, torch.sin(ang) / sc
    theta = torch.stack(
        [torch.stack([cos, -sin, sh[:, 0]], 1), torch.stack([sin, cos, sh[:, 1]], 1)], 1
    )
    grid = F.affine_grid(theta, x.shape, align_corners=False)
    out = F.grid_sample(x, grid, align_corners=False, padding_mode="zeros")
    gamma = torch.exp((torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.8)
    return out.clamp(0, 1) ** gamma


def handwritten_glyphs() -> np.ndarray:
    """The glyphs of the handwritten entries in the training part of mixed-train (never
    the held-out quarter), as the runtime cuts them: what the ink classifier asks this
    network about (its confidence is one of the classifier's features)."""
    from benchmarks.pen_data import labelled_cells, mixed_photos, pixels_of
    from pipeline.products import Ink

    out = []
    for photo in mixed_photos(held_out=False):
        cells = labelled_cells(photo, pixels_of(photo))
        if cells is not None:
            images, _, inked, classes, _ = cells
            out.append(images[inked & (classes == int(Ink.PEN))])
    print(f"handwritten: {sum(len(g) for g in out)} glyphs", flush=True)
    return np.concatenate(out).astype(np.float16)


def train(net, x, y, weights, epochs: int, seed: int, lr: float = 2e-3,
          anchors: tuple[np.ndarray, np.ndarray, float] | None = None) -> None:
    """`anchors`: (glyphs, probabilities, weight): glyphs whose probabilities the net is
    to keep (a KL term of that weight, a batch of them beside every batch)."""
    import torch
    import torch.nn.functional as F

    gen = torch.Generator().manual_seed(seed)
    if anchors is not None:
        anchor_x = torch.from_numpy(anchors[0].astype(np.float32)).unsqueeze(1)
        anchor_p = torch.from_numpy(anchors[1].astype(np.float32))
    xt = torch.from_numpy(x.astype(np.float32)).unsqueeze(1)
    yt = torch.from_numpy(y)
    wt = torch.from_numpy(weights.astype(np.float64))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps_per_epoch = len(y) // 256
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=epochs * steps_per_epoch)
    for epoch in range(epochs):
        net.train()
        t, seen, right, loss_sum = time.time(), 0, 0, 0.0
        idx = torch.multinomial(wt, steps_per_epoch * 256, replacement=True, generator=gen)
        for b in range(steps_per_epoch):
            sel = idx[b * 256 : (b + 1) * 256]
            xb, yb = augment(xt[sel], gen), yt[sel]
            out = net(xb)
            loss = F.cross_entropy(out, yb, label_smoothing=0.05)
            if anchors is not None:
                pick = torch.randint(len(anchor_x), (ANCHOR_BATCH,), generator=gen)
                kept = F.log_softmax(net(augment(anchor_x[pick], gen)), 1)
                loss = loss + anchors[2] * F.kl_div(kept, anchor_p[pick], reduction="batchmean")
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            seen += len(sel)
            right += int((out.argmax(1) == yb).sum())
            loss_sum += loss.item() * len(sel)
        print(
            f"  epoch {epoch + 1}/{epochs}: loss {loss_sum / seen:.4f} "
            f"train acc {right / seen:.4%} ({time.time() - t:.0f}s)",
            flush=True,
        )


def export(net) -> dict[str, np.ndarray]:
    """Fold batch norm into the convolutions; lay weights out for pipeline.recognize."""
    import torch.nn as nn

    net.eval()
    mods = list(net)
    convs = [m for m in mods if isinstance(m, nn.Conv2d)]
    norms = [mods[mods.index(conv) + 1] for conv in convs]  # BatchNorm2d, or Identity
    lins = [m for m in mods if isinstance(m, nn.Linear)]
    p = {}
    for i, (conv, bn) in enumerate(zip(convs, norms, strict=True), 1):
        w = conv.weight.detach().double().numpy()
        b = conv.bias.detach().double().numpy()
        if isinstance(bn, nn.BatchNorm2d):
            g = (bn.weight.detach().double() / (bn.running_var.double() + bn.eps).sqrt()).numpy()
            w = w * g[:, None, None, None]
            b = (b - bn.running_mean.double().numpy()) * g + bn.bias.detach().double().numpy()
        p[f"conv{i}_w"] = w.transpose(1, 2, 3, 0).reshape(-1, w.shape[0]).astype(np.float32)
        p[f"conv{i}_b"] = b.astype(np.float32)
    w1 = lins[0].weight.detach().numpy()  # (128, C*H*W) in torch's (C, H, W) order
    c = convs[-1].out_channels
    side = int(round((w1.shape[1] / c) ** 0.5))
    w1 = w1.reshape(-1, c, side, side).transpose(0, 2, 3, 1).reshape(w1.shape[0], -1)
    p["fc1_w"] = np.ascontiguousarray(w1.T).astype(np.float32)
    p["fc1_b"] = lins[0].bias.detach().numpy().astype(np.float32)
    p["fc2_w"] = np.ascontiguousarray(lins[1].weight.detach().numpy().T).astype(np.float32)
    p["fc2_b"] = lins[1].bias.detach().numpy().astype(np.float32)
    return p


def check_export(net, params, x) -> None:
    import torch

    net.eval()
    with torch.no_grad():
        ref = torch.softmax(net(torch.from_numpy(x[:256].astype(np.float32)).unsqueeze(1)), 1)
    got = NumpyCNN(params).read(x[:256].astype(np.float32))
    err = float(np.abs(ref.numpy() - got).max())
    print(f"export check: max |torch - numpy| = {err:.2e}", flush=True)
    assert err < 1e-4


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--photos", type=int, default=5000, help="synthetic photos")
    ap.add_argument("--epochs", type=int, default=16)
    ap.add_argument("--warmup-epochs", type=int, default=2, help="synthetic-only first model")
    ap.add_argument("--real-weight", type=float, default=4.0, help="oversampling of real cells")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--channels",
        type=widths,
        default=",".join(map(str, CHANNELS)),
        help="conv block widths, comma-separated (default %(default)s)",
    )
    ap.add_argument("--dense", type=int, default=DENSE, help="hidden dense width")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--start-from", type=Path, help="a model to train further (fine-tune): "
                    "no first model, --epochs at --lr")
    ap.add_argument("--lr", type=float, default=2e-3, help="peak learning rate")
    ap.add_argument("--keep-close", type=float, default=0.0,
                    help="with --start-from: weight of the term keeping the starting model's "
                    "probabilities on the real printed cells and on handwritten entries")
    args = ap.parse_args()

    import torch

    torch.set_num_threads(2)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    cv2.setNumThreads(1)

    xs, ys = synthetic_set(args.photos, args.seed, args.workers)
    anchors = None
    candidates = real_candidates()

    if args.start_from:
        with np.load(args.start_from) as d:
            start = {k: d[k] for k in d.files if k != "temperature"}
        print(f"from {args.start_from}", flush=True)
        xr, yr = real_set(candidates, NumpyCNN(start))
        net = net_from(start)
        check_export(net, start, xr)  # the net as loaded reads as the starting model
        if args.keep_close > 0:
            glyphs = np.concatenate([xr, handwritten_glyphs()]).astype(np.float32)
            anchors = (glyphs, NumpyCNN(start).read(glyphs), args.keep_close)
    else:
        print("stage 1: synthetic only", flush=True)
        print(f"net: conv {'/'.join(map(str, args.channels))}, dense {args.dense}", flush=True)
        net = make_net(args.channels, args.dense)
        train(net, xs, ys, np.ones(len(ys)), args.warmup_epochs, args.seed)
        xr, yr = real_set(candidates, NumpyCNN(export(net)))

    print("stage 2: synthetic + real", flush=True)
    torch.manual_seed(args.seed + 1)
    if not args.start_from:  # a fresh net, the first one only choosing the real cells' turns
        net = make_net(args.channels, args.dense)
    x = np.concatenate([xs, xr])
    y = np.concatenate([ys, yr])
    w = np.concatenate([np.ones(len(ys)), np.full(len(yr), args.real_weight)])
    train(net, x, y, w, args.epochs, args.seed + 1, args.lr, anchors)
    params = export(net)
    check_export(net, params, x)
    model = NumpyCNN(params)
    real_acc = float((model.read(xr.astype(np.float32)).argmax(1) == yr).mean())
    print(f"accuracy on the real training cells: {real_acc:.4%}", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(args.out, **params)  # uncompressed: loads in half the time (weights hardly compress)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1024:.0f} KiB)", flush=True)


if __name__ == "__main__":
    main()
