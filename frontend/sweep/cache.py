"""On-disk cache of sweep points: one JSON file per point, named by a hash of the
point's full chip config, its workload, the mode and the npu-sim version.

The version is the package version plus a digest of the simulator's own source
files (npu_sim, acl_runtime, opsnn, frontend; of this package only the modules
that compute a point's numbers, :data:`RESULT_MODULES`), so a
change to a cost formula invalidates every cached point without a version bump.
Files are written atomically (a temporary file, then ``os.replace``), so a sweep
killed mid-write leaves either the whole point or nothing.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path


#: the sweep modules that decide a point's numbers (the rest only schedule, store and draw)
RESULT_MODULES = ("point.py", "workloads.py")


@functools.lru_cache(maxsize=1)
def simulator_version() -> str:
    """``"<package version>+<12 hex digits of the source digest>"``."""
    from importlib import metadata
    try:
        ver = metadata.version("npu-sim")
    except metadata.PackageNotFoundError:
        ver = "0"
    root = Path(__file__).resolve().parents[2]
    h = hashlib.sha256()
    for pkg in ("npu_sim", "acl_runtime", "opsnn", "frontend"):
        for p in sorted((root / pkg).rglob("*.py")):
            rel = p.relative_to(root).as_posix()
            if rel.startswith("frontend/sweep/") and p.name not in RESULT_MODULES:
                continue
            h.update(rel.encode())
            h.update(p.read_bytes())
    return f"{ver}+{h.hexdigest()[:12]}"


def point_key(chip_dump: dict, workload: dict, mode: str, timing_only: bool) -> str:
    """The cache key (sha256 hex) of one point."""
    doc = {"chip": chip_dump, "workload": workload, "mode": mode, "timing_only": timing_only,
           "version": simulator_version()}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()


class PointCache:
    """A directory of ``<key>.json`` results."""

    def __init__(self, directory: str | os.PathLike):
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)

    def get(self, key: str) -> dict | None:
        """The cached result of ``key``, or None (also for an unreadable file)."""
        p = self.dir / f"{key}.json"
        try:
            return json.loads(p.read_text())
        except (OSError, ValueError):
            return None

    def put(self, key: str, result: dict) -> None:
        """Store ``result`` atomically."""
        fd, tmp = tempfile.mkstemp(dir=self.dir, prefix=".tmp-", suffix=".part")
        try:
            with os.fdopen(fd, "w") as f:
                json.dump(result, f, sort_keys=True)
            os.replace(tmp, self.dir / f"{key}.json")
        except BaseException:   # interrupted mid-write: leave no partial file behind
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise

    def __len__(self) -> int:
        return sum(1 for _ in self.dir.glob("*.json"))
