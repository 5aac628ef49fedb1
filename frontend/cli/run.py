"""``npu-sim run``: feeds, one prepared run, the reference check and the summary."""
from __future__ import annotations

import os
import time
import warnings

from pathlib import Path

import numpy as np
from rich.console import Console
from rich.markup import escape

from .common import DEFAULT_TRACE, CliError, load_graph, resolve_model, writable_dir, writable_file, write_atomically
from .run_inputs import draw_input, parse_dims, shaped_model
from .run_inputs import (_as_input, _check_fits, _check_sequence_length, _random_input, _read_inputs,  # noqa: F401
                         _safe_name, _undeclared_shape_inputs)


def rel_error(got: np.ndarray, ref: np.ndarray) -> float:
    """max |got - ref| / max |ref| in float64; NaN where the two agree counts as equal,
    NaN where they disagree makes the error infinite; 0 for empty outputs."""
    got = np.asarray(got, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    if got.shape != ref.shape:
        return float("inf")
    if ref.size == 0:
        return 0.0
    nan_g, nan_r = np.isnan(got), np.isnan(ref)
    if (nan_g != nan_r).any():
        return float("inf")
    ok = ~nan_r
    if not ok.any():
        return 0.0
    g, r = got[ok], ref[ok]
    same_inf = np.isinf(r) & (g == r)
    with np.errstate(invalid="ignore"):
        diff = np.where(same_inf, 0.0, np.abs(g - r))
    finite = np.abs(r[np.isfinite(r)])
    denom = finite.max() if finite.size and finite.max() > 0 else 1.0
    return float(diff.max() / denom)


#: estimated trace size (bytes) above which `npu-sim run` warns before writing it
TRACE_WARN_BYTES = 256 * 2**20


def _warn_trace_size(console: Console, level: str) -> None:
    """Before writing the trace: warn when its estimated size (from the span count,
    ``Profiler.estimate_trace_bytes``) is over :data:`TRACE_WARN_BYTES`, naming the
    lighter levels."""
    from acl_runtime import profiler
    est, spans = profiler.estimate_trace_bytes()
    if est > TRACE_WARN_BYTES:
        lighter = " or ".join(f"--trace-level {lv}" for lv in ("kernels", "off") if lv != level)
        console.print(f"[yellow]warning:[/] the trace will be about {est / 2**20:,.0f} MiB ({spans:,} spans at "
                      f"level {level}); {lighter} writes less", highlight=False)


def cmd_run(args, console: Console) -> int:
    from acl_runtime import acl
    from npu_sim import get_chip
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from .. import profiling
    from ..errors import DeviceError, UnsupportedModelError, readable_device_error
    from ..passes import PASSES, pass_names
    from ..runner import ModelRunner

    if args.passes:
        for i, p in enumerate(PASSES, 1):
            console.print(f"{i}. {p.name}: {p.doc}", highlight=False)
        return 0
    bad = sorted(set(args.disable_pass) - set(pass_names()))
    if bad:
        raise CliError(f"unknown pass {', '.join(bad)}; passes: {', '.join(pass_names())}")
    path = resolve_model(args.model)
    try:
        chip = get_chip(args.chip)
    except KeyError as e:
        raise CliError(str(e).strip('"')) from None
    except Exception as e:  # noqa: BLE001 - pydantic / yaml / json errors of a chip file
        raise CliError(f"invalid chip config {args.chip}: {e}") from None
    timing_only = args.timing_only
    if timing_only and args.save_outputs:
        raise CliError("--save-outputs needs numbers: drop --timing-only")
    sources = [path] + ([args.inputs] if args.inputs else []) + ([args.chip] if Path(str(args.chip)).is_file() else [])
    if args.trace and args.trace_level == "off":
        raise CliError(f"--trace {args.trace} asks for a trace but --trace-level off records none: "
                       "drop one of them")
    trace = DEFAULT_TRACE if args.trace is None else args.trace
    trace_file = writable_file(trace, sources) if trace and args.trace_level != "off" else None
    out_dir = writable_dir(args.save_outputs, sources) if args.save_outputs else None
    feeds_file = _read_inputs(args.inputs) if args.inputs else {}
    t0 = time.perf_counter()
    _check_sequence_length(path, feeds_file)
    model_src = shaped_model(path, args.batch, parse_dims(args.dim), console)
    graph = load_graph(model_src, overrides=feeds_file, fuse=not args.no_fuse, timing_only=timing_only)
    inits = {i.name for i in graph.model.graph.initializer}
    unknown = set(feeds_file) - set(graph.inputs) - inits
    if unknown:
        raise CliError(f"--inputs names not in the model: {', '.join(sorted(unknown))}; it takes "
                       f"{', '.join(graph.inputs) or 'no runtime inputs'} (see `npu-sim info`)")
    rng = np.random.default_rng(args.seed)
    feeds = {}
    no_shape = set(_undeclared_shape_inputs(graph.model))
    for name, (shape, dtype) in graph.inputs.items():
        if name in feeds_file:
            feeds[name] = _as_input(name, feeds_file[name], dtype, shape)
        elif name in no_shape:
            raise CliError(f"input {name!r} declares no shape in the model: give it with --inputs")
        elif any(d < 0 for d in shape):
            free = _dim_params(graph.model, name)
            hint = (f" or fix {'its dims' if len(free) > 1 else 'it'} with "
                    + " ".join(f"--dim {d}=N" for d in free)) if free else ""
            raise CliError(f"input {name!r} has a dynamic shape {list(shape)}: give it with --inputs{hint}")
        else:
            feeds[name] = draw_input(rng, name, shape, dtype, chip, timing_only)

    write_errors: list[str] = []
    if profiling.acl_initialized():
        acl.finalize()
    if acl.init(chip=chip, timing_only=timing_only) != 0 or acl.rt.set_device(0) != 0:
        raise CliError(acl.get_recent_err_msg())
    from acl_runtime import profiler
    profiler.set_level(args.trace_level)
    from acl_runtime import sanitizer
    if getattr(args, "sanitize", False):
        sanitizer.enable(True)
    try:
        runner = ModelRunner(graph, mode=args.mode, disable_passes=args.disable_pass, memory=args.memory)
        with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                      TimeElapsedColumn(), console=console, transient=True, disable=args.no_progress) as prog:
            tp = prog.add_task("prepare (phase 1)", total=len(runner.graph.nodes))
            runner.prepare(lambda i, n: prog.update(tp, completed=i))
            captured, capture_error = 0, ""
            if args.capture:   # one capture; the run replays it (frontend.program)
                captured, capture_error = runner.program.try_capture(runner.memory_report().live)
            prepare_s = time.perf_counter() - t0
            tr = prog.add_task("execute (simulate)", total=max(len(runner.calls), 1))
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)   # NaN/inf inputs: the check reports them
                warnings.simplefilter("ignore", sanitizer.SanitizerWarning)   # printed below
                result = runner.run(feeds, lambda i, n: prog.update(tr, completed=i))
        records = profiling.kernel_records()
        peak = profiling.peak_memory_bytes()
        mem_report = runner.memory_report()
        trace_path = None
        if trace_file is not None:
            _warn_trace_size(console, args.trace_level)
            replaced = os.path.exists(trace_file)   # said in the summary: the default name is reused by every run
            trace_error = write_atomically(trace_file, lambda tmp: profiling.write_trace(
                tmp, metadata={"model": str(path), "chip": chip.name, "mode": args.mode,
                               "replayed": bool(captured), "captured_tasks": captured}))
            if trace_error is None:
                trace_path = (f"{trace_file}  ({'replaced the previous file; ' if replaced else ''}"
                              "open in https://ui.perfetto.dev or chrome://tracing)")
            else:
                write_errors.append(trace_error)
    except UnsupportedModelError as e:
        raise CliError(str(e)) from None
    except DeviceError as e:
        raise CliError(readable_device_error(e, chip.name), 1) from None
    except ValueError as e:
        raise CliError(str(e), 1) from None
    finally:
        if profiling.acl_initialized():
            acl.finalize()

    check = None
    ref_s = None
    if not args.no_check and not timing_only:
        from ..reference import reference_evaluator
        t1 = time.perf_counter()
        try:
            model = _with_overrides(graph.model, feeds_file) if feeds_file else graph.model
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                ref = reference_evaluator(model).run(None, feeds)
                ref_s = time.perf_counter() - t1
                errs = [rel_error(result.outputs[name], r) for name, r in zip(graph.outputs, ref)]
                uniform = all(np.asarray(r).size > 1 and np.ptp(np.asarray(r, np.float64)) == 0 for r in ref)
                not_finite = [f"{name} ({which})" for name, r in zip(graph.outputs, ref)
                              for which, a in (("result", result.outputs[name]), ("reference", r))
                              if _has_non_finite(a)]
            check = {"rel_err": max(errs, default=0.0), "tol": args.tol, "uniform": uniform,
                     "not_finite": not_finite}
        except Exception as e:  # noqa: BLE001 - the reference itself may not support a model
            console.print(f"[yellow]warning:[/] onnx reference evaluator failed, outputs not checked: "
                          f"{escape(str(e))}")

    if out_dir is not None:
        used: set[str] = set()
        written = []
        for name, arr in result.outputs.items():
            fname = _safe_name(name, used) + ".npy"
            err = write_atomically(out_dir / fname, lambda tmp, a=arr: np.save(tmp, a))
            if err is None:
                written.append(fname)
            else:
                write_errors.append(err)
        if written:
            console.print(f"outputs written to {escape(str(out_dir))}/: {escape(', '.join(sorted(written)))}",
                          highlight=False)
    from ..summary import check_passed, print_summary
    print_summary(console, model=path.name, chip=chip, result=result, records=records, peak_bytes=peak,
                  weight_bytes=runner.weight_bytes, trace_path=trace_path, check=check, prepare_s=prepare_s,
                  ref_s=ref_s, top=args.top, mode=args.mode,
                  inputs={n: (a.shape, a.dtype) for n, a in feeds.items()},   # arrays or placeholders
                  shaped_by=" ".join(([f"--batch {args.batch}"] if args.batch else [])
                                     + [f"--dim {d}" for d in args.dim or []]))
    from ..memory import print_memory
    print_memory(console, mem_report, full=args.memory_report)
    if getattr(args, "sanitize", False):
        for f in sanitizer.findings():
            console.print(f"[yellow]sanitizer:[/] {escape(str(f))}", highlight=False)
        if not sanitizer.findings():
            console.print("sanitizer: no findings", highlight=False)
    if captured:
        console.print(f"replayed: captured once as a model run instance ({captured} tasks), run by one "
                      "aclmdlRIExecuteAsync (one host launch)", highlight=False)
    else:
        why = f"the capture failed ({escape(capture_error)})" if capture_error else "--no-capture"
        console.print(f"not replayed: every kernel launched eagerly ({why})", highlight=False)
    for err in write_errors:
        err_console = Console(stderr=True, width=console.width)
        err_console.print(f"[red]error:[/] {escape(err)}", highlight=False)
    if write_errors or (check is not None and not check_passed(check)):
        return 1
    return 0


def _has_non_finite(a) -> bool:
    a = np.asarray(a)
    return a.dtype.kind in "fc" and not np.isfinite(a).all()


def _dim_params(model, name: str) -> list[str]:
    """The symbolic dim names still free in runtime input ``name`` of ``model``."""
    for vi in model.graph.input:
        if vi.name == name:
            return [d.dim_param for d in vi.type.tensor_type.shape.dim if d.dim_param and not d.dim_value]
    return []


def _with_overrides(model, feeds_file):
    """A copy of ``model`` whose initializers take the values given in ``--inputs``."""
    import onnx
    from onnx import numpy_helper
    m = onnx.ModelProto()
    m.CopyFrom(model)
    for init in m.graph.initializer:
        if init.name in feeds_file:
            dtype = numpy_helper.to_array(init).dtype
            init.CopyFrom(numpy_helper.from_array(np.asarray(feeds_file[init.name]).astype(dtype), init.name))
    return m
