"""The shaker finder's threshold as it was before ``response_noise_factor`` went from 1.5 to 1.2.

Several tests chose their gingham frames under it, to show a later check at work. At 1.2 the finder keeps
more of a gingham's cubes and checks, and an earlier stage settles those frames. Those tests assert the
default's outcome first, then show their check with these settings."""

from dataclasses import replace

from vision.shaker import DEFAULT_SETTINGS

OLD_FINDER = replace(DEFAULT_SETTINGS, response_noise_factor=1.5)
