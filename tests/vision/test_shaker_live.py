"""Live mode: one event per shake, nothing while covered, "no complete pattern" once."""

from __future__ import annotations

import numpy as np
import pytest

from vision.shaker import ShakerReading
from vision.shaker_live import LiveShakerReader, NoPattern, PatternRead

from .shaker_sets import set_scene

P1 = [["red", "blue", "black"], ["green", "gray", "red"], ["white", "red", "blue"]]
P2 = [["blue", "blue", "black"], ["green", "gray", "red"], ["white", "red", "red"]]
FRAME = np.zeros((8, 8, 3), np.uint8)
CORNERS = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]


def scripted(states):
    """A reader that returns the scripted readings in turn (covered / incomplete / a pattern)."""
    it = iter(states)

    def read(_frame):
        s = next(it)
        if s == "covered":
            return ShakerReading(False, None, "no pattern: nothing like a cube in view")
        if s == "incomplete":
            return ShakerReading(False, None, "7 cubes in the grid", grid_corners=CORNERS)
        return ShakerReading(True, s, None, grid_corners=CORNERS)

    return read


def run(states, fps=30.0, **kw):
    # (the scripted readings change while FRAME does not: every frame is read, none given the last reading)
    live = LiveShakerReader(reader=scripted(states), still_level=None, **kw)
    events = []
    for i in range(len(states)):
        events += live.feed(FRAME, i / fps)
    return events


def test_stable_pattern_is_reported_once():
    events = run(["covered"] * 10 + [P1] * 90)
    assert len(events) == 1 and isinstance(events[0], PatternRead)
    assert [list(r) for r in events[0].pattern] == P1
    assert 10 / 30 + 0.3 - 1e-9 <= events[0].at <= 10 / 30 + 0.4


def test_covered_frames_report_nothing():
    assert run(["covered"] * 120) == []


def test_a_flicker_is_not_a_pattern():
    assert run(["covered", P1, P1, "covered", P1, "covered"] * 10) == []


def test_each_shake_once_even_with_the_same_pattern():
    states = (["covered"] * 10 + [P1] * 30) * 2 + ["covered"] * 10 + [P2] * 30
    events = run(states)
    assert [type(e) for e in events] == [PatternRead] * 3
    assert [list(r) for r in events[2].pattern] == P2


def test_a_hand_passing_over_a_read_pattern_is_not_a_new_shake():
    states = ["covered"] * 10 + [P1] * 30 + ["incomplete"] * 3 + ["covered"] * 2 + [P1] * 60
    assert len(run(states)) == 1


def test_lifted_without_complete_pattern_once():
    events = run(["covered"] * 10 + ["incomplete"] * 120)
    assert len(events) == 1 and isinstance(events[0], NoPattern)
    assert events[0].reason == "7 cubes in the grid"


def test_straightened_after_refusal_is_read():
    events = run(["covered"] * 10 + ["incomplete"] * 40 + [P1] * 30)
    assert [type(e) for e in events] == [NoPattern, PatternRead]


def test_unreadable_frames_count_as_covered():
    live = LiveShakerReader(reader=scripted([P1] * 20))
    assert live.feed(None, 0.0) == []
    assert live.feed(np.zeros((4, 4), np.uint8), 0.1) == []


def test_events_are_frozen_and_json():
    e = PatternRead(tuple(tuple(r) for r in P1), 1.5)
    assert e.to_json() == {"event": "pattern", "pattern": P1, "at": 1.5}
    assert NoPattern("x", 2.0).to_json()["event"] == "no_pattern"
    try:
        e.at = 3.0  # type: ignore[misc]
    except AttributeError:
        pass
    else:
        raise AssertionError("events must be frozen")


def test_live_on_generated_frames(shaker_plain_scene):
    """Real reading: the box over the cubes, then the plain scene held: exactly one event, the right one."""
    import random

    from vision.shaker_scene import render_covered

    frame_bgr, truth = shaker_plain_scene
    covered = render_covered(random.Random(9))[0]
    live = LiveShakerReader()
    events = []
    t = 0.0
    for frame in [covered] * 4 + [frame_bgr] * 12:
        events += live.feed(frame, t)
        t += 1 / 15
    assert len(events) == 1 and isinstance(events[0], PatternRead)
    assert [list(r) for r in events[0].pattern] == truth["pattern"]


