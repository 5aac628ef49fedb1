"""Atomic file output: write a temporary file in the target's folder, then rename.

``os.replace`` within one file system is atomic (POSIX rename(2)): a reader sees
the old file or the new one, never a half-written one. So an interrupt (SIGINT),
a full disk (ENOSPC) or a second process writing the same path can never leave a
truncated or interleaved file: on failure the temporary file is removed and the
previous file at ``path`` is untouched; with two writers the last rename wins
and the file is one writer's whole output.

Used for the trace (:meth:`acl_runtime.profiler.Profiler.write_trace`) and for
every file the ``npu-sim`` tools write. Raises whatever the writer raises
(OSError for the file system).
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Callable


def temp_path_for(path: str | Path) -> Path:
    """A new, empty temporary file next to ``path`` (same folder, so the final rename
    stays on one file system; same suffix, so ``.gz`` still means gzip)."""
    p = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp" + p.suffix, dir=p.parent if str(p.parent) else ".")
    os.close(fd)
    return Path(tmp)


def atomic_write_path(path: str | Path, write: Callable[[Path], object]) -> Path:
    """Call ``write(tmp)`` to write a temporary file next to ``path``, then rename it
    onto ``path``. On any failure (including KeyboardInterrupt) the temporary file is
    removed, ``path`` keeps its old content, and the exception propagates. Returns
    ``path`` as a Path."""
    p = Path(path)
    tmp = temp_path_for(p)
    try:
        write(tmp)
        try:
            mode = os.stat(p).st_mode & 0o777 if p.exists() else 0o666 & ~_umask()
            os.chmod(tmp, mode)
        except OSError:
            pass
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return p


def atomic_write_bytes(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (:func:`atomic_write_path`)."""
    def write(tmp: Path) -> None:
        with open(tmp, "wb") as f:
            f.write(data)
    return atomic_write_path(path, write)


def atomic_write_text(path: str | Path, text: str, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` atomically (:func:`atomic_write_path`)."""
    return atomic_write_bytes(path, text.encode(encoding))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


__all__ = ["atomic_write_path", "atomic_write_bytes", "atomic_write_text", "temp_path_for"]
