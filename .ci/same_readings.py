"""Compare two runs of the readers on the same files: ``python .ci/same_readings.py KIND HERE.jsonl PI.jsonl``.

``.ci/run`` reads one set of generated shaker frames and board photos twice: with the test environment's numpy and
OpenCV, and with the Raspberry Pi's (``.ci/pi-constraints.txt``: Bookworm's numpy 1.24, and the OpenCV pip picks for
it). Each file holds one JSON object per image, as ``read-shaker --json`` and ``read-board --json`` print them.
KIND is ``shaker`` (the pattern, or the refusal and its reason, must be the same) or ``board`` (whether a board was
found, its grid and its north must be the same; confidences may differ in their last digits). Exits 1, naming the
images, when any reading differs.
"""

from __future__ import annotations

import json
import sys

KEYS = {"shaker": ("valid", "pattern", "reason"), "board": ("found", "grid", "north")}


def readings(path: str) -> dict[str, dict]:
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                obj = json.loads(line)
                out[obj["image"]] = obj
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[0] not in KEYS:
        print(__doc__, file=sys.stderr)
        return 2
    kind, here, pi = argv[0], readings(argv[1]), readings(argv[2])
    if not here or set(here) != set(pi):
        print(f"{kind}: the two runs read different images ({len(here)} and {len(pi)})", file=sys.stderr)
        return 1
    differ = []
    for image, a in sorted(here.items()):
        b = pi[image]
        for k in KEYS[kind]:
            if a.get(k) != b.get(k):
                differ.append(f"  {image}: {k} {a.get(k)!r} here, {b.get(k)!r} on the Pi's stack")
    if differ:
        print(f"{kind}: readings differ on the Pi's stack ({len(here)} images):", file=sys.stderr)
        print("\n".join(differ), file=sys.stderr)
        return 1
    print(f"{kind}: {len(here)} readings the same on the Pi's stack")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
