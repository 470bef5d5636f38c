"""The table PIN and CSRF: who may change the game.

A write carries the PIN as the header ``X-Table-Pin`` (scripts), or comes from a page whose session
joined with the PIN; a page's writes also carry the session's CSRF token (header ``X-CSRF-Token`` or
form field ``csrf_token``), so another site cannot write through a joined phone's cookie.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import current_app, jsonify, request, session

F = TypeVar("F", bound=Callable[..., Any])

PIN_HEADER = "X-Table-Pin"
CSRF_HEADER = "X-CSRF-Token"


def same(a: object, b: object) -> bool:
    """Constant-time comparison of two texts (any characters: a header may carry anything)."""
    return hmac.compare_digest(str(a).encode("utf-8", "replace"), str(b).encode("utf-8", "replace"))


def new_pin() -> str:
    """A six-digit join PIN."""
    return f"{secrets.randbelow(1_000_000):06d}"


def pin_token(pin: str) -> str:
    """What a joined session remembers: a digest of the PIN, so a new PIN logs every phone out."""
    key = current_app.secret_key
    assert key is not None
    return hmac.new(key if isinstance(key, bytes) else key.encode(), pin.encode(), hashlib.sha256).hexdigest()


def csrf_token() -> str:
    """The session's CSRF token, made on first use."""
    token = session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(24)
        session["csrf"] = token
    return token


def joined() -> bool:
    """Whether this page's session joined the table with the current PIN."""
    saved = session.get("table")
    return bool(saved) and same(saved, pin_token(current_app.config["TABLE_PIN"]))


class PinGuard:
    """Slows PIN guessing: after ``limit`` wrong PINs from one address within ``window`` seconds, that
    address is refused (429) until the window has passed, even with the right PIN. ``clock`` is passed in."""

    def __init__(self, limit: int = 10, window: float = 600.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._wrong: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, who: str, now: float) -> list[float]:
        times = [t for t in self._wrong.get(who, []) if now - t < self.window]
        if times:
            self._wrong[who] = times
        else:
            self._wrong.pop(who, None)
        return times

    def blocked(self, who: str) -> bool:
        with self._lock:
            return len(self._recent(who, self.clock())) >= self.limit

    def wrong(self, who: str) -> None:
        with self._lock:
            now = self.clock()
            self._recent(who, now)
            self._wrong.setdefault(who, []).append(now)
            if len(self._wrong) > 10_000:  # bounded, whatever happens
                self._wrong.pop(next(iter(self._wrong)))


def guard() -> PinGuard:
    return current_app.extensions["pin_guard"]


def who() -> str:
    return request.remote_addr or "unknown"


TOO_MANY = "too many wrong PINs from this device: wait a few minutes"


def join(pin: str) -> bool | None:
    """Join this page's session to the table: True, False for a wrong PIN, None while guessing is blocked."""
    if guard().blocked(who()):
        return None
    if not same(pin.strip(), current_app.config["TABLE_PIN"]):
        guard().wrong(who())
        return False
    session["table"] = pin_token(current_app.config["TABLE_PIN"])
    csrf_token()
    return True


def write_refusal() -> str | None:
    """``None`` if this request may change the game, otherwise the reason it may not."""
    header = request.headers.get(PIN_HEADER)
    if header is not None:
        if guard().blocked(who()):
            return TOO_MANY
        if same(header.strip(), current_app.config["TABLE_PIN"]):
            return None
        guard().wrong(who())
        return "wrong table PIN"
    if not joined():
        return f"this needs the table PIN: join the table with it, or send the {PIN_HEADER} header"
    sent = request.headers.get(CSRF_HEADER) or request.form.get("csrf_token") or ""
    expected = session.get("csrf") or ""
    if not sent or not expected or not same(sent, expected):
        return "missing or wrong CSRF token: reload the page"
    return None


def needs_pin(view: F) -> F:
    """Refuse a write with 403 (and change nothing) unless it carries the PIN or a joined session."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        reason = write_refusal()
        if reason is not None:
            return jsonify(error=reason), 429 if reason == TOO_MANY else 403
        return view(*args, **kwargs)

    return wrapped  # type: ignore[return-value]
