"""The colour model's fast paths give the plain functions' answers."""

import numpy as np

from vision.colour import _lab_positive, default_palette, fit_gains, lab8_to_lab, lab_to_linear_rgb, linear_rgb_to_lab


def test_lab_positive_matches_linear_rgb_to_lab() -> None:
    rng = np.random.default_rng(7)
    lin = np.concatenate([rng.uniform(1e-4, 1.2, (500, 3)), rng.uniform(1e-4, 0.01, (100, 3))])
    assert np.allclose(_lab_positive(lin), linear_rgb_to_lab(lin), atol=1e-9)


def test_fit_gains_undoes_a_cast() -> None:
    palette = default_palette()
    truth = np.clip(lab_to_linear_rgb(palette.ref_lab), 1e-4, None)
    gains, lab = fit_gains(truth, palette)
    assert np.allclose(gains, 1.0) and np.abs(lab - palette.ref_lab).max() < 1e-6
    cast = np.array([1.3, 1.0, 0.8])
    gains, lab = fit_gains(truth * cast, palette)
    assert np.allclose(gains * cast, 1.0, atol=0.06)
    assert np.abs(lab - palette.ref_lab).max() < 3.0


def test_8_bit_lab_in_single_precision_is_the_double_s_rounded():
    every = np.stack(np.meshgrid(np.arange(256), np.arange(0, 256, 5), np.arange(0, 256, 7)), -1).astype(np.uint8)
    single = lab8_to_lab(every, single=True)
    assert single.dtype == np.float32
    assert np.abs(single - lab8_to_lab(every)).max() < 1e-4  # (float32's rounding at a hundred, no more)
    assert lab8_to_lab(np.array([255, 0, 255], np.uint8)).tolist() == [100.0, -128.0, 127.0]
