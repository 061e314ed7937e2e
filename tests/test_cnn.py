"""The builtin recognizer: the NumPy digit CNN."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks import dataset
from pipeline import _cnn as cnn_module
from pipeline._cnn import (
    MODEL_PATH,
    NumpyCNN,
    _conv_block,
    _rows_by_offset,
    builtin,
    conv3x3_relu,
    max_pool2,
)
from pipeline._glyph import GLYPH
from pipeline.glyphs import find_glyphs
from tests.synth import HERSHEY, cells_of, draw_grid, photo_of

ALL_DIGITS = np.array([(i % 9) + 1 if i % 2 == 0 else 0 for i in range(81)])


def test_builtin_is_cached_and_named():
    assert builtin() is builtin()
    assert isinstance(builtin().name, str) and builtin().name


def test_probabilities_shape_and_sum():
    rng = np.random.default_rng(0)
    p = builtin().read(rng.random((5, GLYPH, GLYPH), dtype=np.float32))
    assert p.shape == (5, 9) and p.dtype == np.float32
    np.testing.assert_allclose(p.sum(axis=1), 1, atol=1e-5)
    assert (p >= 0).all()


def test_empty_batch():
    p = builtin().read(np.zeros((0, GLYPH, GLYPH), np.float32))
    assert p.shape == (0, 9) and p.dtype == np.float32


@pytest.mark.parametrize("font", HERSHEY)
def test_hershey_digits_through_the_glyph_function_read_right(font):
    photo, corners = photo_of(draw_grid(ALL_DIGITS, font=font))
    cells = find_glyphs(cells_of(photo, corners))
    np.testing.assert_array_equal(cells.filled, ALL_DIGITS > 0)
    read = builtin().read(cells.images[cells.filled]).argmax(axis=1) + 1
    np.testing.assert_array_equal(read, ALL_DIGITS[ALL_DIGITS > 0])


def test_conv_matches_direct_convolution():
    rng = np.random.default_rng(1)
    x = rng.random((2, 6, 5, 3), dtype=np.float32)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)  # (Cout, Cin, ky, kx)
    b = rng.standard_normal(4).astype(np.float32)
    got = conv3x3_relu(x, w.transpose(1, 2, 3, 0).reshape(-1, 4), b)
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    want = np.zeros((2, 6, 5, 4), np.float32)
    for i in range(6):
        for j in range(5):
            patch = xp[:, i : i + 3, j : j + 3, :]  # (N, ky, kx, Cin)
            want[:, i, j] = np.einsum("nyxc,ocyx->no", patch, w) + b
    np.testing.assert_allclose(got, np.maximum(want, 0), atol=1e-5)
    assert max_pool2(got).shape == (2, 3, 2, 4)


def test_model_file_loads_standalone():
    assert MODEL_PATH.stat().st_size < 5 * 1024 * 1024
    assert NumpyCNN.load(MODEL_PATH).read(np.zeros((1, GLYPH, GLYPH), np.float32)).shape == (1, 9)


@pytest.mark.skipif(not dataset.available(), reason="real photo dataset absent")
def test_real_photo_cells_read_right():
    from benchmarks.cells import glyphs_at, load_photo, read_board, truth_board

    chosen = [p for p in dataset.photos("train", held_out=False) if p.corners][:3]
    for p in chosen:
        cells = glyphs_at(load_photo(p), np.array(p.corners, np.float32))
        board = truth_board(p)
        best = max(int((read_board(cells, builtin(), k) == board).sum()) for k in range(4))
        assert best == 81, p.name


def _reference_logits(params: dict[str, np.ndarray], glyphs: np.ndarray) -> np.ndarray:
    """Textbook forward pass (direct convolution, ReLU, then pooling) in float64."""
    x = glyphs[..., None].astype(np.float64)
    i = 1
    while f"conv{i}_w" in params:
        w, b = params[f"conv{i}_w"].astype(np.float64), params[f"conv{i}_b"]
        cin, cout = x.shape[3], w.shape[1]
        w = w.reshape(cin, 3, 3, cout)
        xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
        h, wd = x.shape[1:3]
        y = np.zeros((x.shape[0], h, wd, cout))
        for dy in range(3):
            for dx in range(3):
                y += np.einsum("nhwc,co->nhwo", xp[:, dy : dy + h, dx : dx + wd], w[:, dy, dx])
        y = np.maximum(y + b, 0)
        h2, w2 = h // 2, wd // 2
        x = y[:, : 2 * h2, : 2 * w2].reshape(-1, h2, 2, w2, 2, cout).max(axis=(2, 4))
        i += 1
    x = np.maximum(x.reshape(len(x), -1) @ params["fc1_w"] + params["fc1_b"], 0)
    return x @ params["fc2_w"] + params["fc2_b"]


@pytest.mark.parametrize("channels, dense", [((16, 32, 64), 128), ((8, 16, 32), 64), ((5, 7), 11)])
def test_any_widths_read_from_the_weight_shapes(channels, dense):
    rng = np.random.default_rng(2)
    params, cin, side = {}, 1, GLYPH
    for i, cout in enumerate(channels, 1):
        params[f"conv{i}_w"] = rng.standard_normal((9 * cin, cout)).astype(np.float32) * 0.5
        params[f"conv{i}_b"] = rng.standard_normal(cout).astype(np.float32) * 0.1
        cin, side = cout, side // 2
    params["fc1_w"] = rng.standard_normal((side * side * cin, dense)).astype(np.float32) * 0.1
    params["fc1_b"] = rng.standard_normal(dense).astype(np.float32) * 0.1
    params["fc2_w"] = rng.standard_normal((dense, 9)).astype(np.float32) * 0.1
    params["fc2_b"] = rng.standard_normal(9).astype(np.float32) * 0.1
    model = NumpyCNN(params)
    assert model.channels == channels and model.dense == dense
    glyphs = rng.random((7, GLYPH, GLYPH), dtype=np.float32)
    want = _reference_logits(params, glyphs)
    np.testing.assert_allclose(model.logits(glyphs), want, rtol=1e-4, atol=1e-4 * abs(want).max())


def test_mismatched_weights_are_refused():
    params = dict(np.load(MODEL_PATH))
    params["conv2_b"] = params["conv2_b"][:-1]
    with pytest.raises(ValueError):
        NumpyCNN(params)
    params = dict(np.load(MODEL_PATH))
    params["fc1_w"] = params["fc1_w"][:-1]
    with pytest.raises(ValueError):
        NumpyCNN(params)


def test_a_model_names_the_symbols_of_its_classes(tmp_path):
    """A model file may say which symbols its classes are (letters for 16x16 boards);
    without that, they are the digits 1-9."""
    with np.load(MODEL_PATH) as data:
        params = {k: data[k] for k in data.files}
    assert NumpyCNN(params).symbols == "123456789"
    params["symbols"] = np.array(["987654321"])
    assert NumpyCNN(params).symbols == "987654321"
    params["symbols"] = np.array(["12345678"])
    with pytest.raises(ValueError):
        NumpyCNN(params)


@pytest.mark.parametrize("cin", [1, 12])
def test_a_conv_block_run_in_chunks_is_the_direct_convolution_pooled(cin, monkeypatch):
    """_conv_block (columns built a chunk of glyphs at a time) equals the plain
    convolution, ReLU and 2x2 max-pool, whether the batch fits one chunk or takes many."""
    rng = np.random.default_rng(cin)
    x = rng.random((7, 10, 9, cin), dtype=np.float32)
    w = rng.standard_normal((9 * cin, 5)).astype(np.float32)  # rows (Cin, ky, kx)
    b = rng.standard_normal(5).astype(np.float32)
    want = max_pool2(conv3x3_relu(x, w, b))
    rows = _rows_by_offset(w, cin)
    whole = _conv_block(x, rows, b)
    monkeypatch.setattr(cnn_module, "CHUNK_BYTES", 1)  # a glyph a chunk
    one_by_one = _conv_block(x, rows, b)
    np.testing.assert_allclose(whole, want, atol=1e-5)
    np.testing.assert_allclose(one_by_one, want, atol=1e-5)
    assert whole.shape == one_by_one.shape == (7, 5, 4, 5)


def test_subnormal_weights_are_loaded_as_zero_and_the_rest_as_they_are():
    """Weight decay leaves weights of 1e-40 and less (subnormal floats, which a CPU
    multiplies several times slower): loaded as 0, every other weight unchanged."""
    tiny = np.float32(cnn_module.SUBNORMAL)
    weights = np.array([tiny / 1000, -tiny / 7, tiny, 0.25, -3.0], np.float32)
    loaded = cnn_module.as_weights({"w": weights, "t": np.array(1.5)})
    assert loaded["w"].tolist() == [0.0, 0.0, float(tiny), 0.25, -3.0]
    assert loaded["w"].dtype == loaded["t"].dtype == np.float32
    assert loaded["w"].flags.c_contiguous and weights[0] != 0  # the caller's array untouched


def test_every_shipped_network_runs_on_normal_floats_only():
    """No network as loaded holds a subnormal weight (`as_weights`)."""
    from pipeline._pen_net import MODEL_PATH as PEN
    from pipeline._pen_net import SECOND_PATH, WIDER_PATH, PenNet

    nets = [NumpyCNN.load(path) for path in cnn_module.MODEL_PATHS.values()]
    nets += [PenNet.load(path) for path in (PEN, SECOND_PATH, WIDER_PATH) if path.exists()]
    for net in nets:
        arrays = [a for pair in net._convs for a in pair] + list(net._fc1)
        for a in arrays:
            assert not ((a != 0) & (np.abs(a) < cnn_module.SUBNORMAL)).any()
