"""Images in, facts out: the shaker pattern reader, the board reader, the colour model, calibration.

Images are BGR ``numpy`` arrays at the OpenCV edge (names say so: ``frame_bgr``). Depends on
``scoring`` data types at most.
"""
