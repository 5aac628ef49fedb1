"""Every phase-1 error path of the pooling ops: status code and message."""
import numpy as np
import pytest

import opsnn
from opsnn import ACLNN_ERR_INNER_TILING_ERROR as TILING
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL

from .helpers import expect_error

ia = opsnn.aclCreateIntArray


@pytest.fixture
def t(npu):
    """Tensors by name: x (2,3,8,8) f32, o (2,3,4,4) f32, i (2,3,4,4) i64, plus odd ones."""
    d = {}
    d["x"] = npu.to_device(np.zeros((2, 3, 8, 8), np.float32))[1]
    d["o"] = npu.empty((2, 3, 4, 4), np.float32)[1]
    d["i"] = npu.empty((2, 3, 4, 4), np.int64)[1]
    d["o16"] = npu.empty((2, 3, 4, 4), np.float16)[1]
    d["xi"] = npu.to_device(np.zeros((2, 3, 8, 8), np.int32))[1]
    d["x2"] = npu.to_device(np.zeros((8, 8), np.float32))[1]
    d["bad"] = npu.empty((2, 3, 5, 4), np.float32)[1]
    d["badi"] = npu.empty((2, 3, 4, 5), np.int32)[1]
    d["ifl"] = npu.empty((2, 3, 4, 4), np.float32)[1]
    return d


MP = opsnn.aclnnMaxPool2dWithIndicesGetWorkspaceSize


def mp_args(t, **kw):
    a = dict(self=t["x"], kernelSize=ia([2, 2]), stride=ia([2, 2]), padding=ia([0, 0]), dilation=ia([1, 1]),
             ceilMode=False, out=t["o"], indices=t["i"])
    a.update(kw)
    return tuple(a.values())


@pytest.mark.parametrize("kw,code,frag", [
    (dict(self=None), NULL, "self is null"),
    (dict(kernelSize=None), NULL, "kernelSize is null"),
    (dict(stride=None), NULL, "stride is null"),
    (dict(padding=None), NULL, "padding is null"),
    (dict(dilation=None), NULL, "dilation is null"),
    (dict(out=None), NULL, "out is null"),
    (dict(indices=None), NULL, "indices is null"),
    (dict(self=np.zeros((2, 3, 8, 8), np.float32)), INVALID, "self must be an aclTensor"),
    (dict(self="xi"), INVALID, "self dtype ACL_INT32 not supported"),
    (dict(out="o16"), INVALID, "out dtype ACL_FLOAT16 not supported"),
    (dict(indices="ifl"), INVALID, "indices dtype ACL_FLOAT not supported"),
    (dict(self="x2"), INVALID, "self must be 3/4-D"),
    (dict(kernelSize=ia([2, 2, 2])), INVALID, "kernelSize must have 1 or 2 elements, got 3"),
    (dict(kernelSize=ia([0, 2])), INVALID, "kernelSize elements must be >= 1"),
    (dict(kernelSize=[2.5, 2]), INVALID, "kernelSize elements must be integers"),
    (dict(kernelSize=3), INVALID, "kernelSize must be an aclIntArray"),
    (dict(stride=ia([2, 0])), INVALID, "stride elements must be >= 1"),
    (dict(stride=ia([1, 2, 3])), INVALID, "stride must have 0 or 1 or 2 elements"),
    (dict(padding=ia([-1])), INVALID, "padding elements must be >= 0"),
    (dict(padding=ia([])), INVALID, "padding must have 1 or 2 elements, got 0"),
    (dict(padding=ia([2, 0])), INVALID, "padding: top pad 2 must be at most half the kernel size 2"),
    (dict(dilation=ia([0])), INVALID, "dilation elements must be >= 1"),
    (dict(kernelSize=ia([9, 9]), stride=ia([1])), INVALID, "output size [0, 0] is too small"),
    (dict(out="bad"), INVALID, "out shape [2, 3, 5, 4] does not match expected [2, 3, 4, 4]"),
    (dict(indices="badi"), INVALID, "indices shape [2, 3, 4, 5] does not match expected [2, 3, 4, 4]"),
])
def test_max_pool_with_indices_errors(t, kw, code, frag):
    kw = {k: (t[v] if isinstance(v, str) and v in t else v) for k, v in kw.items()}
    expect_error(MP, mp_args(t, **kw), code, "aclnnMaxPool2dWithIndices", frag)


