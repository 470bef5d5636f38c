"""On a Raspberry Pi only (marked ``pi``, skipped elsewhere): the real camera and the real pins.

Run on the Pi with the service stopped (it owns the camera and the pins):
``sudo systemctl stop shakecity && .venv/bin/pytest -m pi tests/device/test_pi_hardware.py``.
"""

from __future__ import annotations

import pytest

from device.cameras import PiCamera, picamera2_cameras
from device.tracker import RoundTracker, on_raspberry_pi

pytestmark = [
    pytest.mark.pi,
    pytest.mark.skipif(not on_raspberry_pi(), reason="needs a Raspberry Pi"),
]


def test_pi_camera_gives_bgr_frames_with_locked_exposure() -> None:
    if not picamera2_cameras():
        pytest.skip("no Raspberry Pi camera attached")
    camera = PiCamera(size=(1280, 720), warmup_frames=10)
    with camera:
        frame = camera.wait_frame(0, timeout=20)
        status = camera.status()
    assert frame is not None, status.message
    assert frame.frame_bgr.shape == (720, 1280, 3)
    assert set(camera.locked_controls) >= {"ExposureTime", "AnalogueGain"}


def test_real_pins_light_every_led() -> None:
    with RoundTracker.from_kind("auto") as tracker:
        assert tracker.snapshot()["pins"] == "real pins"
        for led in tracker.leds.leds:
            led.on()
            assert led.is_lit
            led.off()
