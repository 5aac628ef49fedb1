"""``npu-sim run``'s inputs: reading ``--inputs`` archives, drawing random inputs in each input's own
dtype, and the size checks that refuse inputs the chip's HBM or the host cannot hold (one line each, CliError)."""
from __future__ import annotations

import math
import os

import numpy as np

from .common import CliError


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
        z = np.load(path, allow_pickle=False)
    except Exception as e:  # noqa: BLE001 - numpy raises many kinds for a bad file
        raise CliError(f"cannot read inputs {path!r}: {e}") from None
    if not isinstance(z, np.lib.npyio.NpzFile):
        raise CliError(f"cannot read inputs {path!r}: not an .npz archive (a single array? save it with "
                       "np.savez(FILE, input_name=array))")
    try:
        with z:
            return {k: z[k] for k in z.files}
    except Exception as e:  # noqa: BLE001
        raise CliError(f"cannot read inputs {path!r}: {e}") from None


def _host_memory_bytes() -> int | None:
    """Physical host memory (bytes), or None where the OS does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def _check_fits(name: str, shape, dtype, chip, host: bool = True) -> None:
    """Refuse (one line) an input that cannot fit the chip's HBM or (with ``host``) the host's memory."""
    nbytes = math.prod(int(d) for d in shape) * np.dtype(dtype).itemsize
    hbm = int(chip.hbm_bytes)
    caps = (("the chip's HBM", hbm),) + ((("host memory", _host_memory_bytes()),) if host else ())
    for what, cap in caps:
        if cap is not None and nbytes > cap:
            raise CliError(f"input {name!r} {list(shape)} {np.dtype(dtype)} needs {nbytes / 2**30:,.1f} GiB, more "
                           f"than {what} ({cap / 2**30:,.1f} GiB)", 1)


def draw_input(rng, name: str, shape, dtype, chip, timing_only: bool = False) -> np.ndarray:
    """The value ``npu-sim run`` feeds an input not given with ``--inputs``: seeded random
    values (:func:`_random_input`) after the size checks; with ``timing_only`` a
    metadata-only placeholder of its shape and dtype (:func:`frontend.meta_const.placeholder`,
    one element of host memory whatever the size), as the weights are in that mode --
    a timing-only device never reads the bytes, its copy is timed from the byte count,
    so the simulated ns are those of a full run. Only the HBM check applies then.
    Raises CliError (one line) for an input larger than the HBM (or the host memory)."""
    _check_fits(name, shape, dtype, chip, host=not timing_only)
    if timing_only:
        from ..meta_const import placeholder
        return placeholder(shape, dtype)
    return _random_input(rng, shape, dtype)


def _random_input(rng, shape, dtype) -> np.ndarray:
    """Seeded random values drawn in the input's own dtype (no float64 detour for a
    float32 input; float16/bfloat16 go through float32)."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        draw = dt if dt in (np.dtype(np.float32), np.dtype(np.float64)) else np.dtype(np.float32)
        return rng.standard_normal(shape, dtype=draw).astype(dt, copy=False)
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape, dtype=np.uint8).astype(dt)
    return rng.integers(0, 2, size=shape, dtype=dt if dt.kind in "iu" else np.int64).astype(dt, copy=False)


def _check_sequence_length(path, feeds: dict) -> None:
    """A transformer's learned position table (an initializer named
    ``*position_embeddings*`` of shape [max_len, hidden]) bounds the sequence length:
    refuse longer integer inputs (token ids, masks) with the model's maximum, rather
    than fail later in constant folding (MiniLM: 512)."""
    seq = max((a.shape[-1] for a in feeds.values() if a.ndim >= 2 and a.dtype.kind in "iu"), default=0)
    if not seq:
        return
    import onnx
    try:
        model = onnx.load(str(path), load_external_data=False)
    except Exception:  # noqa: BLE001 - load_graph reports unreadable models
        return
    for init in model.graph.initializer:
        if "position_embeddings" in init.name and len(init.dims) == 2 and seq > init.dims[0]:
            raise CliError(f"sequence length {seq} is longer than the model's maximum of {init.dims[0]} "
                           f"(its position table {init.name!r} has {init.dims[0]} rows)")


