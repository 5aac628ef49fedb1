"""Loading big traces with bounded memory: the events are parsed one at a time
(:mod:`traces.scan`, the standard library's C decoder over chunks of the file; or
ijson, its C backend yajl2_c when the wheel has it, with ``parser="ijson"``) and fed
straight into :func:`traces.load.events_to_data` with ``compact=True``: pipe spans
become numpy columns (:mod:`traces.columns`, 34 bytes a span), so peak memory is a
small multiple of the span count in bytes, not of the JSON size.

Files under :data:`STREAM_MIN_BYTES` are read whole, as
:func:`traces.load.read_trace_file` does (the exact spans and float sums of every
report stay as they were). Both paths give the same spans, counters and metadata
and the same one-line errors.
"""
from __future__ import annotations

import gzip
from pathlib import Path

from .load import TraceData, TraceLoadError, events_to_data, file_error, from_chrome_trace, read_trace_file
from .scan import ScanError, scan_events

#: files at least this big (bytes, compressed size for .gz) are streamed
STREAM_MIN_BYTES = 32 * 1024 * 1024


def _open(path: Path):
    return gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")


def _first_char(path: Path) -> bytes:
    with _open(path) as f:
        while True:
            c = f.read(1)
            if not c or not c.isspace():
                return c


def load_trace(path: str | Path, stream: bool | None = None, parser: str = "scan",
               keep_args: frozenset | None = None, sink=None) -> TraceData:
    """The :class:`TraceData` of the trace file at ``path``. ``stream``: True forces
    the streamed, compact path, False the whole-file path, None picks by size
    (:data:`STREAM_MIN_BYTES`). ``parser``: "scan" (:mod:`traces.scan`) or "ijson"
    (ImportError if ijson is missing). ``keep_args``: when streamed, the spans other
    than pipe spans keep only these args keys (e.g.
    :data:`traces.columns.SUMMARY_ARG_KEYS`). ``sink``: when streamed, what takes the
    pipe spans instead of the columns (:mod:`traces.bounded_load`). Raises
    :class:`TraceLoadError`."""
    path = Path(path)
    if stream is None:
        try:
            stream = path.stat().st_size >= STREAM_MIN_BYTES
        except OSError:
            stream = False
    if not stream:
        return from_chrome_trace(read_trace_file(path))
    try:
        meta: dict = {}
        if parser == "ijson":
            data = _ijson_load(path, keep_args, sink)
        else:
            top: dict = {}
            with _open_text(path) as f:
                data = events_to_data(_checked(scan_events(f, top)), compact=True, keep_args=keep_args, sink=sink)
            for key in ("metadata", "otherData"):
                if isinstance(top.get(key), dict):
                    meta.update(top[key])
            data.metadata.update(meta)
        if not data.spans and not data.counters:
            return from_chrome_trace(read_trace_file(path))   # empty or not a trace: the whole-file errors
        return data
    except ScanError as e:
        raise TraceLoadError(f"{path}: {e}") from None
    except TraceLoadError as e:
        raise TraceLoadError(f"{path}: {e}" if str(path) not in str(e) else str(e)) from None
    except (OSError, UnicodeDecodeError, EOFError) as e:     # gzip.BadGzipFile is an OSError
        raise file_error(path, e) from None


def _open_text(path: Path):
    return (gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz"
            else open(path, "r", encoding="utf-8"))


def _ijson_load(path: Path, keep_args: frozenset | None, sink=None) -> TraceData:
    import ijson
    try:
        first = _first_char(path)
        if first not in (b"{", b"["):
            raise TraceLoadError(f"{path}: not a Chrome trace: expected an object with a \"traceEvents\" list")
        prefix = "item" if first == b"[" else "traceEvents.item"
        with _open(path) as f:
            data = events_to_data(_checked(ijson.items(f, prefix, use_float=True)), compact=True, keep_args=keep_args, sink=sink)
        if first == b"{" and (data.spans or data.counters):
            with _open(path) as f:      # a second scan, building only otherData (the C backend skips the rest)
                for value in ijson.items(f, "otherData", use_float=True):
                    if isinstance(value, dict):
                        data.metadata.update(value)
                    break
        return data
    except ijson.JSONError as e:
        why = " ".join(str(e).split())[:80]
        raise TraceLoadError(f"{path}: not JSON (truncated or malformed: {why})") from None


def _checked(items):
    for ev in items:
        if not isinstance(ev, dict):
            raise TraceLoadError("not a Chrome trace: a JSON array of trace events must hold only objects")
        yield ev
