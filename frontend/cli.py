"""``npu-sim``: run ONNX models on a simulated Ascend-style NPU.

  npu-sim run [MODEL] [--chip NAME|FILE] [--inputs FILE.npz] [--trace FILE.json] [--save-outputs DIR]
  npu-sim info MODEL
  npu-sim chips
  npu-sim reweight MODEL OUT.onnx [--seed N]

MODEL is an .onnx path, the name of a light model that the onnx package ships
(e.g. ``light_bvlc_alexnet``), or ``paraphrase-MiniLM-L3-v2`` (optional extra ``models``). Not to be confused with CANN's own "npusim"
simulator: this project is unrelated.

Exit codes: 0 success (and the reference check passed), 1 the run failed or the
check failed, 2 bad arguments or an unsupported model, 130 interrupted.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

DEFAULT_MODEL = "light_resnet50.onnx"
MINILM = "paraphrase-MiniLM-L3-v2"  # from the optional extra `models`


class CliError(Exception):
    """A user error: printed as one line, exit code ``code``."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code


def light_model_path(name: str) -> Path:
    """Path of a light model that the onnx package ships (onnx/backend/test/data/light)."""
    import onnx
    return Path(onnx.__file__).parent / "backend" / "test" / "data" / "light" / name


def light_models() -> list[str]:
    """Names of the light models the installed onnx package ships."""
    d = light_model_path("")
    return sorted(p.stem for p in d.glob("*.onnx")) if d.is_dir() else []


def _nonneg_int(text: str) -> int:
    v = int(text)
    if v < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {v}")
    return v


def _pos_float(text: str) -> float:
    v = float(text)
    if not (v > 0 and np.isfinite(v)):
        raise argparse.ArgumentTypeError(f"must be a positive finite number, got {text}")
    return v


def _pos_int(text: str) -> int:
    v = int(text)
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {v}")
    return v


def _parser() -> argparse.ArgumentParser:
    from npu_sim import DEFAULT_CHIP, PRESETS
    p = argparse.ArgumentParser(prog="npu-sim", description="Run ONNX models on a simulated Ascend-style NPU "
                                "(aclnn two-phase operators, ACL runtime, Chrome/Perfetto traces).")
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run a model and print a summary",
                       description="Run an ONNX model: phase 1 (prepare) every op once, then execute on a stream, "
                                   "check the outputs against the onnx reference evaluator, print a summary and "
                                   "write a trace. With no MODEL, runs the light ResNet-50 that onnx ships.")
    r.add_argument("model", nargs="?", help=f"ONNX file, or the name of an onnx light model "
                                            f"(default: {DEFAULT_MODEL}; see `npu-sim info`)")
    r.add_argument("--chip", default=DEFAULT_CHIP,
                   help=f"chip preset ({', '.join(PRESETS)}) or a .json/.yaml config (default: {DEFAULT_CHIP})")
    r.add_argument("--inputs", metavar="FILE.npz", help="arrays by input name (see `npu-sim info MODEL`); a name "
                   "that is an initializer replaces that weight; other inputs get seeded random values")
    r.add_argument("--seed", type=_nonneg_int, default=0, help="seed for random inputs (default 0)")
    r.add_argument("--trace", metavar="FILE.json", default="npu_sim_trace.json",
                   help="where to write the Chrome/Perfetto trace (default: npu_sim_trace.json; '' to skip)")
    r.add_argument("--save-outputs", metavar="DIR", help="write each graph output as DIR/<name>.npy "
                                                          "('/' and other unsafe characters become '_')")
    r.add_argument("--no-check", action="store_true", help="skip the comparison with the onnx reference evaluator")
    r.add_argument("--tol", type=_pos_float, default=1e-3, help="relative tolerance for the check (default 1e-3)")
    r.add_argument("--top", type=_pos_int, default=10, help="operators to list (default 10)")
    r.add_argument("--no-progress", action="store_true", help="no progress bars")
    r.add_argument("--no-fuse", action="store_true",
                   help="keep attention decomposed (MatMul/Softmax) instead of fusing it into FlashAttentionScore")
    i = sub.add_parser("info", help="list a model's inputs, outputs and operators",
                       description="Show what a model needs (input names, shapes, dtypes, for --inputs) and "
                                   "whether every operator is supported. With no MODEL, lists the light models.")
    i.add_argument("model", nargs="?")
    sub.add_parser("chips", help="list chip presets with their key figures")
    w = sub.add_parser("reweight", help="replace a model's constant weights with seeded random ones",
                       description="Write a copy of MODEL whose ConstantOfShape-built weights and float "
                                   "initializers are random (He-scaled), so its outputs are a strong check.")
    w.add_argument("model", help="ONNX file or light model name")
    w.add_argument("out", help="output .onnx path")
    w.add_argument("--seed", type=_nonneg_int, default=0)
    return p


