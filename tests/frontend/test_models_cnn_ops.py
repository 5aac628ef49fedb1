"""Single CNN nodes beyond onnx's own node cases through the frontend runner (the
node-test harness: load_onnx -> ModelRunner on the tiny chip), against the float64
goldens of opsnn/conv and opsnn/pooling: 3-D Conv, ConvTranspose with output_shape /
auto_pad / groups / dilations, and the refusals with their reasons."""
from __future__ import annotations

import numpy as np
import pytest
from onnx import helper

from frontend import onnx_node_tests as nt
from opsnn.conv.convolution.golden import conv_nd_golden, conv_transpose_golden


def _case(node, inputs, outputs, opset=17):
    ins = [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
           for n, a in zip(node.input, inputs)]
    outs = [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
            for n, a in zip(node.output, outputs)]
    m = helper.make_model(helper.make_graph([node], "g", ins, outs), opset_imports=[helper.make_opsetid("", opset)])
    return nt.NodeCase("test_custom", node.op_type, m, inputs, outputs, 1e-4, 1e-5)


def _run(node, inputs, outputs):
    r = nt.run_case(_case(node, inputs, outputs))
    assert r.passed, r.reason
    return r


@pytest.fixture
def rng():
    return np.random.default_rng(7)


def test_conv_3d_asymmetric_pads_groups_bias(rng):
    x = rng.standard_normal((2, 4, 5, 6, 5)).astype(np.float32)
    w = rng.standard_normal((6, 2, 3, 2, 3)).astype(np.float32)
    b = rng.standard_normal(6).astype(np.float32)
    node = helper.make_node("Conv", ["x", "w", "b"], ["y"], strides=[2, 1, 2], pads=[1, 0, 1, 0, 1, 1],
                            dilations=[1, 2, 1], group=2)
    want = conv_nd_golden(x, w, b, (2, 1, 2), [(1, 0), (0, 1), (1, 1)], (1, 2, 1), 2).astype(np.float32)
    _run(node, [x, w, b], [want])


def test_conv_3d_same_upper(rng):
    x = rng.standard_normal((1, 3, 4, 5, 6)).astype(np.float32)
    w = rng.standard_normal((2, 3, 3, 3, 3)).astype(np.float32)
    node = helper.make_node("Conv", ["x", "w"], ["y"], auto_pad="SAME_UPPER", strides=[1, 2, 2])
    # SAME_UPPER: out = ceil(in / s); total pad = (out-1)*s + k - in, the odd one at the end
    want = conv_nd_golden(x, w, None, (1, 2, 2), [(1, 1), (1, 1), (0, 1)], (1, 1, 1), 1).astype(np.float32)
    _run(node, [x, w], [want])


def test_conv_transpose_output_shape_groups_dilations(rng):
    x = rng.standard_normal((1, 4, 3, 4)).astype(np.float32)
    w = rng.standard_normal((4, 3, 3, 2)).astype(np.float32)
    b = rng.standard_normal(6).astype(np.float32)
    # natural size: 2*(3-1) + 2*(3-1)+1 = 9 rows, 3*(4-1) + 1*(2-1)+1 = 11 cols; ask for 10 x 12
    node = helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"], strides=[2, 3], dilations=[2, 1], group=2,
                            output_shape=[10, 12])
    # total padding -1 per axis (NOTSET splits it begin = t - t//2 = 0, end = t//2 = -1): one more row/col
    want = conv_transpose_golden(x, w, b, (2, 3), [(0, 0), (0, 0)], (2, 1), (1, 1), 2).astype(np.float32)
    assert want.shape == (1, 6, 10, 12)
    _run(node, [x, w, b], [want])


def test_conv_transpose_3d_same_lower(rng):
    x = rng.standard_normal((1, 2, 2, 3, 2)).astype(np.float32)
    w = rng.standard_normal((2, 3, 3, 3, 2)).astype(np.float32)
    node = helper.make_node("ConvTranspose", ["x", "w"], ["y"], strides=[2, 2, 1], auto_pad="SAME_LOWER")
    # out = in*s = (4, 6, 2); total = s*(in-1) + k - out = (1, 1, 1): SAME_LOWER puts the odd one at the begin
    want = conv_transpose_golden(x, w, None, (2, 2, 1), [(1, 0), (1, 0), (1, 0)], (1, 1, 1), (0, 0, 0), 1)
    _run(node, [x, w], [want.astype(np.float32)])