def _undeclared_shape_inputs(model) -> list[str]:
    """Graph inputs (not initializers) whose ONNX type declares no shape at all."""
    inits = {i.name for i in model.graph.initializer}
    return [i.name for i in model.graph.input if i.name not in inits
            and i.type.HasField("tensor_type") and not i.type.tensor_type.HasField("shape")]


def _as_input(name: str, arr: np.ndarray, dtype, shape) -> np.ndarray:
    arr = np.asarray(arr)
    if arr.dtype.kind in "OUSVc" or (arr.dtype.kind == "f" and np.dtype(dtype).kind in "iub"):
        raise CliError(f"input {name!r}: cannot use {arr.dtype} data for a {np.dtype(dtype)} input", 1)
    out = arr.astype(dtype, copy=False)
    if tuple(out.shape) != tuple(shape):
        raise CliError(f"input {name!r} has shape {list(out.shape)}, the model wants {list(shape)}", 1)
    return out


def parse_dims(items: list[str]) -> dict[str, int]:
    """``--dim NAME=VALUE`` options -> {name: value}. Raises CliError for a malformed
    one, or for a name given twice with different values."""
    dims: dict[str, int] = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not name or not value.strip().lstrip("-").isdigit():
            raise CliError(f"--dim {item!r}: expected NAME=VALUE with an integer VALUE, e.g. --dim batch_size=8")
        name = name.strip()
        if name in dims and dims[name] != int(value):
            raise CliError(f"--dim {name} given twice, as {dims[name]} and {int(value)}: give it once")
        dims[name] = int(value)
    return dims


def _check_batch_agrees(model, batch: int, dims: dict[str, int]) -> None:
    """Refuse ``--batch N`` with a ``--dim NAME=M`` (M != N) that names the leading
    (batch) dim of a runtime input of ``model``: --batch would silently override the pin
    (:func:`frontend.batch.batch_dim_conflict`; this names the options)."""
    from ..batch import batch_dim_conflict
    clash = batch_dim_conflict(model, batch, dims)
    if clash:
        inp, name = clash
        raise CliError(f"--batch {batch} and --dim {name}={dims[name]} both set the leading dim of input "
                       f"{inp!r}: give one of them")


def shaped_model(path, batch: int | None, dims: dict[str, int], console=None):
    """The model ``npu-sim run`` loads: ``path`` itself, or with ``--dim`` / ``--batch``
    the parsed model with its symbolic dims pinned (:func:`frontend.batch.pin_dims`)
    and its batch changed (:func:`frontend.batch.rebatch`, which proves the rewritten
    Reshape constants hold only the batch). Raises CliError (one line) when either
    cannot be done, or when a pinned sequence is longer than the model's position table."""
    if not batch and not dims:
        return path
    from ..batch import RebatchError, shape_model
    from ..onnx_import import UnsupportedModelError, read_onnx
    try:
        model = read_onnx(path)
    except UnsupportedModelError as e:
        raise CliError(str(e)) from None
    if batch and dims:
        _check_batch_agrees(model, batch, dims)
    try:
        model, rewritten = shape_model(model, batch, dims)
    except RebatchError as e:
        raise CliError(str(e)) from None
    if console is not None and rewritten:
        console.print(f"--batch {batch}: rewrote the batch in {len(rewritten)} Reshape target shape(s)",
                      highlight=False)
    inits = {i.name for i in model.graph.initializer}
    ints = {}
    for vi in model.graph.input:   # the sequence check of --inputs, on the pinned integer inputs
        tt = vi.type.tensor_type
        shape = [d.dim_value for d in tt.shape.dim]
        if vi.name not in inits and len(shape) >= 2 and all(shape) and tt.elem_type in (6, 7):  # INT32 / INT64
            ints[vi.name] = np.zeros((1, shape[-1]), np.int64)
    if ints:
        _check_sequence_length(path, ints)
    return model
