"""The graph-mode aclnn entry points directly: FixPipe's epilogue adds no time to the
cube program (the FIXPIPE stage is the one of the plain kernel), the member ops reach
the kernel args, and bad arguments are 161002."""
from __future__ import annotations

import numpy as np

import opsnn

ia = opsnn.aclCreateIntArray


def _conv_args(npu, rng):
    x = npu.to_device(rng.standard_normal((1, 8, 10, 10)).astype(np.float32))
    w = npu.to_device(rng.standard_normal((16, 8, 3, 3)).astype(np.float32))
    b = npu.to_device(rng.standard_normal(16).astype(np.float32))
    y = npu.empty((1, 16, 10, 10), np.float32)
    return x, w, b, y


def test_fused_convolution_relu_has_the_plain_stages_and_names_its_members(npu, rng):
    x, w, b, y = _conv_args(npu, rng)
    geo = (ia([1, 1]), ia([1, 1]), ia([1, 1]), False, ia([0, 0]), 1)
    _, plain, ret = opsnn.aclnnConvolutionGetWorkspaceSize(x[1], w[1], b[1], *geo, y[1], 0)
    assert ret == 0
    prep = opsnn.aclnnFusedConvolutionGetWorkspaceSize(x[1], w[1], b[1], *geo, "relu", 0.0, 0.0,
                                                       ("Conv", "BatchNormalization", "Relu"), y[1], 0)
    assert prep[2] == 0, opsnn.aclGetRecentErrMsg()
    ps, fs = (next(k.spec for k in e.kernels if k.spec.name.endswith("Convolution")) for e in (plain, prep[1]))
    assert fs.blocks == ps.blocks and fs.buffers == ps.buffers
    assert fs.args["epilogue"] == ["relu"] and fs.args["fused"] == ["Conv", "BatchNormalization", "Relu"]
    npu.run(prep, opsnn.aclnnFusedConvolution)
    xs, ws, bs = (npu.to_host(p, t.view_shape, np.float32) for p, t in (x, w, b))
    got = npu.to_host(y[0], (1, 16, 10, 10), np.float32)
    from opsnn.conv.convolution.kernel import conv2d_nchw
    ref = np.maximum(conv2d_nchw(xs, ws, (1, 1), (1, 1, 1, 1), (1, 1), 1, bs), 0)
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)


def test_unknown_activation_is_161002(npu, rng):
    x, w, b, y = _conv_args(npu, rng)
    _, ex, ret = opsnn.aclnnFusedConvolutionGetWorkspaceSize(x[1], w[1], b[1], ia([1, 1]), ia([1, 1]), ia([1, 1]),
                                                             False, ia([0, 0]), 1, "gelu", 0.0, 0.0, (), y[1], 0)
    assert ret == 161002 and ex is None
    a = npu.to_device(rng.standard_normal((4, 8)).astype(np.float32))
    m = npu.to_device(rng.standard_normal((8, 6)).astype(np.float32))
    bad_bias = npu.to_device(rng.standard_normal(5).astype(np.float32))
    o = npu.empty((4, 6), np.float32)
    assert opsnn.aclnnFusedMatmulGetWorkspaceSize(a[1], m[1], bad_bias[1], "relu", 0.0, 0.0, (), o[1])[2] == 161002
    assert opsnn.aclnnFusedMatmulGetWorkspaceSize(a[1], m[1], None, "tanh", 0.0, 0.0, (), o[1])[2] == 161002


def test_fused_matmul_bias_rides_in_the_bias_table(npu, rng):
    a = npu.to_device(rng.standard_normal((32, 64)).astype(np.float32))
    m = npu.to_device(rng.standard_normal((64, 48)).astype(np.float32))
    bias = npu.to_device(rng.standard_normal(48).astype(np.float32))
    o = npu.empty((32, 48), np.float32)
    prep = opsnn.aclnnFusedMatmulGetWorkspaceSize(a[1], m[1], bias[1], "clip", 0.0, 6.0, ("MatMul", "Add", "Clip"),
                                                  o[1])
    assert prep[2] == 0, opsnn.aclGetRecentErrMsg()
    spec = prep[1].kernels[0].spec
    assert spec.args["epilogue"] == ["clip"] and any("BT" in str(k) for k in spec.buffers)
    npu.run(prep, opsnn.aclnnFusedMatmul)
    ah, mh, bh = (npu.to_host(p, t.view_shape, np.float32) for p, t in (a, m, bias))
    np.testing.assert_allclose(npu.to_host(o[0], (32, 48), np.float32), np.clip(ah @ mh + bh, 0, 6), rtol=1e-5,
                               atol=1e-5)


def test_fused_elementwise_refuses_mixed_dtypes_and_bad_steps(npu, rng):
    a = npu.to_device(rng.standard_normal((4, 8)).astype(np.float32))
    h = npu.to_device(rng.standard_normal((4, 8)).astype(np.float16))
    o = npu.empty((4, 8), np.float32)
    add = (("Add", (0, 1), ()),)
    assert opsnn.aclnnFusedElementwiseGetWorkspaceSize([a[1], h[1]], add, (), o[1])[2] == 161002
    assert opsnn.aclnnFusedElementwiseGetWorkspaceSize([a[1]], (("Add", (0, 3), ()),), (), o[1])[2] == 161002
    assert opsnn.aclnnFusedElementwiseGetWorkspaceSize([a[1]], (("Tanh", (0,), ()),), (), o[1])[2] == 161002
    prep = opsnn.aclnnFusedElementwiseGetWorkspaceSize([a[1], a[1]], add + (("Relu", (2,), ()),), ("Add", "Relu"),
                                                       o[1])
    npu.run(prep, opsnn.aclnnFusedElementwise)
    ah = npu.to_host(a[0], (4, 8), np.float32)
    np.testing.assert_array_equal(npu.to_host(o[0], (4, 8), np.float32), np.maximum(ah + ah, 0))


def test_fused_gelu_chain_matches_the_float64_golden(npu, rng):
    from opsnn.math.fused_elementwise.golden import fused_elementwise_golden
    x = rng.standard_normal((3, 40)).astype(np.float32)
    consts = [np.float32(1.41421), np.float32(1.0), np.float32(0.5)]
    ins = [npu.to_device(a) for a in [x] + [np.asarray(c) for c in consts]]
    o = npu.empty((3, 40), np.float32)
    steps = (("Div", (0, 1), ()), ("Erf", (4,), ()), ("Add", (5, 2), ()), ("Mul", (0, 6), ()), ("Mul", (7, 3), ()))
    prep = opsnn.aclnnFusedElementwiseGetWorkspaceSize([t for _, t in ins], steps, (), o[1])
    assert prep[2] == 0, opsnn.aclGetRecentErrMsg()
    assert prep[1].kernels[0].spec.args["live_tiles"] == 1 + 2 + 1   # x streamed, 2 rows, out (constants resident)
    npu.run(prep, opsnn.aclnnFusedElementwise)
    ref = fused_elementwise_golden([x] + consts, steps)
    np.testing.assert_allclose(npu.to_host(o[0], (3, 40), np.float32), ref, rtol=1e-6, atol=1e-6)
