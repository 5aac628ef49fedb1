"""The ``npu-sim`` argument parser."""
from __future__ import annotations

import argparse

import numpy as np

from .common import DEFAULT_MODEL, DEFAULT_TRACE


def _nonneg_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {v}")
    return v


def _pos_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive finite number, got {text!r}") from None
    if not (v > 0 and np.isfinite(v)):
        raise argparse.ArgumentTypeError(f"must be a positive finite number, got {text}")
    return v


def _pos_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {v}")
    return v


def build_parser() -> argparse.ArgumentParser:
    from npu_sim import DEFAULT_CHIP, PRESETS
    p = argparse.ArgumentParser(prog="npu-sim", description="Run ONNX models on a simulated Ascend-style NPU "
                                "(aclnn two-phase operators, ACL runtime, Chrome/Perfetto traces).")
    from importlib.metadata import PackageNotFoundError, version
    try:
        ver = version("npu-sim")
    except PackageNotFoundError:
        ver = "unknown"
    p.add_argument("--version", action="version", version=f"npu-sim {ver}")
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
    r.add_argument("--trace", metavar="FILE.json", default=None,
                   help=f"where to write the Chrome/Perfetto trace (default: {DEFAULT_TRACE}; '' to skip; "
                        "not with --trace-level off)")
    r.add_argument("--save-outputs", metavar="DIR", help="write each graph output as DIR/<name>.npy "
                                                          "('/' and other unsafe characters become '_')")
    r.add_argument("--no-check", action="store_true", help="skip the comparison with the onnx reference evaluator")
    r.add_argument("--tol", type=_pos_float, default=1e-3, help="relative tolerance for the check (default 1e-3)")
    r.add_argument("--top", type=_pos_int, default=10, help="operators to list (default 10)")
    r.add_argument("--no-progress", action="store_true", help="no progress bars")
    r.add_argument("--no-fuse", action="store_true",
                   help="keep attention decomposed (MatMul/Softmax) instead of fusing it into FlashAttentionScore")
    r.add_argument("--mode", choices=("graph", "eager"), default="graph",
                   help="graph: the graph compiler's fusions first (default); eager: one aclnn kernel per node")
    r.add_argument("--passes", action="store_true", help="list the graph-mode passes in order and exit")
    r.add_argument("--disable-pass", metavar="NAME", action="append", default=[],
                   help="turn one graph-mode pass off (repeatable; see --passes)")
    r.add_argument("--batch", type=_pos_int, metavar="N",
                   help="run at batch N: inputs with a fixed leading dim get N, and the Reshape shapes that hold "
                        "the batch are rewritten (refused unless every tensor's shape follows the batch)")
    r.add_argument("--dim", metavar="NAME=VALUE", action="append", default=[],
                   help="fix a symbolic input dim by name (repeatable), e.g. --dim batch_size=8 "
                        "--dim sequence_length=128; `npu-sim info MODEL` lists them")
    r.add_argument("--timing-only", action="store_true",
                   help="simulate times only: no numbers computed or stored on the device, no output check "
                        "(the simulated times are the full run's)")
    r.add_argument("--trace-level", choices=("pipes", "kernels", "off"), default="pipes",
                   help="pipes: every tile stage of every pipe (default); kernels: host and stream tasks only "
                        "(small); off: record nothing and write no trace")
    r.add_argument("--memory", choices=("naive", "caching", "planned"), default="planned",
                   help="intermediate tensors and workspaces: one buffer each, a caching allocator, or one "
                        "planned arena (default planned; see frontend/memory.py)")
    r.add_argument("--memory-report", action="store_true", help="print all three policies beside the lower bound")
    r.add_argument("--sanitize", action="store_true", help="run the stream sanitizer (races, use after free, event order, needless syncs) and print its findings")
    r.add_argument("--capture", action=argparse.BooleanOptionalAction, default=True,
                   help="capture the model once (aclmdlRICaptureBegin/End) and replay it, one host launch (default); "
                        "--no-capture launches every kernel eagerly")
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
    for mod in subcommand_modules():
        mod.add_parser(sub)
    return p


def subcommand_modules() -> list:
    """The modules ``frontend/cli/sub_*.py``, in name order: each adds one subcommand.

    A module's ``add_parser(sub)`` gets the ``argparse`` subparsers object, adds its
    parser and sets ``handler=fn`` on it (``set_defaults``); ``main`` then calls
    ``fn(args, console) -> exit code``. A new subcommand is a new file, with no edit
    to this one."""
    import importlib
    import pkgutil
    from . import __path__ as cli_path
    return [importlib.import_module(f"{__package__}.{m.name}")
            for m in sorted(pkgutil.iter_modules(cli_path), key=lambda m: m.name) if m.name.startswith("sub_")]
