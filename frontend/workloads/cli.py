"""``python -m frontend.workloads {encoder,decoder}``: simulate one layer and print a
per-op table; :func:`simulate` does the same from Python."""
from __future__ import annotations

import argparse

from ..cli.parser import _nonneg_int, _pos_int
from .builders import decoder_step, encoder_layer
from .config import PRESETS, TransformerConfig
from .layer import WorkloadResult


def simulate(kind: str = "encoder", preset: str | TransformerConfig = "bert-base", *, chip: str = "ascend910b2",
             timing_only: bool = True, trace=None, **sizes) -> WorkloadResult:
    """Open a Session on ``chip``, build ``kind`` ("encoder" or "decoder") with
    ``sizes`` (batch, seq, lengths / batch, cache_len, max_cache), run it once, close.
    ``trace``: a path to write the run's Chrome/Perfetto trace to (every pipe's tile
    stages, as ``npu-sim run`` writes; None: no trace); an OSError of the write is raised."""
    from acl_runtime import profiler
    from acl_runtime.api import Session
    cfg = PRESETS[preset] if isinstance(preset, str) else preset
    build = {"encoder": encoder_layer, "decoder": decoder_step}[kind]
    with Session(chip, timing_only=timing_only) as s:
        res = build(s, cfg, **sizes).run()
        if trace is not None:
            profiler.write_trace(trace, metadata={"workload": kind, "preset": cfg.name, "chip": res.chip})
        return res


def print_result(res: WorkloadResult, console=None) -> None:
    """A rich table: per-op device time, share and TFLOP/s, then the latency."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table
    console = console or Console()
    total = sum(o.device_ns for o in res.ops) or 1.0
    t = Table(title=f"{escape(res.name)} on {res.chip}: {res.latency_ns / 1e3:,.1f} us simulated", title_justify="left")
    for c in ("op", "aclnn", "kernels", "device us", "share", "TFLOP/s"):
        t.add_column(c, justify="left" if c in ("op", "aclnn") else "right")
    for o in res.ops:
        tf = o.flops / o.device_ns / 1e3 if o.flops and o.device_ns else 0.0
        t.add_row(o.label, o.aclnn, str(o.kernels), f"{o.device_ns / 1e3:,.2f}", f"{o.device_ns / total:.1%}",
                  f"{tf:.1f}" if tf else "-")
    console.print(t)


def main(argv: list[str] | None = None) -> int:
    """``python -m frontend.workloads {encoder,decoder} [--preset P] [--chip C] ...``."""
    p = argparse.ArgumentParser(prog="python -m frontend.workloads",
                                description="Simulate one transformer encoder layer or decoder step (no ONNX).")
    p.add_argument("kind", choices=("encoder", "decoder"))
    p.add_argument("--preset", choices=sorted(PRESETS), help="default: bert-base (encoder), llama-7b (decoder)")
    p.add_argument("--chip", default="ascend910b2", help="chip preset or a .json/.yaml config (default ascend910b2)")
    p.add_argument("--batch", type=_pos_int, default=1, help="batch (>= 1, default 1)")
    p.add_argument("--seq", type=_pos_int, default=128, help="encoder sequence length (>= 1, default 128)")
    p.add_argument("--cache-len", type=_nonneg_int, default=1024,
                   help="decoder: tokens already in the KV cache (>= 0, default 1024)")
    p.add_argument("--dtype", choices=("float16", "bfloat16", "float32"))
    p.add_argument("--data", action="store_true", help="compute numbers too (default: timing only)")
    p.add_argument("--trace", metavar="FILE.json",
                   help="write the run's Chrome/Perfetto trace here (default: none; `npu-trace summary FILE.json`)")
    args = p.parse_args(argv)
    from acl_runtime.errors import AclError, AclRuntimeError
    from npu_sim import get_chip
    try:
        get_chip(args.chip)
    except Exception as e:  # noqa: BLE001 - unknown preset, or pydantic / yaml / json errors of a chip file
        return _error(f"--chip {args.chip}: {str(e).strip(chr(34))}", 2)
    if args.trace is not None:
        from ..cli.common import CliError, writable_file
        try:
            writable_file(args.trace)   # before the run, so a long run does not fail at its end
        except CliError as e:
            return _error(f"--trace: {e}", 2)
    cfg = PRESETS[args.preset or ("bert-base" if args.kind == "encoder" else "llama-7b")]
    if args.dtype:
        cfg = cfg.with_(dtype=args.dtype)
    sizes = dict(batch=args.batch, seq=args.seq) if args.kind == "encoder" else \
        dict(batch=args.batch, cache_len=args.cache_len)
    try:
        res = simulate(args.kind, cfg, chip=args.chip, timing_only=not args.data, trace=args.trace, **sizes)
    except (AclError, AclRuntimeError, ValueError) as e:   # e.g. out of device memory at a huge batch
        return _error(str(e), 1)
    except OSError as e:   # the trace file could not be written
        return _error(f"--trace {args.trace}: {e.strerror or e}", 1)
    except KeyboardInterrupt:
        return _error("interrupted", 130)
    print_result(res)
    if args.trace is not None:
        print(f"trace: {args.trace}  (open in https://ui.perfetto.dev or chrome://tracing)")
    return 0


def _error(message: str, code: int) -> int:
    """Print ``message`` as one ``error:`` line on stderr; return the exit ``code``."""
    import sys
    print(f"error: {message}", file=sys.stderr)
    return code