def test_frames_too_soon_are_skipped():
    calls = []

    def read(frame):
        calls.append(frame)
        return ShakerReading(True, P1, None, grid_corners=CORNERS)

    live = LiveShakerReader(reader=read, min_interval_seconds=0.1, still_level=None)
    events = []
    for i in range(60):  # two seconds at 30 frames per second
        events += live.feed(FRAME, i / 30)
    assert 18 <= len(calls) <= 21
    assert len(events) == 1 and isinstance(events[0], PatternRead)


def incomplete_scene_with_a_grid() -> tuple[np.ndarray, ShakerReading]:
    """A generated incomplete pattern (its middle cube missing) that the reader refuses on a grid, and that reading."""
    import random

    from vision.shaker import read_shaker
    from vision.shaker_scene import random_pattern, render_shake

    rng = random.Random(12)
    for _ in range(20):
        pattern = random_pattern(rng)
        pattern[1][1] = None
        incomplete, _ = render_shake(pattern, rng)
        reading = read_shaker(incomplete)
        if not reading.valid and reading.grid_corners is not None:
            return incomplete, reading
    raise AssertionError("no incomplete scene with a grid found in 20 tries")


def test_live_lifted_without_complete_pattern_on_generated_frames():
    """The box over the cubes, then an incomplete pattern held: one NoPattern with the reader's reason."""
    import random

    from vision.shaker_scene import render_covered

    incomplete, reading = incomplete_scene_with_a_grid()
    covered = render_covered(random.Random(9))[0]
    live = LiveShakerReader()
    events = []
    for i, frame in enumerate([covered] * 4 + [incomplete] * 24):
        events += live.feed(frame, i / 15)
    assert len(events) == 1 and isinstance(events[0], NoPattern)
    assert events[0].reason == reading.reason


def test_a_new_shake_is_reported_when_the_box_over_stray_cubes_still_shows_a_few():
    """The box put down over the pattern can leave stray cubes in view (a partial grid, not 'covered'):
    the reported pattern being gone re-arms the reader, so the next shake is reported too, once."""
    states = ["covered"] * 10 + [P1] * 30 + ["incomplete"] * 20 + [P2] * 30 + ["incomplete"] * 20 + [P1] * 30
    events = run(states)
    assert [type(e) for e in events] == [PatternRead] * 3
    assert [[list(r) for r in e.pattern] for e in events] == [P1, P2, P1]


def test_live_on_a_stream_of_generated_shakes_reports_each_shake_once():
    import random

    from vision.shaker_scene import random_pattern, render_shake

    live = LiveShakerReader()
    fps, t, per_shake = 10.0, 0.0, []
    for seed in range(5):
        pattern = random_pattern(random.Random(seed))
        covered, _ = render_shake(pattern, random.Random(seed), covered=True)
        lifted, truth = render_shake(pattern, random.Random(seed))
        events = []
        for frame_bgr, seconds in ((covered, 0.8), (lifted, 1.5)):
            for _ in range(int(seconds * fps)):
                events += live.feed(frame_bgr, t)
                t += 1 / fps
        per_shake.append(events)
        assert len(events) == 1, (seed, events)
        if isinstance(events[0], PatternRead):
            assert [list(r) for r in events[0].pattern] == truth["pattern"]
    assert sum(isinstance(e[0], PatternRead) for e in per_shake) >= 4


STRAY_CORNERS = [[50.0, 50.0], [60.0, 50.0], [60.0, 60.0], [50.0, 60.0]]


def scripted_with_strays(states):
    """As :func:`scripted`, plus "strays": the box down over the pattern with a few stray cubes in view
    (a partial grid elsewhere, the same in every frame)."""
    it = iter(states)
    others = scripted([s for s in states if s != "strays"])

    def read(frame):
        if next(it) == "strays":
            return ShakerReading(False, None, "3 cubes in the grid", grid_corners=STRAY_CORNERS)
        return others(frame)

    return read


