"""Run one sweep point (one chip, one workload) and reduce its kernel records to metrics.

:func:`run_point` is what each worker process executes. It opens the process-wide
ACL context on the point's chip (timing-only by default: no data is kept, kernel
bodies are skipped; simulated times are the same as with data), builds the workload
(phase 1), runs it once (phase 2 between two events) and closes the context again,
so consecutive points in one process share nothing but the loaded ONNX graphs.
"""
from __future__ import annotations

import functools
import json
import math

import numpy as np

from npu_sim import ChipConfig
from npu_sim.hardware.energy import EnergyModel
from npu_sim.metrics import PIPE_UNITS


@functools.lru_cache(maxsize=8)
def _graph(model: str, fuse: bool, timing_only: bool = False, batch: int | None = None, dims: tuple = ()):
    """The loaded graph of ``model``, cached per process; a timing-only point's holds its
    big weights as metadata only (:mod:`frontend.meta_const`). ``batch`` / ``dims``
    (sorted (name, value) pairs): frontend.batch.shape_model (RebatchError: the point
    fails with its message)."""
    from ..batch import shape_model
    from ..cli.common import load_graph, resolve_model
    src, _ = shape_model(resolve_model(model), batch, dict(dims))
    return load_graph(src, fuse=fuse, timing_only=timing_only)


def _np_dtype(name: str):
    if name == "bfloat16":
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def _run_model(chip: ChipConfig, wl: dict, timing_only: bool, mode: str = "graph"):
    from acl_runtime import acl

    from .. import profiling
    from ..program import check
    from ..runner import ModelRunner
    graph = _graph(wl["model"], wl.get("fuse", True), timing_only, wl.get("batch"),
                   tuple(sorted((wl.get("dims") or {}).items())))
    if profiling.acl_initialized():
        acl.finalize()
    check(acl.init(chip=chip, timing_only=timing_only), "acl.init")
    try:
        check(acl.rt.set_device(0), "acl.rt.set_device")
        runner = ModelRunner(graph, mode=mode)
        runner.prepare()
        rng = np.random.default_rng(0)
        feeds = {n: (rng.standard_normal(s).astype(d) if np.dtype(d).kind == "f" else np.zeros(s, d))
                 for n, (s, d) in graph.inputs.items()}
        first = profiling.kernels_completed()
        res = runner.run(feeds)
        records = profiling.kernel_records(first)
        ops = [(c.name, recs) for c, recs in zip(runner.calls, runner.program.split_records(records))]
        batch = next((int(s[0]) for s, _ in graph.inputs.values() if len(s)), 1)
        return res.device_ns, ops, profiling.peak_memory_bytes(), batch
    finally:
        if profiling.acl_initialized():
            acl.finalize()


def _run_layer(chip: ChipConfig, wl: dict, timing_only: bool):
    from acl_runtime import Session

    from .. import profiling
    from ..workloads import PRESETS, decoder_step, encoder_layer
    cfg = PRESETS[wl["preset"]]
    if wl.get("dtype"):
        cfg = cfg.with_(dtype=wl["dtype"])
    with Session(chip, timing_only=timing_only) as s:
        if wl["transformer"] == "encoder":
            layer = encoder_layer(s, cfg, batch=wl["batch"], seq=wl["seq"])
        else:
            layer = decoder_step(s, cfg, batch=wl["batch"], cache_len=wl["cache_len"])
        prog = layer.program
        prog.allocate()
        first = profiling.kernels_completed()
        latency = prog.launch_timed()
        records = profiling.kernel_records(first)
        ops = [(c.name, recs) for c, recs in zip(prog.calls, prog.split_records(records))]
        return latency, ops, profiling.peak_memory_bytes(), wl["batch"]


def _run_op(chip: ChipConfig, wl: dict, timing_only: bool):
    from acl_runtime import Session

    from .. import profiling
    from ..program import PreparedProgram, prepare_call
    from .workloads import OP_KINDS
    with Session(chip, timing_only=timing_only) as s:
        aclnn, args = OP_KINDS[wl["op"]].build(s, [tuple(x) for x in wl["shapes"]], _np_dtype(wl["dtype"]))
        prog = PreparedProgram(wl["op"])
        prog.add(prepare_call(wl["op"], "", aclnn, *args))
        prog.allocate()
        first = profiling.kernels_completed()
        latency = prog.launch_timed()
        records = profiling.kernel_records(first)
        ops = [(c.name, recs) for c, recs in zip(prog.calls, prog.split_records(records))]
        return latency, ops, profiling.peak_memory_bytes(), 1


