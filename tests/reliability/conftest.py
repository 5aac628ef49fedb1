"""Helpers for the reliability tests: tiny ONNX models and running ``npu-sim`` in process."""
from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper


def relu_model(path, shape=(2, 3), declare_shape: bool = True, elem=TensorProto.FLOAT):
    """A one-node model y = Relu(x) saved at ``path``; returns the path."""
    x = helper.make_tensor_value_info("x", elem, list(shape) if declare_shape else None)
    y = helper.make_tensor_value_info("y", elem, list(shape) if declare_shape else None)
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, str(path))
    return path


@pytest.fixture
def run_cli(capsys):
    """``run_cli(*argv) -> (exit code, stdout, stderr)`` of ``npu-sim`` in this process."""
    from frontend.cli import main

    def run(*argv):
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err
    return run


@pytest.fixture
def relu(tmp_path):
    return relu_model(tmp_path / "relu.onnx")


def call_main(main, argv, capsys) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of a CLI ``main(argv)`` run in process (argparse's
    SystemExit gives its code)."""
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def assert_binding_refuses(name, ret) -> None:
    """A binding call refused cleanly: a non-zero int status (the last item of a
    tuple) and a recent-error message."""
    from acl_runtime import acl
    status = ret[-1] if isinstance(ret, tuple) else ret
    assert isinstance(status, int) and status != 0, (name, ret)
    assert acl.get_recent_err_msg(), name


def assert_pythonic_refuses(name, call) -> None:
    """``call(session)`` on a fresh tiny Session raises an ``AclRuntimeError`` with a message."""
    from acl_runtime import Session
    from acl_runtime.errors import AclRuntimeError
    with Session("tiny") as s:
        with pytest.raises(AclRuntimeError) as e:
            call(s)
        assert str(e.value), name


__all__ = ["relu_model", "np", "call_main", "assert_binding_refuses", "assert_pythonic_refuses"]
