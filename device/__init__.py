"""The physical table: cameras, the round tracker (gpiozero LEDs and buttons) and the table loop.

- :mod:`device.cameras`: the ``Camera`` protocol and its Pi camera, webcam, folder and simulated cameras.
- :mod:`device.tracker`: ``RoundTracker``, the LEDs and buttons beside the board (mock pins off the Pi).
- :mod:`device.table`: ``TableLoop`` (camera -> live shaker reader -> game -> LEDs and page events) and
  the ``TableActions`` protocol it drives; ``MemoryTable`` implements it in memory.
- :mod:`device.config`: the pin map (``pins.json``) and the device config file.
- :mod:`device.doctor`, :mod:`device.bench`: ``shakecity doctor`` and ``shakecity bench-device``.

May import ``vision`` and ``scoring``; never ``web`` or Flask.
"""
