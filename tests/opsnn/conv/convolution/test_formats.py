"""aclnnConvolution's formats (opsnn/conv/convolution/formats.py): an executor with
TransData kernels around the Cube kernel for NCHW operands (eager), none for packed
(NC1HWC0 / FRACTAL_Z) operands; the Cube's K over whole C0 slices."""
from __future__ import annotations

import numpy as np

import opsnn
from acl_runtime.runtime import runtime
from opsnn.base.dtypes import from_numpy_dtype
from opsnn.conv.convolution.golden import conv2d_golden
from opsnn.transform.trans_data import nc1hwc0_shape, nc1hwc0_to_nchw, nchw_to_nc1hwc0, oihw_to_fractal_z
from tests.conftest import rel_err

NC1HWC0, FRACTAL_Z = 3, 4


def _packed(npu, arr, logical, fmt):
    ptr, _ = npu.to_device(arr)
    t = opsnn.aclCreateTensor(logical, from_numpy_dtype(arr.dtype), None, 0, fmt, arr.shape, ptr)
    assert t is not None, opsnn.aclGetRecentErrMsg()
    return ptr, t


def _conv(npu, rng, packed: bool):
    x = rng.standard_normal((1, 5, 6, 6)).astype(np.float16)
    w = rng.standard_normal((20, 5, 3, 3)).astype(np.float16)
    if packed:
        _, tx = _packed(npu, nchw_to_nc1hwc0(x, 16), x.shape, NC1HWC0)
        _, tw = _packed(npu, oihw_to_fractal_z(w, 16), w.shape, FRACTAL_Z)
        po, to = _packed(npu, np.zeros(nc1hwc0_shape((1, 20, 6, 6), 16), np.float16), (1, 20, 6, 6), NC1HWC0)
    else:
        _, tx = npu.to_device(x)
        _, tw = npu.to_device(w)
        po, to = npu.empty((1, 20, 6, 6), np.float16)
    ia = opsnn.aclCreateIntArray
    prep = opsnn.aclnnConvolutionGetWorkspaceSize(tx, tw, None, ia([1, 1]), ia([1, 1]), ia([1, 1]), False, None, 1,
                                                  to, 0)
    assert prep[2] == 0, opsnn.aclGetRecentErrMsg()
    first = len(runtime().kernel_records())
    npu.run(prep, opsnn.aclnnConvolution)
    names = [r["name"] for r in runtime().kernel_records(first)]
    got = npu.to_host(po, to.storage_shape, np.float16)
    got = nc1hwc0_to_nchw(got, 20) if packed else got
    return prep[1], names, got, conv2d_golden(x, w, None, (1, 1), (1, 1), (1, 1), 1)


def test_eager_convolution_pays_trans_data_around_the_cube_kernel(npu, rng):
    ex, names, got, ref = _conv(npu, rng, packed=False)
    assert names == ["TransData", "TransData", "Convolution", "TransData"]
    assert ex.info["trans_data"] == ["NCHW->NC1HWC0", "NCHW->FRACTAL_Z", "NC1HWC0->NCHW"]
    # the Cube's K runs over whole C0 slices: 5 channels padded to 16, times 3x3
    cube = next(k for k in ex.kernels if k.spec.name == "Convolution")
    assert cube.spec.args["gemm"]["k"] == 16 * 9
    # workspace: packed input 1*1*6*6*16, FRACTAL_Z 9*2*16*16, packed output 1*2*6*6*16, all fp16
    assert ex.workspace_size == (6 * 6 * 16 + 9 * 2 * 16 * 16 + 2 * 6 * 6 * 16) * 2
    assert rel_err(got, ref) < 1e-2


def test_packed_operands_run_the_cube_kernel_alone(npu, rng):
    ex, names, got, ref = _conv(npu, rng, packed=True)
    assert names == ["Convolution"] and ex.workspace_size == 0
    assert ex.info["formats"] == {"input": "NC1HWC0", "weight": "FRACTAL_Z", "output": "NC1HWC0"}
    assert rel_err(got, ref) < 1e-2
