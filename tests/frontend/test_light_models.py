"""The light models that the onnx package ships, re-weighted at random and fed a random
image, through ``npu-sim run`` on ascend910b2: the CLI's own check against the
corrected onnx reference evaluator passes at 1e-3, pre-softmax logits included (the
Softmax input is added as an extra graph output, so a saturated softmax cannot hide
an error; the CLI's error is the maximum over every output).

Most of the time goes to the onnx reference evaluator (its Conv is slow: 7 of the
9 s of Inception-v1), so by default only the fast models run; set
``NPU_SIM_SLOW_MODELS=1`` to run all of them. ResNet-50 and AlexNet are covered by
tests/frontend/test_cli_models.py.
"""
from __future__ import annotations

import os
import re

import numpy as np
import onnx
import pytest
from onnx import helper

from frontend.cli import light_model_path, light_models, main
from frontend.onnx_import import load_onnx
from frontend.reweight import reweight_model

#: fast enough for every run (a few seconds each, mostly the reference evaluator)
FAST = ["light_squeezenet", "light_shufflenet"]
#: 5 to 20 s each on 2 cores (docstring); run with NPU_SIM_SLOW_MODELS=1
SLOW = ["light_zfnet512", "light_inception_v1", "light_densenet121", "light_inception_v2", "light_vgg19"]
#: run by tests/frontend/test_cli_models.py
ELSEWHERE = ["light_resnet50", "light_bvlc_alexnet"]

RUN_SLOW = os.environ.get("NPU_SIM_SLOW_MODELS", "") not in ("", "0")


def _case(name: str, d, seed: int):
    model = reweight_model(onnx.load(str(light_model_path(name + ".onnx"))), seed=seed)
    softmax = [n for n in model.graph.node if n.op_type == "Softmax"]
    if softmax:
        model.graph.output.append(helper.make_tensor_value_info(softmax[0].input[0], onnx.TensorProto.FLOAT, None))
    path = d / f"{name}.onnx"
    onnx.save(model, path)
    (iname, (shape, dtype)), = load_onnx(model).inputs.items()
    np.savez(d / "img.npz", **{iname: np.random.default_rng(seed).random(shape).astype(dtype)})
    return path, len(model.graph.output)


def test_every_shipped_light_model_is_covered():
    """A light model added by a newer onnx shows up here instead of going untested."""
    assert set(light_models()) <= set(FAST + SLOW + ELSEWHERE)


@pytest.mark.parametrize("name", FAST + [pytest.param(n, marks=pytest.mark.skipif(
    not RUN_SLOW, reason="slow (reference evaluator); set NPU_SIM_SLOW_MODELS=1")) for n in SLOW])
def test_light_model_random_weights_cli_check_passes(name, tmp_path, capsys):
    if name not in light_models():
        pytest.skip(f"{name} is not shipped by the installed onnx")
    path, n_out = _case(name, tmp_path, seed=3)
    rc = main(["run", str(path), "--inputs", str(tmp_path / "img.npz"), "--no-progress", "--trace", "",
               "--chip", "ascend910b2"])
    out = capsys.readouterr().out
    assert rc == 0, out
    m = re.search(r"max rel err ([0-9.e+-]+) \(PASS at 1e-03\)", out)
    assert m, out
    assert float(m.group(1)) < 1e-3
    if name != "light_densenet121":  # every other light model ends in Softmax: logits are checked too
        assert n_out == 2
