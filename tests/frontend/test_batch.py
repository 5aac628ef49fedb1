"""``--batch`` / ``--dim`` (frontend/batch.py): a rebatched model computes, per sample,
what the original computes (onnx's ReferenceEvaluator on the original model, one
sample at a time, is the reference); Reshapes that hold the batch are rewritten, and
models whose batch is not only the leading dim are refused, not run wrongly."""
from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from frontend.batch import RebatchError, pin_dims, rebatch
from frontend.cli import main

_RNG = np.random.default_rng(0)


def _cnn(reshape_to=(1, -1), tail=None) -> onnx.ModelProto:
    """x [1, 3, 8, 8] -> Conv 4x3x3x3 -> Relu -> Reshape(reshape_to) -> MatMul [144, 5]
    (or ``tail`` nodes after the Reshape)."""
    w = numpy_helper.from_array(_RNG.standard_normal((4, 3, 3, 3)).astype(np.float32), "w")
    fc = numpy_helper.from_array(_RNG.standard_normal((144, 5)).astype(np.float32), "fc")
    shp = numpy_helper.from_array(np.array(reshape_to, np.int64), "shp")
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"]), helper.make_node("Relu", ["c"], ["r"]),
             helper.make_node("Reshape", ["r", "shp"], ["f"], name="flatten")]
    nodes += tail if tail is not None else [helper.make_node("MatMul", ["f", "fc"], ["y"])]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [w, fc, shp])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def test_rebatch_matches_per_sample_reference():
    m = _cnn()
    m3, rewritten = rebatch(m, 3)
    assert rewritten == ["flatten"]
    assert [d.dim_value for d in m3.graph.input[0].type.tensor_type.shape.dim] == [3, 3, 8, 8]
    x = _RNG.standard_normal((3, 3, 8, 8)).astype(np.float32)
    got = ReferenceEvaluator(m3).run(None, {"x": x})[0]
    ref = ReferenceEvaluator(m)
    want = np.concatenate([ref.run(None, {"x": x[i:i + 1]})[0] for i in range(3)])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    # the original model is left as it was
    assert [d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim] == [1, 3, 8, 8]


def test_rebatch_same_batch_is_a_copy():
    m = _cnn()
    m1, rewritten = rebatch(m, 1)
    assert rewritten == [] and m1.SerializeToString() == m.SerializeToString()


def test_batch_folded_into_another_axis_is_refused():
    # Reshape to [4, 36] folds the (batch 1) leading dim with channels: not the batch alone
    m = _cnn(reshape_to=(4, 36), tail=[helper.make_node("Identity", ["f"], ["y"])])
    with pytest.raises(RebatchError, match="batch"):
        rebatch(m, 2)


def test_batch_moved_off_the_leading_axis_is_refused():
    m = _cnn(tail=[helper.make_node("Transpose", ["f"], ["y"], perm=[1, 0])])
    with pytest.raises(RebatchError, match="not only the leading dim"):
        rebatch(m, 2)


@pytest.mark.parametrize("bad", [0, -1, 1.5])
def test_bad_batch_values(bad):
    with pytest.raises(RebatchError, match="positive integer"):
        rebatch(_cnn(), bad)


def _dynamic() -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq"])
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def test_pin_dims_and_its_errors():
    m = pin_dims(_dynamic(), {"batch": 2, "seq": 5})
    assert [d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim] == [2, 5]
    with pytest.raises(RebatchError, match="batch, seq"):
        pin_dims(_dynamic(), {"sequence": 5})
    with pytest.raises(RebatchError, match="positive"):
        pin_dims(_dynamic(), {"batch": 0})
    with pytest.raises(RebatchError, match="--dim batch=2"):
        rebatch(_dynamic(), 2)   # a dynamic batch is pinned, not rebatched


def test_shape_model_refuses_a_batch_that_overrides_a_dim_pin():
    """shape_model is what npu-sim sweep's points call (frontend/sweep/point.py): a batch
    that disagrees with the pin of the same leading dim is refused, an equal one is kept."""
    from frontend.batch import shape_model
    with pytest.raises(RebatchError, match="batch 4 and dim batch=2 .*input 'x'"):
        shape_model(_dynamic(), 4, {"batch": 2, "seq": 5})
    m, _ = shape_model(_dynamic(), 2, {"batch": 2, "seq": 5})
    assert [d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim] == [2, 5]


