"""cube_compute_dtype: one cubeMathType mapping for every cube operator, and the same
GEMM timed alike through Matmul, BatchMatMul and a 1x1 Convolution."""
import numpy as np
import pytest

import opsnn
from acl_runtime.runtime import runtime
from npu_sim import PRESETS, Pipe, Stage
from npu_sim.hardware.cost import stage_ns
from npu_sim.program import CubeDtype
from opsnn.base.dtypes import aclDataType
from opsnn.matmul.common.cube_math import CubeMathType, compute_dtype_name, cube_compute_dtype

F16, BF16, I8, F32, HF32 = (CubeDtype.FLOAT16, CubeDtype.BFLOAT16, CubeDtype.INT8, CubeDtype.FLOAT32,
                            CubeDtype.HF32)

#: CANN aclnnMatmul doc, Atlas A2: only FLOAT inputs change type
TABLE = {
    "float32": (F32, HF32, F16, HF32),
    "float16": (F16, F16, F16, F16),
    "bfloat16": (BF16, BF16, BF16, BF16),
    "int8": (I8, I8, I8, I8),
}


@pytest.mark.parametrize("dtype", sorted(TABLE))
def test_mapping_follows_cann_atlas_a2(dtype):
    for cmt, want in enumerate(TABLE[dtype]):
        got = cube_compute_dtype(dtype, cmt)
        assert got is want and isinstance(got, CubeDtype)
        assert cube_compute_dtype(dtype, CubeMathType(cmt)) is want


def test_accepts_acl_data_type_codes():
    assert cube_compute_dtype(aclDataType.ACL_FLOAT, 1) is HF32
    assert cube_compute_dtype(int(aclDataType.ACL_FLOAT16), 3) is F16
    assert cube_compute_dtype(aclDataType.ACL_BF16, 0) is BF16


@pytest.mark.parametrize("cmt", [-1, 4, True, 1.5, None])
def test_bad_cube_math_type_raises(cmt):
    with pytest.raises(ValueError, match="cubeMathType must be 0..3"):
        cube_compute_dtype("float32", cmt)


@pytest.mark.parametrize("dtype", ["float64", "int32", "bool"])
def test_non_cube_dtype_raises(dtype):
    with pytest.raises(ValueError, match="not '" + dtype):
        cube_compute_dtype(dtype, 0)


def test_enum_is_the_stage_dtype_string():
    chip = PRESETS["ascend910b2"]
    for cd in CubeDtype:
        assert cd == cd.value and hash(cd) == hash(cd.value)
        assert chip.cube_macs_per_cycle(cd) == chip.cube_macs_per_cycle(cd.value)
        s_enum, s_str = Stage(Pipe.CUBE, macs=1 << 20, dtype=cd), Stage(Pipe.CUBE, macs=1 << 20, dtype=cd.value)
        assert s_enum == s_str and stage_ns(chip, s_enum) == stage_ns(chip, s_str)
    assert chip.cube_macs_per_cycle(HF32) == chip.cube_hf32_macs_per_cycle == 2048
    assert chip.cube_macs_per_cycle(F16) == 4096 and chip.cube_macs_per_cycle(F32) == 1024
    assert Stage(Pipe.CUBE).dtype == "float16"


def test_cann_names():
    assert compute_dtype_name(HF32) == "hfloat32"
    assert [compute_dtype_name(c) for c in (F16, BF16, I8, F32)] == ["float16", "bfloat16", "int8", "float32"]
    assert compute_dtype_name("hf32") == "hfloat32"


def _kernel_ns(npu, prep, launch) -> float:
    """Simulated device time (ns) of every kernel one aclnn call enqueues."""
    first = len(runtime().kernel_records())
    npu.run(prep, launch)
    return sum(r["dur_ns"] for r in runtime().kernel_records(first))


def test_fp32_gemm_under_type_1_costs_the_same_through_every_cube_op(npu, rng):
    m, k, n = 256, 96, 80          # conv: N=1, C=k, H*W=m (16x16), Cout=n, 1x1 kernel
    cmt = 1
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    _, ta = npu.to_device(a)
    _, tb = npu.to_device(b)
    _, tc = npu.empty((m, n), np.float32)
    t_mm = _kernel_ns(npu, opsnn.aclnnMatmulGetWorkspaceSize(ta, tb, tc, cmt), opsnn.aclnnMatmul)
    _, ta3 = npu.to_device(a[None])
    _, tb3 = npu.to_device(b[None])
    _, tc3 = npu.empty((1, m, n), np.float32)
    t_bmm = _kernel_ns(npu, opsnn.aclnnBatchMatMulGetWorkspaceSize(ta3, tb3, tc3, cmt), opsnn.aclnnBatchMatMul)
    # the conv's operands already packed (NC1HWC0 / FRACTAL_Z, C0 = 8 for fp32, the same bytes as a, b and c since
    # k, n are multiples of 8 and 16), so its executor is the Cube kernel alone (no TransData kernels)
    fl = aclDataType.ACL_FLOAT
    px, _ = npu.to_device(np.zeros((1, k // 8, 16, 16, 8), np.float32))
    pw, _ = npu.to_device(np.zeros((k // 8, n // 16, 16, 8), np.float32))
    po, _ = npu.to_device(np.zeros((1, n // 8, 16, 16, 8), np.float32))
    tx = opsnn.aclCreateTensor((1, k, 16, 16), fl, None, 0, 3, (1, k // 8, 16, 16, 8), px)
    tw = opsnn.aclCreateTensor((n, k, 1, 1), fl, None, 0, 4, (k // 8, n // 16, 16, 8), pw)
    to = opsnn.aclCreateTensor((1, n, 16, 16), fl, None, 0, 3, (1, n // 8, 16, 16, 8), po)
    t_conv = _kernel_ns(npu, opsnn.aclnnConvolutionGetWorkspaceSize(tx, tw, None, [1, 1], [0, 0], [1, 1], False,
                                                                    None, 1, to, cmt), opsnn.aclnnConvolution)
    # equal up to float rounding: each duration is an end minus a start on the device clock
    assert t_mm > 0
    assert t_bmm == pytest.approx(t_mm, rel=1e-12, abs=1e-6)
    assert t_conv == pytest.approx(t_mm, rel=1e-12, abs=1e-6)
