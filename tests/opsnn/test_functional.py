"""The Pythonic op layer generated from OpDefs: one function per aclnn entry point,
names and signatures derived mechanically, numbers checked against float64 goldens,
errors as typed exceptions carrying the status code."""
import inspect

import numpy as np
import pytest

import opsnn
from acl_runtime import Session
from acl_runtime.api import InvalidParamError, NotInitializedError
from opsnn import OpError
from opsnn.activation.softmax.golden import softmax_golden
from opsnn.base.op_def import OUTPUT, snake_case
from opsnn.functional import FUNCTIONS, all_op_defs
from tests.conftest import rel_err


@pytest.mark.parametrize("cann,snake", [("RmsNorm", "rms_norm"), ("BatchMatMul", "batch_mat_mul"),
                                        ("AdaptiveAvgPool2d", "adaptive_avg_pool2d"),
                                        ("normalizedShape", "normalized_shape"), ("SWhere", "s_where"),
                                        ("InplaceAdds", "inplace_adds"), ("LayerNorm", "layer_norm")])
def test_snake_case_is_mechanical(cann, snake):
    assert snake_case(cann) == snake


def test_every_op_def_gives_one_function_with_the_cann_parameter_order():
    defs = all_op_defs()
    assert defs and len({d.name for d in defs}) == len(defs)
    for d in defs:
        fn = FUNCTIONS[d.name]
        assert getattr(opsnn, d.name) is fn and fn.op_def is d
        names = [p.py_name for p in d.params if p.role != OUTPUT]
        sig = list(inspect.signature(fn).parameters)
        assert [n.rstrip("_") for n in sig[:-1]] == names and sig[-1] == "stream"
        # the entry points it wraps are the exported aclnn ones
        assert getattr(opsnn, f"aclnn{d.op_type}GetWorkspaceSize") is d.get_workspace_size
        assert getattr(opsnn, f"aclnn{d.op_type}") is d.launch


def test_softmax_numbers_and_cache(rng):
    x = rng.standard_normal((6, 9)).astype(np.float32)
    with Session(chip="tiny"):
        before = opsnn.executor_cache_stats()
        y1 = opsnn.softmax(x, 1)
        y2 = opsnn.softmax(x, dim=1)
        after = opsnn.executor_cache_stats()
        assert rel_err(y1.numpy(), softmax_golden(x, 1)) < 1e-5
        assert np.array_equal(y1.numpy(), y2.numpy())
    assert after["hits"] >= before["hits"] + 1 or not after["enabled"]


def test_errors_are_typed_with_codes(rng):
    x = rng.standard_normal((2, 3)).astype(np.float32)
    with pytest.raises(NotInitializedError):
        opsnn.softmax(x, 0)
    with Session(chip="tiny"):
        with pytest.raises(OpError) as e:
            opsnn.softmax(x, 7)
        assert e.value.code == 161002 and "dim 7" in str(e.value)
        with pytest.raises(OpError) as e:
            opsnn.softmax(x.astype(np.int32), 0)
        assert e.value.code == 161002
        with pytest.raises(InvalidParamError):
            opsnn.softmax(x)                       # dim is required (CANN has no default)
        with pytest.raises(InvalidParamError):
            opsnn.softmax(np.array(["a", "b"]), 0)


def test_signature_with_a_required_parameter_after_a_default():
    # CANN prototypes interleave optional tensors and required attributes
    from opsnn.base.op_def import ATTR, ATTRIBUTE, INPUT, OpDef, Param
    from opsnn.functional import make_function
    d = OpDef("Fake", (Param("self", INPUT), Param("weightOptional", INPUT, optional=True),
                       Param("eps", ATTRIBUTE, ATTR), Param("mode", ATTRIBUTE, ATTR, default=0),
                       Param("out", "output")),
              infer=lambda **k: [], get_workspace_size=opsnn.aclnnSoftmaxGetWorkspaceSize,
              launch=opsnn.aclnnSoftmax)
    sig = inspect.signature(make_function(d))
    kinds = {n: p.kind for n, p in sig.parameters.items()}
    assert kinds["self"] == kinds["weight"] == inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert kinds["eps"] == kinds["mode"] == kinds["stream"] == inspect.Parameter.KEYWORD_ONLY
    assert sig.parameters["mode"].default == 0 and sig.parameters["weight"].default is None


