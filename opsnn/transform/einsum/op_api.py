"""aclnnEinsum: tensor contraction by an Einstein-summation equation (ONNX Einsum).

CANN prototype (aclnn_einsum.h; CANN aclnnEinsum doc):
  aclnnEinsumGetWorkspaceSize(tensors, equation, output, workspaceSize, executor)
  aclnnEinsum(workspace, workspaceSize, executor, stream)
Parameters (CANN order):
  tensors: aclTensorList (or a sequence of aclTensor), one per term, one dtype.
    CANN lists FLOAT16, FLOAT, INT16, INT32, INT64 (and unsigned types this
    simulator lacks); BF16 and DOUBLE are accepted here too.
  equation: "term1,term2->out" with ``...`` for broadcast batch dims; the implicit
    form (no "->") sums the repeated labels. CANN documents only some equations
    (e.g. "abcd,abced->abce", "a,b->ab"); any valid equation runs here, repeated
    labels (diagonals) included.
  output: the dtype of tensors; shape from the equation.
Status: 161001 null tensors/equation/output or a null element; 161002 empty list,
not a tensor, mixed dtypes, a malformed equation, output dtype or shape.

Cost model: ``tiling.py``.
"""
from __future__ import annotations

from ...base.checks import check_dtype, check_not_null, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.op import execute, prepare
from ..common.phase1 import build_executor, check_out
from .infershape import parse
from .kernel import einsum_fn
from .tiling import einsum_tiling

OP = "aclnnEinsum"
TYPES = (T.ACL_FLOAT16, T.ACL_FLOAT, T.ACL_BF16, T.ACL_DOUBLE, T.ACL_INT16, T.ACL_INT32, T.ACL_INT64)


def _build(chip, tensors, equation, output):
    check_not_null(OP, tensors=tensors, equation=equation, output=output)
    if isinstance(tensors, (str, bytes)) or not hasattr(tensors, "__iter__"):
        raise invalid(OP, f"tensors must be an aclTensorList, got {type(tensors).__name__}")
    items = list(tensors)
    if not items:
        raise invalid(OP, "tensors must hold at least one tensor")
    check_not_null(OP, **{f"tensors[{i}]": t for i, t in enumerate(items)})
    check_tensor_type(OP, output=output, **{f"tensors[{i}]": t for i, t in enumerate(items)})
    for i, t in enumerate(items):
        check_dtype(OP, f"tensors[{i}]", t, (items[0].data_type,) if i else TYPES)
    if not isinstance(equation, str):
        raise invalid(OP, f"equation must be a string, got {type(equation).__name__}")
    try:
        terms, out, sizes = parse(equation, [t.view_shape for t in items])
    except ValueError as e:
        raise invalid(OP, f"equation {equation!r}: {e}") from None
    check_out(OP, "output", output, tuple(sizes[c] for c in out), items[0].data_type)
    n_terms = 1
    for d in sizes.values():
        n_terms *= d
    res = (einsum_tiling(chip, sum(t.nbytes for t in items), output.numel, n_terms, output.itemsize)
           if output.numel else None)
    return build_executor(chip, OP, "Einsum", items, [output], res, einsum_fn(terms, out),
                          {"shapes": [list(t.view_shape) for t in items], "dtype": output.dtype_name,
                           "equation": equation}, {"equation": ",".join(terms) + "->" + out})


def aclnnEinsumGetWorkspaceSize(tensors, equation, output):  # noqa: N802
    """Phase 1 of output = einsum(equation, *tensors) (module doc)."""
    return prepare("Einsum", lambda chip: _build(chip, tensors, equation, output))


def aclnnEinsum(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Einsum."""
    return execute("Einsum", workspace, workspaceSize, executor, stream)
