"""aclnnQuantConvolution on 910B2 runs a compute-bound convolution close to twice as
fast as aclnnConvolution in fp16: the same implicit GEMM on the Cube at the int8 rate
(16x32x16 MACs a cycle, the chip config's ``cube_int8_macs_per_cycle``) against fp16's
16x16x16, with half the operand bytes. At [4, 256, 56, 56] x [256, 256, 3, 3] (7.4 GMAC)
it measures 49.3 us in fp16 against 26.9 us in int8 (1.84x)."""
import numpy as np

import opsnn
from benchmarks.roofline import _time

IA = opsnn.aclCreateIntArray
X, W = (4, 256, 56, 56), (256, 256, 3, 3)
GEO = (IA([1, 1]), IA([1, 1]), IA([1, 1]))


def test_int8_convolution_near_twice_the_fp16_rate(npu910):
    # the fp16 operands already packed (NC1HWC0 / FRACTAL_Z, C0 = 16; 256 channels need no padding), so its
    # executor is the Cube kernel alone, as aclnnQuantConvolution's (which takes NCHW without TransData kernels)
    f16 = opsnn.aclDataType.ACL_FLOAT16
    px, _ = npu910.to_device(np.ones((4, 16, 56, 56, 16), np.float16))
    pw, _ = npu910.to_device(np.ones((16 * 9, 16, 16, 16), np.float16))
    po, _ = npu910.to_device(np.zeros((4, 16, 56, 56, 16), np.float16))
    xh = opsnn.aclCreateTensor(X, f16, None, 0, 3, (4, 16, 56, 56, 16), px)
    wh = opsnn.aclCreateTensor(W, f16, None, 0, 4, (16 * 9, 16, 16, 16), pw)
    oh = opsnn.aclCreateTensor((4, 256, 56, 56), f16, None, 0, 3, (4, 16, 56, 56, 16), po)
    fp16_s, _ = _time(opsnn.aclnnConvolutionGetWorkspaceSize(xh, wh, None, *GEO, False, IA([0, 0]), 1, oh, 0),
                      opsnn.aclnnConvolution, 1)
    _, xq = npu910.to_device(np.ones(X, np.int8))
    _, wq = npu910.to_device(np.ones(W, np.int8))
    _, sc = npu910.to_device(np.full(1, 0.5, np.float32))
    _, oq = npu910.empty((4, 256, 56, 56), np.float16)
    int8_s, _ = _time(opsnn.aclnnQuantConvolutionGetWorkspaceSize(xq, wq, None, sc, None, *GEO, False, None, 1, 0,
                                                                   "rint", oq), opsnn.aclnnQuantConvolution, 1)
    assert 1.6 < fp16_s / int8_s < 2.05, (fp16_s, int8_s)
