"""A whole 15-round Wild Nights game on gpiozero's mock pins, moved on by the tracker's buttons.

The shaker reader is injected (the table loop takes any ``feed(frame_bgr, t)``); here a scripted one
hands the loop the pattern of each round, so the test controls exactly what is read and when. Every
LED is read back from the mock pins after every step.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from device.cameras import Frame, random_pattern
from device.config import PinMap
from device.table import MemoryTable, TableLoop
from device.tracker import RoundTracker
from scoring.shake_that_city.game import Game, Place, Setup, legal_choices, placements

from .conftest import ManualClock

PLAYERS = ["Ann", "Bo", "Cy"]  # three players: the fourth seat LED stays dark all game


@dataclass(frozen=True)
class PatternRead:
    pattern: Any
    at: float


@dataclass(frozen=True)
class NoPattern:
    reason: str
    at: float


class ScriptedReader:
    """Returns, on the next frame, the events the test queued."""

    def __init__(self) -> None:
        self.queue: list[Any] = []
        self.fed = 0
        self.resets = 0

    def feed(self, frame_bgr: np.ndarray, t: float) -> list[Any]:
        self.fed += 1
        out, self.queue = self.queue, []
        return out

    def reset(self) -> None:
        self.resets += 1


class Table:
    """The loop, its game and a frame counter, for driving a game step by step."""

    def __init__(self, tracker: RoundTracker, clock: ManualClock, variants: list[str]) -> None:
        self.game = Game(Setup.create(PLAYERS, "inland", variants))
        self.reader = ScriptedReader()
        self.events: list[dict[str, Any]] = []
        self.loop = TableLoop(
            None, self.reader, MemoryTable(self.game), tracker, clock=clock, listeners=[self.events.append]
        )
        self.clock = clock
        self.seq = 0

    def read(self, *events: Any) -> list[dict[str, Any]]:
        self.reader.queue = list(events)
        self.seq += 1
        self.clock.advance(0.1)
        frame = Frame(np.zeros((8, 8, 3), np.uint8), self.clock(), self.seq)
        return self.loop.step(frame)

    def shake(self, pattern: list[list[str]]) -> list[dict[str, Any]]:
        return self.read(PatternRead(pattern, self.clock()))

    def types(self) -> list[str]:
        return [e["type"] for e in self.events]


def place_everyone(game: Game) -> None:
    """Every player takes the first legal colour (with the wild cubes when there are any) and places it at
    its first legal spot, the active player first."""
    state = game.state
    order = [state.active_player] + [p for p in state.setup.players if p != state.active_player]
    for name in order:
        choices = legal_choices(game.state, name)
        if choices:
            choice = sorted(choices, key=lambda c: not c.wilds)[0]
            row, col = placements(game.state, name, choice)[0]
            game.apply(Place(name, choice.colour, choice.wilds, row, col))


def pin(factory: MockFactory, name: str) -> bool:
    return bool(factory.pin(name).state)


def assert_leds(
    factory: MockFactory,
    pins: PinMap,
    tracker: RoundTracker,
    *,
    rounds_lit: set[int],
    seat: int | None,
    free: bool,
    wild: bool,
    status: str,
) -> None:
    """Every LED read back from its mock pin (the status LED by mode while it blinks)."""
    assert [pin(factory, p) for p in pins.rounds] == [r in rounds_lit for r in range(1, 16)]
    assert [pin(factory, p) for p in pins.seats] == [i == seat for i in range(4)]
    assert pin(factory, pins.free_choice) is free
    assert pin(factory, pins.wild_nights) is wild
    snap = tracker.snapshot()
    assert snap["status"]["mode"] == status
    if status == "pattern":
        assert pin(factory, pins.status) is True
    if status == "off":
        assert pin(factory, pins.status) is False
    # the page's virtual LEDs say the same as the pins
    assert snap["rounds"] == [r in rounds_lit for r in range(1, 16)]
    assert snap["seats"] == [i == seat for i in range(4)]
    assert (snap["free_choice"], snap["wild_nights"]) == (free, wild)
    assert snap["pins"] == "mock pins"


def test_whole_wild_nights_game_by_buttons(
    tracker: RoundTracker, mock_factory: MockFactory, pin_map: PinMap, clock: ManualClock
) -> None:
    table = Table(tracker, clock, ["wild_nights"])
    rng = random.Random(7)
    table.loop.refresh()
    wild_taken = whites_shown = 0
    for r in range(1, 16):
        # the rules page: seats turn clockwise; free choice from round 13; a white cube joins on 2-8
        expected = {"rounds_lit": {r}, "seat": (r - 1) % 3, "free": r >= 13, "wild": 2 <= r <= 8}
        assert table.game.state.round_no == r
        assert_leds(mock_factory, pin_map, tracker, **expected, status="reading")

        pattern = random_pattern(rng, table.game.state.shaker())
        if r == 8:  # make sure the wild cubes are in play at least once
            pattern[2][2] = "white" if table.game.state.whites_in_shaker else pattern[2][2]
        events = table.shake(pattern)
        whites_shown += sum(row.count("white") for row in pattern)
        assert [e["type"] for e in events] == ["pattern", "leds"]
        assert events[0]["pattern"] == pattern and events[0]["round"] == r
        assert events[0]["active_player"] == PLAYERS[(r - 1) % 3]
        assert events[0]["wild_nights"] is expected["wild"] and events[0]["free_choice"] is expected["free"]
        assert_leds(mock_factory, pin_map, tracker, **expected, status="pattern")

        if r == 5:
            # undo needs a hold: a short press changes nothing ...
            tracker.press("undo")
            assert table.game.state.pattern is not None
            # ... a hold takes back the last action (the shake)
            assert tracker.hold("undo")
            assert table.game.state.pattern is None and table.game.state.round_no == 5
            assert tracker.presses["undo"] == 1  # the hold, and only the hold
            assert_leds(mock_factory, pin_map, tracker, **expected, status="reading")
            # rescan, and the reader sees the same pattern again
            clock.advance(1.0)
            tracker.press("rescan")
            assert table.reader.resets == 1
            assert table.shake(pattern)[0]["type"] == "pattern"
            assert_leds(mock_factory, pin_map, tracker, **expected, status="pattern")

        if r == 10:
            # next round before anyone placed: refused, the LEDs say error, the round stays
            clock.advance(1.0)
            tracker.press("next_round")
            assert table.events[-2]["type"] == "refused" and "still to place" in table.events[-2]["reason"]
            assert_leds(mock_factory, pin_map, tracker, **expected, status="error")

        place_everyone(table.game)
        wild_taken += sum(1 for p in table.game.state.players if p.choice and p.choice.wilds)
        table.loop.refresh()
        assert_leds(mock_factory, pin_map, tracker, **expected, status="pattern")

        clock.advance(1.0)  # a finger, not a bounce
        tracker.press("next_round")
        assert table.events[-2]["type"] == "round" and table.events[-2]["action"] == "next_round"

    state = table.game.state
    assert state.finished
    assert wild_taken >= 1
    assert whites_shown >= 1
    assert state.whites_in_shaker == 8 - whites_shown  # 1 + 7 joined (rounds 2-8), the shown ones left
    # game over: all 15 round LEDs lit, no seat, no round light
    assert_leds(
        mock_factory,
        pin_map,
        tracker,
        rounds_lit=set(range(1, 16)),
        seat=None,
        free=False,
        wild=False,
        status="pattern",
    )
    assert tracker.presses["next_round"] == 16  # 15 rounds + the refused press


def test_progress_display_lights_every_round_played(mock_factory: MockFactory, pin_map: PinMap, clock: ManualClock):
    import dataclasses

    with RoundTracker(
        dataclasses.replace(pin_map, round_display="progress"), pin_factory=mock_factory, clock=clock
    ) as t:
        table = Table(t, clock, [])
        for r in range(1, 5):
            table.loop.refresh()
            assert [pin(mock_factory, p) for p in pin_map.rounds] == [i <= r for i in range(1, 16)]
            assert pin(mock_factory, pin_map.wild_nights) is False  # no Wild Nights in this game
            table.shake(random_pattern(random.Random(r), table.game.state.shaker()))
            place_everyone(table.game)
            clock.advance(1.0)
            t.press("next_round")


def test_a_bounce_does_not_advance_two_rounds(tracker: RoundTracker, mock_factory: MockFactory, clock: ManualClock):
    table = Table(tracker, clock, [])
    # round 1 done and round 2 shaken: two next-round presses in a row would both be possible actions
    # for the button (the second one refused by the game), so count what the button did
    table.shake(random_pattern(random.Random(1), table.game.state.shaker()))
    place_everyone(table.game)
    button_pin = mock_factory.pin(tracker.pins.next_round)
    # a bouncing contact: low, high, low, high, low, high within a few milliseconds (the clock stands still)
    for _ in range(3):
        button_pin.drive_low()
        button_pin.drive_high()
    assert table.game.state.round_no == 2
    assert tracker.presses["next_round"] == 1
    assert "refused" not in table.types()
    # a real second press, later, is acted on (and refused: round 2 has no pattern yet)
    clock.advance(tracker.pins.bounce_time + 0.5)
    tracker.press("next_round")
    assert tracker.presses["next_round"] == 2
    assert table.types()[-2] == "refused"
    assert table.game.state.round_no == 2


def test_undo_short_press_never_undoes(tracker: RoundTracker, clock: ManualClock):
    table = Table(tracker, clock, [])
    table.shake(random_pattern(random.Random(2), table.game.state.shaker()))
    for _ in range(5):
        clock.advance(1.0)
        tracker.press("undo")
    # the hold thread has handled every press before it handles this hold (it takes them in order)
    assert tracker.hold("undo")
    assert tracker.presses["undo"] == 1
    assert len(table.game.actions) == 0  # one action (the shake) taken back, exactly once


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        ([["red", "red", "red"], ["red", "red", "red"], ["red", "red", "red"]], "only 8"),
        ([["white", "white", "red"], ["red", "red", "red"], ["blue", "blue", "blue"]], "white"),
        ([["red", None, "red"], ["blue", "blue", "blue"], ["gray", "gray", "gray"]], "complete"),
    ],
)
def test_pattern_the_game_cannot_accept_is_shake_again(
    tracker: RoundTracker, mock_factory: MockFactory, pin_map: PinMap, clock: ManualClock, pattern, why
):
    table = Table(tracker, clock, ["wild_nights"])  # round 1: one white cube in the shaker
    events = table.shake(pattern)
    assert [e["type"] for e in events] == ["shake_again", "leds"]
    assert why in events[0]["reason"]
    assert table.game.state.pattern is None
    assert tracker.status_mode == "error"
    # a good shake clears the error
    good = [["red", "blue", "black"], ["green", "gray", "red"], ["blue", "black", "green"]]
    assert table.shake(good)[0]["type"] == "pattern"
    assert tracker.status_mode == "pattern"
    assert pin(mock_factory, pin_map.status) is True


def test_no_pattern_is_shake_again_only_while_the_round_waits(tracker: RoundTracker, clock: ManualClock):
    table = Table(tracker, clock, [])
    assert table.read(NoPattern("a cube is knocked out of the grid", clock()))[0]["type"] == "shake_again"
    table.shake([["red", "blue", "black"], ["green", "gray", "red"], ["blue", "black", "green"]])
    # the players clear the table after the pattern was taken: nothing to say
    assert table.read(NoPattern("only 4 cubes", clock())) == []
    assert table.game.state.pattern is not None


def test_same_pattern_twice_is_one_event(tracker: RoundTracker, clock: ManualClock):
    table = Table(tracker, clock, [])
    good = [["red", "blue", "black"], ["green", "gray", "red"], ["blue", "black", "green"]]
    table.shake(good)
    assert table.shake(good) == []
    assert table.types().count("pattern") == 1
    assert len(table.game.actions) == 1


def test_without_a_game_the_pattern_is_shown_not_played(tracker: RoundTracker, clock: ManualClock):
    reader = ScriptedReader()
    loop = TableLoop(None, reader, MemoryTable(None), tracker, clock=clock)
    reader.queue = [PatternRead([["red"] * 3, ["blue"] * 3, ["gray"] * 3], clock())]
    events = loop.step(Frame(np.zeros((4, 4, 3), np.uint8), clock(), 1))
    assert events[0] == {
        "type": "pattern",
        "pattern": [["red"] * 3, ["blue"] * 3, ["gray"] * 3],
        "round": None,
        "accepted": False,
    }
    out = loop.next_round()
    assert out[0]["type"] == "refused" and "no game" in out[0]["reason"]
    assert tracker.snapshot()["rounds"] == [False] * 15


def test_a_new_shake_before_next_round_is_refused_with_a_hint(tracker: RoundTracker, clock: ManualClock) -> None:
    table = Table(tracker, clock, [])
    first_shake = [["red", "blue", "black"], ["green", "gray", "red"], ["blue", "black", "green"]]
    table.shake(first_shake)
    place_everyone(table.game)
    events = table.shake([["gray", "blue", "black"], ["green", "gray", "red"], ["blue", "black", "green"]])
    assert events[0]["type"] == "refused" and events[0]["reason"].startswith("press next round first: ")
    assert table.game.state.pattern.to_json() == first_shake
    assert tracker.status_mode == "error"


def test_before_anyone_chooses_a_new_shake_replaces_the_pattern(tracker: RoundTracker, clock: ManualClock) -> None:
    table = Table(tracker, clock, [])
    table.shake([["red", "blue", "black"], ["green", "gray", "red"], ["blue", "black", "green"]])
    again = [["gray", "blue", "black"], ["green", "gray", "red"], ["blue", "black", "green"]]
    assert table.shake(again)[0]["type"] == "pattern"
    assert table.game.state.pattern.to_json() == again


def test_a_reader_that_fails_is_reported_once_and_the_loop_goes_on(
    tracker: RoundTracker, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    class Flaky:
        def __init__(self) -> None:
            self.calls = 0

        def feed(self, frame_bgr: np.ndarray, t: float) -> list[Any]:
            self.calls += 1
            if self.calls <= 3:
                raise ValueError("operands could not be broadcast together")
            return [PatternRead([["red", "blue", "black"], ["green", "gray", "red"], ["blue", "black", "green"]], t)]

    game = Game(Setup.create(PLAYERS))
    loop = TableLoop(None, Flaky(), MemoryTable(game), tracker, clock=clock)
    image = np.zeros((4, 4, 3), np.uint8)
    outs = [loop.step(Frame(image, clock(), seq)) for seq in range(1, 5)]
    assert [e["type"] for e in outs[0]] == ["reader_error"] and "broadcast" in outs[0][0]["reason"]
    assert outs[1] == [] and outs[2] == []  # the same failure again: not repeated
    assert outs[3][0]["type"] == "pattern" and game.state.pattern is not None
    assert loop.reader_errors == 3
    assert len([r for r in caplog.records if "reader failed" in r.getMessage()]) == 1
