"""Readings of rule text that could be read more than one way: each choice named, in one place.

The rules page (``shared/rules/shake-that-city.md``) fixes the game; where its words leave a case
open, the engine follows the reading below. Each is a named constant that the engine consults and a
test in ``tests/scoring/test_readings.py`` pins down, so a different reading is a one-line change.
"""

from __future__ import annotations

# 'When choosing a colour you may not take the colour with the most cubes in the pattern, unless
# several colours tie for most.' White wild cubes are not a colour of their own (they join a chosen
# colour), so only the building colours are counted when finding the most numerous one.
SOLO_LIMIT_COUNTS_WILDS = False

# 'Every other player picks a colour present in the pattern other than the active player's.' When the
# active player can place no colour at all, they take none, and the others are then free to take any
# colour present.
OTHERS_FREE_WHEN_ACTIVE_PLACES_NOTHING = True

# The others choose 'at the same time' after the active player: before the active player has chosen,
# the others cannot know which colour is barred, so the engine refuses their choices until then
# (in the rounds where the bar applies).
OTHERS_WAIT_FOR_ACTIVE_CHOICE = True

# 'If the table does not show a full 3 x 3 pattern ... the shake is repeated.' A new shake result
# replaces the round's pattern as long as nobody has chosen a colour yet (a misread, a reshake);
# once someone has chosen, the pattern is fixed (undo takes a choice back first).
RESHAKE_ALLOWED_UNTIL_FIRST_CHOICE = True

# Bonus tiles are scored even on a board whose total is 0 for construction tiles left: the breakdown
# 'still shows what the tiles would have scored' and the flipped tiles are listed.
BONUS_LISTED_WHEN_CONSTRUCTION_LEFT = True
