"""Track names and their order: the one place that knows how tracks are spelled.

A track is a (process, thread) pair of names, as recorded by ``npu_sim.trace``:

* ``("host", "thread 0")``: host API calls;
* ``("device 0", "stream 1")``: tasks of one hardware stream;
* ``("device 0", "AIC3 MTE2")``: one pipe of one core (CANN spellings: AIC/AIV,
  MTE2, MTE1, CUBE, FIXPIPE, VECTOR, MTE3, SCALAR).

Processes sort host first, then devices by number. Threads in a process sort host
threads, then streams, then AIC cores, then AIV cores (both by core number), each
core's pipes in :data:`PIPE_ORDER` (the order data flows through a core).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable, NamedTuple

#: pipes in data-flow order; also the order of a core's tracks
PIPE_ORDER = ("MTE2", "MTE1", "CUBE", "FIXPIPE", "VECTOR", "MTE3", "SCALAR")
#: pipes that move data (GM or between on-chip buffers)
COPY_PIPES = frozenset({"MTE2", "MTE1", "MTE3", "FIXPIPE"})
#: pipes that compute
COMPUTE_PIPES = frozenset({"CUBE", "VECTOR"})
#: pipes whose transfers touch global memory (npu_sim.program.GM_PIPES)
GM_PIPES = frozenset({"MTE2", "MTE3", "FIXPIPE"})
#: core types in track order, with the pipes each one has
CORE_PIPES = {"AIC": ("MTE2", "MTE1", "CUBE", "FIXPIPE"), "AIV": ("MTE2", "VECTOR", "MTE3")}
#: stream task types that only synchronise (no work of their own)
SYNC_TASK_TYPES = frozenset({"EVENT_RECORD", "STREAM_WAIT_EVENT"})
#: stream task types that run a kernel on cores
KERNEL_TASK_TYPES = frozenset({"AI_CORE", "AI_VECTOR_CORE", "MIX_AIC"})

_CORE_RE = re.compile(r"^(AIC|AIV)(\d+) (\w+)$")
_NUM_RE = re.compile(r"^(.*?)(\d+)$")


class CoreTrack(NamedTuple):
    """A parsed core/pipe thread name, e.g. "AIC3 MTE2" -> ("AIC", 3, "MTE2")."""

    core_type: str
    core_index: int
    pipe: str

    @property
    def core(self) -> str:
        return f"{self.core_type}{self.core_index}"


@lru_cache(maxsize=65536)   # few distinct thread names, called once per span
def parse_core_track(thread: str) -> CoreTrack | None:
    """The core and pipe of a pipe track's thread name, or None for other tracks."""
    m = _CORE_RE.match(thread)
    return CoreTrack(m.group(1), int(m.group(2)), m.group(3)) if m else None


@lru_cache(maxsize=65536)   # few distinct thread names, called once per span
def parse_stream(thread: str) -> int | None:
    """The stream id of a "stream N" thread name, or None."""
    if thread.startswith("stream "):
        tail = thread[len("stream "):]
        if tail.isdigit():
            return int(tail)
    return None


@lru_cache(maxsize=65536)   # few distinct thread names, called once per span
def is_device(process: str) -> bool:
    """True for a device process name ("device 0")."""
    return process.startswith("device")


def _natural(name: str) -> tuple:
    m = _NUM_RE.match(name)
    return (m.group(1), int(m.group(2))) if m else (name, -1)


def process_sort_key(process: str) -> tuple:
    """Host first, then devices by number, then anything else by name."""
    if process == "host":
        return (0, "", 0)
    if is_device(process):
        return (1,) + _natural(process)
    return (2,) + _natural(process)


def thread_sort_key(thread: str) -> tuple:
    """Host threads, streams, AIC cores, AIV cores (pipes in PIPE_ORDER), others."""
    core = parse_core_track(thread)
    if core is not None:
        pipe_rank = PIPE_ORDER.index(core.pipe) if core.pipe in PIPE_ORDER else len(PIPE_ORDER)
        return (2 if core.core_type == "AIC" else 3, core.core_index, pipe_rank, core.pipe)
    stream = parse_stream(thread)
    if stream is not None:
        return (1, stream, 0, "")
    if thread.startswith("thread"):
        return (0,) + _natural(thread) + ("",)
    name, num = _natural(thread)
    return (4, num, 0, name)


class TrackIds(NamedTuple):
    """Chrome ids: ``pids[process]``, ``tids[(process, thread)]``, and the sort index
    of each thread inside its process."""

    pids: dict[str, int]
    tids: dict[tuple[str, str], int]
    thread_rank: dict[tuple[str, str], int]


def assign_ids(tracks: Iterable[tuple[str, str]], extra_processes: Iterable[str] = ()) -> TrackIds:
    """Number processes and threads in display order, from 1.

    tids are unique across the whole trace (not just within a pid): some viewers
    (Perfetto's JSON importer) key threads by tid alone.
    """
    tracks = set(tracks)
    procs = sorted({p for p, _ in tracks} | set(extra_processes), key=process_sort_key)
    pids = {p: i + 1 for i, p in enumerate(procs)}
    ordered = sorted(tracks, key=lambda t: (process_sort_key(t[0]), thread_sort_key(t[1])))
    tids = {t: i + 1 for i, t in enumerate(ordered)}
    rank: dict[tuple[str, str], int] = {}
    seen: dict[str, int] = {}
    for t in ordered:
        rank[t] = seen.get(t[0], 0)
        seen[t[0]] = rank[t] + 1
    return TrackIds(pids, tids, rank)