def cmd_chips(console: Console) -> int:
    from npu_sim import PRESETS
    t = Table(title="chip presets")
    for c in ("name", "arch", "AIC", "AIV", "clock GHz", "fp16 TFLOP/s", "HBM GiB", "HBM GB/s", "UB KiB",
              "L1 KiB", "L0A/B/C KiB", "L2 MiB"):
        t.add_column(c, justify="left" if c in ("name", "arch") else "right")
    for c in PRESETS.values():
        t.add_row(c.name, c.architecture.value, str(c.aic_count), str(c.aiv_count), f"{c.clock_hz / 1e9:.2f}",
                  f"{c.peak_flops('float16') / 1e12:.1f}", f"{c.hbm_bytes / 2**30:g}",
                  f"{c.hbm_bandwidth_bytes_per_ns:.0f}", f"{c.ub_bytes // 1024}", f"{c.l1_bytes // 1024}",
                  f"{c.l0a_bytes // 1024}/{c.l0b_bytes // 1024}/{c.l0c_bytes // 1024}", f"{c.l2_bytes / 2**20:.0f}")
    console.print(t)
    console.print("Sources and assumptions: npu_sim/chips/presets.py. Write a preset to edit: "
                  "python -c \"from npu_sim import PRESETS; PRESETS['ascend910b2'].to_file('my_chip.yaml')\"")
    return 0


def _resolve_model(arg: str | None) -> Path:
    if not arg:
        return light_model_path(DEFAULT_MODEL)
    p = Path(arg)
    if p.is_file():
        return p
    if p.is_dir():
        raise CliError(f"model {arg!r} is a directory, not an .onnx file")
    lp = light_model_path(arg if arg.endswith(".onnx") else arg + ".onnx")
    if lp.exists():
        return lp
    if arg.lower().removesuffix(".onnx") in (MINILM.lower(), "minilm"):
        from .workloads import minilm_model_path
        mp = minilm_model_path()
        if mp is None:
            raise CliError(f"{MINILM} needs the optional package: pip install 'npu-sim[models]'")
        return Path(mp)
    raise CliError(f"model {arg!r} not found (not a file, nor an onnx light model: {', '.join(light_models())}, "
                   f"nor {MINILM})")


def _load_graph(path: Path, overrides=None, fuse: bool = True):
    from .onnx_import import UnsupportedModelError, load_onnx
    try:
        graph = load_onnx(path, overrides=overrides, fuse_attention=fuse)
    except UnsupportedModelError as e:
        raise CliError(str(e)) from None
    if not graph.outputs:
        raise CliError(f"{path} has no graph outputs (is it an ONNX model?)")
    return graph


def cmd_info(args, console: Console) -> int:
    if not args.model:
        from .workloads import minilm_model_path
        console.print("light models shipped with onnx: " + ", ".join(light_models()))
        console.print(f"{MINILM}: " + ("installed" if minilm_model_path() else
                                       "not installed (pip install 'npu-sim[models]')"))
        return 0
    from .lowering import supported_ops
    path = _resolve_model(args.model)
    graph = _load_graph(path)
    t = Table(title=f"{path.name}: inputs (feed these through --inputs)", title_justify="left")
    for c in ("name", "shape", "dtype"):
        t.add_column(c)
    for name, (shape, dtype) in graph.inputs.items():
        t.add_row(name, str(list(shape)), str(np.dtype(dtype)))
    console.print(t)
    console.print("outputs: " + ", ".join(graph.outputs))
    counts: dict[str, int] = {}
    for n in graph.nodes:
        counts[n.op_type] = counts.get(n.op_type, 0) + 1
    ops = Table(title="operators after constant folding", title_justify="left")
    ops.add_column("op")
    ops.add_column("count", justify="right")
    ops.add_column("supported")
    known = supported_ops()
    for op, c in sorted(counts.items(), key=lambda kv: -kv[1]):
        ops.add_row(op, str(c), "yes" if op in known else "[red]no[/]")
    console.print(ops)
    return 0


