"""Errors raised by the rules engine.

Every specific error also subclasses a built-in (``ValueError``), so an adapter (the command line,
the web layer) can map all of them to one refusal without knowing each.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every error the rules engine raises."""


class BoardFormatError(RulesError):
    """A board, pattern or set-up given as data is malformed (wrong size, unknown letter, ...)."""


class ImpossiblePattern(RulesError):
    """A shake result that the shaker cannot produce (wrong shape, unknown colour, too many cubes)."""


class IllegalAction(RulesError):
    """An action the rules do not allow now. The message names what is legal instead."""
