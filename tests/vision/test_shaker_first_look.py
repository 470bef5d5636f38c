"""A first look (:func:`vision.shaker.first_look`): a read with none of a refused frame's second looks, as the live
reader reads a view that is still moving. What it reads valid the full read reads the same; what it refuses the
full read refuses the same way or reads valid with a second look."""

from __future__ import annotations

from dataclasses import fields

from vision.shaker import DEFAULT_SETTINGS, first_look, read_shaker

from .shaker_sets import set_scene

_FRAMES = {41015: 30}
_SECOND_LOOKS = {
    "retry_without_size": False,
    "relattice": False,
    "made_lattice": False,
    "busy_retry_factor": 0.0,
    "close_up_long_side": 0,
    "square_retry": False,
    "glare_retry": False,
}


def test_a_first_look_turns_off_each_second_look_and_nothing_else():
    settings = first_look(DEFAULT_SETTINGS)
    assert settings is first_look(DEFAULT_SETTINGS)  # (a frame's memo keys settings by identity)
    for f in fields(settings):
        want = _SECOND_LOOKS.get(f.name, getattr(DEFAULT_SETTINGS, f.name))
        assert getattr(settings, f.name) == want, f.name
    # each of them is on in the full read
    assert all(getattr(DEFAULT_SETTINGS, name) != off for name, off in _SECOND_LOOKS.items())


def test_a_first_look_reads_as_the_full_read_or_refuses_what_only_a_second_look_reads():
    """Generated set 41015 (``shakecity make-shaker-set D --seed 41015``), its first 30 frames: a valid first look
    is the full read's reading (pattern, corners, confidences); a refused one is the full read's refusal (reason,
    corners) unless the full read is valid. Frame 0029 is one (its square-steps read, test_shaker_recall); the
    set's incomplete patterns are refused by both."""
    read_by_second_look, refused_by_both, valid = [], 0, 0
    for i in range(30):
        frame_bgr, truth = set_scene(41015, i, _FRAMES)
        full = read_shaker(frame_bgr)
        first = read_shaker(frame_bgr, settings=first_look())
        if first.valid:
            valid += 1
            assert full.valid, i
            assert (first.pattern, first.grid_corners, first.confidence) == (
                full.pattern,
                full.grid_corners,
                full.confidence,
            ), i
        elif full.valid:
            read_by_second_look.append(i)
        else:
            refused_by_both += 1
            assert (first.reason, first.grid_corners) == (full.reason, full.grid_corners), i
        if not truth["valid"]:
            assert not first.valid and not full.valid, i
    assert 29 in read_by_second_look
    assert valid >= 15 and refused_by_both >= 3


def test_should_stop_is_asked_as_each_look_begins_and_stops_the_read():
    """``read_shaker(..., should_stop=f)``: ``f`` is asked as each read of the frame begins (its first look, then
    each second look of a refused frame); answering no changes nothing, answering yes stops the read."""
    import random

    import pytest

    from vision.shaker import ReadStopped
    from vision.shaker_scene import random_pattern, render_shake

    class Asked:
        """Says yes from its ``stop_at``-th question on (0: never)."""

        def __init__(self, stop_at: int = 0) -> None:
            self.count, self.stop_at = 0, stop_at

        def __call__(self) -> bool:
            self.count += 1
            return 0 < self.stop_at <= self.count

    lifted, _ = render_shake(random_pattern(random.Random(45)), random.Random(45))
    covered, _ = render_shake(random_pattern(random.Random(44)), random.Random(44), covered=True)
    for frame_bgr, second_looks in ((lifted, False), (covered, True)):  # (read on its first look; refused)
        asked = Asked()
        reading = read_shaker(frame_bgr, should_stop=asked)
        assert reading.to_json() == read_shaker(frame_bgr).to_json()
        assert reading.valid != second_looks
        assert (asked.count > 1) == second_looks and asked.count >= 1
        with pytest.raises(ReadStopped):
            read_shaker(frame_bgr, should_stop=Asked(stop_at=1))
    # stopped as the first second look begins: the first look was read, the rest not
    asked = Asked(stop_at=2)
    with pytest.raises(ReadStopped):
        read_shaker(covered, should_stop=asked)
    assert asked.count == 2
