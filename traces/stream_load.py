"""Loading big traces without holding their JSON text: events are parsed one at a
time with ijson (its C backend, yajl2_c, when the wheel has it) and fed straight into
:func:`traces.load.events_to_data`, so peak memory is the spans, not the file plus
a list of event dicts.

ijson is optional (``pip install -e '.[trace]'``); without it, or for files under
:data:`STREAM_MIN_BYTES`, :func:`load_trace` reads the file whole, as
:func:`traces.load.read_trace_file` does. Both paths give the same
:class:`~traces.load.TraceData` and the same one-line errors.
"""
from __future__ import annotations

import gzip
from pathlib import Path
from .load import TraceData, TraceLoadError, events_to_data, from_chrome_trace, read_trace_file

#: files at least this big (bytes, compressed size for .gz) are streamed when ijson is installed
STREAM_MIN_BYTES = 32 * 1024 * 1024


def _open(path: Path):
    return gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")


def _first_char(path: Path) -> bytes:
    with _open(path) as f:
        while True:
            c = f.read(1)
            if not c or not c.isspace():
                return c


def load_trace(path: str | Path, stream: bool | None = None) -> TraceData:
    """The :class:`TraceData` of the trace file at ``path``. ``stream``: True forces
    the ijson path (ImportError if ijson is missing), False the whole-file path,
    None picks by size (:data:`STREAM_MIN_BYTES`). Raises :class:`TraceLoadError`."""
    path = Path(path)
    if stream is None:
        try:
            big = path.stat().st_size >= STREAM_MIN_BYTES
        except OSError:
            big = False
        if big:
            try:
                import ijson  # noqa: F401
            except ImportError:
                big = False
        stream = big
    if not stream:
        return from_chrome_trace(read_trace_file(path))
    import ijson
    try:
        first = _first_char(path)
        if first not in (b"{", b"["):
            raise TraceLoadError(f"{path}: not a Chrome trace: expected an object with a \"traceEvents\" list")
        prefix = "item" if first == b"[" else "traceEvents.item"
        with _open(path) as f:
            data = events_to_data(_checked(ijson.items(f, prefix, use_float=True)))
        if not data.spans and not data.counters:
            return from_chrome_trace(read_trace_file(path))   # empty or not a trace: the whole-file errors
        if first == b"{":
            with _open(path) as f:      # a second scan, building only otherData (the C backend skips the rest)
                for value in ijson.items(f, "otherData", use_float=True):
                    if isinstance(value, dict):
                        data.metadata.update(value)
                    break
        return data
    except FileNotFoundError:
        raise TraceLoadError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise TraceLoadError(f"{path}: is a directory, not a trace file") from None
    except ijson.JSONError as e:
        why = " ".join(str(e).split())[:80]
        raise TraceLoadError(f"{path}: not JSON (truncated or malformed: {why})") from None
    except (UnicodeDecodeError, gzip.BadGzipFile, EOFError) as e:
        raise TraceLoadError(f"{path}: not a JSON text file ({type(e).__name__}: {e})") from None


def _checked(items):
    for ev in items:
        if not isinstance(ev, dict):
            raise TraceLoadError("not a Chrome trace: a JSON array of trace events must hold only objects")
        yield ev
