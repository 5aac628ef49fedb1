"""Resize shape inference: out = floor(in * scale) per axis (CANN aclnnResize doc)."""
from __future__ import annotations

import math


def resized_shape(shape, scales) -> tuple[int, ...]:
    return tuple(int(math.floor(int(d) * float(s) + 1e-9)) for d, s in zip(shape, scales))


def infer_shape(self, scales, **_attrs):
    return [(resized_shape(self[0], scales), self[1])]