def cmd_reweight(args, console: Console) -> int:
    import onnx
    from .reweight import reweight_model
    path = _resolve_model(args.model)
    try:
        model = onnx.load(str(path))
    except Exception as e:  # noqa: BLE001 - protobuf raises many kinds
        raise CliError(f"cannot read {path}: {e}") from None
    if not model.graph.node:
        raise CliError(f"{path} has no nodes (is it an ONNX model?)")
    out = _writable_file(args.out)
    onnx.save(reweight_model(model, args.seed), str(out))
    console.print(f"wrote {out} (random weights, seed {args.seed})")
    return 0


def _writable_file(path: str) -> Path:
    """Check early that ``path`` can be written (so a long run does not fail at the end)."""
    p = Path(path)
    if p.is_dir():
        raise CliError(f"{path!r} is a directory; give a file name")
    if not p.parent.is_dir():
        raise CliError(f"cannot write {path!r}: directory {str(p.parent)!r} does not exist")
    if not os.access(p.parent, os.W_OK):
        raise CliError(f"cannot write {path!r}: directory {str(p.parent)!r} is not writable")
    return p


def _writable_dir(path: str) -> Path:
    p = Path(path)
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CliError(f"cannot create output directory {path!r}: {e.strerror or e}") from None
    if not p.is_dir() or not os.access(p, os.W_OK):
        raise CliError(f"cannot write into {path!r}: not a writable directory")
    return p


def _safe_name(name: str, used: set[str]) -> str:
    base = "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "output"
    cand, k = base, 1
    while cand in used:
        k += 1
        cand = f"{base}_{k}"
    used.add(cand)
    return cand


def _read_inputs(path: str) -> dict[str, np.ndarray]:
    try:
        with np.load(path, allow_pickle=False) as z:
            return {k: z[k] for k in z.files}
    except Exception as e:  # noqa: BLE001 - numpy raises many kinds for a bad file
        raise CliError(f"cannot read inputs {path!r}: {e}") from None


def _as_input(name: str, arr: np.ndarray, dtype, shape) -> np.ndarray:
    arr = np.asarray(arr)
    if arr.dtype.kind in "OUSVc" or (arr.dtype.kind == "f" and np.dtype(dtype).kind in "iub"):
        raise CliError(f"input {name!r}: cannot use {arr.dtype} data for a {np.dtype(dtype)} input", 1)
    out = arr.astype(dtype, copy=False)
    if tuple(out.shape) != tuple(shape):
        raise CliError(f"input {name!r} has shape {list(out.shape)}, the model wants {list(shape)}", 1)
    return out


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