def test_conv_transpose_1d_pads(rng):
    x = rng.standard_normal((2, 3, 6)).astype(np.float32)
    w = rng.standard_normal((3, 2, 4)).astype(np.float32)
    node = helper.make_node("ConvTranspose", ["x", "w"], ["y"], strides=[3], pads=[2, 1], output_padding=[2])
    want = conv_transpose_golden(x, w, None, (3,), [(2, 1)], (1,), (2,), 1).astype(np.float32)
    _run(node, [x, w], [want])


def test_conv_transpose_refusals():
    x = np.zeros((1, 2, 3, 3), np.float32)
    w = np.zeros((2, 1, 3, 3), np.float32)
    # output_shape 2 shorter than natural with NOTSET split: a negative leading pad is impossible here
    # so ask for a shape that needs more than one extra row: outputPadding must stay below the stride
    node = helper.make_node("ConvTranspose", ["x", "w"], ["y"], strides=[2, 2], output_shape=[12, 12])
    r = nt.run_case(_case(node, [x, w], [np.zeros((1, 1, 12, 12), np.float32)]))
    assert not r.passed and "leading pad" in r.reason
    node = helper.make_node("ConvTranspose", ["x", "w"], ["y"], strides=[2, 2], output_padding=[2, 0])
    r = nt.run_case(_case(node, [x, w], [np.zeros((1, 1, 9, 7), np.float32)]))
    assert r.status == "unsupported" and "outputPadding[0] = 2 must be smaller than stride 2" in r.reason


def test_maxpool_3d_with_indices(rng):
    from opsnn.pooling.pool3d.golden import max_pool3d_golden
    x = rng.standard_normal((2, 3, 5, 6, 4)).astype(np.float32)
    node = helper.make_node("MaxPool", ["x"], ["y", "i"], kernel_shape=[2, 3, 2], strides=[2, 2, 1],
                            pads=[1, 1, 0, 0, 1, 1])
    v, i = max_pool3d_golden(x, (2, 3, 2), (2, 2, 1), (1, 1, 1), (1, 1, 0, 0, 1, 1))
    planes = (np.arange(6).reshape(2, 3, 1, 1, 1) * 5 * 6 * 4)
    _run(node, [x], [v.astype(np.float32), (i + planes).astype(np.int64)])


@pytest.mark.parametrize("shape", [(2, 3, 7), (1, 2, 3, 4, 5), (2, 2, 9, 9)])
def test_global_maxpool_any_rank(rng, shape):
    """The operator text (max over every spatial axis), not onnx's reference, which
    reduces the wrong axes off 4-D (DESIGN.md section 9)."""
    x = rng.standard_normal(shape).astype(np.float32)
    want = x.max(axis=tuple(range(2, len(shape))), keepdims=True)
    _run(helper.make_node("GlobalMaxPool", ["x"], ["y"]), [x], [want])


def test_lppool_3d_asymmetric_pads(rng):
    from opsnn.pooling.lp_pool.golden import lp_pool_golden
    x = rng.standard_normal((1, 2, 4, 5, 6)).astype(np.float32)
    node = helper.make_node("LpPool", ["x"], ["y"], kernel_shape=[2, 2, 3], strides=[1, 2, 2], p=3,
                            pads=[1, 0, 2, 0, 1, 1])
    want = lp_pool_golden(x, (2, 2, 3), (1, 2, 2), (1, 1, 1), (1, 0, 2, 0, 1, 1), 3.0).astype(np.float32)
    _run(node, [x], [want])


def test_averagepool_3d_count_include_pad_ceil(rng):
    from opsnn.pooling.pool3d.golden import avg_pool3d_golden
    x = rng.standard_normal((1, 2, 5, 6, 7)).astype(np.float32)
    node = helper.make_node("AveragePool", ["x"], ["y"], kernel_shape=[3, 3, 2], strides=[2, 2, 2],
                            pads=[1, 1, 0, 1, 0, 1], ceil_mode=1, count_include_pad=1)
    want = avg_pool3d_golden(x, (3, 3, 2), (2, 2, 2), (1, 1, 0, 1, 0, 1), True, True).astype(np.float32)
    _run(node, [x], [want])