def run_with_strays(states, fps=30.0):
    live = LiveShakerReader(reader=scripted_with_strays(states), still_level=None)
    events = []
    for i in range(len(states)):
        events += live.feed(FRAME, i / fps)
    return events


def test_the_box_down_over_stray_cubes_is_not_a_refused_shake():
    """The box stays down for two seconds over the next shake while stray cubes show a partial grid: the
    reader re-arms (the reported pattern is gone) but says nothing until the box is lifted."""
    events = run_with_strays(["covered"] * 10 + [P1] * 30 + ["strays"] * 60 + [P2] * 30)
    assert [type(e) for e in events] == [PatternRead, PatternRead]
    assert [[list(r) for r in e.pattern] for e in events] == [P1, P2]


def test_stray_cubes_in_view_from_the_start_are_not_a_refused_shake():
    assert [type(e) for e in run_with_strays(["strays"] * 60 + [P1] * 30)] == [PatternRead]


def test_a_lift_after_the_box_over_stray_cubes_can_still_be_refused():
    """The lifted shake shows no complete pattern where the grid is (not where the strays were): refused once."""
    events = run_with_strays(["covered"] * 10 + [P1] * 30 + ["strays"] * 60 + ["incomplete"] * 45)
    assert [type(e) for e in events] == [PatternRead, NoPattern]
    assert events[1].reason == "7 cubes in the grid"


def test_live_on_the_demo_cameras_timeline_reports_each_shake_once():
    """Generated shakes as the simulated camera shows them: the box down for 2 s, then lifted for 3 s."""
    import random

    from vision.shaker_scene import random_pattern, render_shake

    live = LiveShakerReader()
    fps, t, kinds = 10.0, 0.0, []
    for seed in range(30, 36):
        pattern = random_pattern(random.Random(seed))
        covered, _ = render_shake(pattern, random.Random(seed), covered=True)
        lifted, truth = render_shake(pattern, random.Random(seed))
        events = []
        for frame_bgr, seconds in ((covered, 2.0), (lifted, 3.0)):
            for _ in range(int(seconds * fps)):
                events += live.feed(frame_bgr, t)
                t += 1 / fps
        assert len(events) == 1, (seed, events)
        kinds.append(type(events[0]))
    assert kinds.count(PatternRead) >= 5, kinds


def test_the_box_held_down_is_not_a_refused_shake_though_its_reread_finds_another_grid(shaker_plain_scene):
    """The box held down over the next shake for 4 s: the still view is read again every ``reread_seconds``, and
    with fresh sensor noise the reader's refusal of it lies on another grid each time (stray cubes, the box's
    print). A reading that changes while the view does not is not the box lifted: no "shake again" until it is.
    Three boxes (seeds 44, 50, 56). Whether a box's refusal changes from one read to the next depends on the
    machine: seed 44's did in session 45's CI and does not on session 46's machine (an AMD EPYC, AVX2) at the same
    commit, f8b4817, most likely through OpenCV's CPU-dependent code paths. So the case itself is asked of two of
    the three, and the outcome (one pattern, no "shake again") of all three."""
    import random

    from vision.shaker_scene import random_pattern, render_shake

    frame_bgr, truth = shaker_plain_scene
    varied = 0
    for seed in (44, 50, 56):
        covered, _ = render_shake(random_pattern(random.Random(seed)), random.Random(seed), covered=True)
        rng = np.random.default_rng(seed)
        live = LiveShakerReader()
        events, fps, t = [], 10.0, 0.0
        for _ in range(10):
            events += live.feed(noisy(frame_bgr, rng), t)
            t += 1 / fps
        refusals = set()
        for _ in range(40):
            events += live.feed(noisy(covered, rng), t)
            reading = live.last_reading
            assert reading is not None and not reading.valid, seed
            corners = None if reading.grid_corners is None else tuple(np.round(reading.grid_corners, -1).ravel())
            refusals.add((reading.reason, corners))
            t += 1 / fps
        varied += len(refusals) > 1  # (the case itself: the still box read differently from one read to the next)
        assert [type(e) for e in events] == [PatternRead], (seed, events)
        assert [list(r) for r in events[0].pattern] == truth["pattern"], seed
    assert varied >= 2


