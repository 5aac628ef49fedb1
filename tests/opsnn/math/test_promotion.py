"""dtype promotion and cast rules against CANN's published tables (ops-math
docs/en/context/deduction_relationship.md, conversion_relationship.md), transcribed
here for the dtypes the simulator has."""
import pytest

from opsnn.base.dtypes import aclDataType as T
from opsnn.base.promotion import (ALL_TYPES, can_cast, compute_dtype, promote_tensor_scalar, promote_types,
                                  promotion_table_markdown)

N = {"f32": T.ACL_FLOAT, "f16": T.ACL_FLOAT16, "f64": T.ACL_DOUBLE, "bf16": T.ACL_BF16, "s8": T.ACL_INT8,
     "u8": T.ACL_UINT8, "s16": T.ACL_INT16, "s32": T.ACL_INT32, "s64": T.ACL_INT64, "bool": T.ACL_BOOL}
COLS = "f32 f16 f64 bf16 s8 u8 s16 s32 s64 bool".split()

# CANN Table 1 (TensorTensor), rows x cols, u16/u32/u64/complex columns omitted
TENSOR_TENSOR = """
f32  f32 f32 f64 f32  f32  f32  f32  f32  f32  f32
f16  f32 f16 f64 f32  f16  f16  f16  f16  f16  f16
f64  f64 f64 f64 f64  f64  f64  f64  f64  f64  f64
bf16 f32 f32 f64 bf16 bf16 bf16 bf16 bf16 bf16 bf16
s8   f32 f16 f64 bf16 s8   s16  s16  s32  s64  s8
u8   f32 f16 f64 bf16 s16  u8   s16  s32  s64  u8
s16  f32 f16 f64 bf16 s16  s16  s16  s32  s64  s16
s32  f32 f16 f64 bf16 s32  s32  s32  s32  s64  s32
s64  f32 f16 f64 bf16 s64  s64  s64  s64  s64  s64
bool f32 f16 f64 bf16 s8   u8   s16  s32  s64  bool
"""

# CANN Table 2 (TensorScalar): rows = scalar dtype, cols = tensor dtype
TENSOR_SCALAR = """
f32  f32 f16 f64 bf16 f32 f32 f32 f32 f32 f32
f16  f32 f16 f64 bf16 f32 f32 f32 f32 f32 f32
f64  f32 f16 f64 bf16 f32 f32 f32 f32 f32 f32
bf16 f32 f16 f64 bf16 f32 f32 f32 f32 f32 f32
s8   f32 f16 f64 bf16 s8  u8  s16 s32 s64 s8
u8   f32 f16 f64 bf16 s8  u8  s16 s32 s64 u8
s16  f32 f16 f64 bf16 s8  u8  s16 s32 s64 s16
s32  f32 f16 f64 bf16 s8  u8  s16 s32 s64 s32
s64  f32 f16 f64 bf16 s8  u8  s16 s32 s64 s64
bool f32 f16 f64 bf16 s8  u8  s16 s32 s64 bool
"""


def _parse(text):
    for line in text.strip().splitlines():
        row, *cells = line.split()
        for col, cell in zip(COLS, cells):
            yield N[row], N[col], N[cell]


@pytest.mark.parametrize("a,b,want", list(_parse(TENSOR_TENSOR)))
def test_tensor_tensor_table(a, b, want):
    assert promote_types(a, b) == want
    assert promote_types(b, a) == want  # the table is symmetric


@pytest.mark.parametrize("scalar,tensor,want", list(_parse(TENSOR_SCALAR)))
def test_tensor_scalar_table(scalar, tensor, want):
    assert promote_tensor_scalar(tensor, scalar) == want


def test_conversion_rules():
    """Integers cast to integers and floats; floats among floats; bool to anything;
    nothing else (no float -> int, nothing but bool -> bool)."""
    floats = {"f32", "f16", "f64", "bf16"}
    ints = {"s8", "u8", "s16", "s32", "s64"}
    for s in COLS:
        for d in COLS:
            want = (s == d or s == "bool" or (s in ints and (d in ints or d in floats))
                    or (s in floats and d in floats))
            assert can_cast(N[s], N[d]) == want, (s, d)


def test_unknown_types_do_not_promote():
    assert promote_types(T.ACL_FLOAT, 99) is None
    assert promote_tensor_scalar(99, T.ACL_FLOAT) is None


def test_compute_dtype():
    assert compute_dtype(T.ACL_FLOAT16) == compute_dtype(T.ACL_BF16) == T.ACL_FLOAT
    for t in (T.ACL_FLOAT, T.ACL_DOUBLE, T.ACL_INT8, T.ACL_INT64, T.ACL_BOOL):
        assert compute_dtype(t) == t


def test_markdown_table_has_every_cell():
    md = promotion_table_markdown()
    assert md.count("\n") == len(ALL_TYPES) + 1
    assert "| **f16** | f32 | f16 | f32 | f64 |" in md
    assert "| **bool** |" in promotion_table_markdown(scalar=True)