def test_bfloat16_numpy_arrays_go_in_and_structured_ones_are_refused(rng):
    """ml_dtypes' bfloat16 reports numpy kind "V"; it is a tensor dtype (ACL_BF16), a
    structured dtype is not."""
    import ml_dtypes
    x = rng.standard_normal((3, 5)).astype(ml_dtypes.bfloat16)
    with Session(chip="tiny"):
        y = opsnn.add(x, x, 1.0)
        assert y.numpy().dtype == ml_dtypes.bfloat16
        want = (2 * x.astype(np.float64)).astype(ml_dtypes.bfloat16)   # x + x is exact in bf16 before rounding
        assert np.array_equal(y.numpy().astype(np.float64), want.astype(np.float64))
        with pytest.raises(InvalidParamError, match="not a tensor dtype"):
            opsnn.add(np.zeros(3, dtype=[("a", "i4")]), x, 1.0)


def test_optional_outputs_allocated_when_inferred_batch_norm_training(rng):
    """training=True: shape inference gives output, saveMean and saveInvstd, so the
    function allocates and returns all three (numbers vs numpy float64)."""
    x = rng.standard_normal((4, 3, 5, 5)).astype(np.float32)
    with Session(chip="tiny"):
        y, mean, var = (o.numpy() for o in opsnn.batch_norm(x, np.ones(3, np.float32), np.zeros(3, np.float32),
                                                             running_mean=np.zeros(3, np.float32),
                                                             running_var=np.ones(3, np.float32), training=True))
        x64 = x.astype(np.float64)
        m, v = x64.mean((0, 2, 3)), x64.var((0, 2, 3))
        assert rel_err(mean, m) < 1e-5 and rel_err(var, v) < 1e-5   # saveInvstd holds the biased variance
        assert rel_err(y, (x64 - m[:, None, None]) / np.sqrt(v[:, None, None] + 1e-5)) < 1e-5
        for bad, frag in ((dict(momentum=float("nan")), r"momentum must be in \[0, 1\]"),
                          (dict(training="yes"), "training must be a bool"),
                          (dict(eps=float("inf")), "eps must be >= 0 and finite")):
            kw = dict(running_mean=np.zeros(3, np.float32), running_var=np.ones(3, np.float32), training=True)
            with pytest.raises(OpError, match=frag):
                opsnn.batch_norm(x, None, None, **{**kw, **bad})


def test_trans_data_and_shape_inference_errors_are_typed(rng):
    x = rng.standard_normal((2, 20, 3, 5)).astype(np.float16)
    with Session(chip="tiny"):
        y = opsnn.trans_data(x, opsnn.aclFormat.ACL_FORMAT_NC1HWC0).numpy()
        pad = np.concatenate([x, np.zeros((2, 12, 3, 5), np.float16)], axis=1)   # C padded to C1 * C0 = 2 * 16
        want = pad.reshape(2, 2, 16, 3, 5).transpose(0, 1, 3, 4, 2)
        assert np.array_equal(y, want)
        with pytest.raises(InvalidParamError, match="src must be 4-D"):
            opsnn.trans_data(x[0], opsnn.aclFormat.ACL_FORMAT_NC1HWC0)
        with pytest.raises(InvalidParamError, match="is not an aclFormat"):
            opsnn.trans_data(x, "NC1HWC0")
        conv = dict(padding=[1, 1], dilation=[1, 1], transposed=False, output_padding=[0, 0], groups=1,
                    cube_math_type=0)
        with pytest.raises(InvalidParamError, match="stride and dilation must be 2 values >= 1"):
            opsnn.convolution(x.astype(np.float32), np.ones((2, 20, 3, 3), np.float32), stride=[0, 1], **conv)
