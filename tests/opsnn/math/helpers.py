"""Shared helpers for the elementwise-family tests: hypothesis strategies for shapes,
dtypes and layouts, device tensors with arbitrary views, tolerances, a runner, and
tile-program totals."""
from __future__ import annotations

import os

import ml_dtypes
import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import opsnn
from npu_sim.program import Pipe
from opsnn.base.dtypes import aclDataType as T
from opsnn.base.dtypes import from_numpy_dtype, to_numpy_dtype
from opsnn.base.tensor import aclTensor

#: examples per property test; raise with NPU_SIM_EXAMPLES=500 for a deeper local run
EXAMPLES = int(os.environ.get("NPU_SIM_EXAMPLES", "40"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

BF16 = np.dtype(ml_dtypes.bfloat16)
FLOAT_NP = [np.dtype(np.float32), np.dtype(np.float16), BF16]
INT_NP = [np.dtype(np.int8), np.dtype(np.int32), np.dtype(np.int64)]
ALL_NP = FLOAT_NP + INT_NP + [np.dtype(np.bool_), np.dtype(np.uint8), np.dtype(np.int16), np.dtype(np.float64)]

NUMERIC_NP = [d for d in ALL_NP if d != np.bool_]
SEEDS = st.integers(0, 2**31 - 1)

#: relative error bound by result dtype (DESIGN.md section 9); integers and bool exact
TOL = {np.dtype(np.float32): 1e-5, np.dtype(np.float16): 1e-2, BF16: 1e-2, np.dtype(np.float64): 1e-12}


def acl(dt) -> T:
    return from_numpy_dtype(np.dtype(dt))


def npd(code) -> np.dtype:
    return to_numpy_dtype(code)


def values(rng: np.random.Generator, shape, dt, kind: str = "any") -> np.ndarray:
    """Random values of numpy dtype ``dt``: floats ~N(0,1), ints in [-5, 5] ([0, 9]
    unsigned), bools. ``kind``: "any", "nonzero" (|v| >= 0.5 / >= 1), "positive"."""
    dt = np.dtype(dt)
    if dt == np.bool_:
        v = rng.random(shape) < 0.5
        return np.ones(shape, bool) if kind in ("nonzero", "positive") else v
    if dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -5
        v = rng.integers(lo, 10 if dt.kind == "u" else 6, size=shape)
        if kind == "positive" or (kind == "nonzero" and dt.kind == "u"):
            v = rng.integers(1, 6, size=shape)
        elif kind == "nonzero":
            v = rng.integers(1, 6, size=shape) * rng.choice([-1, 1], size=shape)
        return v.astype(dt)
    if kind == "positive":
        v = rng.uniform(0.25, 3.0, size=shape)
    elif kind == "nonzero":
        v = rng.uniform(0.5, 2.0, size=shape) * rng.choice([-1, 1], size=shape)
    else:
        v = rng.standard_normal(shape)
    return v.astype(dt)


@st.composite
def shapes(draw, max_dims: int = 4, max_side: int = 19):
    """Shapes with size-1 dims and sides that are not multiples of 16."""
    nd = draw(st.integers(0, max_dims))
    return tuple(draw(st.sampled_from([1, 2, 3, 5, 7, 16, 17, max_side])) for _ in range(nd))


@st.composite
def broadcast_pair(draw, max_dims: int = 4):
    """(a_shape, b_shape) that broadcast: b drops leading dims and sets some to 1."""
    a = draw(shapes(max_dims))
    k = draw(st.integers(0, len(a)))
    b = list(a[len(a) - k:])
    b = tuple(1 if draw(st.booleans()) and draw(st.booleans()) else d for d in b)
    return (a, b) if draw(st.booleans()) else (b, a)


LAYOUTS = ["contiguous", "transposed", "strided", "broadcast"]


def make_input(npu, rng: np.random.Generator, shape, dt, layout: str = "contiguous", kind: str = "any"):
    """Random host values (:func:`values`) and a device aclTensor whose view holds
    them, laid out as ``layout``: "contiguous"; "transposed" (a permutation of a
    contiguous storage); "strided" (every other element of a bigger storage, at an
    offset); "broadcast" (stride 0 on the first dim of size > 1, the values
    repeated along it). Returns (host array, tensor)."""
    shape = tuple(shape)
    if layout == "broadcast":
        big = [i for i, d in enumerate(shape) if d > 1]
        base_shape = tuple(1 if big and i == big[0] else d for i, d in enumerate(shape))
        base = values(rng, base_shape, dt, kind)
        x = np.broadcast_to(base, shape)
    else:
        x = values(rng, shape, dt, kind)
    return x, upload(npu, x, layout, rng)


def _contiguous(npu, x):
    """Upload keeping 0-d shapes (DeviceHelper.to_device makes them 1-D)."""
    ptr, _ = npu.to_device(np.ascontiguousarray(x))
    t = opsnn.aclCreateTensor(x.shape, acl(x.dtype), None, 0, 2, x.shape, ptr)
    assert t is not None, opsnn.aclGetRecentErrMsg()
    return t


def upload(npu, x: np.ndarray, layout: str, rng: np.random.Generator):
    """A device aclTensor whose view holds ``x`` laid out as ``layout`` (see
    :func:`make_input`; "broadcast" needs ``x`` from np.broadcast_to)."""
    x = np.asarray(x)
    dt = acl(x.dtype)
    if layout == "contiguous" or x.ndim == 0 or x.size == 0:
        return _contiguous(npu, x)
    if layout == "transposed" and x.ndim >= 2:
        perm = np.roll(np.arange(x.ndim), int(rng.integers(1, x.ndim)))  # never the identity
        storage = np.ascontiguousarray(x.transpose(perm))
        ptr, _ = npu.to_device(storage)
        inv = np.argsort(perm)
        st_strides = [s // x.itemsize for s in storage.strides]
        t = opsnn.aclCreateTensor(x.shape, dt, [st_strides[i] for i in inv], 0, 2, storage.shape, ptr)
    elif layout == "broadcast":
        zero = [s == 0 and d > 1 for s, d in zip(x.strides, x.shape)]
        base = np.ascontiguousarray(x[tuple(slice(0, 1) if z else slice(None) for z in zero)])
        ptr, _ = npu.to_device(base)
        cs = [s // x.itemsize for s in base.strides]
        t = opsnn.aclCreateTensor(x.shape, dt, [0 if z else s for z, s in zip(zero, cs)], 0, 2, base.shape, ptr)
    else:  # strided (also the fallback for 1-D "transposed")
        storage_shape = tuple(2 * d + 1 for d in x.shape)
        storage = np.zeros(storage_shape, x.dtype)
        storage[tuple(slice(1, 1 + 2 * d, 2) for d in x.shape)] = x
        ptr, _ = npu.to_device(storage)
        cs = [s // x.itemsize for s in storage.strides]
        t = opsnn.aclCreateTensor(x.shape, dt, [2 * s for s in cs], sum(cs), 2, storage_shape, ptr)
    assert t is not None, opsnn.aclGetRecentErrMsg()
    return t


def out_tensor(npu, shape, dt, strided: bool):
    """An output tensor (contiguous, or every other element of a sentinel-filled
    storage). Returns (tensor, read) where read() gives the view's values and
    asserts that the gaps still hold the sentinel."""
    dt = np.dtype(dt)
    if not strided or len(shape) == 0 or 0 in shape:
        t = _contiguous(npu, np.zeros(shape, dt))
        return t, lambda: read_view(npu, t)
    storage_shape = tuple(2 * d + 1 for d in shape)
    sentinel = np.full(storage_shape, 7, dt)
    ptr, _ = npu.to_device(sentinel)
    cs = [s // dt.itemsize for s in sentinel.strides]
    t = opsnn.aclCreateTensor(shape, acl(dt), [2 * s for s in cs], sum(cs), 2, storage_shape, ptr)
    assert t is not None, opsnn.aclGetRecentErrMsg()
    idx = tuple(slice(1, 1 + 2 * d, 2) for d in shape)

    def read():
        full = npu.to_host(ptr, storage_shape, dt)
        mask = np.ones(storage_shape, bool)
        mask[idx] = False
        assert np.all(full[mask] == sentinel[mask]), "ViewCopy wrote outside the out view"
        return full[idx]
    return t, read


def api(name):
    """(phase-1, phase-2) entry points of ``aclnn<name>``."""
    return getattr(opsnn, f"aclnn{name}GetWorkspaceSize"), getattr(opsnn, f"aclnn{name}")


def run(npu, prep, launch, *args):
    """Phase 1 + phase 2 + sync; returns the executor (asserts success)."""
    ws, ex, ret = prep(*args)
    assert ret == 0, opsnn.aclGetRecentErrMsg()
    npu.run((ws, ex, ret), launch)
    return ex


def read_view(npu, t) -> np.ndarray:
    """Host copy of tensor ``t``'s view, read through its storage, strides and offset."""
    dt = npd(t.data_type)
    n = int(np.prod(t.storage_shape, dtype=np.int64))
    flat = npu.to_host(t.tensor_data, (n,), dt)
    if t.numel == 0:
        return np.zeros(t.view_shape, dt)
    if not t.view_shape:
        return flat[t.view_offset].reshape(())
    return np.lib.stride_tricks.as_strided(flat[t.view_offset:], t.view_shape,
                                           [s * dt.itemsize for s in t.view_strides]).copy()


def check_close(got, ref, out_dt) -> None:
    """Bool results: equal to ``ref != 0``; integer results: equal to ``ref``
    truncated and wrapped into the dtype; floats: relative error by dtype, never NaN
    where the reference is finite."""
    out_dt = np.dtype(out_dt)
    got = np.asarray(got)
    ref = np.asarray(ref, dtype=np.float64)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    if out_dt.kind == "b":
        np.testing.assert_array_equal(got.astype(bool), ref != 0)
        return
    if out_dt.kind in "iu":
        np.testing.assert_array_equal(got, ref.astype(np.int64).astype(out_dt))
        return
    got64 = got.astype(np.float64)
    # a reference beyond the dtype's range must come out as an infinity of its sign
    # (IEEE overflow: e.g. a float16 product past 65504)
    with np.errstate(over="ignore"):
        over = np.isfinite(ref) & np.isinf(ref.astype(out_dt).astype(np.float64))
    if over.any():
        np.testing.assert_array_equal(got64[over], np.sign(ref[over]) * np.inf)
        ref = np.where(over, np.sign(ref) * np.inf, ref)
    finite = np.isfinite(ref)
    assert not np.isnan(got64[finite]).any(), "NaN where the reference is finite"
    np.testing.assert_array_equal(np.isnan(got64), np.isnan(ref))
    if finite.any():
        # relative to the largest reference value; values below the dtype's smallest
        # normal may flush to zero (tiny absolute slack)
        r, g = ref[finite], got64[finite]
        denom = np.abs(r).max()
        err = np.maximum(np.abs(g - r) - float(ml_dtypes.finfo(out_dt).tiny), 0).max()
        err = err / denom if denom else err
        assert err <= TOL[out_dt], f"relative error {err:.3g} > {TOL[out_dt]}"


def expect_error(prep, args, code: int, *fragments: str) -> str:
    """Phase 1 must fail with ``code`` and a message containing every fragment."""
    ws, ex, ret = prep(*args)
    msg = opsnn.aclGetRecentErrMsg()
    assert (ret, ex, ws) == (code, None, 0), msg
    assert msg.startswith(f"[{code}"), msg
    for f in fragments:
        assert f in msg, msg
    return msg


# ------------------------------------------------------------ tile-program helpers
def meta(shape, dt):
    """A contiguous aclTensor of ``shape`` and aclDataType ``dt`` at a fake address
    (phase 1 only reads metadata)."""
    strides, acc = [], 1
    for d in reversed(shape):
        strides.insert(0, acc)
        acc *= d
    return aclTensor(shape, dt, strides, 0, 2, shape, 32)


def totals(spec):
    """Bytes per pipe summed over every block and tile of ``spec`` (VECTOR: operand bytes)."""
    out = {p: 0 for p in (Pipe.MTE2, Pipe.VECTOR, Pipe.MTE3)}
    for b in spec.blocks:
        for ts in b.tiles:
            for s in ts.stages:
                out[s.pipe] += ts.count * (s.vector_bytes if s.pipe is Pipe.VECTOR else s.nbytes)
    return out


def ntiles(spec):
    """UB tiles of ``spec`` over all blocks."""
    return sum(b.tile_count for b in spec.blocks)


def prepare_spec(fn, *args):
    """Phase 1 of ``fn(*args)``; asserts success and one kernel, returns its spec."""
    ws, ex, ret = fn(*args)
    assert ret == 0, opsnn.aclGetRecentErrMsg()
    assert len(ex.kernels) == 1
    return ex.kernels[0].spec
