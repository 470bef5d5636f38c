"""Cameras: the folder, simulated and OpenCV cameras, including ones that vanish and come back."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from device import cameras
from device.cameras import Camera, FolderCamera, Scene, SimulatedCamera, WebcamCamera, open_camera, random_pattern
from device.errors import UnknownCamera
from scoring.shake_that_city.pattern import Pattern, check_against_shaker

from .conftest import ManualClock, wait_until

COLOURS_BGR = [(0, 0, 200), (0, 200, 0), (200, 0, 0)]


def write_frames(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i, bgr in enumerate(COLOURS_BGR):
        image = np.full((48, 64, 3), bgr, np.uint8)
        cv2.putText(image, str(i), (20, 35), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (255, 255, 255), 2)
        assert cv2.imwrite(str(folder / f"{i:03d}.png"), image)
    (folder / "notes.txt").write_text("not an image")


def which(frame_bgr: np.ndarray) -> int:
    """The index of the colour a frame was filled with."""
    corner = frame_bgr[2, 2].astype(int)
    return int(np.argmin([np.abs(corner - np.array(c)).sum() for c in COLOURS_BGR]))


def collect(camera: cameras.GrabbingCamera, n: int) -> list[cameras.Frame]:
    got: list[cameras.Frame] = []
    seq = camera.latest().seq if camera.latest() else 0
    while len(got) < n:
        frame = camera.wait_frame(seq, timeout=10)
        assert frame is not None, f"no frame after seq {seq}: {camera.status()}"
        got.append(frame)
        seq = frame.seq
    return got


def test_folder_camera_plays_the_images_in_order_in_a_loop(tmp_path: Path) -> None:
    write_frames(tmp_path / "frames")
    camera = FolderCamera(tmp_path / "frames", fps=200)
    assert isinstance(camera, Camera)
    assert camera.latest() is None and not camera.status().ok
    with camera:
        frames = collect(camera, 7)
        status = camera.status()
    assert status.ok and status.kind == "folder"
    seqs = [f.seq for f in frames]
    assert seqs == sorted(seqs) and len(set(seqs)) == 7
    # frame n shows image (n - 1) % 3: 0, 1, 2, 0, 1, ... (the text file skipped); a slow reader may skip
    # frames (it always gets the latest), so each frame is checked against its own number
    assert [which(f.frame_bgr) for f in frames] == [(f.seq - 1) % 3 for f in frames]
    assert frames[-1].seq >= 7  # past the end of the folder: it looped
    assert camera.status().message == "stopped"


def test_folder_camera_that_vanishes_is_reported_and_comes_back(tmp_path: Path) -> None:
    folder = tmp_path / "frames"
    write_frames(folder)
    with FolderCamera(folder, fps=100, retry_s=0.05) as camera:
        collect(camera, 2)
        folder.rename(tmp_path / "unplugged")
        wait_until(lambda: not camera.status().ok, what="the camera to be reported lost")
        assert "camera disconnected" in camera.status().message and "retrying" in camera.status().message
        assert camera.latest() is None  # no stale frame passed off as live
        last_seq = camera.status().frames
        (tmp_path / "unplugged").rename(folder)
        wait_until(lambda: camera.status().ok, what="the camera to come back")
        frames = collect(camera, 3)
        assert camera.status().reconnects == 1
    assert frames[0].seq > last_seq


def test_folder_camera_missing_folder_is_retried_until_it_appears(tmp_path: Path) -> None:
    with FolderCamera(tmp_path / "later", fps=100, retry_s=0.05) as camera:
        wait_until(lambda: "not available" in camera.status().message, what="a not-available status")
        assert "no folder" in camera.status().message
        write_frames(tmp_path / "later")
        wait_until(lambda: camera.status().ok, what="the folder camera to open")
        assert collect(camera, 1)[0].frame_bgr.shape == (48, 64, 3)
        assert camera.status().reconnects == 0  # never had it, so never lost it


def test_simulated_timeline_covered_then_lifted_then_the_next_shake() -> None:
    camera = SimulatedCamera(seed=3, covered_s=2.0, lifted_s=5.0)
    t0 = 100.0
    assert camera.scene_at(t0) == Scene(0, "covered")
    assert camera.scene_at(t0 + 1.99) == Scene(0, "covered")
    assert camera.scene_at(t0 + 2.0) == Scene(0, "lifted")
    assert camera.scene_at(t0 + 6.99) == Scene(0, "lifted")
    assert camera.scene_at(t0 + 7.0) == Scene(1, "covered")
    assert camera.scene_at(t0 + 16.0) == Scene(2, "lifted")


def test_simulated_lift_moves_the_box_off_the_cubes_a_frame_at_a_time() -> None:
    """With ``lifting_s``, the box takes that long to leave: each moment of the lift is its own view (the live
    reader's moving view), the box higher the further it has gone, out of view at the end."""
    pytest.importorskip("vision.shaker_scene")
    camera = SimulatedCamera(seed=3, covered_s=2.0, lifting_s=0.5, lifted_s=5.0, width=320, height=240)
    t0 = 100.0
    assert camera.scene_at(t0) == Scene(0, "covered")  # (the timeline starts at the first frame)
    assert camera.scene_at(t0 + 1.99) == Scene(0, "covered")
    assert camera.scene_at(t0 + 2.25) == Scene(0, "lifting", 0.5)
    assert camera.scene_at(t0 + 2.5) == Scene(0, "lifted")
    assert camera.scene_at(t0 + 7.49) == Scene(0, "lifted")
    assert camera.scene_at(t0 + 7.5) == Scene(1, "covered")
    lifted = camera.render(Scene(0, "lifted"))
    # the box's lower edge: the last row it changes, higher up the further the lift has gone
    lower = [
        int(np.flatnonzero((camera.render(Scene(0, "lifting", f)) != lifted).any(axis=(1, 2)))[-1])
        for f in (0.0, 0.4, 0.8)
    ]
    assert lower[0] > lower[1] > lower[2]
    middle = (slice(100, 140), slice(140, 180))  # the cubes' place: covered at the start, clear by the end
    assert (camera.render(Scene(0, "lifting", 0.0))[middle] != lifted[middle]).any(axis=2).all()
    assert (camera.render(Scene(0, "lifting", 0.8))[middle] == lifted[middle]).all()
    assert (cameras.draw_box(lifted, raised=1.0) == lifted).all()


def test_simulated_shakes_are_seeded_and_possible() -> None:
    a = [SimulatedCamera(rng=random.Random(11)).shake(n)[0] for n in range(5)]
    b = [SimulatedCamera(rng=random.Random(11)).shake(n)[0] for n in range(5)]
    assert a == b
    assert len({str(p) for p in a}) > 1
    camera = SimulatedCamera(rng=random.Random(11))
    for n in range(20):
        pattern = Pattern.parse(camera.shake(n)[0])
        check_against_shaker(pattern, {"red": 8, "blue": 7, "black": 6, "green": 6, "gray": 5})
    with_whites = SimulatedCamera(rng=random.Random(2), contents=lambda: {"red": 8, "white": 8, "blue": 1})
    assert any("white" in sum(with_whites.shake(n)[0], []) for n in range(5))
    knocked = SimulatedCamera(seed=1, knocked_out_every=3)
    assert [knocked.shake(n)[1] for n in range(6)] == [False, False, True, False, False, True]


def test_random_pattern_draws_without_replacement() -> None:
    rng = random.Random(0)
    for _ in range(50):
        pattern = random_pattern(rng, {"red": 2, "blue": 7})
        assert sum(row.count("red") for row in pattern) <= 2
    with pytest.raises(ValueError, match="needs 9"):
        random_pattern(rng, {"red": 3})


def test_simulated_camera_renders_the_scene_of_the_clock_and_survives_an_outage(clock: ManualClock) -> None:
    pytest.importorskip("vision.shaker_scene")
    t0 = clock()
    camera = SimulatedCamera(
        seed=5, clock=clock, fps=100, width=320, height=240, covered_s=2, lifted_s=5, outages=[(t0 + 3, t0 + 4)]
    )
    with camera:
        covered = collect(camera, 2)[-1]
        assert covered.t == t0
        assert np.array_equal(covered.frame_bgr, camera.render(Scene(0, "covered")))
        clock.advance(2.5)  # the box is lifted
        wait_until(lambda: camera.latest() is not None and camera.latest().t == clock(), what="a lifted frame")
        lifted = camera.latest()
        assert np.array_equal(lifted.frame_bgr, camera.render(Scene(0, "lifted")))
        assert not np.array_equal(lifted.frame_bgr, covered.frame_bgr)
        clock.advance(1.0)  # unplugged
        wait_until(lambda: not camera.status().ok, what="the outage to be reported")
        assert camera.status().message == "camera disconnected (simulated camera unplugged), retrying"
        clock.advance(1.0)  # plugged back in
        wait_until(lambda: camera.status().ok, what="the camera to come back")
        assert camera.status().reconnects == 1
        back = collect(camera, 1)[0]
        assert np.array_equal(back.frame_bgr, camera.render(Scene(0, "lifted")))


def test_simulated_sensor_noise_is_fresh_on_every_grab() -> None:
    """Noise as a real sensor's on a still table: about the asked spread, different on each grab, none by
    default."""
    pytest.importorskip("vision.shaker_scene")
    camera = SimulatedCamera(seed=2, width=320, height=240, sensor_noise=3.0)
    clean = camera.render(Scene(0, "lifted"))
    grabs = [camera.add_noise(clean).astype(np.int16) - clean for _ in range(3)]
    for noise in grabs:
        assert 2.5 < float(noise.std()) < 3.5
        assert abs(float(noise.mean())) < 0.3
    assert not np.array_equal(grabs[0], grabs[1]) and not np.array_equal(grabs[1], grabs[2])
    assert SimulatedCamera(seed=2).sensor_noise == 0


def video_file(path: Path, n: int = 6) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for i in range(n):
        writer.write(np.full((48, 64, 3), COLOURS_BGR[i % 3], np.uint8))
    writer.release()
    return path


def test_webcam_camera_reads_a_stream_and_reopens_it_when_it_ends(tmp_path: Path) -> None:
    # a video file stands in for a stream URL: at its end the capture fails, like an unplugged webcam
    source = video_file(tmp_path / "stream.avi")
    with WebcamCamera(str(source), retry_s=0.05) as camera:
        wait_until(lambda: camera.status().reconnects >= 1, what="the stream to end and be reopened")
        frames = collect(camera, 3)
    assert all(f.frame_bgr.shape == (48, 64, 3) for f in frames)
    assert camera.status().frames >= 9  # six frames, then at least three more after reopening


def test_webcam_that_is_not_there_is_reported(tmp_path: Path) -> None:
    with WebcamCamera(str(tmp_path / "no-such-stream.avi"), retry_s=0.05) as camera:
        wait_until(lambda: "not available" in camera.status().message, what="a not-available status")
        assert "cannot open webcam" in camera.status().message
        assert camera.latest() is None


def test_open_camera_by_kind_and_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHAKECITY_CAMERA", f"folder:{tmp_path}")
    camera = open_camera()
    assert isinstance(camera, FolderCamera) and camera.folder == tmp_path
    monkeypatch.setenv("SHAKECITY_CAMERA", "simulated:4")
    sim = open_camera(fps=5.0, ignored_option=1)
    assert isinstance(sim, SimulatedCamera) and sim.shake(0) == SimulatedCamera(seed=4).shake(0)
    assert isinstance(open_camera("webcam:2"), WebcamCamera)
    assert open_camera("webcam:2").source == 2
    assert open_camera("webcam:http://cam.local/stream").source == "http://cam.local/stream"
    with pytest.raises(UnknownCamera, match="cameras are auto, picamera2, webcam, folder, simulated"):
        open_camera("kinect")
    with pytest.raises(UnknownCamera, match="needs a folder"):
        open_camera("folder")


def test_auto_falls_back_to_the_simulated_camera_without_hardware(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cameras, "picamera2_cameras", lambda: None)
    monkeypatch.setattr(cameras, "video_devices", lambda: [])
    kind, why = cameras.auto_kind()
    assert kind == "simulated" and "picamera2 not importable" in why
    monkeypatch.delenv("SHAKECITY_CAMERA", raising=False)
    assert isinstance(open_camera(), SimulatedCamera)
    monkeypatch.setattr(cameras, "picamera2_cameras", lambda: [{"Model": "imx708"}])
    assert cameras.auto_kind()[0] == "picamera2"


def test_pi_camera_off_the_pi_says_how_to_install_picamera2() -> None:
    camera = cameras.PiCamera(retry_s=0.05)
    if cameras.picamera2_cameras() is not None:
        pytest.skip("picamera2 is installed here")
    with camera:
        wait_until(lambda: "not available" in camera.status().message, what="the Pi camera status")
    # the status at the time of the failure named the apt package
    assert camera.status().message == "stopped"
    with pytest.raises(cameras.CameraError, match="python3-picamera2"):
        camera._open()
