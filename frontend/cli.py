"""``npu-sim``: run ONNX models on a simulated Ascend-style NPU.

  npu-sim run [MODEL.onnx] [--chip NAME] [--inputs FILE.npz] [--trace FILE.json] [--save-outputs DIR]
  npu-sim chips
  npu-sim reweight IN.onnx OUT.onnx [--seed N]

Not to be confused with CANN's own "npusim" simulator: this project is unrelated.
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


def light_model_path(name: str) -> Path:
    """Path of a light model that the onnx package ships (onnx/backend/test/data/light)."""
    import onnx
    return Path(onnx.__file__).parent / "backend" / "test" / "data" / "light" / name


def _parser() -> argparse.ArgumentParser:
    from npu_sim import DEFAULT_CHIP, PRESETS
    p = argparse.ArgumentParser(prog="npu-sim", description="Run ONNX models on a simulated Ascend-style NPU "
                                "(aclnn two-phase operators, ACL runtime, Chrome/Perfetto traces).")
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run a model and print a summary",
                       description="Run an ONNX model: phase 1 (prepare) every op once, then execute on a stream. "
                                   "With no MODEL, runs the light ResNet-50 that the onnx package ships.")
    r.add_argument("model", nargs="?", help=f"ONNX file, or the name of an onnx light model "
                                            f"(default: {DEFAULT_MODEL})")
    r.add_argument("--chip", default=DEFAULT_CHIP,
                   help=f"chip preset ({', '.join(PRESETS)}) or a .json/.yaml config (default: {DEFAULT_CHIP})")
    r.add_argument("--inputs", metavar="FILE.npz", help="named inputs (and weight overrides) from an .npz; "
                                                        "default: seeded random inputs")
    r.add_argument("--seed", type=int, default=0, help="seed for random inputs (default 0)")
    r.add_argument("--trace", metavar="FILE.json", default="npu_sim_trace.json",
                   help="where to write the Chrome/Perfetto trace (default: npu_sim_trace.json; '' to skip)")
    r.add_argument("--save-outputs", metavar="DIR", help="write each graph output as DIR/<name>.npy")
    r.add_argument("--no-check", action="store_true", help="skip the comparison with the onnx reference evaluator")
    r.add_argument("--tol", type=float, default=1e-3, help="relative tolerance for the check (default 1e-3)")
    r.add_argument("--top", type=int, default=10, help="operators to list (default 10)")
    r.add_argument("--no-progress", action="store_true", help="no progress bars")
    sub.add_parser("chips", help="list chip presets with their key figures")
    w = sub.add_parser("reweight", help="replace a model's constant weights with seeded random ones",
                       description="Write a copy of MODEL whose ConstantOfShape-built weights and initializers "
                                   "are random (He-scaled), so outputs are a strong numerical check.")
    w.add_argument("model")
    w.add_argument("out")
    w.add_argument("--seed", type=int, default=0)
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
    console.print("Sources and assumptions: npu_sim/chips/presets.py")
    return 0


def cmd_reweight(args, console: Console) -> int:
    from .reweight import reweight_model
    import onnx
    try:
        model = onnx.load(args.model)
    except Exception as e:  # noqa: BLE001
        console.print(f"[red]error:[/] cannot read {args.model}: {e}")
        return 2
    onnx.save(reweight_model(model, args.seed), args.out)
    console.print(f"wrote {args.out} (random weights, seed {args.seed})")
    return 0


def _resolve_model(arg: str | None) -> Path:
    if not arg:
        return light_model_path(DEFAULT_MODEL)
    p = Path(arg)
    if p.exists():
        return p
    lp = light_model_path(arg if arg.endswith(".onnx") else arg + ".onnx")
    if lp.exists():
        return lp
    raise FileNotFoundError(f"model {arg!r} not found (not a file, nor an onnx light model)")


def cmd_run(args, console: Console) -> int:
    from acl_runtime import acl
    from acl_runtime.runtime import AclError, runtime
    from npu_sim import get_chip
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from .onnx_import import UnsupportedModelError, load_onnx
    from .runner import ModelRunner

    try:
        path = _resolve_model(args.model)
        chip = get_chip(args.chip)
    except (FileNotFoundError, KeyError) as e:
        console.print(f"[red]error:[/] {str(e).strip(chr(34))}")
        return 2
    except Exception as e:  # noqa: BLE001 - pydantic validation of a chip file
        console.print(f"[red]error:[/] invalid chip config {args.chip}: {e}")
        return 2
    feeds_file: dict[str, np.ndarray] = {}
    if args.inputs:
        try:
            with np.load(args.inputs) as z:
                feeds_file = {k: z[k] for k in z.files}
        except Exception as e:  # noqa: BLE001
            console.print(f"[red]error:[/] cannot read inputs {args.inputs}: {e}")
            return 2
    t0 = time.perf_counter()
    try:
        graph = load_onnx(path, overrides=feeds_file)
    except UnsupportedModelError as e:
        console.print(f"[red]error:[/] {e}")
        return 2
    rng = np.random.default_rng(args.seed)
    feeds = {}
    for name, (shape, dtype) in graph.inputs.items():
        if name in feeds_file:
            feeds[name] = feeds_file[name]
        elif any(d < 0 for d in shape):
            console.print(f"[red]error:[/] input {name!r} has a dynamic shape {list(shape)}: give it with --inputs")
            return 2
        elif np.dtype(dtype).kind == "f":
            feeds[name] = rng.standard_normal(shape).astype(dtype)
        else:
            feeds[name] = rng.integers(0, 2, size=shape).astype(dtype)
    unknown = set(feeds_file) - set(feeds) - {i.name for i in graph.model.graph.initializer}
    if unknown:
        console.print(f"[yellow]warning:[/] --inputs names not in the model: {', '.join(sorted(unknown))}")

    rt = runtime()
    if rt.initialized:
        acl.finalize()
    acl.init(chip=args.chip)
    if acl.rt.set_device(0) != 0:
        console.print(f"[red]error:[/] {acl.get_recent_err_msg()}")
        return 2
    try:
        runner = ModelRunner(graph)
        with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                      TimeElapsedColumn(), console=console, transient=True, disable=args.no_progress) as prog:
            tp = prog.add_task("prepare (phase 1)", total=len(graph.nodes))
            runner.prepare(lambda i, n: prog.update(tp, completed=i))
            prepare_s = time.perf_counter() - t0
            tr = prog.add_task("execute (simulate)", total=max(len(runner.calls), 1))
            result = runner.run(feeds, lambda i, n: prog.update(tr, completed=i))
    except UnsupportedModelError as e:
        console.print(f"[red]error:[/] {e}")
        acl.finalize()
        return 2
    except (AclError, ValueError) as e:
        console.print(f"[red]error:[/] {e}")
        acl.finalize()
        return 1
    dev = rt.device
    records = list(dev.kernel_records)
    peak = dev.memory.peak_bytes

    check = None
    ref_s = None
    if not args.no_check:
        from .reference import reference_evaluator
        t1 = time.perf_counter()
        try:
            model = graph.model
            if feeds_file:
                model = _with_overrides(model, feeds_file)
            ref = reference_evaluator(model).run(None, feeds)
            ref_s = time.perf_counter() - t1
            errs = []
            for name, r in zip(graph.outputs, ref):
                got = result.outputs[name].astype(np.float64)
                r = np.asarray(r, dtype=np.float64)
                denom = np.abs(r).max() or 1.0
                errs.append(float(np.abs(got - r).max() / denom))
            check = {"rel_err": max(errs), "tol": args.tol}
        except Exception as e:  # noqa: BLE001 - the reference itself may not support a model
            console.print(f"[yellow]warning:[/] onnx reference evaluator failed: {e}")

    trace_path = None
    if args.trace:
        from traces.chrome_trace import write_chrome_trace
        write_chrome_trace(dev, args.trace, metadata={"model": str(path), "chip": chip.name})
        trace_path = f"{args.trace}  (open in https://ui.perfetto.dev or chrome://tracing)"
    if args.save_outputs:
        out_dir = Path(args.save_outputs)
        out_dir.mkdir(parents=True, exist_ok=True)
        for name, arr in result.outputs.items():
            np.save(out_dir / (name.replace("/", "_") + ".npy"), arr)
    from .summary import print_summary
    print_summary(console, model=path.name, chip=chip, result=result, records=records, peak_bytes=peak,
                  weight_bytes=runner.weight_bytes, trace_path=trace_path, check=check, prepare_s=prepare_s,
                  ref_s=ref_s, top=args.top)
    acl.finalize()
    if check is not None and check["rel_err"] > check["tol"]:
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
            init.CopyFrom(numpy_helper.from_array(np.asarray(feeds_file[init.name]), init.name))
    return m


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``npu-sim`` console script. Returns the exit code."""
    args = _parser().parse_args(argv)
    console = Console() if sys.stdout.isatty() else Console(width=150)
    if args.cmd == "chips":
        return cmd_chips(console)
    if args.cmd == "reweight":
        return cmd_reweight(args, console)
    return cmd_run(args, console)


if __name__ == "__main__":
    sys.exit(main())
