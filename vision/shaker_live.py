"""Live mode: read the shaker over a stream of frames and report each physical shake exactly once.

Feed every camera frame with its time; get back a (usually empty) list of events::

    from vision.shaker_live import LiveShakerReader, PatternRead, NoPattern

    live = LiveShakerReader(palette=None, rotation=0, shaker=None)
    for frame_bgr, t in camera:                 # t in seconds, from any monotonic clock
        for event in live.feed(frame_bgr, t):
            if isinstance(event, PatternRead):  # event.pattern: 3 tuples of 3 colour names
                ...                             # event.at: the time of the frame that settled it
            elif isinstance(event, NoPattern):  # event.reason: "7 cubes in the grid", ...
                ...

Both events are frozen dataclasses. The rules:

- A frame where no grid of cubes shows (the box or a hand over the cubes, or an empty table) *arms*
  the reader: the next settled result is a new shake. The reader starts armed.
- ``PatternRead`` is reported once the same complete pattern has been read for ``stable_seconds``
  (and at least ``min_frames`` frames) while armed; then the reader disarms until the cubes are
  covered or cleared again (``rearm_seconds`` of frames with no grid), or until the reported pattern
  has not been seen for ``gone_seconds`` (and ``min_frames`` frames) whatever shows instead — the box
  put down over stray cubes still shows a few of them — so each shake is reported once however long
  the pattern stays on the table, and the next shake is reported too.
- ``NoPattern`` ("shaker lifted, no complete pattern") is reported once, when cubes show but no
  complete pattern has been read for ``refuse_seconds`` (longer than ``stable_seconds``, so a box
  being lifted does not count) while armed; a complete pattern read after it in the same shake is
  still reported (the players straightened the cubes). It is reported on a full read's refusal only (or
  one reused): a first look's, or a read stopped as the view changed, may yet be read valid by a second look
  once the view holds still. The refusal must follow a lift: it counts from
  a change seen while armed (after ``rearm_seconds`` of frames with no grid, after a pattern, or its
  grid moving by more than ``moved_share`` of the grid's size), never from a view that was already
  there (the box down over stray cubes, a grid that was showing when the reader armed or started). The
  change must be the view's (its thumbnail changed since the last frame read, see below): a still view read
  again (after ``reread_seconds``, or a first look's refusal read in full) that the reader now refuses on
  another grid, or not at all (the box held down: sensor noise tips it between the strays' lattices), is
  not the box lifted.
- A frame that cannot be read (``None``, wrong shape) counts as covered.
- A frame that has not changed since the last frame read in full (its small colour thumbnail, less any
  overall brightness shift, nowhere more than ``still_level`` levels from that frame's, see
  :func:`still_thumbnail`) gets that frame's reading again without reading it: the cubes lie still for
  seconds, and reading costs far more than the look (a thumbnail, well under a millisecond). The
  comparison is always with the frame read in full, so slow drift adds up to a new read, and a frame is
  looked at again at least every ``reread_seconds`` anyway, with a first look (see below): a valid look is
  the view's reading, else the reading it had stands (the full read's second looks were taken on this very
  view; on a Pi they take up to a second or more, and the box held down, or a pattern only a second look
  reads left on the table for the round, would cost that every second). With ``first_look_seconds=0`` it is
  read in full. ``still_level=None`` reads every frame.
- A view that is moving (its thumbnail changed, as above, since the frame before: a hand, the box being
  lifted, cubes still rolling) is read with a first look only (:func:`vision.shaker.first_look`: none of
  the second looks a refused frame gets), for up to ``first_look_seconds`` of motion. A valid first look is
  the full read's reading; a refusal is read again in full as soon as the view holds still (the next frame
  unchanged from it). A refused frame costs several times an accepted one in full (a hand or the box in view
  is refused) and about as much as one with a first look. A view moving for longer (a flickering lamp or a
  screen in view: it may never hold still) is read in full again, frame by frame, as without first looks,
  so that a pattern only a second look reads is still read. ``first_look_seconds=0`` reads every changed
  frame in full.
- Given the camera's newest frame (:meth:`LiveShakerReader.watch`; the table loop does), the full read of a
  still view's refused first look stops as its next look begins once the newest frame's view differs (the
  box put down and at once lifted: on a Pi those second looks take up to a second or more); the first look's
  refusal stands, and the next frame is read at once.
- ``min_interval_seconds``: frames arriving sooner than this after the last one read are skipped
  (on this shared x86 machine's one core a full read costs 11-30 ms median, from one day to the next, and a
  refused frame several times that; 3-4 times as much on a Raspberry Pi 4; a still view costs under a
  millisecond, so a Pi keeps up with 30 frames per second while the cubes lie still, and while they move it
  can read every other or third frame, e.g. ``min_interval_seconds=0.07``).

``shaker`` (colour -> cubes the shaker holds) makes impossible patterns refusals, with the rules
engine's reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from .colour import Palette
from .shaker import DEFAULT_SETTINGS, ReadStopped, ShakerReading, ShakerSettings, first_look, read_shaker


@dataclass(frozen=True)
class PatternRead:
    """A shake's complete pattern: 3 rows (top to bottom after rotation) of 3 colour names."""

    pattern: tuple[tuple[str, str, str], tuple[str, str, str], tuple[str, str, str]]
    at: float

    def to_json(self) -> dict[str, object]:
        return {"event": "pattern", "pattern": [list(r) for r in self.pattern], "at": self.at}