def test_a_still_view_refused_in_full_is_looked_at_again_with_a_first_look_only(monkeypatch):
    """The box held down for 4 s: read in full once it holds still, then, every ``reread_seconds``, looked at
    with a first look only (a full read's second looks would find nothing new, at several times a look's cost);
    the full read's refusal stands. With ``first_look_seconds=0`` every reread is in full, as before."""
    import random

    import vision.shaker_live as live_module
    from vision.shaker_scene import random_pattern, render_shake

    covered, _ = render_shake(random_pattern(random.Random(44)), random.Random(44), covered=True)
    full_reads = []
    real_read = live_module.read_shaker

    def counted(frame_bgr, *args, settings, **kw):
        full_reads.append(settings == live_module.DEFAULT_SETTINGS)
        return real_read(frame_bgr, *args, settings=settings, **kw)

    monkeypatch.setattr(live_module, "read_shaker", counted)
    for first_look_seconds, full_expected in ((1.0, 1), (0.0, 5)):
        full_reads.clear()
        live = LiveShakerReader(first_look_seconds=first_look_seconds)
        rng = np.random.default_rng(44)
        reasons = set()
        for i in range(41):  # 4 s at 10 frames a second, fresh sensor noise on each
            live.feed(noisy(covered, rng), i / 10)
            assert live.last_reading is not None and not live.last_reading.valid
            reasons.add(live.last_reading.reason)
        assert full_reads.count(True) == full_expected, full_reads
        if first_look_seconds:
            assert live.looks_again == 4 and full_reads.count(False) == 4
            assert len(reasons) == 1  # (the full read's refusal, whatever the looks say)


def test_a_still_views_refused_first_look_read_in_full_stops_when_the_newest_frame_shows_another_view():
    """The box put down (a first look, refused), then held still: its full read's second looks begin; the camera's
    newest frame already shows the box lifted. The read stops as its next look begins: the look's refusal stands
    and the next frame is read at once (on a Pi those second looks take up to a second or more)."""
    import random

    from vision.shaker_scene import random_pattern, render_shake

    covered, _ = render_shake(random_pattern(random.Random(44)), random.Random(44), covered=True)
    lifted, truth = render_shake(random_pattern(random.Random(45)), random.Random(45))
    for newest, stopped in ((lifted, 1), (covered, 0), (None, 0)):
        live = LiveShakerReader(newest_frame=None if newest is None else (lambda f=newest: f))
        live.feed(lifted, 0.0)  # (a view before: the box's frame is then a moving view's, read with a first look)
        live.feed(covered, 0.1)
        look = live.last_reading
        assert live.first_looks == 1 and look is not None and not look.valid
        live.feed(covered, 0.2)  # the view holds still: read in full, unless the newest frame shows another view
        assert live.stopped_reads == stopped
        if stopped:
            assert live.last_reading is look and live.reads == 3
            live.feed(lifted, 0.3)  # (the box lifted: the next frame is read)
            assert live.reads == 4 and live.last_reading is not look
        else:
            assert live.last_reading is not look and live._still is not None and live._still[3]


# ---------------------------------------------------------------- a still view is not read again


def noisy(frame_bgr, rng, sigma=4.0):
    """The frame as a camera gives it again: fresh sensor noise on every pixel."""
    noise = rng.normal(0.0, sigma, frame_bgr.shape)
    return np.clip(frame_bgr.astype(np.float64) + noise, 0, 255).astype(np.uint8)


def test_a_still_view_is_read_once_and_reported_right(shaker_plain_scene):
    """Thirty frames of the same cubes, each with its own sensor noise: one full read, the rest reuse it,
    and the event is the same as reading every frame."""
    frame_bgr, truth = shaker_plain_scene
    rng = np.random.default_rng(3)
    frames = [noisy(frame_bgr, rng) for _ in range(30)]
    events = {}
    for level in (6.0, None):
        live = LiveShakerReader(still_level=level)
        events[level] = [e for i, f in enumerate(frames) for e in live.feed(f, i / 30)]
        if level is not None:
            assert (live.reads, live.reuses) == (1, 29)
    assert events[6.0] == events[None]
    assert [[list(r) for r in e.pattern] for e in events[6.0]] == [truth["pattern"]]


