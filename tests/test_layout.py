"""The project's shape: scoring is standard library only, and dependencies point one way."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scoring", "vision", "device", "web")
# Which of our packages each may import (web -> device, vision, scoring; device -> vision, scoring; ...).
ALLOWED = {
    "scoring": set(),
    "vision": {"scoring"},
    "device": {"vision", "scoring"},
    "web": {"device", "vision", "scoring"},
}
THIRD_PARTY_FORBIDDEN_IN_SCORING = {"flask", "cv2", "numpy", "picamera2", "gpiozero", "waitress", "PIL"}


def imported_top_levels(path: Path, package: str) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
            elif node.level > 0:
                # a relative import climbing above the package would name another top-level package
                depth = len(path.relative_to(ROOT / package).parts) - 1
                if node.level > depth + 1:
                    found.add("<outside>")
    return found


def test_dependencies_point_one_way() -> None:
    problems = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            ours = imported_top_levels(path, package) & (set(PACKAGES) | {"<outside>", "tests"})
            ours.discard(package)
            bad = ours - ALLOWED[package]
            if bad:
                problems.append(f"{path.relative_to(ROOT)} imports {sorted(bad)}")
    assert problems == []


def test_scoring_imports_nothing_outside_the_standard_library() -> None:
    code = (
        "import sys, pkgutil, importlib\n"
        "before = set(sys.modules)\n"
        "import scoring\n"
        "for m in pkgutil.walk_packages(scoring.__path__, 'scoring.'):\n"
        "    importlib.import_module(m.name)\n"
        "new = set(sys.modules) - before\n"
        "roots = {n.split('.')[0] for n in new}\n"
        "print('\\n'.join(sorted(r for r in roots if r not in sys.stdlib_module_names and r != 'scoring')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
    for path in (ROOT / "scoring").rglob("*.py"):
        assert not imported_top_levels(path, "scoring") & THIRD_PARTY_FORBIDDEN_IN_SCORING, path


def test_the_scoring_import_check_would_notice_a_third_party_import(tmp_path: Path) -> None:
    """The check above is not vacuous: the same probe sees numpy when a module pulls it in."""
    (tmp_path / "probe.py").write_text("import numpy\n")
    code = (
        "import sys\nbefore = set(sys.modules)\nimport probe\n"
        "print(sorted({n.split('.')[0] for n in set(sys.modules) - before} - set(sys.stdlib_module_names)))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert "numpy" in out.stdout