def test_dilated_kernel_allows_larger_pad(npu, t):
    """The pad limit is half the dilated kernel: k=2, d=3 spans 4, so pad 2 is fine."""
    o, i = npu.empty((2, 3, 5, 5), np.float32)[1], npu.empty((2, 3, 5, 5), np.int32)[1]
    ws, ex, ret = MP(*mp_args(t, kernelSize=ia([2]), dilation=ia([3]), padding=ia([2]), stride=ia([2]), out=o,
                              indices=i))
    assert ret == 0, opsnn.aclGetRecentErrMsg()


MX = opsnn.aclnnMaxPoolGetWorkspaceSize


def mx_args(t, **kw):
    a = dict(self=t["x"], kernelShape=ia([2, 2]), strides=ia([2, 2]), autoPad=0, pads=ia([0, 0, 0, 0]),
             dilations=ia([1, 1]), ceilMode=0, out=t["o"])
    a.update(kw)
    return tuple(a.values())


@pytest.mark.parametrize("kw,code,frag", [
    (dict(self=None), NULL, "self is null"),
    (dict(pads=None), NULL, "pads is null"),
    (dict(out=[0.0]), INVALID, "out must be an aclTensor"),
    (dict(self="xi"), INVALID, "self dtype ACL_INT32"),
    (dict(autoPad=1), INVALID, "autoPad must be 0 (NOTSET), got 1"),
    (dict(autoPad="SAME_UPPER"), INVALID, "autoPad must be 0"),
    (dict(pads=ia([0, 0, 0])), INVALID, "pads must have 0 or 1 or 2 or 4 elements, got 3"),
    (dict(pads=ia([0, 0, 2, 0])), INVALID, "pads: bottom pad 2 must be at most half the kernel size 2"),
    (dict(dilations=ia([1, 1, 1, 1])), INVALID, "dilations must have 0 or 1 or 2 elements"),
    (dict(kernelShape=ia([])), INVALID, "kernelShape must have 1 or 2 elements, got 0"),
    (dict(out="bad"), INVALID, "out shape"),
])
def test_onnx_max_pool_errors(t, kw, code, frag):
    kw = {k: (t[v] if isinstance(v, str) and v in t else v) for k, v in kw.items()}
    expect_error(MX, mx_args(t, **kw), code, "aclnnMaxPool:", frag)


AP = opsnn.aclnnAvgPool2dGetWorkspaceSize


def ap_args(t, **kw):
    a = dict(self=t["x"], kernelSize=ia([2, 2]), strides=ia([2, 2]), paddings=ia([0, 0]), ceilMode=False,
             countIncludePad=True, divisorOverride=0, cubeMathType=0, out=t["o"])
    a.update(kw)
    return tuple(a.values())


