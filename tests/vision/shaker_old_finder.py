"""The shaker finder's threshold as it was before ``response_noise_factor`` went from 1.5 to 1.2.

Several tests chose their gingham frames under it, to show a later check at work. At 1.2 the finder keeps
more of a gingham's cubes and checks, and an earlier stage settles those frames. Those tests assert the
default's outcome first, then show their check with these settings. Nor is a refused frame read again with
a lower threshold here (``busy_retry_factor``, added later: at 1.5 it would read again what those checks refuse)."""

from dataclasses import replace

from vision.shaker import DEFAULT_SETTINGS

OLD_FINDER = replace(DEFAULT_SETTINGS, response_noise_factor=1.5, busy_retry_factor=0.0)
