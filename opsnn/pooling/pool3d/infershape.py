"""3-D pooling shape inference: the two pass geometries (:mod:`..common.separable`)
and the output shape (no status codes; the checks are in ``op_api.py``)."""
from __future__ import annotations

from ..common.geometry import Pool2dGeom
from ..common.separable import pads6, passes, triple  # noqa: F401  (re-exported for op_api / op_def)

__all__ = ["out_shape", "pads6", "passes", "triple"]


def out_shape(shape, g_hw: Pool2dGeom, g_d: Pool2dGeom) -> tuple[int, ...]:
    """[..., Do, Ho, Wo]."""
    return tuple(shape[:-3]) + (g_d.ho, g_hw.ho, g_hw.wo)
