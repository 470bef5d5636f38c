"""The colour model: a palette of named colours with reference values in CIELAB (D65, L in 0..100).

A palette is data (``vision/palettes/*.json``)::

    {"name": "shake-that-city", "version": 1, "space": "CIELAB D65",
     "colours": [{"name": "red", "lab": [44.0, 58.0, 38.0]}, ...]}

A palette may also ask for a wider tie margin than the reader's (``"min_confidence": 0.667``: a cube whose
nearest colour is not at least about twice as near as the runner-up is unclear, the pattern refused): the game's
palette does; a palette of close colours need not (:attr:`Palette.min_confidence`).

A colour may carry several references (``"lab": [[...], [...]]``) when it looks different enough in
different places. :func:`calibrate_palette` builds a palette from cube colours seen in one photo of a
pattern the players name, so the model follows the table's light and the camera.

Lighting is normalised per frame by :func:`fit_gains`: per-channel gains in linear RGB (a von Kries
white balance plus exposure) chosen so the observed cubes sit as close as possible to the palette.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .errors import CalibrationError, PaletteError

PALETTE_DIR = Path(__file__).resolve().parent / "palettes"
DEFAULT_PALETTE = PALETTE_DIR / "shake-that-city.json"

# sRGB (D65) <-> XYZ
_M_RGB2XYZ = np.array(
    [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]]
)
_M_XYZ2RGB = np.linalg.inv(_M_RGB2XYZ)
_WHITE = np.array([0.95047, 1.0, 1.08883])


def srgb_to_linear(rgb: np.ndarray) -> np.ndarray:
    """sRGB in 0..1 to linear RGB."""
    rgb = np.asarray(rgb, dtype=np.float64)
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(lin: np.ndarray) -> np.ndarray:
    lin = np.clip(np.asarray(lin, dtype=np.float64), 0.0, None)
    return np.where(lin <= 0.0031308, lin * 12.92, 1.055 * lin ** (1 / 2.4) - 0.055)


_LAB8_SCALE = np.array([100 / 255, 1.0, 1.0])
_LAB8_OFFSET = np.array([0.0, 128.0, 128.0])
_LAB8_SCALE32 = _LAB8_SCALE.astype(np.float32)
_LAB8_OFFSET32 = _LAB8_OFFSET.astype(np.float32)


def lab8_to_lab(lab8: np.ndarray, *, single: bool = False) -> np.ndarray:
    """OpenCV's 8-bit Lab (L * 255 / 100, a + 128, b + 128; any dtype) to CIELAB (float64; float32 with
    ``single``: half the memory, for whole images)."""
    # (one broadcast pass, not three and a stack: x * 1 - 128 and x * (100 / 255) - 0 are the same numbers)
    if single:
        return np.asarray(lab8, dtype=np.float32) * _LAB8_SCALE32 - _LAB8_OFFSET32
    return np.asarray(lab8, dtype=np.float64) * _LAB8_SCALE - _LAB8_OFFSET


def linear_rgb_to_lab(lin: np.ndarray) -> np.ndarray:
    """Linear RGB (..., 3) to CIELAB (..., 3), D65."""
    lin = np.maximum(np.asarray(lin, dtype=np.float64), 0.0)  # (np.clip's overhead shows on short arrays)
    xyz = lin @ _M_RGB2XYZ.T / _WHITE
    f = np.cbrt(xyz)
    low = xyz <= 216 / 24389  # (the linear segment: rare, so computed only where needed)
    if low.any():
        f[low] = (24389 / 27 * xyz[low] + 16) / 116
    out = np.empty(f.shape)  # (written channel by channel: np.stack's overhead shows on short arrays)
    out[..., 0] = 116 * f[..., 1] - 16
    out[..., 1] = 500 * (f[..., 0] - f[..., 1])
    out[..., 2] = 200 * (f[..., 1] - f[..., 2])
    return out


def lab_to_linear_rgb(lab: np.ndarray) -> np.ndarray:
    lab = np.asarray(lab, dtype=np.float64)
    f = np.empty(lab.shape)
    f[..., 1] = (lab[..., 0] + 16) / 116
    f[..., 0] = f[..., 1] + lab[..., 1] / 500
    f[..., 2] = f[..., 1] - lab[..., 2] / 200
    f3 = f**3
    low = f3 <= 216 / 24389  # (the linear segment: computed only where needed)
    if low.any():
        f3[low] = (116 * f[low] - 16) / (24389 / 27)
    return (f3 * _WHITE) @ _M_XYZ2RGB.T


def bgr_to_lab(bgr: np.ndarray) -> np.ndarray:
    """BGR colours in 0..255 (..., 3) to CIELAB."""
    bgr = np.asarray(bgr, dtype=np.float64)
    return linear_rgb_to_lab(srgb_to_linear(bgr[..., ::-1] / 255.0))


def lab_to_bgr(lab: np.ndarray) -> np.ndarray:
    """CIELAB (..., 3) to BGR in 0..255 (float, clipped)."""
    return np.clip(linear_to_srgb(lab_to_linear_rgb(lab))[..., ::-1] * 255.0, 0, 255)


@dataclass(frozen=True)
class Palette:
    """Named colours, each with one or more CIELAB references, in a fixed order."""

    names: tuple[str, ...]
    references: tuple[tuple[tuple[float, float, float], ...], ...]
    name: str = "custom"
    wild: str | None = None
    meta: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.names) < 2:
            raise PaletteError("a palette needs at least two colours")
        if len(set(self.names)) != len(self.names):
            raise PaletteError("a palette names each colour once")
        if len(self.references) != len(self.names) or any(len(r) == 0 for r in self.references):
            raise PaletteError("every palette colour needs at least one Lab reference")
        floor = self.meta.get("min_confidence")
        if floor is not None and not (isinstance(floor, int | float) and 0.5 <= floor < 1.0):
            raise PaletteError(f"min_confidence must be a number from 0.5 to under 1, not {floor!r}")
        # the arrays the reader uses on every frame, made once (read-only: the palette is immutable)
        ref_lab = np.array([ref for refs in self.references for ref in refs], dtype=np.float64)
        ref_index = np.array([i for i, refs in enumerate(self.references) for _ in refs], dtype=np.int64)
        ref_lin = np.clip(lab_to_linear_rgb(ref_lab), 1e-4, None)
        ref_starts = np.flatnonzero(np.diff(ref_index, prepend=-1))
        for a in (ref_lab, ref_index, ref_starts, ref_lin):
            a.setflags(write=False)
        object.__setattr__(self, "_ref_lab", ref_lab)
        object.__setattr__(self, "_ref_index", ref_index)
        object.__setattr__(self, "_ref_starts", ref_starts)
        object.__setattr__(self, "_ref_lin", ref_lin)
        object.__setattr__(self, "_ref_luminance", _median(ref_lin @ _M_RGB2XYZ[1]))

    @property
    def ref_lab(self) -> np.ndarray:
        """All references as an (n, 3) array (read-only); :attr:`ref_index` maps each row to its colour."""
        return self._ref_lab  # type: ignore[attr-defined,no-any-return]

    @property
    def ref_index(self) -> np.ndarray:
        return self._ref_index  # type: ignore[attr-defined,no-any-return]

    @property
    def ref_starts(self) -> np.ndarray:
        """Each colour's first row in :attr:`ref_lab` (a colour's references are consecutive rows)."""
        return self._ref_starts  # type: ignore[attr-defined,no-any-return]

    @property
    def ref_linear(self) -> np.ndarray:
        """The references in linear RGB (n, 3), floored at 1e-4 (read-only)."""
        return self._ref_lin  # type: ignore[attr-defined,no-any-return]

    @property
    def min_confidence(self) -> float | None:
        """The confidence under which a cube's colour counts as a tie for this palette (the pattern refused as
        unclear), when the palette asks for more than the reader's ``min_confidence``: ``"min_confidence"`` in its
        JSON. A palette of colours far apart (the game's six) can ask for a wider margin than one of close colours
        (a sticker palette's orange beside red)."""
        floor = self.meta.get("min_confidence")
        return None if floor is None else float(floor)  # type: ignore[arg-type]

    @property
    def ref_luminance(self) -> float:
        """The median luminance (CIE Y) of the references in linear RGB."""
        return self._ref_luminance  # type: ignore[attr-defined,no-any-return]

    def to_json(self) -> dict[str, object]:
        colours = []
        for n, refs in zip(self.names, self.references, strict=True):
            lab = [round(v, 2) for v in refs[0]] if len(refs) == 1 else [[round(v, 2) for v in r] for r in refs]
            colours.append({"name": n, "lab": lab})
        out: dict[str, object] = {"name": self.name, "version": 1, "space": "CIELAB D65", "colours": colours}
        if self.wild:
            out["wild"] = self.wild
        out.update({k: v for k, v in self.meta.items() if k not in out})
        return out

    def save(self, path: str | os.PathLike[str]) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")


def palette_from_json(raw: object, where: str = "palette") -> Palette:
    """Check and build a palette from its JSON form, with one-line errors naming what is wrong."""
    if not isinstance(raw, Mapping) or not isinstance(raw.get("colours"), Sequence):
        raise PaletteError(f'{where}: expected an object with a "colours" list')
    names: list[str] = []
    refs: list[tuple[tuple[float, float, float], ...]] = []
    for i, entry in enumerate(raw["colours"]):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str) or not entry["name"]:
            raise PaletteError(f'{where}: colour {i}: expected {{"name": ..., "lab": [L, a, b]}}')
        lab = entry.get("lab")
        if isinstance(lab, Sequence) and lab and all(isinstance(v, int | float) for v in lab):
            lab = [lab]
        ok = isinstance(lab, Sequence) and len(lab) > 0
        checked: list[tuple[float, float, float]] = []
        for ref in lab if ok else []:
            if not (isinstance(ref, Sequence) and len(ref) == 3 and all(isinstance(v, int | float) for v in ref)):
                ok = False
                break
            L, a, b = (float(v) for v in ref)
            if not (0 <= L <= 100 and -128 <= a <= 128 and -128 <= b <= 128):
                raise PaletteError(f"{where}: colour {entry['name']!r}: Lab {ref} is out of range")
            checked.append((L, a, b))
        if not ok:
            raise PaletteError(f"{where}: colour {entry['name']!r}: lab must be [L, a, b] or a list of them")
        names.append(entry["name"])
        refs.append(tuple(checked))
    wild = raw.get("wild")
    if wild is not None and wild not in names:
        raise PaletteError(f"{where}: wild colour {wild!r} is not in the palette")
    meta = {k: v for k, v in raw.items() if k not in ("colours", "name", "wild", "version", "space")}
    return Palette(tuple(names), tuple(refs), name=str(raw.get("name", "custom")), wild=wild, meta=meta)


def load_palette(path: str | os.PathLike[str] | None = None) -> Palette:
    """Load a palette file (the game's six colours when ``path`` is None)."""
    p = Path(path) if path is not None else DEFAULT_PALETTE
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise PaletteError(f"{p}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise PaletteError(f"{p}: not UTF-8 text") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise PaletteError(f"{p}: not valid JSON: {e.msg} at line {e.lineno}") from None
    return palette_from_json(raw, str(p))


_DEFAULT: Palette | None = None


def default_palette() -> Palette:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_palette(None)
    return _DEFAULT


# ---------------------------------------------------------------- lighting normalisation


_TINTS = tuple(np.exp(np.array(t)) for t in ((0.0, 0.0, 0.0), (-0.35, 0.0, 0.35), (0.3, 0.0, -0.3)))
_TINTS_ARRAY = np.array(_TINTS)


def _median(values: np.ndarray) -> float:
    """np.median of a short 1-d array, without its overhead."""
    a = np.sort(np.asarray(values, dtype=np.float64).ravel())
    mid = a.size // 2
    return float(a[mid]) if a.size % 2 else float(0.5 * (a[mid - 1] + a[mid]))


# linear_rgb_to_lab in two products: XYZ over the white point, then CIELAB from f(X), f(Y), f(Z)
_M_RGB2XYZ_W = (_M_RGB2XYZ / _WHITE[:, None]).T
_F_TO_LAB = np.array([[0.0, 500.0, 0.0], [116.0, -500.0, 200.0], [0.0, 0.0, -200.0]])
_LAB_OFFSET = np.array([-16.0, 0.0, 0.0])


def _lab_positive(lin: np.ndarray) -> np.ndarray:
    """:func:`linear_rgb_to_lab` of positive linear RGB rows (m, 3), with fewer array passes (fit_gains' loop)."""
    xyz = lin @ _M_RGB2XYZ_W
    f = np.cbrt(xyz)
    low = xyz <= 216 / 24389
    if low.any():
        f = np.where(low, (24389 / 27 * xyz + 16) / 116, f)
    return f @ _F_TO_LAB + _LAB_OFFSET


def fit_gains(
    observed_lin: np.ndarray,
    palette: Palette,
    *,
    iterations: int = 6,
    prior_weight: float = 0.3,
    max_log_gain: float = 0.7,
    exposure_weight: float = 6.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Per-channel gains (linear RGB) bringing the observed cubes closest to the palette.

    ``observed_lin`` is (n, 3) linear RGB. Alternates between assigning each cube its nearest palette
    colour (in Lab) and solving the gains by least squares in linear RGB, from a few starting lights
    (neutral, warm, cool; several exposures); keeps the fit with the smallest total Lab error plus a
    small cost for colour casts and exposure changes (the camera's exposure is usually about right).
    Returns (gains, lab) where ``lab`` holds the corrected observations.
    """
    obs = np.maximum(np.asarray(observed_lin, dtype=np.float64), 1e-4)
    # a frame's reading fits the same cubes several times (a lattice verified again unchanged, the cubes
    # sampled once more to be named): the fit of the same observations is remembered (a pure function of them)
    key = (obs.shape, obs.tobytes(), id(palette), iterations, prior_weight, max_log_gain, exposure_weight)
    hit = _GAINS_MEMO.get(key)
    if hit is not None and hit[0] is palette:
        return hit[1].copy(), hit[2].copy()
    gains, lab = _fit_gains(obs, palette, iterations, prior_weight, max_log_gain, exposure_weight)
    for old in list(_GAINS_MEMO)[: max(0, len(_GAINS_MEMO) - _GAINS_MEMO_SIZE + 1)]:
        _GAINS_MEMO.pop(old, None)  # (the oldest; pop: safe should another thread drop it first)
    _GAINS_MEMO[key] = (palette, gains, lab)
    return gains.copy(), lab.copy()


_GAINS_MEMO: dict[tuple[Any, ...], tuple[Palette, np.ndarray, np.ndarray]] = {}
_GAINS_MEMO_SIZE = 16


def _fit_gains(
    obs: np.ndarray,
    palette: Palette,
    iterations: int,
    prior_weight: float,
    max_log_gain: float,
    exposure_weight: float,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`fit_gains` of observations already floored at 1e-4 (float64)."""
    ref_lab = palette.ref_lab
    ref_lin = palette.ref_linear
    # Starting points: neutral, warm and cool light, each at the camera's own exposure, at the exposure
    # that brings the observations' median brightness to the palette's, and a little above and below.
    lum_ref = palette.ref_luminance
    exposures = []
    for g_tint in _TINTS:
        lum_obs = _median((obs * g_tint) @ _M_RGB2XYZ[1])
        median_exposure = lum_ref / max(lum_obs, 1e-6)
        exposures.append((1.0, median_exposure, 0.6, 1.6))
    # (S, 3): every start (each tint at each exposure) iterated at once
    g0 = (_TINTS_ARRAY[:, None, :] * np.array(exposures)[:, :, None]).reshape(-1, 3)
    g = g0.copy()
    obs_sq = (obs**2).sum(0)
    lam = prior_weight * float(obs_sq.mean())
    lo, hi = g0 * np.exp(-max_log_gain), g0 * np.exp(max_log_gain)
    prior, denominator = lam * g0, obs_sq[None] + lam
    S, n = len(g0), len(obs)
    ref_t2, ref_sq = -2.0 * ref_lab.T, (ref_lab**2).sum(1)
    for _ in range(iterations):
        lab = _lab_positive((obs[None, :, :] * g[:, None, :]).reshape(-1, 3))  # (S * n, 3)
        # each corrected cube's nearest reference: |lab - ref|^2 = |lab|^2 - 2 lab . ref + |ref|^2, less the
        # row's own |lab|^2 (the same for every reference)
        target = ref_lin[(lab @ ref_t2 + ref_sq).argmin(1)].reshape(S, n, 3)
        # least squares per channel in linear RGB, pulled gently towards the starting light
        g_new = (np.einsum("nc,snc->sc", obs, target) + prior) / denominator
        g_new = np.minimum(np.maximum(g_new, lo), hi)
        done = bool((np.abs(g_new - g) <= 1e-8 + 1e-3 * g).all())  # np.allclose(rtol=1e-3), cheaper (g > 0)
        g = g_new
        if done:
            break
    lab = linear_rgb_to_lab(obs[None, :, :] * g[:, None, :])
    sq = lab[:, :, None, :] - ref_lab[None, None, :, :]
    sq *= sq
    d2 = sq[..., 0] + sq[..., 1] + sq[..., 2]  # (the same sums as .sum(-1) of three, without its overhead)
    # the error, plus a small cost for strong colour casts and exposure changes (the plainer explanation)
    log_g = np.log(g)
    log_mean = log_g.mean(1)
    cast = log_g - log_mean[:, None]
    err = np.sqrt(d2.min(-1)).sum(1) + 4.0 * np.abs(cast).sum(1) + exposure_weight * np.abs(log_mean)
    k = int(np.argmin(err))
    best = (float(err[k]), g[k], lab[k])
    assert best is not None
    return best[1], best[2]


@dataclass(frozen=True)
class ColourMatch:
    name: str
    confidence: float
    distance: float
    lab: tuple[float, float, float]


def per_colour_distances(lab: np.ndarray, palette: Palette) -> np.ndarray:
    """CIE76 distance from each Lab row (n, 3) to each palette colour's nearest reference: (n, colours)."""
    d = np.sqrt(((lab[:, None, :] - palette.ref_lab[None, :, :]) ** 2).sum(-1))
    # (a colour's references are consecutive columns: one reduceat takes every colour's minimum)
    return np.minimum.reduceat(d, palette.ref_starts, axis=1)


def classify(lab: np.ndarray, palette: Palette) -> list[ColourMatch]:
    """Nearest palette colour for each Lab row, with a confidence from the margin to the runner-up."""
    lab = np.atleast_2d(np.asarray(lab, dtype=np.float64))
    per_colour = per_colour_distances(lab, palette)
    order = np.argsort(per_colour, axis=1)
    out = []
    for i in range(len(lab)):
        d1 = per_colour[i, order[i, 0]]
        d2 = per_colour[i, order[i, 1]]
        # 0.5 when equidistant, towards 1 as the runner-up moves away
        conf = float(d2 / (d1 + d2 + 1e-9))
        out.append(ColourMatch(palette.names[order[i, 0]], round(conf, 3), float(d1), tuple(lab[i].tolist())))
    return out


def nearest_names(lab: np.ndarray, palette: Palette) -> list[str]:
    """The nearest palette colour's name for each Lab row: :func:`classify`'s names, without its confidences."""
    per_colour = per_colour_distances(np.atleast_2d(np.asarray(lab, dtype=np.float64)), palette)
    # (argmin takes the first of equal distances, as classify's argsort of so few colours does)
    return [palette.names[k] for k in per_colour.argmin(1).tolist()]


def calibrate_palette(
    observed_lab: Sequence[Sequence[float]],
    names: Sequence[str],
    base: Palette,
    *,
    keep_base: bool = True,
) -> Palette:
    """A palette adapted to one photo: each named colour's reference becomes the mean of its cubes there.

    ``observed_lab`` holds the Lab colours of the cubes (already white-balanced or not: calibration
    captures the light as it is), ``names`` the colour the players say each cube is. Colours absent
    from the photo keep the base palette's references. With ``keep_base`` the base reference is
    kept as a second reference too.
    """
    obs = np.asarray(observed_lab, dtype=np.float64)
    if obs.ndim != 2 or obs.shape[1] != 3 or len(obs) != len(names):
        raise CalibrationError("calibration: one Lab colour per named cube is needed")
    unknown = sorted(set(names) - set(base.names))
    if unknown:
        raise CalibrationError(f"calibration: unknown colour {unknown[0]!r}; colours are {', '.join(base.names)}")
    refs = []
    for n, base_refs in zip(base.names, base.references, strict=True):
        mask = np.array([x == n for x in names])
        if mask.any():
            mean = tuple(float(v) for v in obs[mask].mean(0))
            refs.append((mean, *base_refs) if keep_base else (mean,))
        else:
            refs.append(base_refs)
    meta = dict(base.meta)
    meta["calibrated"] = True
    return Palette(base.names, tuple(refs), name=base.name, wild=base.wild, meta=meta)
