"""Tile program of Cast through phase 1: one conversion pass, each side at its own
itemsize."""
import opsnn
from npu_sim.program import Pipe
from opsnn.base.dtypes import aclDataType as T

from ..helpers import meta, prepare_spec, totals


def test_cast_charges_one_pass_and_both_itemsizes(npu):
    x, o = meta((4096,), T.ACL_FLOAT), meta((4096,), T.ACL_BF16)
    spec = prepare_spec(opsnn.aclnnCastGetWorkspaceSize, x, T.ACL_BF16, o)
    t = totals(spec)
    assert (t[Pipe.MTE2], t[Pipe.MTE3], t[Pipe.VECTOR]) == (4 * 4096, 2 * 4096, 4 * 4096)