@dataclass(frozen=True)
class NoPattern:
    """The shaker was lifted but no complete 3 x 3 pattern shows: the players shake again."""

    reason: str
    at: float

    def to_json(self) -> dict[str, object]:
        return {"event": "no_pattern", "reason": self.reason, "at": self.at}


Event = PatternRead | NoPattern

THUMBNAIL_SIZE = (64, 48)  # (width, height): a 1024 x 768 frame's 16 x 16 blocks, averaged


def still_thumbnail(frame_bgr: np.ndarray) -> np.ndarray:
    """The frame's colour thumbnail (area means, so sensor noise averages out), as float32."""
    return cv2.resize(frame_bgr, THUMBNAIL_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32)


def unchanged(thumb: np.ndarray, ref: np.ndarray, level: float) -> bool:
    """True when no part of the view changed by more than ``level`` (per channel, after removing an overall
    shift of at most ``level``: the camera's exposure settling), so the reading cannot have changed."""
    if thumb.shape != ref.shape:
        return False
    diff = thumb - ref
    shift = np.median(diff.reshape(-1, diff.shape[-1]), axis=0)
    return bool(np.all(np.abs(shift) <= level) and np.abs(diff - shift).max() <= level)


class LiveShakerReader:
    """Turns a stream of frames into one event per shake (see the module docstring)."""

    def __init__(
        self,
        palette: Palette | None = None,
        rotation: int = 0,
        *,
        settings: ShakerSettings = DEFAULT_SETTINGS,
        shaker: Mapping[str, int] | None = None,
        stable_seconds: float = 0.3,
        min_frames: int = 3,
        refuse_seconds: float = 1.0,
        rearm_seconds: float = 0.2,
        gone_seconds: float = 0.5,
        moved_share: float = 0.3,
        min_interval_seconds: float = 0.0,
        still_level: float | None = 6.0,
        reread_seconds: float = 1.0,
        first_look_seconds: float = 1.0,
        reader: Callable[[np.ndarray], ShakerReading] | None = None,
        newest_frame: Callable[[], np.ndarray | None] | None = None,
    ) -> None:
        self.palette = palette
        self.rotation = rotation
        self.settings = settings
        self.shaker = shaker
        self.stable_seconds = stable_seconds
        self.min_frames = min_frames
        self.refuse_seconds = refuse_seconds
        self.rearm_seconds = rearm_seconds
        self.gone_seconds = gone_seconds
        self.moved_share = moved_share
        self.min_interval_seconds = min_interval_seconds
        self.still_level = still_level
        self.reread_seconds = reread_seconds
        self.first_look_seconds = first_look_seconds
        self._moving_since: float | None = None  # when the view began to move (None: it holds still)
        self._reader = reader
        self.newest_frame = newest_frame  # the camera's newest frame, while a frame is read (see watch)
        self.stopped_reads = 0  # full reads of a still view's refused first look stopped as the view changed
        # the last frame read: its thumbnail, time, reading, and whether it was read in full (not a first look)
        self._still: tuple[np.ndarray, float, ShakerReading, bool] | None = None
        self._previous: np.ndarray | None = None  # the thumbnail of the last frame looked at (read or not)
        self.reads = self.reuses = 0  # frames read (in full or a first look), frames given the last read's reading
        self.first_looks = 0  # frames of a moving view read with a first look only
        self.looks_again = 0  # frames of a still view looked at again (a first look) after reread_seconds
        self._last_read_at: float | None = None
        self.armed = True
        self._reported_pattern = False
        self._reported_refusal = False
        self._key: object = None
        self._since = 0.0
        self._frames = 0
        self._refused_since: float | None = None
        self._covered_since: float | None = None
        self._reported_key: object = None
        self._gone_since: float | None = None
        self._gone_frames = 0
        self._lifted = False  # a change seen while armed: a refusal from here on follows a lift
        # whether this frame's view differs from the last frame read (always, without thumbnails): only then can a
        # reading that differs from the one before be the box lifted; on a still view it is the reader's own doubt
        self._view_changed = True
        self._prev_key: object = None
        self._prev_corners: np.ndarray | None = None
        self.last_reading: ShakerReading | None = None

    def watch(self, newest_frame: Callable[[], np.ndarray | None] | None) -> None:
        """Give the reader the camera's newest frame (``None`` while there is none): a full read of a still view
        whose first look was refused (its second looks: on a Pi up to a second or more) then stops as soon as the
        newest frame's view differs (the box lifted under it), and the next frame is read at once."""
        self.newest_frame = newest_frame

    def read(
        self, frame_bgr: np.ndarray, *, first_look_only: bool = False, should_stop: Callable[[], bool] | None = None
    ) -> ShakerReading:
        """The frame's reading (``first_look_only``: with :func:`vision.shaker.first_look`'s settings, none of a
        refused frame's second looks; not with a ``reader`` of one's own, which reads as it reads). ``should_stop``:
        :func:`vision.shaker.read_shaker`'s (it raises :class:`vision.shaker.ReadStopped`)."""
        if self._reader is not None:
            return self._reader(frame_bgr)
        settings = first_look(self.settings) if first_look_only else self.settings
        return read_shaker(
            frame_bgr, self.palette, self.rotation, settings=settings, shaker=self.shaker, should_stop=should_stop
        )

    def _moved_from(self, frame_bgr: np.ndarray, thumb: np.ndarray) -> Callable[[], bool] | None:
        """Whether the camera's newest frame shows another view than ``frame_bgr`` (thumbnail ``thumb``), asked
        while it is read; ``None`` without a newest frame to ask for."""
        newest = self.newest_frame
        level = self.still_level
        if newest is None or level is None:
            return None
        seen: list[object] = [frame_bgr]  # (the last frame compared: a frame is compared once)
        moved = [False]

        def should_stop() -> bool:
            frame = newest()
            if frame is None or frame is seen[0]:
                return moved[0]
            seen[0] = frame
            ok = isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.shape == frame_bgr.shape
            moved[0] = not ok or not unchanged(still_thumbnail(frame), thumb, level)
            return moved[0]

        return should_stop

    def _read_unless_still(self, frame_bgr: np.ndarray, t_seconds: float) -> ShakerReading:
        """The frame's reading: the last read's when the view has not changed since (see the module
        docstring), else a read: a first look only while the view moves, in full once it holds still."""
        if self.still_level is None or frame_bgr.dtype != np.uint8 or min(frame_bgr.shape[:2]) < 8:
            self.reads += 1
            self._view_changed = True  # (no thumbnails: every reading may be a new view)
            return self.read(frame_bgr)
        thumb = still_thumbnail(frame_bgr)
        previous, self._previous = self._previous, thumb
        # (when the view began to move: None while it holds still)
        if previous is None or unchanged(thumb, previous, self.still_level):
            self._moving_since = None
        elif self._moving_since is None:
            self._moving_since = t_seconds
        moving_since = self._moving_since
        if self._still is not None:
            ref, read_at, reading, full = self._still
            # (a first look's valid reading is the full read's: only its refusal is read again, in full)
            fresh = 0 <= t_seconds - read_at < self.reread_seconds
            unmoved = unchanged(thumb, ref, self.still_level)
            if fresh and (full or reading.valid) and unmoved:
                self.reuses += 1
                self._view_changed = False
                return reading
            # (read again with the view as it was: a reread after reread_seconds, a first look's refusal read in full)
            self._view_changed = not unmoved
            if unmoved and (full or reading.valid) and self._reader is None and self.first_look_seconds > 0:
                # a still view read in full (or read valid), after reread_seconds: looked at again with a first look
                # only. Its full read's second looks were taken on this very view; they cost several times a look
                # (on a Pi up to a second or more, every reread_seconds: the box held down, or a pattern only a
                # second look reads lying on the table for the round). A valid look is the view's reading; else the
                # reading it had stands
                self.reads += 1
                self.looks_again += 1
                look = self.read(frame_bgr, first_look_only=True)
                if look.valid:
                    self._still = (thumb, t_seconds, look, False)
                    return look
                self._still = (ref, t_seconds, reading, full)
                return reading
        else:
            self._view_changed = True
        # (a first look only for first_look_seconds of motion; not with a reader of one's own)
        first_only = (
            moving_since is not None
            and self._reader is None
            and 0 <= t_seconds - moving_since < self.first_look_seconds
        )
        # (a still view's refused first look read in full: its second looks stop when the view changes under them,
        # and the look's refusal stands until the view holds still again)
        looked = self._still is not None and not self._still[3] and not self._still[2].valid
        stop = self._moved_from(frame_bgr, thumb) if looked and not first_only and not self._view_changed else None
        self.reads += 1
        self.first_looks += first_only
        try:
            reading = self.read(frame_bgr, first_look_only=first_only, should_stop=stop)
        except ReadStopped:
            assert self._still is not None
            self.stopped_reads += 1
            return self._still[2]
        self._still = (thumb, t_seconds, reading, not first_only)
        return reading

    def feed(self, frame_bgr: np.ndarray | None, t_seconds: float) -> list[Event]:
        """Read one frame taken at ``t_seconds``; the events it settles (usually none)."""
        if self._last_read_at is not None and t_seconds - self._last_read_at < self.min_interval_seconds - 1e-6:
            return []  # too soon after the last frame read: skipped (a slow machine keeps up this way)
        self._last_read_at = t_seconds
        reading: ShakerReading | None = None
        if isinstance(frame_bgr, np.ndarray) and frame_bgr.ndim == 3 and frame_bgr.shape[2] == 3:
            reading = self._read_unless_still(frame_bgr, t_seconds)
        else:
            self._still = self._previous = self._moving_since = None
            self._view_changed = True
        self.last_reading = reading
        if reading is None or (not reading.valid and reading.grid_corners is None):
            key: object = "covered"
        elif reading.valid and reading.pattern is not None:
            key = ("pattern", tuple(tuple(r) for r in reading.pattern))
        else:
            key = "refused"
        covered_long = self._covered_since is not None and t_seconds - self._covered_since >= self.rearm_seconds - 1e-9
        corners = np.asarray(reading.grid_corners, dtype=np.float64) if key == "refused" and reading else None
        if self.armed and key == "refused" and not self._lifted and self._view_changed:
            if self._prev_key == "covered" and covered_long:
                self._lifted = True  # the cubes show after a while with none: the box was lifted
            elif isinstance(self._prev_key, tuple):
                self._lifted = True  # a pattern showed, now none does: the cubes moved
            elif self._prev_key == "refused" and self._prev_corners is not None and corners is not None:
                side = float(np.hypot(*(corners[1] - corners[0]))) + float(np.hypot(*(corners[3] - corners[0])))
                moved = float(np.mean(np.hypot(*(corners - self._prev_corners).T)))
                self._lifted = moved > self.moved_share * max(side / 2, 1e-6)
        self._prev_key, self._prev_corners = key, corners
        if key != self._key:
            self._key, self._since, self._frames = key, t_seconds, 0
        self._frames += 1
        held = t_seconds - self._since

        events: list[Event] = []
        if not self.armed and self._reported_key is not None:
            if key == self._reported_key:
                self._gone_since, self._gone_frames = None, 0
            else:
                if self._gone_since is None:
                    self._gone_since = t_seconds
                self._gone_frames += 1
                if t_seconds - self._gone_since >= self.gone_seconds and self._gone_frames >= self.min_frames:
                    self._rearm()
        if key == "covered":
            self._refused_since = None
            if self._covered_since is None:
                self._covered_since = t_seconds
            if not self.armed and t_seconds - self._covered_since >= self.rearm_seconds:
                self._rearm()
            return events
        self._covered_since = None
        if key == "refused":
            if self.armed and not self._lifted:
                self._refused_since = None  # a view that was there before the lift: not a refused shake
                return events
            if self._refused_since is None:
                self._refused_since = t_seconds
            if (
                self.armed
                and not self._reported_pattern
                and not self._reported_refusal
                and t_seconds - self._refused_since >= self.refuse_seconds
                and self._frames >= self.min_frames
                # (a full read's refusal, or one reused: a first look's, or a stopped read's, kept as the view's
                # reading while it is not read in full, may yet be read valid by a second look)
                and (self._still is None or self._still[3])
            ):
                self._reported_refusal = True
                assert reading is not None
                events.append(NoPattern(reading.reason or "no complete pattern", t_seconds))
            return events
        # a complete pattern
        self._refused_since = None
        if (
            self.armed
            and not self._reported_pattern
            and held >= self.stable_seconds
            and self._frames >= self.min_frames
        ):
            self._reported_pattern = True
            self.armed = False
            self._reported_key = key
            self._gone_since, self._gone_frames = None, 0
            self._refused_since = None
            events.append(PatternRead(key[1], t_seconds))  # type: ignore[index]
        return events

    def _rearm(self) -> None:
        """The next settled result is a new shake."""
        self.armed = True
        self._reported_pattern = self._reported_refusal = False
        self._reported_key = None
        self._gone_since, self._gone_frames = None, 0
        self._lifted = False