def test_cli_batch_runs_and_checks(tmp_path, capsys):
    p = tmp_path / "cnn.onnx"
    onnx.save(_cnn(), p)
    rc = main(["run", str(p), "--chip", "tiny", "--no-progress", "--trace", "", "--batch", "2"])
    out = capsys.readouterr().out
    assert rc == 0 and "rewrote the batch in 1 Reshape" in out and "PASS" in out


def test_cli_dim_errors_are_one_line(tmp_path, capsys):
    p = tmp_path / "dyn.onnx"
    onnx.save(_dynamic(), p)
    assert main(["run", str(p), "--chip", "tiny", "--no-progress", "--dim", "seq"]) == 2
    assert main(["run", str(p), "--chip", "tiny", "--no-progress", "--dim", "nope=3"]) == 2
    err = capsys.readouterr().err
    assert "NAME=VALUE" in err and "no input has a dim named 'nope'" in err and "Traceback" not in err
    assert main(["run", str(p), "--chip", "tiny", "--no-progress", "--trace", "", "--dim", "batch=2",
                 "--dim", "seq=3"]) == 0
    out = capsys.readouterr().out
    assert "--dim batch=2 --dim seq=3" in out   # the summary's inputs row says how they were shaped
    assert main(["run", str(p), "--chip", "tiny", "--no-progress", "--dim", "batch=2", "--dim", "batch=3"]) == 2
    err = capsys.readouterr().err
    assert "--dim batch given twice, as 2 and 3" in err and "Traceback" not in err


def test_summary_lists_the_inputs_and_the_batch(tmp_path, capsys):
    p = tmp_path / "cnn.onnx"
    onnx.save(_cnn(), p)
    assert main(["run", str(p), "--chip", "tiny", "--no-progress", "--trace", "", "--batch", "4",
                 "--timing-only"]) == 0
    assert "x 4x3x8x8 float32  (--batch 4)" in capsys.readouterr().out


def test_out_of_device_memory_is_said_against_the_chips_hbm(tmp_path, capsys):
    """A batch whose input fits the tiny chip's HBM (256 MiB) but whose input and conv
    output together do not: one line in MiB, naming the chip and what to change, with
    the ACL status kept."""
    p = tmp_path / "cnn.onnx"
    onnx.save(_cnn(), p)
    batch = int(0.9 * 2**28) // (3 * 8 * 8 * 4)   # 230 MiB of input, 173 MiB of conv output
    assert main(["run", str(p), "--chip", "tiny", "--no-progress", "--trace", "", "--batch", str(batch),
                 "--timing-only"]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "does not fit in chip tiny's 256.0 MiB of HBM" in err and "207001" in err
    assert "smaller batch" in err and "Traceback" not in err


def test_sweep_model_workload_batch(tmp_path):
    """A sweep's model workload with ``batch`` runs the rebatched model: the point's
    batch is the new one, and throughput = batch / simulated latency."""
    from npu_sim import get_chip
    from frontend.batch import RebatchError
    from frontend.sweep.experiment import ModelWorkload
    from frontend.sweep.point import run_point
    p = tmp_path / "cnn.onnx"
    onnx.save(_cnn(), p)
    chip = get_chip("tiny").model_dump(mode="json")
    r1 = run_point(chip, {"model": str(p)})
    r3 = run_point(chip, {"model": str(p), "batch": 3})
    assert r3["throughput_per_s"] == pytest.approx(3 / (r3["latency_ns"] * 1e-9))
    assert r1["throughput_per_s"] == pytest.approx(1 / (r1["latency_ns"] * 1e-9))
    assert ModelWorkload(model=str(p), batch=3).label == "cnn[B3]"
    assert ModelWorkload(model=str(p), batch=100_000).batch == 100_000   # no cap, as npu-sim run --batch
    d = tmp_path / "dyn.onnx"
    onnx.save(_dynamic(), d)
    with pytest.raises(RebatchError, match="--dim batch=2"):
        run_point(chip, {"model": str(d), "batch": 2})
