"""A real browser (Debian's Chromium through Playwright) plays a short game end to end on the demo.

Set-up on the page (calibration photos too), shakes from the page's simulated shaker, colour choices
and placements by tapping (one illegal tap refused with the engine's reason), virtual LEDs, a board
photo read, cross-checked and corrected, and the final ranking. Screenshots go to test-artifacts/
when it fails.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from pathlib import Path

import cv2
import pytest
from playwright.sync_api import Page, expect, sync_playwright

from web.pages import KNOWN_LAYOUT

from .server import PIN, Server, call

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TIMEOUT_MS = 20_000


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    server = Server(tmp_path / "data", "--pins", "mock", "--seed", "11").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def phone(request: pytest.FixtureRequest) -> Iterator[Page]:
    """A phone-sized page in Debian's Chromium; a full-page screenshot in test-artifacts/ if the test fails."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 412, "height": 915}, device_scale_factor=1)
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            yield page
            report = getattr(request.node, "report_call", None)
            if report is not None and report.failed:
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
            assert errors == [], f"JavaScript errors on the page: {errors}"
        finally:
            browser.close()


def snap(page: Page, name: str) -> None:
    """Screenshots of each stage for a person reviewing the pages: only when SHAKECITY_SHOTS names a folder."""
    folder = os.environ.get("SHAKECITY_SHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def calibration_photos(folder: Path) -> tuple[Path, Path, object]:
    from vision.board_scene import random_scene, render_calibration_pair

    rng = random.Random(2024)
    scene = random_scene(rng)
    empty, known, _ = render_calibration_pair(rng, scene=scene, known_grid=list(KNOWN_LAYOUT), width=1280, height=960)
    paths = folder / "empty.jpg", folder / "known.jpg"
    for path, image in zip(paths, (empty, known), strict=True):
        cv2.imwrite(str(path), image)
    return paths[0], paths[1], scene


def board_photo(folder: Path, grid: list[str], scene: object) -> Path:
    from vision.board_scene import render_board_photo

    photo, _ = render_board_photo(
        grid, random.Random(7), scene=scene, camera=scene.camera, light=scene.light, width=1280, height=960
    )
    path = folder / "board.jpg"
    cv2.imwrite(str(path), photo)
    return path


def play_round(page: Page) -> None:
    """Shake, then every player still to place taps their first offered colour and its first spot."""
    if page.locator("#pattern .cube.empty").count():
        page.click("#shake-demo")
        expect(page.locator("#pattern .cube.empty")).to_have_count(0)
    place_for_everyone(page)
    next_round = page.locator("#next-round")
    expect(next_round).to_be_enabled()
    next_round.click()


def place_for_everyone(page: Page) -> None:
    """Every player still to place taps their first offered colour and its first spot."""
    for _ in range(8):  # the active player first; the others once the active player has chosen
        cards = page.locator(".player:has(.choice)")
        if cards.count() == 0:
            break
        card = cards.first
        name = card.get_attribute("data-player")
        card.locator(".choice").first.click()
        card.locator(".cell.spot").first.click()
        expect(page.locator(f'.player[data-player="{name}"] .status')).to_have_text(
            re.compile("^(placed|can place nothing)")
        )


def test_a_short_game_end_to_end_in_chromium(server: Server, phone: Page, tmp_path: Path) -> None:
    page = phone
    base = server.url
    empty, known, scene = calibration_photos(tmp_path)

    # join with the PIN (the QR code's address carries it)
    page.goto(f"{base}/join?pin={PIN}")
    page.click("#join")
    expect(page).to_have_url(f"{base}/setup")
    expect(page.locator("img.qr")).to_be_visible()

    # calibrate the board reader from the set-up page
    page.set_input_files('#calibration input[name="empty"]', str(empty))
    page.set_input_files('#calibration input[name="known"]', str(known))
    page.click("#calibrate")
    expect(page.locator("#calibration-state")).to_have_text(re.compile("^Calibrated"), timeout=60_000)

    # set up two players
    page.fill("#player0", "Ann")
    page.fill("#player1", "Bo")
    page.click("#start-game")
    expect(page).to_have_url(f"{base}/table")
    expect(page.locator("#round-title")).to_have_text("Round 1 of 15")
    expect(page.locator("#live")).to_have_text("● live")
    expect(page.locator("#tracker .led.round.lit")).to_have_count(1)

    # round 1 by hand, with one illegal tap refused with the engine's reason
    page.click("#shake-demo")
    expect(page.locator("#pattern .cube.empty")).to_have_count(0)
    expect(page.locator("#pattern .cube b").first).to_have_text(re.compile("^[HSFPR★]$"))
    ann = page.locator('.player[data-player="Ann"]')
    expect(page.locator('.player[data-player="Bo"] .status')).to_have_text("waits for Ann to choose")
    for i in range(ann.locator(".choice").count()):  # a colour whose shape does not fit everywhere
        ann.locator(".choice").nth(i).click()
        expect(ann.locator(".choice").nth(i)).to_have_attribute("aria-pressed", "true")
        if ann.locator(".cell:not(.spot)").count():
            break
    ann.locator(".cell:not(.spot)").last.click()
    expect(page.locator("#message")).to_contain_text("cannot go at")
    expect(ann.locator(".cell.refused")).to_have_count(1)
    snap(page, "round-refused")
    play_round(page)
    expect(page.locator("#round-title")).to_have_text("Round 2 of 15")
    expect(page.locator(".player.active")).to_have_attribute("data-player", "Bo")
    expect(page.locator("#tracker .led.round.lit small")).to_have_text("2")

    # a phone that shows only its own player
    page.select_option("#me", "Bo")
    expect(page.locator(".player")).to_have_count(1)
    expect(page.locator(".player")).to_have_attribute("data-player", "Bo")
    expect(page.locator("#others")).to_contain_text("Ann: waits for the shake")
    page.select_option("#me", "")
    expect(page.locator(".player")).to_have_count(2)

    # the other rounds
    for round_no in range(2, 16):
        play_round(page)
        if round_no < 15:
            expect(page.locator("#round-title")).to_have_text(f"Round {round_no + 1} of 15")
    expect(page.locator("#round-title")).to_have_text("Game over")
    snap(page, "round-over")

    # Ann photographs her board; one tile on the table differs from the tracked board
    status, game = call("GET", base + "/api/game")
    assert status == 200 and game["finished"] is True
    tracked = game["players"][0]["tracked_board"]
    row0 = tracked[0]
    wrong = ("R" if row0[0] != "R" else "P") + row0[1:]
    photo = board_photo(tmp_path, [wrong, *tracked[1:]], scene)
    page.goto(f"{base}/boards")
    page.select_option("#board-player", "Ann")
    page.set_input_files("#board-photo", str(photo))
    expect(page.locator("#read-state")).to_have_text(re.compile("^Read"), timeout=60_000)
    expect(page.locator("#photo-canvas")).to_be_visible()
    expect(page.locator("#edit-board .cell.diff").first).to_be_visible()
    snap(page, "boards-read")
    expect(page.locator("#differences")).to_contain_text("(0, 0)")
    # correct every cell that differs from the tracked board, by tapping it and its letter
    for _ in range(36):
        diff = page.locator("#edit-board .cell.diff")
        if diff.count() == 0:
            break
        cell = diff.first
        r, c = int(cell.get_attribute("data-row")), int(cell.get_attribute("data-col"))
        cell.click()
        page.click(f'#letter-picker [data-letter="{tracked[r][c]}"]')
    expect(page.locator("#differences")).to_have_text("Matches the board tracked move by move.")
    page.click("#confirm-board")
    expect(page.locator("#read-state")).to_have_text("Confirmed.")
    status, game = call("GET", base + "/api/game")
    assert game["players"][0]["board_source"] == "photo"
    assert game["players"][0]["board"] == tracked
    assert game["players"][0]["differences"] == []

    # the final ranking, as the engine ranks it
    page.goto(f"{base}/scores")
    expect(page.locator("#scores-state")).to_have_text("Final scores.")
    places = game["standings"]["places"]
    expect(page.locator("#ranking li")).to_have_count(2)
    expect(page.locator("#ranking li").first).to_contain_text(f"{places[0]['place']}. {places[0]['player']}")
    expect(page.locator("#ranking li").first).to_contain_text(f"{places[0]['total']} points")
    expect(page.locator("#explanation li").first).to_have_text(game["standings"]["explanation"][0])
    if game["standings"]["winners"]:
        expect(page.locator("#ranking .badge").first).to_have_text("★ winner")
    expect(page.locator("#score-table tr.total td").first).to_have_text(str(game["players"][0]["score"]["total"]))
    snap(page, "scores-final")

    # a bonus tile's flip denied (or confirmed) by hand moves Ann's total by its 3 points
    tile = game["players"][0]["bonus"][0]
    verdict = page.locator('#bonus-verdicts fieldset[data-player="Ann"] select').first
    verdict.select_option("no" if tile["engine"] else "yes")
    expected = game["players"][0]["score"]["total"] + (-3 if tile["engine"] else 3)
    expect(page.locator("#score-table tr.total td").first).to_have_text(str(expected))

    # history lists the game with its exports
    page.goto(f"{base}/history")
    expect(page.locator("#games li")).to_have_count(1)
    expect(page.locator("#games li").first).to_contain_text("finished")


@pytest.fixture
def camera_server(tmp_path: Path) -> Iterator[Server]:
    """The demo as `shakecity serve` runs it off a Pi: the simulated camera and the tracker on mock pins."""
    server = Server(tmp_path / "data", "--camera", "simulated", "--pins", "mock", "--seed", "5").start()
    try:
        yield server
    finally:
        server.stop()


def test_shakes_from_the_simulated_camera_reach_the_page(camera_server: Server, phone: Page) -> None:
    """No button pressed: the table loop reads each shake from the camera and every page shows it."""
    page = phone
    base = camera_server.url
    status, _ = call("POST", base + "/api/games", {"players": ["Ann", "Bo"], "side": "waterfront", "variants": []})
    assert status == 201
    page.goto(f"{base}/join?pin={PIN}")
    page.click("#join")
    page.goto(f"{base}/table")
    expect(page.locator("#round-title")).to_have_text("Round 1 of 15")
    seen = []
    for round_no in (1, 2):
        # the simulated camera lifts the box every few seconds; the loop reads the pattern by itself
        expect(page.locator("#pattern .cube.empty")).to_have_count(0, timeout=30_000)
        status, game = call("GET", base + "/api/game")
        assert game["round"] == round_no and game["pattern"] is not None
        letters = [page.locator("#pattern .cube b").nth(i).inner_text() for i in range(9)]
        tile = {"red": "H", "blue": "S", "black": "F", "green": "P", "gray": "R", "white": "★"}
        assert letters == [tile[c] for row in game["pattern"] for c in row]
        seen.append(game["pattern"])
        place_for_everyone(page)
        page.click("#next-round")
        expect(page.locator("#round-title")).to_have_text(f"Round {round_no + 1} of 15")
    assert len(seen) == 2
    expect(page.locator("#tracker .led.round.lit small")).to_have_text("3")
