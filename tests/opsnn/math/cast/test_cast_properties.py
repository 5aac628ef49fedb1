"""Property tests of Cast against float64 numpy: every dtype pair, random shapes and
layouts; bfloat16 rounding."""
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from opsnn.base.dtypes import aclDataType as T
from opsnn.math.cast import golden

from ..helpers import (ALL_NP, BF16, LAYOUTS, SEEDS, SETTINGS, acl, api, check_close, make_input, out_tensor, run,
                       shapes, upload)


@SETTINGS
@given(shape=shapes(), src=st.sampled_from(ALL_NP), dst=st.sampled_from(ALL_NP), layout=st.sampled_from(LAYOUTS),
       strided_out=st.booleans(), seed=SEEDS)
def test_cast(npu, shape, src, dst, layout, strided_out, seed):
    rng = np.random.default_rng(seed)
    x, tx = make_input(npu, rng, shape, src, layout)
    if (np.dtype(src).kind == "f" or np.dtype(src) == BF16) and np.dtype(dst).kind in "iu":  # bf16 is kind "V"
        x = (np.abs(x.astype(np.float64)) * 3).astype(src)  # in range for every integer target
        tx = upload(npu, x, layout if layout != "broadcast" else "contiguous", rng)
    tout, read = out_tensor(npu, x.shape, dst, strided_out)
    ex = run(npu, *api("Cast"), tx, acl(dst), tout)
    assert ex.info["dst_dtype"] == acl(dst).name
    check_close(read(), golden.cast_golden(x, np.dtype(dst).kind.replace("u", "i")), dst)


def test_bf16_cast_rounds_to_nearest_even(npu):
    """float32 -> bfloat16 rounds to nearest even (ml_dtypes' rounding, as the Cast unit)."""
    x = np.array([1.0 + 2**-8, 1.0 + 3 * 2**-8, -3.14159], np.float32)
    po, to = npu.empty((3,), BF16)
    run(npu, *api("Cast"), npu.to_device(x)[1], T.ACL_BF16, to)
    got = npu.to_host(po, (3,), BF16).astype(np.float64)
    np.testing.assert_array_equal(got, [1.0, 1.0 + 2**-6, -3.140625])
