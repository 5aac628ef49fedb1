"""dtype promotion and cast rules of the aclnn math ops (CANN's "deduction" and
"conversion" relationships; the same idea as PyTorch type promotion).

Sources: ops-math ``docs/en/context/deduction_relationship.md`` (tensor-tensor and
tensor-scalar tables) and ``docs/en/context/conversion_relationship.md`` (which
promoted type may be written to which ``out`` dtype). Only the aclDataType members
this simulator knows are covered (no unsigned types beyond UINT8, no complex).

Tensor-tensor rules (:func:`promote_types`), for the dtypes we have:

* bool is below every other type: ``bool + T -> T``;
* integers promote to the wider one; ``int8 + uint8 -> int16``;
* any float beats any integer: ``int32 + float16 -> float16``;
* ``float16 + bfloat16 -> float32``; float32 beats both 16-bit floats; double
  beats everything.

Tensor-scalar rules (:func:`promote_tensor_scalar`, ``aclnnAdds`` and friends): the
tensor's dtype wins inside its category (``float16 tensor + float32 scalar ->
float16``; ``int8 tensor + int64 scalar -> int8``); a float scalar with an integer or
bool tensor gives float32; an integer scalar with a bool tensor gives the scalar's
type.

Cast rules (:func:`can_cast`): within floats any way; integers to any integer or
float; bool to anything; never float -> integer, never (integer or float) -> bool.

Compute types (:func:`compute_dtype`): the vector unit computes float16/bfloat16
math in float32 and rounds once at the end (ops-nn kernels Cast 16-bit inputs to
fp32 for non-trivial math); integers compute exactly in their own type.
"""
from __future__ import annotations

from .checks import invalid
from .dtypes import aclDataType as T

FLOATS = (T.ACL_FLOAT, T.ACL_FLOAT16, T.ACL_BF16, T.ACL_DOUBLE)
INTS = (T.ACL_INT8, T.ACL_UINT8, T.ACL_INT16, T.ACL_INT32, T.ACL_INT64)
#: every dtype the promotion rules cover, in a stable display order
ALL_TYPES = (T.ACL_FLOAT, T.ACL_FLOAT16, T.ACL_BF16, T.ACL_DOUBLE, T.ACL_INT8, T.ACL_UINT8, T.ACL_INT16,
             T.ACL_INT32, T.ACL_INT64, T.ACL_BOOL)

SHORT = {T.ACL_FLOAT: "f32", T.ACL_FLOAT16: "f16", T.ACL_BF16: "bf16", T.ACL_DOUBLE: "f64", T.ACL_INT8: "s8",
         T.ACL_UINT8: "u8", T.ACL_INT16: "s16", T.ACL_INT32: "s32", T.ACL_INT64: "s64", T.ACL_BOOL: "bool"}

_INT_BITS = {T.ACL_INT8: 8, T.ACL_UINT8: 8, T.ACL_INT16: 16, T.ACL_INT32: 32, T.ACL_INT64: 64}


def is_float(t) -> bool:
    return T(t) in FLOATS


def is_int(t) -> bool:
    return T(t) in INTS


def _promote_ints(a: T, b: T) -> T:
    if a == b:
        return a
    if {a, b} == {T.ACL_INT8, T.ACL_UINT8}:
        return T.ACL_INT16
    return a if _INT_BITS[a] > _INT_BITS[b] else b


def _promote_floats(a: T, b: T) -> T:
    if a == b:
        return a
    if T.ACL_DOUBLE in (a, b):
        return T.ACL_DOUBLE
    return T.ACL_FLOAT  # f32 with anything 16-bit, or f16 with bf16


def promote_types(a, b) -> T | None:
    """Promoted dtype of two tensors (CANN TensorTensor deduction table), or None
    if the pair does not promote (a dtype outside :data:`ALL_TYPES`)."""
    try:
        a, b = T(a), T(b)
    except ValueError:
        return None
    if a not in ALL_TYPES or b not in ALL_TYPES:
        return None
    if a == T.ACL_BOOL:
        return b
    if b == T.ACL_BOOL:
        return a
    if is_float(a) and is_float(b):
        return _promote_floats(a, b)
    if is_float(a):
        return a
    if is_float(b):
        return b
    return _promote_ints(a, b)


def promote_tensor_scalar(tensor, scalar) -> T | None:
    """Promoted dtype of a tensor and an aclScalar (CANN TensorScalar deduction table)."""
    try:
        t, s = T(tensor), T(scalar)
    except ValueError:
        return None
    if t not in ALL_TYPES or s not in ALL_TYPES:
        return None
    if is_float(t):
        return t
    if is_float(s):
        return T.ACL_FLOAT
    if t == T.ACL_BOOL:
        return s
    return t


def can_cast(src, dst) -> bool:
    """Whether a result of dtype ``src`` may be written to an ``out`` of dtype ``dst``
    (CANN conversion relationship)."""
    src, dst = T(src), T(dst)
    if src == dst or src == T.ACL_BOOL:
        return True
    if dst == T.ACL_BOOL:
        return False
    if is_int(src):
        return True
    return is_float(src) and is_float(dst)


def compute_dtype(t) -> T:
    """dtype the vector unit computes in: float32 for float16/bfloat16, else ``t``."""
    t = T(t)
    return T.ACL_FLOAT if t in (T.ACL_FLOAT16, T.ACL_BF16) else t


# ----------------------------------------------------------------------------- checks (161002)
def check_promote(op: str, a_name: str, a, b_name: str, b, *, scalar: bool = False) -> T:
    """Promote two dtypes or raise 161002 naming both parameters."""
    p = promote_tensor_scalar(a, b) if scalar else promote_types(a, b)
    if p is None:
        raise invalid(op, f"{a_name} dtype {T(a).name} and {b_name} dtype {T(b).name} cannot be promoted")
    return p


def check_castable(op: str, promoted, name: str, dst) -> None:
    """161002 unless ``promoted`` may be cast to ``dst`` (the dtype of parameter ``name``)."""
    if not can_cast(promoted, dst):
        raise invalid(op, f"result dtype {T(promoted).name} cannot be cast to {name} dtype {T(dst).name}")


def promotion_table_markdown(scalar: bool = False) -> str:
    """The promotion table as Markdown (rows: first operand or scalar; columns: the
    tensor), for READMEs and reports."""
    head = "| " + ("scalar \\ tensor" if scalar else "a \\ b") + " | " + " | ".join(SHORT[t] for t in ALL_TYPES) + " |"
    rows = [head, "|" + "---|" * (len(ALL_TYPES) + 1)]
    for r in ALL_TYPES:
        cells = []
        for c in ALL_TYPES:
            p = promote_tensor_scalar(c, r) if scalar else promote_types(r, c)
            cells.append(SHORT[p] if p is not None else "x")
        rows.append(f"| **{SHORT[r]}** | " + " | ".join(cells) + " |")
    return "\n".join(rows)

