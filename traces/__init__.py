"""Traces of npu-sim runs: Chrome trace JSON out, analysis back in, and the
``npu-trace`` command line.

* :mod:`traces.records` -- the plain :class:`Span` and :class:`Counter` records
  (this package imports nothing of the simulator, runtime or operators);
* :mod:`traces.chrome_trace` -- :func:`to_chrome_trace`, :func:`write_chrome_trace`
  (the only place ns become us), :func:`check_no_overlap`;
* :mod:`traces.validate` -- :func:`validate_trace` (what ``npu-trace validate`` checks);
* :mod:`traces.load` -- read a trace file or dict back into spans in ns;
* :mod:`traces.analysis` / :mod:`traces.streams` -- op summary, engine
  utilisation, copy/compute overlap, stream timelines, idle gaps, critical path;
* :mod:`traces.tracks` -- track names and display order;
* :mod:`traces.timeline` -- text and matplotlib timelines;
* :mod:`traces.window`, :mod:`traces.critical`, :mod:`traces.groups` -- time
  windows and phases, the critical path, ``--by`` tables and host/device time;
* :mod:`traces.view` / :mod:`traces.interactive` -- the rich terminal timeline and
  its textual app; :mod:`traces.diff`, :mod:`traces.export`,
  :mod:`traces.html_export` -- comparison, CSV/msprof CSV/PNG and the HTML page;
* :mod:`traces.stream_load` -- streamed loading of big files (ijson);
* :mod:`traces.cli` / :mod:`traces.commands` -- ``npu-trace summary | view | diff |
  export | validate | timeline``.
"""
from .analysis import (core_counts, counter_summary, critical_path, device_span, engine_utilization, idle_gaps,
                       op_summary, overlap, stream_summary)
from .chrome_trace import check_no_overlap, json_safe, to_chrome_trace, write_chrome_trace
from .records import Counter, Span
from .load import TraceData, TraceLoadError, as_trace_data, from_chrome_trace, read_trace_file
from .validate import TraceFormatError, validate_trace

__all__ = [
    "Span", "Counter", "to_chrome_trace", "write_chrome_trace", "check_no_overlap", "json_safe", "validate_trace",
    "TraceFormatError", "TraceData", "TraceLoadError", "as_trace_data", "from_chrome_trace", "read_trace_file",
    "op_summary", "engine_utilization", "overlap", "stream_summary", "idle_gaps", "critical_path",
    "counter_summary", "device_span", "core_counts",
]
