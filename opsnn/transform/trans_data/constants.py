"""FRACTAL_Z weights packed once from a graph constant, with their OIHW source kept.

A graph compiler packs a constant convolution weight to FRACTAL_Z at build time
(``frontend.passes.formats``); the packed bytes are what the device holds and what a
user copying the weight back reads. The simulator's Cube body computes on the OIHW
weight, so without more it would unpack those bytes again on every run
(``fractal_z_to_oihw``: a transposing copy as large as the weight, 94 MB for light
ResNet-50). The unpacked value is exactly the array that was packed (the transforms
copy, no arithmetic), so :func:`pack_constant_weight` keeps that array beside the
packed one, both made read-only, and :func:`unpack_weight` hands it back when the
body's FRACTAL_Z view reads the very bytes of a kept packed weight (the device
shares them: ``npu_sim.device_memory``). Any other view (a private device copy, a
workspace written by a TransData kernel, another layout) is unpacked as before.
"""
from __future__ import annotations

import weakref

import numpy as np

from npu_sim.device_memory import immutable_bytes

from .kernel import fractal_z_to_oihw, oihw_to_fractal_z

#: data address of a kept packed weight -> (weak reference to it, its OIHW source)
_SOURCES: dict[int, tuple[weakref.ref, np.ndarray]] = {}


def _address(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


def _freeze(a: np.ndarray) -> None:
    if a.base is None and a.flags.writeable:
        a.flags.writeable = False


def pack_constant_weight(wt: np.ndarray, c0: int) -> np.ndarray:
    """``oihw_to_fractal_z(wt, c0)`` of a constant weight ``wt`` [Cout, Cin, kh, kw]
    (any float dtype; C0 channels per slice): the FRACTAL_Z array [C1*kh*kw, N1, 16,
    C0], same dtype, owning its memory and read-only. ``wt`` is made read-only too
    when it owns its memory (a graph constant the host never writes again); when its
    bytes are then immutable (``npu_sim.device_memory.immutable_bytes``) it is kept
    for :func:`unpack_weight` for as long as the packed array lives."""
    wz = oihw_to_fractal_z(wt, c0)
    wz.flags.writeable = False
    _freeze(wt)
    if wz.size and immutable_bytes(wt):
        addr = _address(wz)
        _SOURCES[addr] = (weakref.ref(wz), wt)
        weakref.finalize(wz, _SOURCES.pop, addr, None)
    return wz


def unpack_weight(wz: np.ndarray, oihw) -> np.ndarray:
    """``fractal_z_to_oihw(wz, oihw)``: the OIHW weight [Cout, Cin, kh, kw] of the
    FRACTAL_Z array ``wz``. When ``wz`` views exactly the bytes of a weight packed by
    :func:`pack_constant_weight` (same address, shape, dtype and strides; both arrays
    still immutable) this is the kept source itself, read-only (the same values: the
    packing is a copy); otherwise a fresh unpacked copy."""
    hit = _SOURCES.get(_address(wz))
    if hit is not None:
        packed, src = hit[0](), hit[1]
        if (packed is not None and packed.shape == wz.shape and packed.dtype == wz.dtype
                and packed.strides == wz.strides and src.shape == tuple(int(d) for d in oihw)
                and immutable_bytes(packed) and immutable_bytes(src)):
            return src
    return fractal_z_to_oihw(wz, oihw)
