"""End to end through the ``npu-sim`` CLI: real ONNX models with random weights,
checked against the (corrected) onnx reference evaluator."""
from __future__ import annotations

import json

import numpy as np
import onnx
import pytest
from onnx import helper

from frontend.cli import light_model_path, main
from frontend.reference import reference_evaluator
from frontend.reweight import reweight_model
from traces import validate_trace


def _with_extra_output(model: onnx.ModelProto, op_type: str) -> onnx.ModelProto:
    """Expose the input of the first ``op_type`` node (e.g. the logits before the
    final Softmax) as an extra graph output, so a saturated softmax cannot hide errors."""
    node = next(n for n in model.graph.node if n.op_type == op_type)
    model.graph.output.append(helper.make_tensor_value_info(node.input[0], onnx.TensorProto.FLOAT, None))
    return model


@pytest.fixture(scope="module")
def resnet_case(tmp_path_factory):
    d = tmp_path_factory.mktemp("r50")
    model = _with_extra_output(reweight_model(onnx.load(light_model_path("light_resnet50.onnx")), seed=1), "Softmax")
    path = d / "r50.onnx"
    onnx.save(model, path)
    x = np.random.default_rng(5).random((1, 3, 224, 224), dtype=np.float32)
    np.savez(d / "img.npz", **{"gpu_0/data_0": x})
    return d, path, model, x


def _rel(got, ref):
    ref = np.asarray(ref, np.float64)
    return float(np.abs(np.asarray(got, np.float64) - ref).max() / np.abs(ref).max())


def test_resnet50_random_weights_matches_reference(resnet_case, capsys):
    """light ResNet-50 re-weighted at random, fed a random image through --inputs,
    matches the corrected reference evaluator to 1e-3 relative, logits included;
    the trace it writes is a valid Chrome trace."""
    d, path, model, x = resnet_case
    trace = d / "trace.json"
    rc = main(["run", str(path), "--inputs", str(d / "img.npz"), "--trace", str(trace),
               "--save-outputs", str(d / "out"), "--no-progress", "--no-check"])
    assert rc == 0, capsys.readouterr().out
    ref = reference_evaluator(model).run(None, {"gpu_0/data_0": x})
    names = [o.name for o in model.graph.output]
    for name, r in zip(names, ref):
        got = np.load(d / "out" / (name.replace("/", "_") + ".npy"))
        assert got.shape == r.shape
        assert _rel(got, r) < 1e-3, name
    counts = validate_trace(json.loads(trace.read_text()))
    assert counts  # validate_trace raises on a malformed or overlapping trace
    out = capsys.readouterr().out
    assert "simulated latency" in out and "Convolution" in out


def test_alexnet_random_weights_cli_check_passes(tmp_path, capsys):
    """light AlexNet (LRN, Dropout, three Gemms) re-weighted: the CLI's own check
    against the reference passes at 1e-3 and reports the error."""
    model = _with_extra_output(reweight_model(onnx.load(light_model_path("light_bvlc_alexnet.onnx")), seed=2),
                               "Softmax")
    path = tmp_path / "alex.onnx"
    onnx.save(model, path)
    np.savez(tmp_path / "img.npz", data_0=np.random.default_rng(6).random((1, 3, 224, 224), dtype=np.float32))
    rc = main(["run", str(path), "--inputs", str(tmp_path / "img.npz"), "--trace", "", "--no-progress"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "PASS" in out and "max rel err" in out


def test_default_run_is_resnet50_on_910b2(tmp_path, capsys):
    """`npu-sim run` with no model runs the onnx-shipped light ResNet-50 on ascend910b2."""
    rc = main(["run", "--no-progress", "--trace", str(tmp_path / "t.json"), "--no-check"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "light_resnet50.onnx on ascend910b2" in out
    assert (tmp_path / "t.json").exists()


def _tiny_model(tmp_path, op_type="TfIdfVectorizer"):
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)
    reps = helper.make_tensor("reps", onnx.TensorProto.INT64, [2], [1, 2])
    n = helper.make_node(op_type, ["x", "reps"], ["y"], name="my_tile")
    m = helper.make_model(helper.make_graph([n], "g", [x], [y], [reps]),
                          opset_imports=[helper.make_opsetid("", 13)])
    p = tmp_path / "m.onnx"
    onnx.save(m, p)
    return p


def test_unsupported_op_names_op_and_node(tmp_path, capsys):
    """An op the frontend cannot lower fails with exit code 2 and names op and node."""
    rc = main(["run", str(_tiny_model(tmp_path)), "--chip", "tiny", "--no-progress", "--trace", ""])
    c = capsys.readouterr()
    out = c.out + c.err   # errors go to stderr (issue 16)
    assert rc == 2
    assert "TfIdfVectorizer" in out and "my_tile" in out


@pytest.mark.parametrize("argv, needle", [
    (["run", "no_such_model.onnx"], "not found"),
    (["run", "--chip", "nope"], "unknown chip"),
])
def test_bad_arguments_are_clear_errors(argv, needle, capsys):
    """A missing model or unknown chip is a one-line error with exit code 2."""
    assert main(argv + ["--no-progress"]) == 2
    c = capsys.readouterr()
    assert needle in c.out + c.err   # errors go to stderr (issue 16)


def test_bad_inputs_shape_is_an_error(tmp_path, capsys):
    """Feeding an input of the wrong shape is reported, not a crash."""
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)
    m = helper.make_model(helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y]),
                          opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(m, tmp_path / "relu.onnx")
    np.savez(tmp_path / "bad.npz", x=np.zeros((3, 3), np.float32))
    rc = main(["run", str(tmp_path / "relu.onnx"), "--chip", "tiny", "--inputs", str(tmp_path / "bad.npz"),
               "--no-progress", "--trace", ""])
    assert rc == 1
    c = capsys.readouterr()
    assert "shape" in c.out + c.err


def test_chips_lists_presets(capsys):
    """`npu-sim chips` lists every preset with its peak figures."""
    assert main(["chips"]) == 0
    out = capsys.readouterr().out
    for name in ("ascend910b2", "ascend910b4", "ascend310p3", "tiny"):
        assert name in out
    from npu_sim import PRESETS
    row = next(line for line in out.splitlines() if "ascend310p3" in line)
    cells = [c.strip() for c in row.split("│")]
    # HBM GiB at two decimals at most (24e9 B = 22.35 GiB, not 22.3517)
    assert f"{round(PRESETS['ascend310p3'].hbm_bytes / 2**30, 2):g}" in cells


def test_summary_says_when_the_trace_replaced_a_file(tmp_path, capsys):
    """Every run writes npu_sim_trace.json by default: the second run's summary says it
    replaced the first's file (and the file is a valid trace of the second run)."""
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)
    m = helper.make_model(helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y]),
                          opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(m, tmp_path / "relu.onnx")
    trace = tmp_path / "t.json"
    outs = []
    for _ in range(2):
        assert main(["run", str(tmp_path / "relu.onnx"), "--chip", "tiny", "--no-progress",
                     "--trace", str(trace)]) == 0
        outs.append(capsys.readouterr().out)
    assert "replaced the previous file" not in outs[0]
    assert "replaced the previous file" in outs[1]
    assert validate_trace(json.loads(trace.read_text()))["spans"] > 0   # raises TraceFormatError if invalid
