"""Convolution tiling without a device: feed a chip config and conv shapes, expect the
strategy, key, implicit-GEMM dims, a base tile that fits the chip's buffers (checked by
independent arithmetic), block_dim and workspace."""
import math

import pytest

from npu_sim import PRESETS
from npu_sim.program import Buffer, Pipe
from opsnn.conv.convolution.infershape import infer_shape, normalize_pads, out_hw
from opsnn.conv.convolution.kernel import tile_program
from opsnn.conv.convolution.tiling import convolution_tiling
from opsnn.matmul.common.cube_math import cube_compute_dtype
from opsnn.conv.convolution.tiling_data import ConvolutionTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]

# x shape, w shape, stride, padding, dilation, groups
CASES = [((1, 3, 224, 224), (64, 3, 7, 7), (2, 2), (3, 3), (1, 1), 1),      # ResNet-50 stem
         ((1, 64, 56, 56), (256, 64, 1, 1), (1, 1), (0, 0), (1, 1), 1),     # bottleneck 1x1
         ((2, 16, 14, 14), (20, 16, 3, 3), (1, 1), (1, 1), (1, 1), 1),
         ((1, 8, 9, 9), (12, 2, 3, 3), (2, 2), (1, 1, 0, 2), (1, 1), 4),     # grouped, asymmetric pads
         ((2, 6, 8, 8), (6, 1, 3, 3), (1, 1), (2, 2), (2, 2), 6)]            # depthwise, dilated


def _tile(chip, x, w, stride, padding, dilation, groups, item=4, bias=True, dtype="float32"):
    ho, wo = out_hw(x[2], x[3], w[2], w[3], stride, normalize_pads(padding), dilation)
    return convolution_tiling(chip, x, w, (ho, wo), stride, groups, item, item, dtype, bias), (ho, wo)


@pytest.mark.parametrize("chip", [TINY, B2], ids=["tiny", "910b2"])
@pytest.mark.parametrize("x,w,stride,padding,dilation,groups", CASES)
def test_implicit_gemm_dims_and_fitting_tile(chip, x, w, stride, padding, dilation, groups):
    res, (ho, wo) = _tile(chip, x, w, stride, padding, dilation, groups)
    td, cube = res.data, res.data.cube
    assert res.strategy == "implicit_gemm" and res.workspace_bytes == 0
    # the GEMM: one per group, im2col rows x output channels of a group x one window
    assert (td.batch, td.m, td.n, td.k) == (groups, x[0] * ho * wo, w[0] // groups, w[1] * w[2] * w[3])
    assert (cube.batch, cube.m, cube.n, cube.k) == (td.batch, td.m, td.n, td.k)
    assert td.a_gm_reuse == max(1.0, w[2] * w[3] / (stride[0] * stride[1]))
    # base tile in L0A/L0B (double-buffered, 4 B elements), fp32 accumulator in L0C, K chunks in L1
    assert 2 * cube.base_m * cube.base_k * 4 <= chip.l0a_bytes and 2 * cube.base_k * cube.base_n * 4 <= chip.l0b_bytes
    assert cube.l0c_buffers * cube.base_m * cube.base_n * 4 <= chip.l0c_bytes
    assert 2 * (cube.base_m + cube.base_n) * cube.k_l1 * 4 <= chip.l1_bytes
    tiles = groups * math.ceil(td.m / cube.base_m) * math.ceil(td.n / cube.base_n)
    assert cube.out_tiles == tiles and res.block_dim == min(chip.aic_count, tiles)
    assert cube.k_chunks * cube.k_l1 >= td.k


@pytest.mark.parametrize("kh,bias,key", [(1, False, 1), (1, True, 3), (3, False, 0), (3, True, 2)])
def test_tiling_key_marks_1x1_kernels_and_bias(kh, bias, key):
    res, _ = _tile(TINY, (1, 8, 6, 6), (4, 8, kh, kh), (1, 1), (0, 0), (1, 1), 1, bias=bias)
    assert res.tiling_key == key == ConvolutionTilingKey.of(kh, kh, bias)


def test_bias_is_a_one_off_load_per_output_tile():
    """The kernel half charges base_n fp32 bias values on each output tile's last MTE2
    step and reserves them in the BiasTable; without a bias neither appears."""
    x, w = (1, 4, 8, 8), (8, 4, 3, 3)
    with_b, _ = _tile(TINY, x, w, (1, 1), (1, 1), (1, 1), 1, bias=True)
    without, _ = _tile(TINY, x, w, (1, 1), (1, 1), (1, 1), 1, bias=False)
    s1, s0 = (tile_program(r.data, {}, r.tiling_key) for r in (with_b, without))

    def mte2(spec):
        return sum(t.count * st.nbytes for p in spec.blocks for t in p.tiles for st in t.stages if st.pipe == Pipe.MTE2)
    base_n = with_b.data.cube.base_n
    assert mte2(s1) - mte2(s0) == with_b.data.cube.out_tiles * base_n * 4
    assert s1.buffers[Buffer.BT] == base_n * 4 and Buffer.BT not in s0.buffers
    assert s1.args["flops"] == 2 * with_b.data.m * with_b.data.n * with_b.data.k


def test_output_shape_inference():
    """Ho = (H + pads - d*(k-1) - 1) // s + 1: the ResNet-50 stem gives 112 x 112."""
    from opsnn.base.dtypes import aclDataType
    assert infer_shape((1, 3, 224, 224), aclDataType.ACL_FLOAT, (64, 3, 7, 7), (2, 2), (3, 3), (1, 1)) == \
        [((1, 64, 112, 112), aclDataType.ACL_FLOAT)]
    assert normalize_pads((1, 2)) == (1, 1, 2, 2) and normalize_pads((0, 2, 1, 0)) == (0, 2, 1, 0)


@pytest.mark.parametrize("dtype,cmt,rate", [("float32", 0, "float32"), ("float32", 1, "hf32"),
                                            ("float32", 2, "float16"), ("float32", 3, "hf32"),
                                            ("float16", 1, "float16"), ("bfloat16", 3, "bfloat16")])
def test_cube_dtype(dtype, cmt, rate):
    """Convolution's cube rate comes from the family-wide cube_compute_dtype (CANN
    Atlas A2: fp32 goes HF32 under 1 and 3, fp16 under 2), as Matmul's does."""
    assert cube_compute_dtype(dtype, cmt) == rate
