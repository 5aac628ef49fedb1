"""Non-contiguous inputs and outputs of Permute, Cat, Embedding, ReduceSum, Mean and
BatchMatMul: the shared Contiguous copy before the op, ViewCopy after it, numbers
against numpy."""
from __future__ import annotations

import numpy as np
import pytest

import opsnn
from opsnn import aclDataType as T
from tests.conftest import rel_err
from tests.opsnn.transform.helpers import strided_out, strided_tensor, transposed_tensor


def _run(npu, prep, launch):
    npu.run(prep, launch)
    return prep[1]


@pytest.mark.parametrize("in_layout", ["contiguous", "strided"])
def test_permute_views(npu, rng, in_layout):
    x = rng.standard_normal((3, 4, 5)).astype(np.float32)
    tx = strided_tensor(npu, x) if in_layout == "strided" else npu.to_device(x)[1]
    to, read = strided_out(npu, (5, 3, 4), np.float32)
    ex = _run(npu, opsnn.aclnnPermuteGetWorkspaceSize(tx, [2, 0, 1], to), opsnn.aclnnPermute)
    np.testing.assert_array_equal(read(), np.transpose(x, (2, 0, 1)))
    assert ex.info["copies"] == (["Contiguous"] if in_layout == "strided" else []) + ["ViewCopy"]
    assert ex.workspace_size == (256 if in_layout == "strided" else 0) + 256  # 240 B copies, 32 B aligned


def test_cat_views(npu, rng):
    a = rng.standard_normal((2, 6)).astype(np.float16)
    b = rng.standard_normal((3, 6)).astype(np.float16)
    to, read = strided_out(npu, (5, 6), np.float16)
    tl = opsnn.aclCreateTensorList([transposed_tensor(npu, a), npu.to_device(b)[1]])
    ex = _run(npu, opsnn.aclnnCatGetWorkspaceSize(tl, 0, to), opsnn.aclnnCat)
    np.testing.assert_array_equal(read(), np.concatenate([a, b]))
    assert ex.info["copies"] == ["Contiguous", "ViewCopy"]


def test_embedding_views(npu, rng):
    w = rng.standard_normal((7, 5)).astype(np.float32)
    idx = np.array([[6, 0], [3, 3]], np.int64)
    to, read = strided_out(npu, (2, 2, 5), np.float32)
    ex = _run(npu, opsnn.aclnnEmbeddingGetWorkspaceSize(transposed_tensor(npu, w), strided_tensor(npu, idx), to),
              opsnn.aclnnEmbedding)
    np.testing.assert_array_equal(read(), w[idx])
    assert ex.info["copies"] == ["Contiguous", "Contiguous", "ViewCopy"]


@pytest.mark.parametrize("which", ["sum", "mean"])
def test_reduce_views(npu, rng, which):
    x = rng.standard_normal((4, 6, 5)).astype(np.float32)
    to, read = strided_out(npu, (4, 5), np.float32)
    prep = (opsnn.aclnnReduceSumGetWorkspaceSize if which == "sum" else opsnn.aclnnMeanGetWorkspaceSize)
    launch = opsnn.aclnnReduceSum if which == "sum" else opsnn.aclnnMean
    ex = _run(npu, prep(transposed_tensor(npu, x), [1], False, T.ACL_FLOAT, to), launch)
    ref = getattr(x.astype(np.float64), which)(axis=1)
    assert rel_err(read(), ref) < 1e-5
    assert ex.info["copies"] == ["Contiguous", "ViewCopy"]


def test_batch_matmul_reads_a_transposed_mat2_in_place(npu, rng):
    """A transposed operand is read by the cube as is (its transpose flag); any other
    non-contiguous view is copied first; a non-contiguous out gets a ViewCopy."""
    a = rng.standard_normal((2, 5, 7)).astype(np.float32)
    b = rng.standard_normal((2, 7, 4)).astype(np.float32)
    to, read = strided_out(npu, (2, 5, 4), np.float32)
    ex = _run(npu, opsnn.aclnnBatchMatMulGetWorkspaceSize(strided_tensor(npu, a), transposed_tensor(npu, b), to, 0),
              opsnn.aclnnBatchMatMul)
    assert rel_err(read(), np.matmul(a.astype(np.float64), b)) < 1e-5
    assert ex.info["copies"] == ["Contiguous", "ViewCopy"] and ex.info["transposed"] == [False, True]
