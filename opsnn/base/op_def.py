"""An operator's definition: its parameters in CANN order, dtypes, and shape inference.

Each op folder has an ``op_def.py`` with one :class:`OpDef` per aclnn entry point
(ops-nn's ``op_host/*_def.cpp`` plays this role). The definition is data: the
aclnn binding does not need it, but the Pythonic functions (``opsnn.softmax(x,
dim)``) are generated from it -- argument names, defaults, which outputs to
allocate and with what shape -- and docs and tests read it.

Naming (STYLE.md section 4): ``OpDef.op_type`` is CANN's CamelCase op type
("Softmax"); the entry points are ``aclnn<op_type>GetWorkspaceSize`` / ``aclnn<op_type>``;
the Pythonic name is derived mechanically (:func:`snake_case`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

#: parameter kinds: how the Pythonic layer turns a Python value into the aclnn argument
TENSOR, TENSOR_LIST, SCALAR, INT_ARRAY, ATTR = "tensor", "tensor_list", "scalar", "int_array", "attr"
#: parameter roles
INPUT, OUTPUT, ATTRIBUTE = "input", "output", "attr"

_NO_DEFAULT = object()


@dataclass(frozen=True)
class Param:
    """One parameter of an aclnn phase-1 call, in prototype order.

    Attributes:
        name: CANN's spelling (``normalizedShape``, ``weightOptional``, ``rstdOut``).
        role: INPUT, OUTPUT or ATTRIBUTE.
        kind: TENSOR, TENSOR_LIST, SCALAR (aclScalar), INT_ARRAY (aclIntArray) or ATTR
            (a plain int / float / bool / str attribute).
        optional: may be None (``...Optional`` in CANN; outputs: not written).
        default: the CANN default of an attribute (keyword argument in the Pythonic
            layer); absent for required parameters.
    """

    name: str
    role: str
    kind: str = TENSOR
    optional: bool = False
    default: Any = _NO_DEFAULT

    @property
    def has_default(self) -> bool:
        return self.default is not _NO_DEFAULT or self.optional

    @property
    def py_name(self) -> str:
        """The Pythonic argument name: snake_case without CANN's ``Optional`` / ``Out``
        suffixes (``weightOptional`` -> ``weight``, ``rstdOut`` -> ``rstd``)."""
        n = self.name
        for suffix in ("Optional", "Out"):
            if n.endswith(suffix) and len(n) > len(suffix):
                n = n[: -len(suffix)]
        return snake_case(n)


@dataclass(frozen=True)
class OpDef:
    """The definition of one aclnn entry point.

    Attributes:
        op_type: CANN op type without the ``aclnn`` prefix ("Softmax").
        params: every phase-1 parameter in CANN prototype order (inputs, attrs, outputs
            as the prototype interleaves them; keyword-only simulator extensions, like
            LayerNorm's ``strategy``, are not listed).
        dtypes: aclDataType members the op accepts for its main input (docs only).
        infer: shape inference for the required outputs: called with the INPUT and
            ATTRIBUTE parameters by CANN name, tensors given as ``(shape, aclDataType)``
            pairs, it returns one ``(shape, aclDataType)`` per OUTPUT parameter that is
            not optional (in order). It must not need a device.
        get_workspace_size / launch: the two aclnn entry points.
        python_name: the Pythonic function's name (default: ``snake_case(op_type)``).
        doc: one line for the generated function's docstring.
        inplace: for in-place ops (``aclnnInplaceAdd``), the CANN name of the INPUT
            parameter the op overwrites; the Pythonic function returns it. "" otherwise.
    """

    op_type: str
    params: tuple[Param, ...]
    infer: Callable[..., list[tuple[tuple[int, ...], Any]]]
    get_workspace_size: Callable
    launch: Callable
    dtypes: tuple = ()
    python_name: str = ""
    doc: str = ""
    inplace: str = ""

    @property
    def name(self) -> str:
        """The Pythonic function name."""
        return self.python_name or snake_case(self.op_type)

    @property
    def inputs(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.role == INPUT)

    @property
    def outputs(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.role == OUTPUT)

    @property
    def attrs(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.role == ATTRIBUTE)


def snake_case(name: str) -> str:
    """CANN CamelCase to snake_case, mechanically: ``RmsNorm`` -> ``rms_norm``,
    ``BatchMatMul`` -> ``batch_mat_mul``, ``AdaptiveAvgPool2d`` -> ``adaptive_avg_pool2d``,
    ``normalizedShape`` -> ``normalized_shape``, ``SWhere`` -> ``s_where``."""
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s)
    return s.lower()
