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