def cmd_run(args, console: Console) -> int:
    from acl_runtime import acl
    from npu_sim import get_chip
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from . import profiling
    from .errors import DeviceError, UnsupportedModelError
    from .runner import ModelRunner

    path = _resolve_model(args.model)
    try:
        chip = get_chip(args.chip)
    except KeyError as e:
        raise CliError(str(e).strip('"')) from None
    except Exception as e:  # noqa: BLE001 - pydantic / yaml / json errors of a chip file
        raise CliError(f"invalid chip config {args.chip}: {e}") from None
    trace_file = _writable_file(args.trace) if args.trace else None
    out_dir = _writable_dir(args.save_outputs) if args.save_outputs else None
    feeds_file = _read_inputs(args.inputs) if args.inputs else {}
    t0 = time.perf_counter()
    graph = _load_graph(path, overrides=feeds_file, fuse=not args.no_fuse)
    inits = {i.name for i in graph.model.graph.initializer}
    unknown = set(feeds_file) - set(graph.inputs) - inits
    if unknown:
        raise CliError(f"--inputs names not in the model: {', '.join(sorted(unknown))}; it takes "
                       f"{', '.join(graph.inputs) or 'no runtime inputs'} (see `npu-sim info`)")
    rng = np.random.default_rng(args.seed)
    feeds = {}
    for name, (shape, dtype) in graph.inputs.items():
        if name in feeds_file:
            feeds[name] = _as_input(name, feeds_file[name], dtype, shape)
        elif any(d < 0 for d in shape):
            raise CliError(f"input {name!r} has a dynamic shape {list(shape)}: give it with --inputs")
        elif np.dtype(dtype).kind == "f":
            feeds[name] = rng.standard_normal(shape).astype(dtype)
        else:
            feeds[name] = rng.integers(0, 2, size=shape).astype(dtype)

    if profiling.acl_initialized():
        acl.finalize()
    if acl.init(chip=chip) != 0 or acl.rt.set_device(0) != 0:
        raise CliError(acl.get_recent_err_msg())
    try:
        runner = ModelRunner(graph)
        with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                      TimeElapsedColumn(), console=console, transient=True, disable=args.no_progress) as prog:
            tp = prog.add_task("prepare (phase 1)", total=len(graph.nodes))
            runner.prepare(lambda i, n: prog.update(tp, completed=i))
            prepare_s = time.perf_counter() - t0
            tr = prog.add_task("execute (simulate)", total=max(len(runner.calls), 1))
            result = runner.run(feeds, lambda i, n: prog.update(tr, completed=i))
        records = profiling.kernel_records()
        peak = profiling.peak_memory_bytes()
        trace_path = None
        if trace_file is not None:
            profiling.write_trace(trace_file, metadata={"model": str(path), "chip": chip.name})
            trace_path = f"{trace_file}  (open in https://ui.perfetto.dev or chrome://tracing)"
    except UnsupportedModelError as e:
        raise CliError(str(e)) from None
    except (DeviceError, ValueError) as e:
        raise CliError(str(e), 1) from None
    finally:
        if profiling.acl_initialized():
            acl.finalize()

    check = None
    ref_s = None
    if not args.no_check:
        from .reference import reference_evaluator
        t1 = time.perf_counter()
        try:
            model = _with_overrides(graph.model, feeds_file) if feeds_file else graph.model
            ref = reference_evaluator(model).run(None, feeds)
            ref_s = time.perf_counter() - t1
            errs = [rel_error(result.outputs[name], r) for name, r in zip(graph.outputs, ref)]
            uniform = all(np.asarray(r).size > 1 and np.ptp(np.asarray(r, np.float64)) == 0 for r in ref)
            check = {"rel_err": max(errs, default=0.0), "tol": args.tol, "uniform": uniform}
        except Exception as e:  # noqa: BLE001 - the reference itself may not support a model
            console.print(f"[yellow]warning:[/] onnx reference evaluator failed, outputs not checked: {e}")

    if out_dir is not None:
        used: set[str] = set()
        for name, arr in result.outputs.items():
            np.save(out_dir / (_safe_name(name, used) + ".npy"), arr)
        console.print(f"outputs written to {out_dir}/: {', '.join(sorted(u + '.npy' for u in used))}",
                      highlight=False)
    from .summary import print_summary
    print_summary(console, model=path.name, chip=chip, result=result, records=records, peak_bytes=peak,
                  weight_bytes=runner.weight_bytes, trace_path=trace_path, check=check, prepare_s=prepare_s,
                  ref_s=ref_s, top=args.top)
    if check is not None and not check["rel_err"] <= check["tol"]:
        return 1
    return 0


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


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``npu-sim`` console script. Returns the exit code."""
    args = _parser().parse_args(argv)
    console = Console() if sys.stdout.isatty() else Console(width=150)
    try:
        if args.cmd == "chips":
            return cmd_chips(console)
        if args.cmd == "info":
            return cmd_info(args, console)
        if args.cmd == "reweight":
            return cmd_reweight(args, console)
        return cmd_run(args, console)
    except CliError as e:
        console.print(f"[red]error:[/] {e}", highlight=False)
        return e.code
    except KeyboardInterrupt:
        console.print("[yellow]interrupted[/]")
        return 130


if __name__ == "__main__":
    sys.exit(main())
