"""QuantConvolution tiling without a device: the int8 implicit GEMM (1-byte operands,
the int8 cube rate and K fractal), its key per (kernel, bias, quant mode), and the
int8 rate doubling the fp16 cube time of the same convolution on 910B2."""
import pytest

from npu_sim import PRESETS
from opsnn.conv.convolution.infershape import normalize_pads, out_hw
from opsnn.conv.convolution.tiling import convolution_tiling
from opsnn.conv.quant_convolution.kernel import tile_program
from opsnn.conv.quant_convolution.tiling import quant_convolution_tiling
from opsnn.conv.quant_convolution.tiling_data import QuantConvolutionTilingKey, QuantMode

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]
CASES = [((1, 64, 56, 56), (64, 64, 3, 3), (1, 1), (1, 1), 1),
         ((1, 64, 56, 56), (256, 64, 1, 1), (1, 1), (0, 0), 1),
         ((2, 8, 9, 9), (12, 2, 3, 3), (2, 2), (1, 1, 0, 2), 4)]


def _tile(chip, x, w, stride, padding, groups, out_item=2, bias=False, mode=QuantMode.PER_TENSOR):
    ohw = out_hw(x[2], x[3], w[2], w[3], stride, normalize_pads(padding), (1, 1))
    return quant_convolution_tiling(chip, x, w, ohw, stride, groups, out_item, bias, mode), ohw


@pytest.mark.parametrize("chip", [TINY, B2], ids=["tiny", "910b2"])
@pytest.mark.parametrize("x,w,stride,padding,groups", CASES)
def test_int8_implicit_gemm(chip, x, w, stride, padding, groups):
    res, (ho, wo) = _tile(chip, x, w, stride, padding, groups)
    td, cube = res.data, res.data.cube
    assert res.strategy == "implicit_gemm_int8" and res.workspace_bytes == 0
    assert (td.batch, td.m, td.n, td.k) == (groups, x[0] * ho * wo, w[0] // groups, w[1] * w[2] * w[3])
    assert td.in_itemsize == 1 and td.cube_dtype == "int8"
    # int32 accumulator in L0C (4 B), 1-byte operands in L0A/L0B
    assert cube.base_m * cube.base_n * 4 <= chip.l0c_bytes
    assert cube.base_m * cube.base_k <= chip.l0a_bytes and cube.base_k * cube.base_n <= chip.l0b_bytes
    assert cube.base_k % 32 == 0 or cube.base_k >= td.k  # the int8 K fractal
    assert 1 <= res.block_dim <= chip.aic_count


@pytest.mark.parametrize("kh,bias,mode,key", [(3, False, QuantMode.PER_TENSOR, 8), (1, False, QuantMode.PER_TENSOR, 9),
                                              (3, True, QuantMode.PER_CHANNEL, 18),
                                              (1, True, QuantMode.ACCUMULATOR, 27)])
def test_key_per_kernel_bias_mode(kh, bias, mode, key):
    res, _ = _tile(TINY, (1, 4, 8, 8), (4, 4, kh, kh), (1, 1), (0, 0), 1, bias=bias, mode=mode)
    assert res.tiling_key == key == QuantConvolutionTilingKey.of(kh, kh, bias, mode)
    assert len({int(k) for k in QuantConvolutionTilingKey}) == 12


def test_int8_cube_rate_is_twice_fp16_on_910b2():
    """Same convolution: the int8 K fractal is 32 and the chip's int8 rate 8192 MACs a
    cycle against 4096 for fp16 (ChipConfig), so the Cube's MAC count per cycle doubles."""
    assert B2.cube_macs_per_cycle("int8") == 2 * B2.cube_macs_per_cycle("float16")
    x, w = (1, 256, 28, 28), (256, 256, 3, 3)
    q, ohw = _tile(B2, x, w, (1, 1), (1, 1), 1)
    f = convolution_tiling(B2, x, w, ohw, (1, 1), 1, 2, 2, "float16", False)
    assert (q.data.m, q.data.n, q.data.k) == (f.data.m, f.data.n, f.data.k)
    spec = tile_program(q.data, {}, q.tiling_key, dequant=True)
    assert spec.args["epilogue"] == ["dequant"] and spec.args["flops"] == 2 * q.data.m * q.data.n * q.data.k
