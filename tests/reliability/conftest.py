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


__all__ = ["relu_model", "np"]