def run_point(chip_dump: dict, workload: dict, timing_only: bool = True, mode: str = "graph") -> dict:
    """Simulate ``workload`` (an Experiment workload as a dict) on the chip
    ``chip_dump`` (``ChipConfig.model_dump(mode="json")``). Returns the metrics
    (:data:`frontend.sweep.experiment.METRICS`) plus ``ops``: per op its name, device
    ns, bound class (of its longest kernel), tiling of its first kernel and energy
    (uJ). ``mode``: "graph" (the graph-mode passes, :mod:`frontend.passes`) or
    "eager" for ONNX models; op and transformer workloads are the same in both. Raises
    whatever the frontend raises for a bad model or a failed launch."""
    from pydantic import TypeAdapter

    from .experiment import Workload
    chip = ChipConfig.model_validate(chip_dump)
    workload = TypeAdapter(Workload).validate_python(workload).model_dump(mode="json")   # defaults filled in
    if "model" in workload:
        latency, ops, peak, batch = _run_model(chip, workload, timing_only, mode)
    elif "transformer" in workload:
        latency, ops, peak, batch = _run_layer(chip, workload, timing_only)
    else:
        latency, ops, peak, batch = _run_op(chip, workload, timing_only)
    return summarize(chip, latency, ops, peak, batch)


def summarize(chip: ChipConfig, latency_ns: float, ops: list, peak: int, batch: int) -> dict:
    """Reduce per-op kernel records to the run's metrics (units in the names)."""
    records = [r for _, recs in ops for r in recs]
    energy = EnergyModel.for_chip(chip)
    busy: dict[str, float] = {}
    bound_ns = {"compute": 0.0, "memory": 0.0, "latency": 0.0}
    for r in records:
        for p, b in (r.get("pipe_busy_ns") or {}).items():
            busy[p] = busy.get(p, 0.0) + b
        bound_ns[r.get("bound", "latency")] = bound_ns.get(r.get("bound", "latency"), 0.0) + r["dur_ns"]
    cores = {"AIC": chip.aic_count, "AIV": chip.vector_core_count}

    def util(pipe: str) -> float:
        n = sum(cores[u] for u in PIPE_UNITS[pipe])
        return busy.get(pipe, 0.0) / (latency_ns * n) if latency_ns and n else 0.0

    kern_ns = sum(bound_ns.values()) or 1.0
    hbm = sum(float(r.get("hbm_bytes", 0) or 0) for r in records)
    flops = sum(float(r.get("flops", 0) or 0) for r in records)
    run_e = energy.run_pj(records, latency_ns)
    first_tiling = records[0].get("tiling") if records and isinstance(records[0].get("tiling"), dict) else None
    out = {
        "latency_ns": latency_ns,
        "throughput_per_s": batch / (latency_ns * 1e-9) if latency_ns else math.inf,
        "tflops": flops / latency_ns / 1e3 if latency_ns else 0.0,
        "util_cube": util("CUBE"),
        "util_vector": util("VECTOR"),
        "util_mte2": util("MTE2"),
        "util_hbm": hbm / (latency_ns * chip.hbm_bandwidth_bytes_per_ns) if latency_ns else 0.0,
        "compute_bound_share": bound_ns["compute"] / kern_ns,
        "memory_bound_share": bound_ns["memory"] / kern_ns,
        "latency_bound_share": bound_ns["latency"] / kern_ns,
        "hbm_bytes": hbm,
        "l2_hit_bytes": sum(float(r.get("l2_hit_bytes", 0) or 0) for r in records),
        "peak_memory_bytes": int(peak),
        "energy_uj": run_e["total"] * 1e-6,
        "energy_breakdown_uj": {k: v * 1e-6 for k, v in run_e.items()},
        "kernels": len(records),
        "ub_factor": (first_tiling or {}).get("ub_factor"),
        "tiling": ",".join(f"{k}={v}" for k, v in (first_tiling or {}).items()),
        "ops": [_op_row(energy, name, recs) for name, recs in ops],
    }
    return out


def _op_row(energy: EnergyModel, name: str, recs: list[dict]) -> dict:
    longest = max(recs, key=lambda r: r["dur_ns"], default=None)
    first = recs[0] if recs else {}
    return {
        "name": name,
        "device_ns": sum(r["dur_ns"] for r in recs),
        "bound": longest.get("bound") if longest else None,
        "bound_by": longest.get("bound_by") if longest else None,
        "tiling_key": first.get("tiling_key"),
        "tiling": json.loads(json.dumps(first.get("tiling"), default=str)) if first.get("tiling") is not None
        else None,
        "energy_uj_estimate": sum(energy.kernel_pj(r)["total"] for r in recs) * 1e-6,
    }
