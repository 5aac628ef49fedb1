"""Fidelity of npu-sim against published measurements of real Ascend 910B parts:
``python -m benchmarks.fidelity [--chip ascend910b2] [--json FILE]``.

Each row is one workload somebody measured on hardware and published, re-run here in
timing-only mode (``acl.init(timing_only=True)``: the same simulated times as a full
run, no bytes stored). The printed table is workload | published | source | npu-sim |
ratio (npu-sim / published) | within the +-15% band, and a summary line with the
geometric-mean error (``exp(mean |ln ratio|) - 1``) and the worst row. A row outside
the band carries a one-line explanation (:data:`NOTES`).

What "npu-sim" measures per workload: the device time of the op, as msprof's Task
Duration would show it -- the kernel span(s) for a matmul or FlashAttention
(``Device.kernel_records``), the MEMCPY task span for a copy (torch_npu copies a
contiguous same-dtype tensor with ``aclrtMemcpyAsync`` device-to-device). The
published figures are device-side times of one op on 910B2 unless a row says so.

Sources (cited per row in :data:`WORKLOADS`):

* [MM] github.com/zzc0721/torch-performance-test-data, issue 109: ``torch.mm`` on
  910B, fp16 2048^3 68.4 us, 4096^3 437 us, 8192^3 3600 us, 10240^3 7816 us; fp32
  4096^3 1626 us with HF32 off (torch_npu's default ``allow_hf32=False`` for mm).
* [CP] github.com/Kirrito-k423/GroundUpScale, the ascend-910b2 hardware-capabilities
  spec (``specs/hardware-capabilities/ascend-910b2-npu-local.yaml``, probe
  ``hbm-fp32-copy``, torch_npu 2.7.1 / CANN 8.5 on 910B2): best rates of an fp32 copy
  of 2^25, 1.25 x 2^25, 1.5 x 2^25 and 1.75 x 2^25 elements -- 1446.6, 1253.0, 1258.2
  and 1256.2 GB/s counting read + write, i.e. 128 MiB in 185.6 us, 160 MiB in 267.8
  us, 192 MiB in 320.0 us and 224 MiB in 374.0 us (time = 2 x size / rate).
* [FIA] github.com/zouzias/pto-isa-mirror, demos/torch_jit/flash/README.md:
  ``npu_fused_infer_attention_score``, B=1, N=1, D=128, Sq 2048 x Skv 8192, fp16:
  126.8-142.4 us (the row uses the middle, 134.6 us, with the range as its band
  edge note).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import asdict, dataclass

from rich.console import Console
from rich.table import Table

import opsnn
from acl_runtime import acl
from acl_runtime.runtime import runtime

BAND = 0.15
MiB = 1 << 20

#: (workload key, label, published us, source tag)
WORKLOADS = [
    ("mm_f16_2048", "torch.mm fp16 2048^3", 68.4, "MM"),
    ("mm_f16_4096", "torch.mm fp16 4096^3", 437.0, "MM"),
    ("mm_f16_8192", "torch.mm fp16 8192^3", 3600.0, "MM"),
    ("mm_f16_10240", "torch.mm fp16 10240^3", 7816.0, "MM"),
    ("mm_f32_4096", "torch.mm fp32 4096^3 (hf32 off)", 1626.0, "MM"),
    ("copy_128", "copy fp32 128 MiB", 185.6, "CP"),
    ("copy_160", "copy fp32 160 MiB", 267.8, "CP"),
    ("copy_192", "copy fp32 192 MiB", 320.0, "CP"),
    ("copy_224", "copy fp32 224 MiB", 374.0, "CP"),
    ("fia_2048_8192", "fused_infer_attention N=1 D=128 2048x8192", 134.6, "FIA"),
]

SOURCES = {
    "MM": "zzc0721/torch-performance-test-data #109",
    "CP": "Kirrito-k423/GroundUpScale ascend-910b2 spec",
    "FIA": "zouzias/pto-isa-mirror demos/torch_jit/flash/README.md",
}

#: one-line explanations for rows known to fall outside the band (from the kernel records)
NOTES: dict[str, str] = {
    "mm_f16_10240": "past L2 (A+B 400 MiB): HBM carries 14x the compulsory bytes at the 1.38 TB/s sustained "
                    "rate, yet 18% fast; L2 set conflicts and hardware's tile order are not modelled",
    "fia_2048_8192": "N=1 uses 16 of 24 cores; npu-sim runs FlashAttentionScore (not FIA's kernel), L2-bound "
                     "with the hand-over in the write-back L2 and no cross-core sync cost",
}


@dataclass
class Row:
    """One fidelity row; times in us."""

    key: str
    workload: str
    published_us: float
    source: str
    sim_us: float

    @property
    def ratio(self) -> float:
        return self.sim_us / self.published_us

    @property
    def within(self) -> bool:
        return abs(self.ratio - 1.0) <= BAND


def _check(ret: int) -> None:
    if ret != 0:
        raise RuntimeError(f"status {ret}: {opsnn.aclGetRecentErrMsg() or acl.get_recent_err_msg()}")


def _open(chip: str) -> None:
    if runtime().initialized:
        acl.finalize()
    _check(acl.init(chip=chip, timing_only=True))
    _check(acl.rt.set_device(0))


def _tensor(shape, dt, item):
    n = math.prod(shape)
    ptr, ret = acl.rt.malloc(max(1, n * item), acl.ACL_MEM_MALLOC_HUGE_FIRST)
    _check(ret)
    return opsnn.aclCreateTensor(tuple(shape), dt, None, 0, opsnn.aclFormat.ACL_FORMAT_ND, tuple(shape), ptr)


def _kernel_us(prep, launch) -> float:
    """Run a prepared executor once on stream 0; the summed device time (us) of the
    kernels it launched."""
    ws, ex, ret = prep
    _check(ret)
    wptr = 0
    if ws:
        wptr, ret = acl.rt.malloc(ws, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        _check(ret)
    recs = runtime().device.kernel_records
    first = len(recs)
    _check(launch(wptr, ws, ex, 0))
    _check(acl.rt.synchronize_stream(0))
    return sum(r["dur_ns"] for r in recs[first:]) / 1e3


def _matmul(n: int, dtype: str) -> float:
    dt, item = ((opsnn.aclDataType.ACL_FLOAT16, 2) if dtype == "float16" else (opsnn.aclDataType.ACL_FLOAT, 4))
    a, b, c = (_tensor((n, n), dt, item) for _ in range(3))
    return _kernel_us(opsnn.aclnnMatmulGetWorkspaceSize(a, b, c, 0), opsnn.aclnnMatmul)


def _copy(nbytes: int) -> float:
    """aclrtMemcpyAsync device-to-device: the MEMCPY task's device time (us), as msprof
    reports it (the host's call cost before the task starts is not included)."""
    src, ret = acl.rt.malloc(nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    _check(ret)
    dst, ret = acl.rt.malloc(nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    _check(ret)
    _check(acl.rt.memcpy_async(dst, nbytes, src, nbytes, acl.ACL_MEMCPY_DEVICE_TO_DEVICE, 0))
    _check(acl.rt.synchronize_stream(0))
    spans = [s for s in runtime().device.recorder.spans if s.cat == "memcpy"]
    return spans[-1].dur_ns / 1e3


def _fia(sq: int, skv: int, d: int) -> float:
    f16, f32 = opsnn.aclDataType.ACL_FLOAT16, opsnn.aclDataType.ACL_FLOAT
    q = _tensor((1, 1, sq, d), f16, 2)
    k, v = (_tensor((1, 1, skv, d), f16, 2) for _ in range(2))
    out = _tensor((1, 1, sq, d), f16, 2)
    sm = [_tensor((1, 1, sq, 8), f32, 4) for _ in range(2)]
    prep = opsnn.aclnnFlashAttentionScoreGetWorkspaceSize(
        q, k, v, None, None, None, None, None, 1 / math.sqrt(d), 1.0, 2147483647, 2147483647, 1, "BNSD", 0, 0,
        sm[0], sm[1], None, out)
    return _kernel_us(prep, opsnn.aclnnFlashAttentionScore)


def simulate(key: str) -> float:
    """Simulated device time (us) of workload ``key`` on the open device."""
    kind, *rest = key.split("_")
    if kind == "mm":
        return _matmul(int(rest[1]), "float16" if rest[0] == "f16" else "float32")
    if kind == "copy":
        return _copy(int(rest[0]) * MiB)
    if kind == "fia":
        return _fia(int(rest[0]), int(rest[1]), 128)
    raise KeyError(key)


def run(chip: str = "ascend910b2", keys=None) -> list[Row]:
    """Simulate every workload (or those in ``keys``) on ``chip``; a fresh device per row
    so no row inherits another's L2 or stream state."""
    rows = []
    try:
        for key, label, pub, src in WORKLOADS:
            if keys is not None and key not in keys:
                continue
            _open(chip)
            rows.append(Row(key, label, pub, src, simulate(key)))
    finally:
        if runtime().initialized:
            acl.finalize()
    return rows


def summary(rows: list[Row]) -> tuple[float, Row]:
    """(geometric-mean error, worst row): error = ``exp(mean |ln ratio|) - 1``."""
    gm = math.exp(sum(abs(math.log(r.ratio)) for r in rows) / len(rows)) - 1.0
    worst = max(rows, key=lambda r: abs(math.log(r.ratio)))
    return gm, worst


def table(rows: list[Row], chip: str) -> Table:
    t = Table(title=f"npu-sim fidelity on {chip} (band +-{BAND:.0%})", title_justify="left")
    for col in ("workload", "published us", "source", "npu-sim us", "ratio", "within +-15%"):
        t.add_column(col, justify="right" if "us" in col or col == "ratio" else "left")
    for r in rows:
        ok = "yes" if r.within else f"no: {NOTES.get(r.key, 'unexplained')}"
        t.add_row(r.workload, f"{r.published_us:,.1f}", SOURCES[r.source], f"{r.sim_us:,.1f}", f"{r.ratio:.3f}", ok)
    return t


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.fidelity", description=__doc__.split("\n\n")[0])
    p.add_argument("--chip", default="ascend910b2", help="chip preset or .json/.yaml (default ascend910b2)")
    p.add_argument("--json", default="", help="also write the rows as JSON here")
    args = p.parse_args(argv)
    console = Console() if sys.stdout.isatty() else Console(width=170)
    rows = run(args.chip)
    console.print(table(rows, args.chip))
    gm, worst = summary(rows)
    inside = sum(r.within for r in rows)
    console.print(f"geometric-mean error {gm:.1%}; worst: {worst.workload} (ratio {worst.ratio:.3f}); "
                  f"{inside}/{len(rows)} rows within +-{BAND:.0%}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump([dict(asdict(r), ratio=r.ratio) for r in rows], f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
