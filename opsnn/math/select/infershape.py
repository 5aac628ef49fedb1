"""Selection shape inference (no status codes): SWhere broadcasts its three operands
and gives the promoted dtype of ``self`` and ``other``; EqTensor / EqScalar give a
BOOL tensor of the broadcast shape (``out`` may be any dtype bool casts to); Equal
gives one BOOL element."""
from __future__ import annotations

from ...base.dtypes import aclDataType as T
from ...base.promotion import promote_types
from ..common.infershape import broadcast_shape, infer_binary

__all__ = ["infer_where", "infer_eq", "infer_equal"]


def infer_where(condition, self, other):
    """[(broadcast of the three shapes, promoted dtype of self and other)]."""
    return [(broadcast_shape(condition[0], self[0], other[0]), promote_types(self[1], other[1]))]


def infer_eq(self, other, *, scalar: bool = False):
    """[(broadcast shape, BOOL)] (``other`` a scalar value when ``scalar``)."""
    (shape, _), = infer_binary(self, other, scalar=scalar)
    return [(shape, T.ACL_BOOL)]


def infer_equal(self, other):
    """[((1,), BOOL)]: the one bool of torch.equal."""
    return [((1,), T.ACL_BOOL)]
