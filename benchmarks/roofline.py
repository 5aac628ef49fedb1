"""Roofline of the simulated chip: ``python -m benchmarks.roofline [--quick] [--chip NAME]
[--plot roofline.png] [--json FILE]``.

Two sweeps, each op timed as a user would time it: a repeatable executor prepared
once (phase 1), one warm-up launch, then ``aclrtRecordEvent`` / N launches /
``aclrtRecordEvent`` on one stream, ``aclrtSynchronizeStream`` and
``aclrtEventElapsedTime`` / N. The device runs in timing-only mode
(``acl.init(timing_only=True)``: no bytes stored or computed, the same simulated
times as a full run), so the whole sweep takes about a minute.

* **Matmul**: square M = N = K from 64 to 8192, fp16 and fp32 (cubeMathType 0,
  KEEP_DTYPE). FLOPs = 2 M N K; bytes = the compulsory GM traffic 2 (MK + KN + MN)
  x itemsize.
* **QuantMatmulV4** (``--int8``, on by default without ``--quick``): int8 x int8 ->
  fp16 at 4096^3 with a per-tensor scale (``aclnnQuantMatmulV4``), the Cube at its int8
  rate (16x32x16 MACs a cycle on 910B: twice fp16's). Bytes = MK + KN (1 B) + 2 MN.
  Left out of ``--quick`` unless asked, so the quick sweep's case list stays as it was.
* **Add**: fp32 ``out = a + b`` with 1 KiB to 1 GiB per operand. FLOPs = elements;
  bytes = 3 x operand bytes. Each timed launch re-reads what the one before it read,
  so while the three operands fit the chip's L2 (910B2: 192 MiB, up to 64 MiB per
  operand) the inputs come from L2 (``npu_sim.hardware.l2.GmL2``) and "% HBM" can pass
  100%; past it they fall back to HBM: the capacity cliff between 64 and 96 MiB.

Printed per case: simulated time per op, achieved TFLOP/s and GB/s, their ratios to
the chip's peaks (cube peak for the dtype, ``ChipConfig.peak_flops``; HBM bandwidth,
``hbm_bandwidth_bytes_per_ns``), the roofline's attainable rate ``min(peak,
intensity x HBM)`` and the share of it reached, and the simulator's bound class for
the kernel (:mod:`npu_sim.metrics`). Ops much shorter than a host launch
(``acl_runtime/host_clock.py``, 4 us) are host-bound when launched back to back, as
on hardware: the event interval then measures the launch rate.

The plot (``--plot``, needs matplotlib: ``pip install -e '.[plot]'``) draws achieved
TFLOP/s against arithmetic intensity with the roofs. All chip figures come from the
preset; several are assumptions (``npu_sim/chips/presets.py``).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass

from rich.console import Console
from rich.table import Table

import opsnn
from acl_runtime import acl
from acl_runtime.runtime import runtime
from npu_sim import get_chip
from opsnn.base.dtypes import aclDataType

KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30
MATMUL_SIZES = [64, 128, 256, 512, 1024, 2048, 4096, 8192]
#: 1 KiB, 4 KiB, ..., 1 GiB, plus 48/80/96 MiB around the L2 cliff (3 operands of 64 MiB fill 192 MiB)
ADD_BYTES = sorted([KiB << (2 * i) for i in range(11)] + [48 * MiB, 80 * MiB, 96 * MiB])
QUICK_MATMUL = [64, 256, 1024, 4096]
QUICK_ADD = [KiB, 64 * KiB, 4 * MiB, 256 * MiB]
#: int8 QuantMatmulV4 sizes (the issue's 4096^3 row)
INT8_SIZES = [4096]
DTYPES = {"float16": (aclDataType.ACL_FLOAT16, 2), "float32": (aclDataType.ACL_FLOAT, 4),
          "int8": (aclDataType.ACL_INT8, 1)}


@dataclass
class Case:
    """One measured point. Times in us, rates in TFLOP/s and GB/s (= bytes/ns)."""

    op: str
    dtype: str
    size: str
    flops: float
    bytes: float
    us: float
    tflops: float
    gb_per_s: float
    peak_tflops: float
    peak_gb_per_s: float
    attainable_tflops: float
    bound: str

    @property
    def intensity(self) -> float:
        return self.flops / self.bytes


def _check(ret: int) -> None:
    if ret != 0:
        raise RuntimeError(f"status {ret}: {opsnn.aclGetRecentErrMsg() or acl.get_recent_err_msg()}")


def _open(chip: str) -> None:
    rt = runtime()
    if rt.initialized:
        acl.finalize()
    _check(acl.init(chip=chip, timing_only=True))
    _check(acl.rt.set_device(0))


def _tensor(shape: tuple[int, ...], dtype: str):
    dt, item = DTYPES[dtype]
    n = 1
    for d in shape:
        n *= d
    ptr, ret = acl.rt.malloc(n * item, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    _check(ret)
    return opsnn.aclCreateTensor(shape, dt, None, 0, opsnn.aclFormat.ACL_FORMAT_ND, shape, ptr)


def _time(prep, launch, reps: int) -> tuple[float, str]:
    """Seconds per launch by events (after one warm-up), and the kernel's bound class."""
    ws, ex, ret = prep
    _check(ret)
    _check(opsnn.aclSetAclOpExecutorRepeatable(ex))
    wptr = 0
    if ws:
        wptr, ret = acl.rt.malloc(ws, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        _check(ret)
    start, ret = acl.rt.create_event()
    _check(ret)
    end, ret = acl.rt.create_event()
    _check(ret)
    _check(launch(wptr, ws, ex, 0))
    _check(acl.rt.record_event(start, 0))
    for _ in range(reps):
        _check(launch(wptr, ws, ex, 0))
    _check(acl.rt.record_event(end, 0))
    _check(acl.rt.synchronize_stream(0))
    ms, ret = acl.rt.event_elapsed_time(start, end)
    _check(ret)
    _check(opsnn.aclDestroyAclOpExecutor(ex))
    # the simulator's own verdict on the last kernel, as a profiler would show it
    bound = runtime().device.kernel_records[-1].get("bound", "")
    return ms * 1e-3 / reps, bound


def _reps(est_s: float) -> int:
    return 5 if est_s < 1e-4 else 2 if est_s < 1e-3 else 1


def matmul_case(chip_name: str, n: int, dtype: str) -> Case:
    chip = get_chip(chip_name)
    _open(chip_name)
    a, b, c = (_tensor((n, n), dtype) for _ in range(3))
    item = DTYPES[dtype][1]
    flops = 2.0 * n ** 3
    peak = chip.peak_flops(dtype)
    sec, bound = _time(opsnn.aclnnMatmulGetWorkspaceSize(a, b, c, 0), opsnn.aclnnMatmul,
                       _reps(flops / peak))
    nbytes = 3.0 * n * n * item
    return _case("Matmul", dtype, f"{n}^3", flops, nbytes, sec, peak, chip, bound)


def quant_matmul_case(chip_name: str, n: int) -> Case:
    """int8 x int8 -> fp16 (per-tensor float32 scale) through aclnnQuantMatmulV4."""
    chip = get_chip(chip_name)
    _open(chip_name)
    a, b = (_tensor((n, n), "int8") for _ in range(2))
    scale = _tensor((1,), "float32")
    c = _tensor((n, n), "float16")
    flops = 2.0 * n ** 3
    peak = chip.peak_flops("int8")
    sec, bound = _time(opsnn.aclnnQuantMatmulV4GetWorkspaceSize(a, b, scale, None, None, None, False, False, c),
                       opsnn.aclnnQuantMatmulV4, _reps(flops / peak))
    nbytes = 2.0 * n * n + 2.0 * n * n
    return _case("QuantMatmulV4", "int8", f"{n}^3", flops, nbytes, sec, peak, chip, bound)


def add_case(chip_name: str, nbytes: int) -> Case:
    chip = get_chip(chip_name)
    _open(chip_name)
    n = nbytes // 4
    a, b, c = (_tensor((n,), "float32") for _ in range(3))
    moved = 3.0 * nbytes
    sec, bound = _time(opsnn.aclnnAddGetWorkspaceSize(a, b, 1.0, c), opsnn.aclnnAdd,
                       _reps(moved / chip.hbm_bandwidth_bytes_per_ns * 1e-9))
    return _case("Add", "float32", _fmt_bytes(nbytes), float(n), moved, sec, chip.peak_flops("float32"), chip, bound)


def _case(op, dtype, size, flops, nbytes, sec, peak, chip, bound) -> Case:
    hbm = chip.hbm_bandwidth_bytes_per_ns * 1e9
    return Case(op, dtype, size, flops, nbytes, sec * 1e6, flops / sec / 1e12, nbytes / sec / 1e9, peak / 1e12,
                hbm / 1e9, min(peak, flops / nbytes * hbm) / 1e12, bound)


def _fmt_bytes(b: int) -> str:
    for unit, f in (("GiB", GiB), ("MiB", MiB), ("KiB", KiB)):
        if b >= f:
            return f"{b / f:g} {unit}"
    return f"{b} B"


def table(cases: list[Case], title: str) -> Table:
    t = Table(title=title, title_justify="left")
    for col in ("op", "dtype", "size", "time us", "TFLOP/s", "% cube peak", "GB/s", "% HBM", "FLOP/B",
                "roofline TFLOP/s", "% roofline", "bound"):
        t.add_column(col, justify="left" if col in ("op", "dtype", "bound") else "right")
    for c in cases:
        t.add_row(c.op, c.dtype, c.size, f"{c.us:,.1f}", f"{c.tflops:,.2f}", f"{c.tflops / c.peak_tflops:.1%}",
                  f"{c.gb_per_s:,.0f}", f"{c.gb_per_s / c.peak_gb_per_s:.1%}", f"{c.intensity:,.1f}",
                  f"{c.attainable_tflops:,.2f}", f"{c.tflops / c.attainable_tflops:.1%}", c.bound)
    notes = ["bound: the simulator's class from each pipe's busy time (MTE2 busiest = memory; npu_sim.metrics), "
             "not from HBM use"]
    if any(c.gb_per_s > c.peak_gb_per_s for c in cases):
        notes.append("% HBM over 100%: the inputs were served from the L2 kept across kernels (they fit its "
                     "capacity), so the HBM roofline does not bound them")
    t.caption = "\n".join(notes)
    t.caption_justify = "left"
    return t


def plot(cases: list[Case], chip, path: str) -> bool:
    """Save a log-log roofline PNG; False (and a message) if matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    hbm = chip.hbm_bandwidth_bytes_per_ns * 1e9
    fig, ax = plt.subplots(figsize=(8, 5.5))
    xs = [10 ** (k / 20) for k in range(-30, 81)]   # 0.03 .. 1e4 FLOP/B
    for dtype, style in (("float16", "-"), ("float32", "--")):
        peak = chip.peak_flops(dtype)
        ax.plot(xs, [min(peak, x * hbm) / 1e12 for x in xs], "k" + style, lw=1,
                label=f"roof {dtype}: {peak / 1e12:.0f} TFLOP/s, HBM {hbm / 1e9:.0f} GB/s")
    marks = {("Matmul", "float16"): ("o", "tab:blue"), ("Matmul", "float32"): ("s", "tab:orange"),
             ("Add", "float32"): ("^", "tab:green"), ("QuantMatmulV4", "int8"): ("D", "tab:red")}
    for (op, dtype), (m, col) in marks.items():
        pts = [c for c in cases if c.op == op and c.dtype == dtype]
        if pts:
            ax.plot([c.intensity for c in pts], [c.tflops for c in pts], m, color=col, label=f"{op} {dtype}")
            for c in pts:
                ax.annotate(c.size, (c.intensity, c.tflops), fontsize=6, xytext=(3, 3), textcoords="offset points")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (FLOP per byte of compulsory GM traffic)")
    ax.set_ylabel("achieved TFLOP/s (event-timed, simulated)")
    ax.set_title(f"npu-sim roofline: {chip.name} (timing-only)")
    ax.grid(True, which="both", lw=0.3)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=150)
    plt.close(fig)
    return True


def run(chip_name: str = "ascend910b2", matmul_sizes=None, add_bytes=None, console: Console | None = None,
        progress: bool = True, int8_sizes=None) -> list[Case]:
    """Measure every case; returns them (matmul fp16, matmul fp32, add, then the int8
    QuantMatmulV4 sizes ``int8_sizes``: none by default, ``main`` passes :data:`INT8_SIZES`)."""
    console = console or Console()
    matmul_sizes = MATMUL_SIZES if matmul_sizes is None else matmul_sizes
    add_bytes = ADD_BYTES if add_bytes is None else add_bytes
    int8_sizes = int8_sizes or []
    cases: list[Case] = []
    jobs = ([("mm", n, dt) for dt in ("float16", "float32") for n in matmul_sizes] + [("add", b, "") for b in add_bytes]
            + [("qmm", n, "int8") for n in int8_sizes])
    try:
        for kind, arg, dt in jobs:
            t0 = time.perf_counter()
            c = (matmul_case(chip_name, arg, dt) if kind == "mm" else quant_matmul_case(chip_name, arg)
                 if kind == "qmm" else add_case(chip_name, arg))
            cases.append(c)
            if progress:
                console.print(f"  {c.op} {c.dtype} {c.size}: {c.us:,.1f} us simulated "
                              f"({time.perf_counter() - t0:.2f} s wall)", style="dim")
    finally:
        if runtime().initialized:
            acl.finalize()
    return cases


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.roofline", description=__doc__.split("\n\n")[0])
    p.add_argument("--chip", default="ascend910b2", help="chip preset or .json/.yaml (default ascend910b2)")
    p.add_argument("--quick", action="store_true", help="a few sizes only (seconds)")
    p.add_argument("--plot", default="roofline.png", help="PNG path for the plot ('' to skip; needs matplotlib)")
    p.add_argument("--json", default="", help="also write the cases as JSON here")
    p.add_argument("--int8", action=argparse.BooleanOptionalAction, default=None,
                   help="add the int8 QuantMatmulV4 4096^3 row (default: on, off with --quick)")
    p.add_argument("--no-progress", action="store_true")
    args = p.parse_args(argv)
    console = Console() if sys.stdout.isatty() else Console(width=160)
    chip = get_chip(args.chip)
    t0 = time.perf_counter()
    int8 = (not args.quick) if args.int8 is None else args.int8
    cases = run(args.chip, QUICK_MATMUL if args.quick else None, QUICK_ADD if args.quick else None, console,
                not args.no_progress, INT8_SIZES if int8 else [])
    console.print(table([c for c in cases if c.op in ("Matmul", "QuantMatmulV4")],
                        f"Matmul on {chip.name}: cube peak fp16 {chip.peak_flops('float16') / 1e12:.1f}, "
                        f"fp32 {chip.peak_flops('float32') / 1e12:.1f}, "
                        f"int8 {chip.peak_flops('int8') / 1e12:.1f} TOP/s"))
    console.print(table([c for c in cases if c.op == "Add"],
                        f"Add (fp32) on {chip.name}: HBM {chip.hbm_bandwidth_bytes_per_ns:.0f} GB/s"))
    console.print(f"simulated in timing-only mode; {time.perf_counter() - t0:.1f} s wall")
    if args.json:
        with open(args.json, "w") as f:
            json.dump([asdict(c) for c in cases], f, indent=1)
        console.print(f"wrote {args.json}")
    if args.plot:
        if plot(cases, chip, args.plot):
            console.print(f"wrote {args.plot}")
        else:
            console.print("[yellow]matplotlib is not installed: no plot (pip install -e '.\\[plot]')[/]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