def test_a_changed_view_is_read_again(shaker_plain_scene):
    """A cube-sized patch changed, the light dimmed, or another shake: each is a full read."""
    frame_bgr, _ = shaker_plain_scene
    h, w = frame_bgr.shape[:2]
    patch = frame_bgr.copy()
    y, x = h // 2, w // 2
    patch[y : y + 40, x : x + 40] = 255 - patch[y : y + 40, x : x + 40]
    dimmer = (frame_bgr * 0.8).astype(np.uint8)
    for changed in (patch, dimmer):
        live = LiveShakerReader()
        live.feed(frame_bgr, 0.0)
        live.feed(changed, 0.1)
        assert (live.reads, live.reuses) == (2, 0)
    # a small overall shift (exposure settling) is not a change
    live = LiveShakerReader()
    live.feed(frame_bgr, 0.0)
    live.feed(np.clip(frame_bgr.astype(np.int16) + 3, 0, 255).astype(np.uint8), 0.1)
    assert (live.reads, live.reuses) == (1, 1)


def test_a_still_view_is_read_again_after_reread_seconds(shaker_plain_scene):
    frame_bgr, _ = shaker_plain_scene
    live = LiveShakerReader(reread_seconds=1.0)
    for i in range(31):  # 3 s at 10 frames per second
        live.feed(frame_bgr, i / 10)
    assert (live.reads, live.reuses) == (4, 27)


def test_unchanged_compares_with_the_frame_read_in_full():
    """A change is measured from the frame read in full, beyond an overall shift: a quarter of the view
    brighter by 6 levels is still, by 7 it is not; a view of another size is not."""
    from vision.shaker_live import unchanged

    ref = np.full((48, 64, 3), 100.0, np.float32)
    ramp = np.zeros_like(ref)
    ramp[:, 48:] = 1.0  # a quarter of the view brightens (not an overall shift)
    assert unchanged(ref + 6 * ramp, ref, 6.0)
    assert not unchanged(ref + 7 * ramp, ref, 6.0)
    assert not unchanged(ref[:24], ref, 6.0)


# ---------------------------------------------------------------- a moving view gets a first look


def test_a_moving_view_gets_a_first_look_and_its_refusal_is_read_in_full_once_it_holds_still():
    """Generated set 41015's frame 0029: a complete pattern only a second look reads (its square-steps read; see
    test_shaker_first_look). After another view (frame 0015), it is a moving view: a first look refuses it; the next
    frame of it, unchanged, is read in full and reads it, and it is reported one frame later than when every
    changed frame is read in full."""
    frames = {41015: 30}
    other, _ = set_scene(41015, 15, frames)
    frame_bgr, truth = set_scene(41015, 29, frames)
    feed = [(other, 0.0)] + [(frame_bgr, 0.1 * (i + 1)) for i in range(10)]
    runs = {}
    for first_looks in (True, False):
        live = LiveShakerReader(first_look_seconds=1.0 if first_looks else 0.0)
        events = [e for f, t in feed for e in live.feed(f, t)]
        runs[first_looks] = (events, live.reads, live.first_looks)
    events, reads, firsts = runs[True]
    assert (reads, firsts) == (3, 1)  # the other view in full; frame 0029's first look, then in full
    assert len(events) == 1 and isinstance(events[0], PatternRead)
    assert [list(r) for r in events[0].pattern] == truth["cells"]
    events_full, reads_full, firsts_full = runs[False]
    assert (reads_full, firsts_full) == (2, 0)
    assert events_full[0].pattern == events[0].pattern
    assert events[0].at - events_full[0].at == pytest.approx(0.1)


