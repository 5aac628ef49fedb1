"""CLI user errors are one line with a clear exit code, found before the long run."""
from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import helper

from frontend.cli import main, rel_error
from frontend.reweight import reweight_model
from frontend.cli import light_model_path


@pytest.fixture
def relu_model(tmp_path):
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [4])
    y = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)
    m = helper.make_model(helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y]),
                          opset_imports=[helper.make_opsetid("", 13)])
    p = tmp_path / "relu.onnx"
    onnx.save(m, p)
    return p


def _run(argv, capsys):
    rc = main(argv)
    c = capsys.readouterr()
    return rc, c.out + c.err   # errors go to stderr (issue 16)


def test_trace_into_missing_directory(relu_model, tmp_path, capsys):
    """--trace into a directory that does not exist fails up front with exit 2."""
    rc, out = _run(["run", str(relu_model), "--chip", "tiny", "--no-progress", "--trace",
                    str(tmp_path / "nodir" / "t.json")], capsys)
    assert rc == 2 and "does not exist" in out


def test_save_outputs_onto_a_file(relu_model, tmp_path, capsys):
    """--save-outputs naming an existing file is refused before running."""
    f = tmp_path / "afile"
    f.write_text("x")
    rc, out = _run(["run", str(relu_model), "--chip", "tiny", "--no-progress", "--trace", "",
                    "--save-outputs", str(f)], capsys)
    assert rc == 2 and "afile" in out


def test_unknown_input_name(relu_model, tmp_path, capsys):
    """An --inputs name the model does not have is an error naming the real inputs."""
    np.savez(tmp_path / "in.npz", nope=np.zeros(4, np.float32))
    rc, out = _run(["run", str(relu_model), "--chip", "tiny", "--no-progress", "--trace", "",
                    "--inputs", str(tmp_path / "in.npz")], capsys)
    assert rc == 2 and "nope" in out and "it takes x" in out


def test_nan_inputs_are_not_finite_and_fail(relu_model, tmp_path, capsys):
    """NaN in the outputs is reported as "not finite" and never passes (issue 16: a
    check where the reference or the result is not finite must not pass); the exit
    code follows the printed verdict and the outputs are still saved."""
    np.savez(tmp_path / "in.npz", x=np.array([np.nan, 1, -2, 3], np.float32))
    rc, out = _run(["run", str(relu_model), "--chip", "tiny", "--no-progress", "--trace", "",
                    "--inputs", str(tmp_path / "in.npz"), "--save-outputs", str(tmp_path / "o")], capsys)
    assert rc == 1, out
    assert "not finite" in out and "PASS" not in out
    got = np.load(tmp_path / "o" / "y.npy")
    assert np.isnan(got[0]) and list(got[1:]) == [1, 0, 3]


def test_wrong_input_dtype(relu_model, tmp_path, capsys):
    """String data for a float input is refused, naming the input."""
    np.savez(tmp_path / "in.npz", x=np.array(["a", "b", "c", "d"]))
    rc, out = _run(["run", str(relu_model), "--chip", "tiny", "--no-progress", "--trace", "",
                    "--inputs", str(tmp_path / "in.npz")], capsys)
    assert rc == 1 and "'x'" in out


def test_negative_seed_is_a_usage_error(relu_model):
    """argparse rejects --seed -1 (exit 2) instead of a numpy traceback."""
    with pytest.raises(SystemExit) as e:
        main(["run", str(relu_model), "--seed", "-1"])
    assert e.value.code == 2


def test_empty_file_is_not_a_model(tmp_path, capsys):
    """A zero-byte .onnx is reported, not run."""
    p = tmp_path / "empty.onnx"
    p.write_bytes(b"")
    rc, out = _run(["run", str(p), "--no-progress", "--trace", ""], capsys)
    assert rc == 2 and "no graph outputs" in out


def test_info_lists_inputs_and_support(capsys):
    """`npu-sim info` names the inputs to feed and whether each op is supported."""
    rc, out = _run(["info", "light_resnet50"], capsys)
    assert rc == 0
    assert "gpu_0/data_0" in out and "[1, 3, 224, 224]" in out and "Conv" in out


def test_reweighted_model_passes_the_checker():
    """`reweight` keeps IR-3 models valid (initializers listed as graph inputs)."""
    m = reweight_model(onnx.load(light_model_path("light_bvlc_alexnet.onnx")), seed=0)
    onnx.checker.check_model(m)


@pytest.mark.parametrize("got, ref, expected", [
    ([1.0, 2.0], [1.0, 2.0], 0.0),
    ([1.0, 2.5], [1.0, 2.0], 0.25),
    ([np.nan, 1.0], [np.nan, 1.0], 0.0),
    ([np.nan, 1.0], [0.0, 1.0], float("inf")),
    ([np.inf, 1.0], [np.inf, 1.0], 0.0),
    ([], [], 0.0),
])
def test_rel_error(got, ref, expected):
    """The check's error: max abs diff over max abs reference; NaN/inf aware."""
    assert rel_error(np.array(got), np.array(ref)) == pytest.approx(expected)


def test_weight_override_reaches_simulator_and_reference(tmp_path, capsys):
    """An --inputs array named like an initializer (not a graph input, IR >= 4)
    replaces that weight in the simulated run and in the reference alike."""
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)
    w = onnx.numpy_helper.from_array(np.ones((3, 4), np.float32), "w")
    m = helper.make_model(helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"])], "g", [x], [y], [w]),
                          opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(m, tmp_path / "mm.onnx")
    xv = np.arange(6, dtype=np.float32).reshape(2, 3)
    wv = np.arange(12, dtype=np.float32).reshape(3, 4) - 5
    np.savez(tmp_path / "in.npz", x=xv, w=wv)
    rc = main(["run", str(tmp_path / "mm.onnx"), "--chip", "tiny", "--inputs", str(tmp_path / "in.npz"),
               "--no-progress", "--trace", "", "--save-outputs", str(tmp_path / "o")])
    assert rc == 0, capsys.readouterr().out
    np.testing.assert_allclose(np.load(tmp_path / "o" / "y.npy"), xv.astype(np.float64) @ wv, rtol=1e-6)
