"""Cameras: one small protocol, several implementations, frames grabbed on their own thread.

Every camera has ``start()``, ``stop()``, ``latest() -> Frame | None`` (never blocks) and
``status() -> CameraStatus``. A camera that goes away (cable pulled, webcam unplugged, folder
removed) is reported in its status and reopened by its grab thread as soon as it is back.

Implementations, chosen by :func:`open_camera` (or ``$SHAKECITY_CAMERA``):

- :class:`PiCamera`: a Raspberry Pi Camera Module through picamera2 (imported lazily, only on the Pi;
  ``RGB888``, which is BGR in memory; exposure and white balance locked after a warm-up; optional fixed
  ``LensPosition`` for Camera Module 3).
- :class:`WebcamCamera`: OpenCV ``VideoCapture`` by index (USB webcam) or URL (network stream).
- :class:`FolderCamera`: the image files of a folder, played in a loop.
- :class:`SimulatedCamera`: shakes rendered by ``vision.shaker_scene`` on a seeded timeline (box down,
  lifted, pattern on the table for a few seconds, box down again); the demo's default.

Run alone: ``python -m device.cameras [KIND] [--seconds 5]`` prints the status and frame rate.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import random
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import cv2
import numpy as np

from .errors import CameraError, UnknownCamera

CAMERA_ENV = "SHAKECITY_CAMERA"
KINDS = ("auto", "picamera2", "webcam", "folder", "simulated")
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
Clock = Callable[[], float]
RawPattern = list[list[str | None]]


@dataclass(frozen=True)
class Frame:
    """One grabbed image (BGR), when it was grabbed (monotonic seconds) and its number (from 1)."""

    frame_bgr: np.ndarray
    t: float
    seq: int


@dataclass(frozen=True)
class CameraStatus:
    """What a camera is doing, in words for the page and the console."""

    ok: bool
    message: str
    kind: str
    frames: int = 0  # frames grabbed since start
    reconnects: int = 0  # times the camera was lost and reopened

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "message": self.message,
            "kind": self.kind,
            "frames": self.frames,
            "reconnects": self.reconnects,
        }


@runtime_checkable
class Camera(Protocol):
    """The seam between the table loop and any source of frames."""

    kind: str

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def latest(self) -> Frame | None: ...

    def status(self) -> CameraStatus: ...


class GrabbingCamera:
    """A camera whose frames are grabbed on their own thread; subclasses open, grab and close.

    ``_open()`` raises when the camera is not there; ``_grab()`` returns the next image, ``None`` when
    there is nothing yet, and raises when the camera has gone (it is then closed and reopened every
    ``retry_s`` seconds until it is back). ``fps`` paces sources that would otherwise run flat out.
    """

    kind = "camera"

    def __init__(self, *, clock: Clock = time.monotonic, fps: float | None = None, retry_s: float = 1.0) -> None:
        self._clock = clock
        self._fps = fps
        self._retry_s = retry_s
        self._cond = threading.Condition()
        self._latest: Frame | None = None
        self._seq = 0
        self._reconnects = 0
        self._status = CameraStatus(False, "not started", self.kind)
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    # ----------------------------------------------------------------------------- for subclasses
    def describe(self) -> str:
        return self.kind

    def _open(self) -> None:
        raise NotImplementedError

    def _grab(self) -> np.ndarray | None:
        raise NotImplementedError

    def _close(self) -> None:
        pass

    # ----------------------------------------------------------------------------------- protocol
    def start(self) -> None:
        if self._thread is not None:
            return
        self._stopping.clear()
        self._set_status(False, f"opening {self.describe()}")
        self._thread = threading.Thread(target=self._run, name=f"camera-{self.kind}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._stopping.set()
        with self._cond:
            self._cond.notify_all()
        thread.join(timeout=10)
        self._set_status(False, "stopped")

    def latest(self) -> Frame | None:
        with self._cond:
            return self._latest

    def status(self) -> CameraStatus:
        with self._cond:
            return self._status

    def wait_frame(self, after_seq: int, timeout: float) -> Frame | None:
        """The first frame newer than ``after_seq``, waiting up to ``timeout`` seconds (None if none came)."""
        with self._cond:
            self._cond.wait_for(
                lambda: self._stopping.is_set() or (self._latest is not None and self._latest.seq > after_seq),
                timeout=timeout,
            )
            frame = self._latest
        return frame if frame is not None and frame.seq > after_seq else None

    def __enter__(self) -> GrabbingCamera:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------------------------------ machinery
    def _set_status(self, ok: bool, message: str) -> None:
        with self._cond:
            self._status = CameraStatus(ok, message, self.kind, self._seq, self._reconnects)
            self._cond.notify_all()

    def _run(self) -> None:
        opened = False
        lost_before = False
        period = 1.0 / self._fps if self._fps else 0.0
        try:
            while not self._stopping.is_set():
                if not opened:
                    try:
                        self._open()
                    except Exception as e:  # any failure to open is reported, then retried
                        what = "camera disconnected" if lost_before else f"{self.describe()} not available"
                        self._set_status(False, f"{what} ({_one_line(e)}), retrying")
                        self._stopping.wait(self._retry_s)
                        continue
                    opened = True
                    if lost_before:
                        self._reconnects += 1
                    self._set_status(True, f"{self.describe()}: streaming")
                started = time.monotonic()
                try:
                    image = self._grab()
                except Exception as e:  # the camera went away: close, report, reopen later
                    self._safe_close()
                    opened, lost_before = False, True
                    with self._cond:
                        self._latest = None
                    self._set_status(False, f"camera disconnected ({_one_line(e)}), retrying")
                    self._stopping.wait(self._retry_s)
                    continue
                if image is not None:
                    with self._cond:
                        self._seq += 1
                        self._latest = Frame(image, self._clock(), self._seq)
                        self._status = CameraStatus(True, self._status.message, self.kind, self._seq, self._reconnects)
                        self._cond.notify_all()
                if period:
                    self._stopping.wait(max(0.0, period - (time.monotonic() - started)))
                elif image is None:
                    self._stopping.wait(0.005)
        finally:
            if opened:
                self._safe_close()

    def _safe_close(self) -> None:
        # closing a camera that is already gone may fail; there is nothing more to do then
        with contextlib.suppress(Exception):
            self._close()


def _one_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


# ------------------------------------------------------------------------------------ Raspberry Pi


class PiCamera(GrabbingCamera):
    """A Raspberry Pi camera through picamera2 (from apt, imported here only: never at module import).

    ``size`` is the main stream's (width, height). After ``warmup_frames`` frames the automatic
    exposure and white balance have settled; their values are then fixed (``lock=True``) so colours
    do not drift between frames. ``lens_position`` (dioptres, Camera Module 3) fixes the focus.
    """

    kind = "picamera2"

    def __init__(
        self,
        *,
        index: int = 0,
        size: tuple[int, int] = (1536, 864),
        lens_position: float | None = None,
        warmup_frames: int = 30,
        lock: bool = True,
        timeout_s: float = 2.0,
        clock: Clock = time.monotonic,
        retry_s: float = 2.0,
    ) -> None:
        super().__init__(clock=clock, retry_s=retry_s)
        self.index = index
        self.size = (int(size[0]), int(size[1]))
        self.lens_position = lens_position
        self.warmup_frames = warmup_frames
        self.lock = lock
        self.timeout_s = timeout_s
        self.locked_controls: dict[str, Any] = {}
        self._cam: Any = None

    def describe(self) -> str:
        return f"Raspberry Pi camera {self.index}"

    def _open(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as e:
            raise CameraError(
                f"picamera2 is not importable ({e}); on the Pi: sudo apt install -y python3-picamera2 "
                "--no-install-recommends, in a venv made with --system-site-packages"
            ) from None
        if len(Picamera2.global_camera_info()) <= self.index:
            raise CameraError(f"no Raspberry Pi camera {self.index} attached")
        cam = Picamera2(self.index)
        try:
            config = cam.create_video_configuration(main={"format": "RGB888", "size": self.size})
            cam.configure(config)
            cam.start()
            if self.lens_position is not None and "LensPosition" in cam.camera_controls:
                from libcamera import controls

                cam.set_controls({"AfMode": controls.AfModeEnum.Manual, "LensPosition": float(self.lens_position)})
            for _ in range(self.warmup_frames):
                cam.capture_metadata()
            if self.lock:
                meta = cam.capture_metadata()
                fixed = {k: meta[k] for k in ("ExposureTime", "AnalogueGain", "ColourGains") if k in meta}
                cam.set_controls({"AeEnable": False, "AwbEnable": False, **fixed})
                self.locked_controls = fixed
        except Exception:
            cam.close()
            raise
        self._cam = cam

    def _grab(self) -> np.ndarray | None:
        job = self._cam.capture_array("main", wait=False)  # dispatched; waited for with a timeout below
        try:
            image = self._cam.wait(job, timeout=self.timeout_s)  # TimeoutError: the camera has gone
        except TypeError:  # a picamera2 whose wait() takes no timeout
            image = self._cam.wait(job)
        if image is None:
            raise CameraError("the camera returned no frame")
        return np.ascontiguousarray(image[:, :, :3])  # RGB888 is B, G, R in memory: OpenCV's order

    def _close(self) -> None:
        cam, self._cam = self._cam, None
        if cam is not None:
            try:
                cam.stop()
            finally:
                cam.close()


# ------------------------------------------------------------------------------------------ webcam


class WebcamCamera(GrabbingCamera):
    """OpenCV ``VideoCapture``: a USB webcam by index (``0``) or a stream by URL."""

    kind = "webcam"

    def __init__(
        self,
        source: int | str = 0,
        *,
        size: tuple[int, int] | None = None,
        clock: Clock = time.monotonic,
        retry_s: float = 1.0,
    ) -> None:
        super().__init__(clock=clock, retry_s=retry_s)
        self.source: int | str = int(source) if isinstance(source, str) and source.isdigit() else source
        self.size = size
        self._cap: Any = None

    def describe(self) -> str:
        return f"webcam {self.source}"

    def _open(self) -> None:
        cap = cv2.VideoCapture(self.source)
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"cannot open {self.describe()}")
        if self.size:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._cap = cap

    def _grab(self) -> np.ndarray | None:
        ok, image = self._cap.read()
        if not ok or image is None:
            raise CameraError(f"{self.describe()} stopped delivering frames")
        return image

    def _close(self) -> None:
        cap, self._cap = self._cap, None
        if cap is not None:
            cap.release()


# ------------------------------------------------------------------------------------------ folder


def image_files(folder: Path) -> list[Path]:
    """The image files in ``folder``, sorted by name."""
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())


class FolderCamera(GrabbingCamera):
    """The image files of a folder, sorted by name and played in a loop at ``fps`` frames a second.

    Each file is shown for ``repeat`` frames (a still scene, as a fixed camera sees it). If the folder
    disappears, the camera is lost; it comes back when the folder (with images) does.
    """

    kind = "folder"

    def __init__(
        self,
        folder: str | os.PathLike[str],
        *,
        fps: float = 10.0,
        repeat: int = 1,
        clock: Clock = time.monotonic,
        retry_s: float = 0.5,
    ) -> None:
        super().__init__(clock=clock, fps=fps, retry_s=retry_s)
        self.folder = Path(folder)
        self.repeat = max(1, int(repeat))
        self._files: list[Path] = []
        self._index = 0
        self._shown = 0
        self._cache: tuple[Path, np.ndarray] | None = None

    def describe(self) -> str:
        return f"folder {self.folder}"

    def _open(self) -> None:
        if not self.folder.is_dir():
            raise CameraError(f"no folder {self.folder}")
        files = image_files(self.folder)
        if not files:
            raise CameraError(f"no image files in {self.folder}")
        self._files, self._index, self._shown, self._cache = files, 0, 0, None

    def _grab(self) -> np.ndarray | None:
        if not self.folder.is_dir():
            raise CameraError(f"folder {self.folder} is gone")
        path = self._files[self._index % len(self._files)]
        if self._cache is not None and self._cache[0] == path:
            image = self._cache[1]
        else:
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                if not path.exists():
                    raise CameraError(f"{path.name} is gone")
                self._advance(force=True)  # an unreadable file is skipped, not fatal
                return None
            self._cache = (path, image)
        self._advance()
        return image

    def _advance(self, force: bool = False) -> None:
        self._shown += 1
        if force or self._shown >= self.repeat:
            self._shown = 0
            self._index = (self._index + 1) % len(self._files)


# --------------------------------------------------------------------------------------- simulated


def random_pattern(rng: random.Random, contents: Mapping[str, int]) -> list[list[str]]:
    """Nine cubes drawn without replacement from a shaker holding ``contents``, as 3 rows of 3."""
    bag = [colour for colour, n in sorted(contents.items()) for _ in range(n)]
    if len(bag) < 9:
        raise ValueError(f"the shaker holds {len(bag)} cubes; a pattern needs 9")
    cubes = rng.sample(bag, 9)
    return [cubes[0:3], cubes[3:6], cubes[6:9]]


def default_contents() -> dict[str, int]:
    """The 32 building cubes (the base game's shaker, no wild cube)."""
    from scoring.shake_that_city.catalogue import components

    return dict(components().cubes)


@dataclass(frozen=True)
class Scene:
    """What the simulated camera shows at a moment: the shake number and the phase of that shake."""

    shake: int  # 0, 1, 2, ...
    phase: str  # "covered" (box on the table), "lifting" (the box moving off the cubes) or "lifted" (pattern showing)
    lift: float = 0.0  # how far through the lift, 0 to 1 ("lifting" only)


class SimulatedCamera(GrabbingCamera):
    """Shakes rendered by ``vision.shaker_scene.render_shake`` on a timeline read from ``clock``.

    Each shake: the box covers the table for ``covered_s`` seconds, then is lifted (``lifting_s`` seconds of
    the box moving up off the cubes, a new view each frame: 0 lifts it at once) and the pattern stays still
    for ``lifted_s`` seconds; then the next shake. Patterns are drawn from ``contents``
    (a mapping or a callable returning one, e.g. the game's ``state.shaker()``) with ``rng``; every
    ``knocked_out_every``-th shake (0: never) leaves a cube knocked out of the grid. ``outages`` are
    (start, end) clock windows during which the camera is unplugged (for demos and tests).
    ``sensor_noise``: the standard deviation, in levels, of fresh noise on every frame grabbed, as a real
    sensor gives a still table (0: every grab of a scene is the same array).
    """

    kind = "simulated"

    def __init__(
        self,
        *,
        rng: random.Random | None = None,
        seed: int = 0,
        clock: Clock = time.monotonic,
        fps: float = 10.0,
        covered_s: float = 2.0,
        lifted_s: float = 5.0,
        lifting_s: float = 0.0,
        width: int = 1024,
        height: int = 768,
        contents: Mapping[str, int] | Callable[[], Mapping[str, int]] | None = None,
        patterns: Sequence[RawPattern] | None = None,
        knocked_out_every: int = 0,
        outages: Sequence[tuple[float, float]] = (),
        retry_s: float = 0.2,
        sensor_noise: float = 0.0,
    ) -> None:
        super().__init__(clock=clock, fps=fps, retry_s=retry_s)
        self.sensor_noise = sensor_noise
        self._noise_rng = np.random.default_rng(seed)
        self._noise: tuple[np.ndarray, np.ndarray] | None = None  # (added, taken away) levels, drawn once
        self.rng = rng if rng is not None else random.Random(seed)
        self.covered_s = covered_s
        self.lifted_s = lifted_s
        self.lifting_s = max(0.0, lifting_s)
        self.width, self.height = width, height
        self._contents = contents
        self._script = [list(map(list, p)) for p in patterns] if patterns else None
        self.knocked_out_every = knocked_out_every
        self.outages = tuple(outages)
        self._t0: float | None = None
        self._shakes: list[tuple[RawPattern, bool, int]] = []
        self._rendered: dict[tuple[int, str], np.ndarray] = {}
        self._lock = threading.Lock()

    def describe(self) -> str:
        return "simulated camera"

    def contents(self) -> Mapping[str, int]:
        if self._contents is None:
            return default_contents()
        return self._contents() if callable(self._contents) else self._contents

    @property
    def timeline_start(self) -> float | None:
        """The clock time of the first frame (the timeline's zero), once there has been one."""
        return self._t0

    def scene_at(self, t: float) -> Scene:
        """The scene at clock time ``t`` (the timeline starts at the first frame)."""
        if self._t0 is None:
            self._t0 = t
        cycle = self.covered_s + self.lifting_s + self.lifted_s
        elapsed = max(0.0, t - self._t0)
        shake = int(elapsed // cycle)
        into = elapsed - shake * cycle
        if into < self.covered_s:
            return Scene(shake, "covered")
        if into < self.covered_s + self.lifting_s:
            return Scene(shake, "lifting", (into - self.covered_s) / self.lifting_s)
        return Scene(shake, "lifted")

    def shake(self, n: int) -> tuple[RawPattern, bool, int]:
        """Shake number ``n``: its pattern, whether a cube is knocked out, and its scene's seed (drawn once,
        in order, so the same ``rng`` always gives the same shakes)."""
        with self._lock:
            while len(self._shakes) <= n:
                k = len(self._shakes)
                if self._script:
                    pattern = self._script[k % len(self._script)]
                else:
                    pattern = random_pattern(self.rng, self.contents())
                knocked = bool(self.knocked_out_every) and (k + 1) % self.knocked_out_every == 0
                self._shakes.append((pattern, knocked, self.rng.getrandbits(32)))
            return self._shakes[n]

    def render(self, scene: Scene) -> np.ndarray:
        """The frame for ``scene``, rendered once and reused (a still table looks the same). The covered
        and the lifted frames of one shake share the table, the light and the camera; a lifting frame is the
        lifted one with the box drawn over it, as far up as the lift has gone."""
        if scene.phase == "lifting":
            return draw_box(self.render(Scene(scene.shake, "lifted")), raised=scene.lift)
        key = (scene.shake, scene.phase)
        frame_bgr = self._rendered.get(key)
        if frame_bgr is not None:
            return frame_bgr
        from vision.shaker_scene import render_shake

        pattern, knocked, seed = self.shake(scene.shake)
        size = {"width": self.width, "height": self.height}
        if scene.phase == "covered":
            try:
                frame_bgr, _truth = render_shake(pattern, random.Random(seed), covered=True, **size)
            except TypeError:  # a generator without the covered option: draw the box ourselves
                frame_bgr = draw_box(render_shake(None, random.Random(seed), **size)[0])
        else:
            frame_bgr, _truth = render_shake(pattern, random.Random(seed), knocked_out=knocked, **size)
        self._rendered = {k: v for k, v in self._rendered.items() if k[0] >= scene.shake - 1}
        self._rendered[key] = frame_bgr
        return frame_bgr

    def _unplugged(self, t: float) -> bool:
        return any(start <= t < end for start, end in self.outages)

    def _open(self) -> None:
        if self._unplugged(self._clock()):
            raise CameraError("simulated camera unplugged")

    def _grab(self) -> np.ndarray | None:
        t = self._clock()
        if self._unplugged(t):
            raise CameraError("simulated camera unplugged")
        frame_bgr = self.render(self.scene_at(t))
        if self.sensor_noise > 0:
            frame_bgr = self.add_noise(frame_bgr)
        return frame_bgr

    def add_noise(self, frame_bgr: np.ndarray) -> np.ndarray:
        """The frame with sensor noise, taken at a random offset from a longer noise field drawn once (drawing
        fresh noise costs more than a frame's time), so no two grabs share their noise."""
        n, spare = frame_bgr.size, 1 << 16
        if self._noise is None or self._noise[0].size != n + spare:
            levels = np.rint(self._noise_rng.normal(0.0, self.sensor_noise, n + spare))
            self._noise = (np.clip(levels, 0, 255).astype(np.uint8), np.clip(-levels, 0, 255).astype(np.uint8))
        at = int(self._noise_rng.integers(spare))
        added, taken = (field[at : at + n].reshape(frame_bgr.shape) for field in self._noise)
        return cv2.subtract(cv2.add(frame_bgr, added), taken)


def draw_box(frame_bgr: np.ndarray, raised: float = 0.0) -> np.ndarray:
    """The shaker box standing over the middle of the table (a covered pattern); ``raised`` (0 to 1): that far
    through being lifted, moved up and growing as it nears the camera, out of view at 1."""
    out = frame_bgr.copy()
    h, w = out.shape[:2]
    side = int(min(h, w) * 0.62 * (1.0 + 0.5 * raised))
    border = max(2, side // 40)
    x0 = (w - side) // 2
    y0 = (h - side) // 2 - int(raised * ((h + side) // 2 + border + 1))  # (its border too out of view at 1)
    cv2.rectangle(out, (x0, y0), (x0 + side, y0 + side), (48, 70, 110), thickness=-1)
    cv2.rectangle(out, (x0, y0), (x0 + side, y0 + side), (30, 44, 70), thickness=border)
    return out


# ----------------------------------------------------------------------------------------- choosing


def parse_camera_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"webcam:1"``, ``"webcam:rtsp://..."``, ``"folder:/path"``, ``"simulated"`` -> (kind, options)."""
    kind, _, arg = spec.strip().partition(":")
    kind = kind.strip().lower()
    if kind in ("pi", "picamera"):
        kind = "picamera2"
    if kind not in KINDS:
        raise UnknownCamera(f"unknown camera {kind!r}; cameras are {', '.join(KINDS)}")
    options: dict[str, Any] = {}
    if arg:
        if kind == "webcam":
            options["source"] = arg
        elif kind == "folder":
            options["folder"] = arg
        elif kind == "picamera2" and arg.isdigit():
            options["index"] = int(arg)
        elif kind == "simulated" and arg.isdigit():
            options["seed"] = int(arg)
        else:
            raise UnknownCamera(f"camera {spec!r}: {kind} takes no argument {arg!r}")
    return kind, options


def picamera2_cameras() -> list[dict[str, Any]] | None:
    """The Pi cameras picamera2 sees, or None when picamera2 is not importable (not a Pi)."""
    try:
        from picamera2 import Picamera2
    except Exception:  # ImportError off the Pi; other errors when libcamera is broken
        return None
    try:
        return [dict(info) for info in Picamera2.global_camera_info()]
    except Exception:
        return []


def video_devices() -> list[str]:
    """The V4L2 video devices present (Linux), e.g. ``["/dev/video0"]``."""
    return sorted(glob.glob("/dev/video[0-9]*"))


def auto_kind() -> tuple[str, str]:
    """The best camera present and why: a Pi camera, else a webcam, else the simulated camera."""
    pi = picamera2_cameras()
    if pi:
        return "picamera2", f"picamera2 sees {len(pi)} camera(s)"
    if sys.platform.startswith("linux"):
        devices = video_devices()
        if devices:
            cap = cv2.VideoCapture(0)
            try:
                if cap.isOpened():
                    return "webcam", f"{devices[0]} opens"
            finally:
                cap.release()
    reason = "picamera2 not importable" if pi is None else "no Pi camera attached"
    return "simulated", f"{reason} and no webcam opens: using the simulated camera"


def open_camera(kind: str | None = None, **options: Any) -> GrabbingCamera:
    """Make (not start) the camera ``kind`` with ``options``.

    ``kind`` None reads ``$SHAKECITY_CAMERA`` (e.g. ``folder:/srv/frames``), else the device config's
    camera (see :mod:`device.config`), else ``auto``. ``auto`` picks a Pi camera, else a webcam, else
    the simulated camera. The config's camera options apply under the ones given here.
    """
    from .config import load_config

    config = load_config()
    spec = kind if kind is not None else os.environ.get(CAMERA_ENV) or config.camera_kind
    kind, from_spec = parse_camera_spec(spec)
    options = {**config.camera_options, **from_spec, **options}
    if kind == "auto":
        kind, _why = auto_kind()
        options.pop("folder", None)
    try:
        if kind == "picamera2":
            return PiCamera(**_only(options, "index", "size", "lens_position", "warmup_frames", "lock", "clock"))
        if kind == "webcam":
            return WebcamCamera(**_only(options, "source", "size", "clock"))
        if kind == "folder":
            if "folder" not in options:
                raise UnknownCamera("the folder camera needs a folder (e.g. SHAKECITY_CAMERA=folder:/path)")
            return FolderCamera(**_only(options, "folder", "fps", "repeat", "clock"))
        return SimulatedCamera(
            **_only(
                options,
                "rng",
                "seed",
                "clock",
                "fps",
                "covered_s",
                "lifted_s",
                "lifting_s",
                "width",
                "height",
                "contents",
                "patterns",
                "knocked_out_every",
                "outages",
            )
        )
    except TypeError as e:
        raise UnknownCamera(f"camera {kind}: {e}") from None


def _only(options: Mapping[str, Any], *names: str) -> dict[str, Any]:
    """The options a camera takes (a config written for one camera may carry others' options)."""
    return {k: v for k, v in options.items() if k in names}


def frames(camera: GrabbingCamera, seconds: float) -> Iterator[Frame]:
    """Every new frame of a started camera for ``seconds`` of wall time."""
    end = time.monotonic() + seconds
    seq = 0
    while (left := end - time.monotonic()) > 0:
        frame = camera.wait_frame(seq, timeout=min(left, 0.5))
        if frame is not None:
            seq = frame.seq
            yield frame


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m device.cameras", description="Open a camera and report on it.")
    parser.add_argument("kind", nargs="?", default=None, help="auto, picamera2, webcam[:N|URL], folder:PATH, simulated")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--save", metavar="IMAGE", help="write the last frame here")
    args = parser.parse_args(argv)
    try:
        camera = open_camera(args.kind)
    except ValueError as e:
        print(f"shakecity: {e}", file=sys.stderr)
        return 2
    last = None
    with camera:
        start = time.monotonic()
        count = 0
        for frame in frames(camera, args.seconds):
            count += 1
            last = frame
        elapsed = time.monotonic() - start
        status = camera.status()
    print(f"{status.kind}: {status.message}; {count} frames in {elapsed:.1f} s ({count / elapsed:.1f} fps)")
    if last is not None:
        h, w = last.frame_bgr.shape[:2]
        print(f"last frame {w}x{h}, seq {last.seq}")
        if args.save:
            cv2.imwrite(args.save, last.frame_bgr)
    return 0 if count else 1


if __name__ == "__main__":
    sys.exit(main())
