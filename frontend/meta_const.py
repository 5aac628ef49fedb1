"""Metadata-only constants for timing-only runs (issue 17: "no host copies of weights").

A timing-only device (``acl.init(timing_only=True)``) keeps no bytes and skips kernel
bodies, so a weight's values never matter there: only its shape and dtype do (they
decide tiling, bytes moved and so every simulated ns). :func:`frontend.onnx_import.load_onnx`
with ``meta_only=True`` therefore keeps each *large* float constant as a
**placeholder**: ``np.broadcast_to`` of a 0-d array, which has the constant's shape and
dtype but every stride 0, so it holds one element of memory whatever its size.

Which constants: float dtype, at least 2-D, at least :data:`META_MIN_BYTES` bytes, and
read only in a data slot (:data:`DATA_SLOTS`: the weight of Conv / ConvTranspose /
Gemm / MatMul, the table of Gather). Everything else stays real -- shape tensors,
indices, BN / bias vectors (1-D), scalars, attention masks -- so every decision a pass
or a lowering makes (which reads those values) is the same as in a full run, and the
simulated times are identical (``tests/frontend/test_timing_only_meta.py``).

Placeholders never become zeros by accident:

* a pass that transforms a weight (BN fold, FRACTAL_Z, SwiGLU's weight concat) makes a
  placeholder of the result's shape from a placeholder (:func:`like`), no arithmetic;
* ``ModelRunner.upload`` of a placeholder to a timing-only device copies nothing
  (the memcpy is timed from the byte count alone); to a device that holds data it
  raises :class:`MetaConstantError` (a placeholder graph cannot give numbers);
* a constant read anywhere else is materialised at load with its true values (the
  initializer is converted then; a ConstantOfShape fill is exact as a broadcast).

A full load keeps its big fills as broadcasts too while it folds, then makes them real
with :func:`share_fills` (issue 17: one shared buffer per fill value, so fewer fresh
pages are touched); nothing stays a placeholder there.
"""
from __future__ import annotations

import numpy as np

#: smallest constant (bytes) kept as a placeholder: 64 KiB, i.e. 16384 float32 values.
#: Below it the host copy costs less than the bookkeeping; shape tensors, scalars and
#: per-channel vectors are all far smaller (and 1-D constants are never placeholders).
META_MIN_BYTES = 64 * 1024

#: (op_type, input slot) pairs that read a constant only as operand data (a weight or a
#: table): its values never steer a pass or a lowering, so a placeholder is safe there
DATA_SLOTS = frozenset({("Conv", 1), ("ConvTranspose", 1), ("Gemm", 1), ("MatMul", 0), ("MatMul", 1),
                        ("Gather", 0)})


class MetaConstantError(ValueError):
    """A placeholder constant reached code that needs its values (a backed upload)."""


def is_placeholder(a) -> bool:
    """True for a metadata-only constant: an ndarray of more than one element whose
    strides are all 0 (``np.broadcast_to`` of one value)."""
    return isinstance(a, np.ndarray) and a.size > 1 and a.ndim > 0 and not any(a.strides)


def placeholder(shape, dtype, fill=0) -> np.ndarray:
    """A read-only ``shape``/``dtype`` array holding one element (``fill``) for all."""
    return np.broadcast_to(np.asarray(fill, dtype=dtype), tuple(int(d) for d in shape))


def like(shape, src: np.ndarray, dtype=None) -> np.ndarray:
    """The placeholder a weight transform makes from placeholder ``src``: the result's
    ``shape`` (and ``dtype``, default src's), no arithmetic. The one element is 0:
    a zero-padded layout or a scaled weight is not one repeated value in general."""
    return placeholder(shape, src.dtype if dtype is None else dtype)


def wants_placeholder(shape, dtype) -> bool:
    """Whether a constant of ``shape``/``dtype`` is big enough to be kept as metadata."""
    dtype = np.dtype(dtype)
    return dtype.kind == "f" and len(shape) >= 2 and int(np.prod(shape, dtype=np.int64)) * dtype.itemsize \
        >= META_MIN_BYTES


def host_bytes(constants: dict) -> int:
    """Bytes of constant data really held on the host (a placeholder counts one element)."""
    return sum(a.itemsize if is_placeholder(a) else np.asarray(a).nbytes for a in constants.values())


def share_fills(consts: dict) -> None:
    """Make every broadcast constant of a full load (a big ConstantOfShape fill kept as
    a placeholder while folding, or anything folded from one: an array whose strides are
    all 0 holds one value) real: a read-only C-contiguous view of one buffer per
    (dtype, value) as large as the largest such constant, filled once. The light
    models fill every weight with one value (0.02): light VGG-19's 550 MB of fills then
    touch 411 MB of fresh pages (its largest weight) instead of 550 MB, light
    ResNet-50's 94 MB about 9 MB; first-touch page faults are most of a fill's cost.
    The values are those ``np.full`` gives; the views are read-only, as every uploaded
    constant becomes (``frontend.program.freeze``), and their bytes are immutable, so an
    upload shares them (``npu_sim.device_memory``)."""
    groups: dict[tuple, list[str]] = {}
    for name, v in consts.items():
        if is_placeholder(v):
            groups.setdefault((v.dtype.str, v.reshape(-1)[:1].tobytes()), []).append(name)
    for names in groups.values():
        first = consts[names[0]]
        buf = np.full(max(consts[n].size for n in names), first.reshape(-1)[0], dtype=first.dtype)
        buf.flags.writeable = False
        for n in names:
            v = consts[n]
            consts[n] = buf[:v.size].reshape(v.shape)
