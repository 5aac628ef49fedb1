"""vector_kernel never asks for more UB than the chip has."""
from hypothesis import given
from hypothesis import strategies as st

from npu_sim.chips.presets import TINY
from npu_sim.program import Buffer
from opsnn.base.tiling import vector_kernel


@given(n=st.integers(1, 1 << 16), in_per=st.floats(0.01, 64), out_per=st.sampled_from([0.0, 1.0, 2.0, 4.0, 8.0]),
       tmp=st.floats(0, 32))
def test_vector_tiling_fits_ub(n, in_per, out_per, tmp):
    """Whatever the bytes per unit (fractional for broadcast inputs), the UB the
    tiling reserves fits the tiny chip's 16 KiB. Found by a Where test: a 0.6 B/unit
    input once rounded its tile up past UB."""
    spec, td = vector_kernel(TINY, "t", n, in_per, out_per, in_per + out_per, tmp_bytes_per_unit=tmp)
    assert spec.buffers[Buffer.UB] <= TINY.ub_bytes
    assert td.ub_factor >= 1