def test_averagepool_dilated_and_wide_pads_run_as_a_depthwise_conv(rng):
    """CANN's average pools take no dilations and pads up to half the kernel; the
    frontend runs such a node as a depthwise aclnnConvolution of ones and one aclnnMul
    (the divisor counts the taps inside the input, count_include_pad=0)."""
    x = rng.standard_normal((1, 2, 7, 8)).astype(np.float32)
    node = helper.make_node("AveragePool", ["x"], ["y"], kernel_shape=[3, 2], dilations=[2, 3], pads=[2, 0, 3, 2],
                            strides=[1, 2])
    xp = np.pad(x, ((0, 0), (0, 0), (2, 3), (0, 2)))
    valid = np.pad(np.ones_like(x), ((0, 0), (0, 0), (2, 3), (0, 2)))
    ho, wo = (7 + 5 - 5) // 1 + 1, (8 + 2 - 4) // 2 + 1
    s = np.zeros((1, 2, ho, wo), np.float64)
    cnt = np.zeros_like(s)
    for i in range(3):
        for j in range(2):
            s += xp[:, :, i * 2:i * 2 + ho, j * 3:j * 3 + 2 * (wo - 1) + 1:2]
            cnt += valid[:, :, i * 2:i * 2 + ho, j * 3:j * 3 + 2 * (wo - 1) + 1:2]
    _run(node, [x], [(s / cnt).astype(np.float32)])


def test_maxpool_pads_over_half_the_kernel_pad_explicitly(rng):
    x = rng.standard_normal((1, 2, 5, 6)).astype(np.float32)
    node = helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 3], pads=[1, 2, 1, 2])
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (2, 2)), constant_values=-np.inf)
    want = np.max([xp[:, :, i:i + 6, j:j + 8] for i in range(2) for j in range(3)], axis=0)
    _run(node, [x], [want])


def _summary_from_docs():
    """op -> OpSummary rebuilt from docs/onnx_node_tests.md's rows (kept current by
    tests/frontend/test_node_cases.py against a live run)."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    out = {}
    for line in (root / "docs" / "onnx_node_tests.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[1].isdigit() and cells[2].isdigit():
            s = nt.OpSummary(cells[0])
            p, t = int(cells[1]), int(cells[2])
            s.results = [nt.CaseResult("a", cells[0], "pass")] * p + [nt.CaseResult("b", cells[0], "error")] * (t - p)
            out[cells[0]] = s
    return root, out


def test_readme_table_matches_the_docs_table():
    """README's node-test block and total are what ``--readme README.md`` writes."""
    root, summary = _summary_from_docs()
    text = (root / "README.md").read_text()
    assert nt.update_readme(text, summary) == text, \
        "regenerate: python -m frontend.onnx_node_tests --markdown docs/onnx_node_tests.md --readme README.md"
    assert nt.readme_table(summary).count("\n") == 1 + -(-len(summary) // 6)


def test_update_readme_needs_its_markers():
    with pytest.raises(ValueError, match="node-test-table"):
        nt.update_readme("no table here", {})


def test_col2im_channels_strides_dilations_pads(rng):
    """Col2Im as a transposed convolution by one-hot weights: checked against the
    definition (each column entry added at its block offset) with N, C > 1."""
    n, c, image, block, st, dl, pads = 2, 3, (7, 8), (2, 3), (2, 1), (1, 2), (1, 0, 0, 1)
    grid = [(image[i] + pads[i] + pads[i + 2] - dl[i] * (block[i] - 1) - 1) // st[i] + 1 for i in range(2)]
    k = block[0] * block[1]
    x = rng.standard_normal((n, c * k, grid[0] * grid[1])).astype(np.float32)
    want = np.zeros((n, c, image[0] + pads[0] + pads[2], image[1] + pads[1] + pads[3]))
    for ch in range(c):
        for kk in range(k):
            a, b = divmod(kk, block[1])
            for g in range(grid[0] * grid[1]):
                gy, gx = divmod(g, grid[1])
                want[:, ch, gy * st[0] + a * dl[0], gx * st[1] + b * dl[1]] += x[:, ch * k + kk, g]
    want = want[:, :, pads[0]:pads[0] + image[0], pads[1]:pads[1] + image[1]].astype(np.float32)
    node = helper.make_node("Col2Im", ["x", "img", "blk"], ["y"], strides=list(st), dilations=list(dl),
                            pads=list(pads))
    case = _case(node, [x, np.array(image, np.int64), np.array(block, np.int64)], [want])
    case.op = "Col2Im"
    r = nt.run_case(case)
    assert r.passed, r.reason