def test_a_valid_first_look_is_kept_while_the_view_holds_still(shaker_plain_scene):
    """A moving view read valid with a first look is not read again in full: its reading is the full read's."""
    frame_bgr, truth = shaker_plain_scene
    other = np.ascontiguousarray(frame_bgr[::-1])  # (another view: the frame upside down)
    live = LiveShakerReader()
    events = [e for i, f in enumerate([other] + [frame_bgr] * 10) for e in live.feed(f, i / 10)]
    assert (live.reads, live.first_looks, live.reuses) == (2, 1, 9)
    assert [[list(r) for r in e.pattern] for e in events] == [truth["pattern"]]


def test_a_view_that_never_holds_still_is_read_in_full_after_first_look_seconds():
    """Generated set 41015's frame 0029 (a pattern only a second look reads) with a band across its top quarter
    flickering 12 levels brighter every other frame (a lamp or a screen in view): no two frames alike, the view
    never holds still. First looks refuse it for first_look_seconds of motion; then every frame is read in full
    again, as without first looks, and the pattern is reported."""
    frame_bgr, truth = set_scene(41015, 29, {41015: 30})
    band = frame_bgr.copy()
    top = slice(0, frame_bgr.shape[0] // 4)
    band[top] = np.clip(band[top].astype(np.int16) + 12, 0, 255).astype(np.uint8)
    live = LiveShakerReader(first_look_seconds=1.0)
    events = [e for i in range(25) for e in live.feed(band if i % 2 else frame_bgr, i / 8)]  # (8 frames a second)
    # 0: in full (no frame before it); 0.125 to 1.0, moving since 0.125: first looks; from 1.125 on: in full
    assert (live.reads, live.first_looks, live.reuses) == (25, 8, 0)
    assert [type(e) for e in events] == [PatternRead]
    assert [list(r) for r in events[0].pattern] == truth["cells"]
    assert events[0].at == 1.5  # (the first frame to have held it stable_seconds, 0.3 s, from 1.125)


def test_a_still_pattern_only_a_second_look_reads_is_looked_at_again_not_read_in_full_again():
    """Generated set 41015's frame 0029 (a pattern only a second look reads) left on the table 3 s: read in full
    once, reported, then looked at again every ``reread_seconds`` with a first look, which refuses it: the full
    read's reading stands (its second looks were taken on this very view; on a Pi each takes up to a second or
    more). With ``first_look_seconds=0`` it is read in full each time."""
    frame_bgr, truth = set_scene(41015, 29, {41015: 30})
    rng = np.random.default_rng(29)
    for first_look_seconds, reads_in_full in ((1.0, 1), (0.0, 4)):
        live = LiveShakerReader(first_look_seconds=first_look_seconds)
        events = [e for i in range(31) for e in live.feed(noisy(frame_bgr, rng), i / 10)]  # (3 s, 10 frames a second)
        assert [[list(r) for r in e.pattern] for e in events] == [truth["cells"]]
        assert live.last_reading is not None and live.last_reading.valid
        assert live.reads - live.first_looks - live.looks_again == reads_in_full
        assert live.looks_again == (3 if first_look_seconds else 0)


def test_a_refused_shake_is_reported_on_a_full_reads_refusal_not_on_first_looks():
    """The box lifted off an incomplete pattern under a flickering lamp (a band 12 levels brighter every other
    frame): a moving view, read with first looks only (``first_look_seconds`` 5 s here), refused for 2 s. A first
    look's refusal may yet be read valid by a second look: nothing is reported until the view holds still and its
    full read refuses it too; then "no complete pattern" once."""
    import random

    from vision.shaker_scene import render_covered

    incomplete, _ = incomplete_scene_with_a_grid()
    band = incomplete.copy()
    top = slice(0, incomplete.shape[0] // 4)
    band[top] = np.clip(band[top].astype(np.int16) + 12, 0, 255).astype(np.uint8)
    covered = render_covered(random.Random(9))[0]
    live = LiveShakerReader(first_look_seconds=5.0)
    frames = [covered] * 4 + [band if i % 2 else incomplete for i in range(20)] + [incomplete] * 15
    events = [(i, e) for i, frame in enumerate(frames) for e in live.feed(frame, i / 10)]
    assert live.first_looks >= 19  # (the flickering view: first looks only)
    assert [type(e) for _, e in events] == [NoPattern]
    assert events[0][0] >= 24  # (once the view held still and its full read refused it)
