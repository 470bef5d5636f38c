"""The pages (server-rendered shells; the live parts are vanilla JavaScript over the API and SSE)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

bp = Blueprint("pages", __name__)


@bp.get("/")
def index() -> Any:
    return "shakecity"