@pytest.mark.parametrize("kw,code,frag", [
    (dict(self=None), NULL, "self is null"),
    (dict(paddings=None), NULL, "paddings is null"),
    (dict(out=None), NULL, "out is null"),
    (dict(self=[1.0]), INVALID, "self must be an aclTensor"),
    (dict(self="xi"), INVALID, "self dtype ACL_INT32"),
    (dict(out="o16"), INVALID, "out dtype ACL_FLOAT16"),
    (dict(self="x2"), INVALID, "self must be 3/4-D"),
    (dict(paddings=ia([0, 0, 0])), INVALID, "paddings must have 1 or 2 or 4 elements, got 3"),
    (dict(paddings=ia([0, 2, 0, 0])), INVALID, "paddings: left pad 2 must be at most half the kernel size 2"),
    (dict(divisorOverride=-1), INVALID, "divisorOverride must be an int >= 0"),
    (dict(divisorOverride=1.5), INVALID, "divisorOverride must be an int >= 0"),
    (dict(cubeMathType=4), INVALID, "cubeMathType must be 0..3, got 4"),
    (dict(kernelSize=ia([10, 10])), INVALID, "output size [0, 0] is too small"),
    (dict(out="bad"), INVALID, "out shape [2, 3, 5, 4] does not match expected [2, 3, 4, 4]"),
])
def test_avg_pool_errors(t, kw, code, frag):
    kw = {k: (t[v] if isinstance(v, str) and v in t else v) for k, v in kw.items()}
    expect_error(AP, ap_args(t, **kw), code, "aclnnAvgPool2d", frag)


def test_avg_pool_window_row_wider_than_ub_is_a_tiling_error(npu):
    """One kernel row of 2100 fp32 elements, double-buffered, exceeds 16 KiB of UB."""
    _, x = npu.to_device(np.zeros((1, 1, 1, 2100), np.float32))
    _, o = npu.empty((1, 1, 1, 1), np.float32)
    expect_error(AP, (x, ia([1, 2100]), ia([1, 1]), ia([0]), False, True, 0, 0, o), TILING,
                 "AvgPool2d: one kernel row of 2100 input elements needs", "tiny has 16384 B")


AA = opsnn.aclnnAdaptiveAvgPool2dGetWorkspaceSize


@pytest.mark.parametrize("kw,code,frag", [
    (dict(self=None), NULL, "self is null"),
    (dict(outputSize=None), NULL, "outputSize is null"),
    (dict(out=None), NULL, "out is null"),
    (dict(self=1.0), INVALID, "self must be an aclTensor"),
    (dict(self="xi"), INVALID, "self dtype ACL_INT32"),
    (dict(self="x2"), INVALID, "self must be 3/4-D"),
    (dict(outputSize=ia([4, 4, 4])), INVALID, "outputSize must have 1 or 2 elements, got 3"),
    (dict(outputSize=ia([0, 4])), INVALID, "outputSize elements must be >= 1"),
    (dict(out="bad"), INVALID, "out shape [2, 3, 5, 4] does not match expected [2, 3, 4, 4]"),
])
def test_adaptive_avg_pool_errors(t, kw, code, frag):
    a = dict(self=t["x"], outputSize=ia([4, 4]), out=t["o"])
    a.update({k: (t[v] if isinstance(v, str) and v in t else v) for k, v in kw.items()})
    expect_error(AA, tuple(a.values()), code, "aclnnAdaptiveAvgPool2d", frag)


def test_empty_spatial_dims_are_rejected(npu):
    _, x = npu.to_device(np.zeros((1, 2, 0, 4), np.float32))
    _, o = npu.empty((1, 2, 1, 1), np.float32)
    expect_error(AA, (x, ia([1, 1]), o), INVALID, "has an empty C/H/W dimension")
    expect_error(AP, (x, ia([1]), ia([1]), ia([0]), False, True, 0, 0, o), INVALID, "empty C/H/W")


def test_single_use_executor_runs_once(npu, t):
    ws, ex, ret = AA(t["x"], ia([4, 4]), t["o"])
    assert ret == 0
    assert opsnn.aclnnAdaptiveAvgPool2d(0, 0, ex, 0) == 0
    assert opsnn.aclnnAdaptiveAvgPool2d(0, 0, ex, 0) == INVALID
    assert "not repeatable" in opsnn.aclGetRecentErrMsg()
    assert opsnn.aclnnMaxPool(0, 0, ex, 0) == INVALID  # wrong op's phase 2
    assert "prepared by aclnnAdaptiveAvgPool2d" in opsnn.aclGetRecentErrMsg()
