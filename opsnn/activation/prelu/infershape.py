"""PRelu shape inference: ``out`` has ``self``'s shape and dtype; :func:`weight_view_shape`
gives the shape the weight broadcasts as."""
from __future__ import annotations

from ...math.common.infershape import broadcast_shape


def weight_view_shape(self_shape, weight_shape) -> tuple[int, ...] | None:
    """The shape ``weight`` is read as against ``self``: a 1-D weight of ``self.shape[1]``
    elements on a rank >= 2 ``self`` runs along dim 1 (CANN); otherwise numpy
    broadcasting (one element, or a trailing-aligned shape). None if it cannot."""
    s, w = tuple(self_shape), tuple(weight_shape)
    if len(w) == 1 and len(s) >= 2 and w[0] == s[1] and w[0] != 1:
        return (1, w[0]) + (1,) * (len(s) - 2)
    b = broadcast_shape(s, w)
    return w if b == s else None


def infer_prelu(self, weight):
    """[(shape, dtype)] of aclnnPrelu's ``out``."""
    return [(tuple(self[0]), self[1])]
