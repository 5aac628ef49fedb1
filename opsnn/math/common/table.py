"""Table-driven elementwise entry points: one row per aclnn op, the phase-1 entry
point, its phase-2 twin and its :class:`~opsnn.base.op_def.OpDef` generated from the
row (used by ``activation/unary_activation``, ``math/unary_math``, ``math/compare``,
``math/logical``, ``math/minmax``).

A row names the CANN op type, the kernel (a key of the family's compute and cost
tables), its scalar attributes in CANN order (with CANN's defaults), the dtypes it
accepts and how its result dtype follows from the input's:

* ``"same"``: the input's dtype (``strict``: ``out`` must have it; else the result
  must cast to ``out``, :func:`opsnn.base.promotion.can_cast`);
* ``"float"``: the input's dtype for floats, FLOAT for integers and bool (as
  aclnnExp/aclnnSin on A2: integers compute in float32);
* ``"bool"``: BOOL (comparisons, IsInf, LogicalNot).

Binary rows promote ``self`` and ``other`` (:mod:`opsnn.base.promotion`), broadcast
(at most 8 dims) and accept ``other`` as an aclScalar when ``scalar`` is set.
Check order (ops-nn): null pointers (161001), tensor types and dtypes (161002), attribute
values, shapes (161002); then the shared phase-1 tail :func:`.host.build_eltwise`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from ...base.checks import check_dtype, check_not_null, check_shape, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.op import prepare
from ...base.op_def import INPUT, OUTPUT, SCALAR, OpDef, Param
from ...base.promotion import check_castable, check_promote, compute_dtype, is_float, promote_tensor_scalar, \
    promote_types
from .host import as_compute, build_eltwise, check_rank, phase2_entry, scalar_of
from .infershape import broadcast_shape, scalar_dtype


@dataclass(frozen=True)
class UnaryRow:
    """One unary op: ``aclnn<op_type>(self, *attrs, out)``.

    attrs: ATTRIBUTE/SCALAR :class:`Param` s in CANN order (``default`` CANN's; an
    optional one that is None takes ``fill[name]``). dtypes: accepted ``self`` dtypes.
    result: "same", "float" or "bool" (module docstring). strict: ``out`` dtype must be
    the result's. check: optional ``fn(api, attrs)`` raising 161002 for bad values.
    """

    op_type: str
    kernel: str
    dtypes: tuple
    doc: str
    attrs: tuple = ()
    result: str = "same"
    strict: bool = False
    fill: Mapping[str, float] = field(default_factory=dict)
    check: Callable | None = None


@dataclass(frozen=True)
class BinaryRow:
    """One binary op: ``aclnn<op_type>(self, other, out)`` (``other`` an aclScalar when
    ``scalar``). dtypes: accepted dtypes of both operands and of the promoted type.
    result: "promoted", "bool" or "float" (integers compute in FLOAT)."""

    op_type: str
    kernel: str
    dtypes: tuple
    doc: str
    result: str = "promoted"
    scalar: bool = False


def _result(row_result: str, dt):
    if row_result == "float":
        return dt if is_float(dt) else T.ACL_FLOAT
    if row_result == "bool":
        return T.ACL_BOOL
    return dt


def _unary_build(chip, row: UnaryRow, tiling, computes, self, values, out):
    api = f"aclnn{row.op_type}"
    required = {p.name: v for p, v in zip(row.attrs, values) if not p.optional}
    check_not_null(api, self=self, **required, out=out)
    check_tensor_type(api, self=self, out=out)
    check_dtype(api, "self", self, row.dtypes)
    check_rank(api, "self", self)
    res = _result(row.result, self.data_type)
    if row.strict:
        check_dtype(api, "out", out, (res,))
    else:
        check_castable(api, res, "out", out.data_type)
    check_shape(api, "out", out, self.view_shape)
    ct = compute_dtype(res if row.result != "bool" else self.data_type)
    if ct == T.ACL_BOOL and row.result != "bool":
        ct = T.ACL_BOOL
    attrs = {}
    for p, v in zip(row.attrs, values):
        if v is None:
            v = row.fill[p.name]
        val, _ = scalar_of(api, p.name, v)
        attrs[p.name] = as_compute(val, ct) if ct != T.ACL_BOOL else val
    if row.check is not None:
        row.check(api, {k: float(v) for k, v in attrs.items()})
    out_ct = T.ACL_BOOL if row.result == "bool" else ct
    return build_eltwise(chip, row.op_type, row.kernel, [("self", self)], [ct], out, out_ct, tiling=tiling,
                         computes=computes, attrs=attrs, shape=tuple(self.view_shape), label=row.op_type)


def _binary_build(chip, row: BinaryRow, tiling, computes, self, other, out):
    api = f"aclnn{row.op_type}"
    check_not_null(api, self=self, other=other, out=out)
    check_tensor_type(api, self=self, out=out)
    check_dtype(api, "self", self, row.dtypes)
    if row.scalar:
        val, dt = scalar_of(api, "other", other)
        promoted = check_promote(api, "self", self.data_type, "other", dt, scalar=True)
    else:
        check_tensor_type(api, other=other)
        check_dtype(api, "other", other, row.dtypes)
        promoted = check_promote(api, "self", self.data_type, "other", other.data_type)
    if promoted not in row.dtypes:
        raise invalid(api, f"promoted dtype {promoted.name} not supported")
    res = _result(row.result, promoted)
    check_castable(api, res, "out", out.data_type)
    ct = compute_dtype(promoted if row.result != "float" else res)
    out_ct = T.ACL_BOOL if row.result == "bool" else ct
    info = {"promoted_dtype": promoted.name}
    if row.scalar:
        return build_eltwise(chip, row.op_type, row.kernel, [("self", self)], [ct], out, out_ct, tiling=tiling,
                             computes=computes, attrs={"b": as_compute(val, ct)}, label=row.op_type, info=info)
    return build_eltwise(chip, row.op_type, row.kernel, [("self", self), ("other", other)], [ct, ct], out, out_ct,
                         tiling=tiling, computes=computes, label=row.op_type, info=info)


def _unary_entry(row: UnaryRow, tiling, computes):
    n = len(row.attrs)

    def get_workspace_size(self, *args):
        if len(args) != n + 1:
            raise TypeError(f"aclnn{row.op_type}GetWorkspaceSize takes self, "
                            f"{', '.join(p.name for p in row.attrs) + ', ' if n else ''}out")
        values, out = args[:n], args[n]
        return prepare(row.op_type, lambda chip: _unary_build(chip, row, tiling, computes, self, values, out))
    return get_workspace_size


def _binary_entry(row: BinaryRow, tiling, computes):
    def get_workspace_size(self, other, out):
        return prepare(row.op_type, lambda chip: _binary_build(chip, row, tiling, computes, self, other, out))
    return get_workspace_size


def _name(fn, row, params: str):
    fn.__name__ = fn.__qualname__ = f"aclnn{row.op_type}GetWorkspaceSize"
    fn.__doc__ = (f"Phase 1 of aclnn{row.op_type}({params}): {row.doc}. Returns (workspaceSize, executor, "
                  "status); 161001 for a null argument, 161002 for a dtype, shape or attribute CANN refuses.")
    return fn


def make_entry_points(unary: tuple = (), binary: tuple = (), *, tiling, computes) -> dict[str, Callable]:
    """``{"aclnnXxxGetWorkspaceSize": fn, "aclnnXxx": fn}`` for every row (a family's
    op_api puts them in its globals)."""
    out: dict[str, Callable] = {}
    for row in unary:
        params = ", ".join(["self"] + [p.name for p in row.attrs] + ["out"])
        out[f"aclnn{row.op_type}GetWorkspaceSize"] = _name(_unary_entry(row, tiling, computes), row, params)
        out[f"aclnn{row.op_type}"] = phase2_entry(row.op_type)
    # the scalar forms pass the aclScalar as the keyword ``b``; numpy ufuncs take it positionally
    by_kw = {k: (lambda f: lambda a, b: f(a, b))(f) for k, f in computes.items()}
    for row in binary:
        entry = _binary_entry(row, tiling, by_kw if row.scalar else computes)
        out[f"aclnn{row.op_type}GetWorkspaceSize"] = _name(entry, row, "self, other, out")
        out[f"aclnn{row.op_type}"] = phase2_entry(row.op_type)
    return out


def infer_unary(row: UnaryRow, x):
    """[(shape, dtype)] of a unary row's output for ``x`` = (shape, dtype)."""
    return [(tuple(x[0]), _result(row.result, x[1]))]


def infer_binary_row(row: BinaryRow, a, b):
    """[(shape, dtype)] of a binary row's output (``b`` a scalar value for scalar rows)."""
    if row.scalar:
        return [(tuple(a[0]), _result(row.result, promote_tensor_scalar(a[1], scalar_dtype(b))))]
    return [(broadcast_shape(a[0], b[0]), _result(row.result, promote_types(a[1], b[1])))]


def make_op_defs(unary: tuple = (), binary: tuple = (), *, entries: Mapping[str, Callable]) -> tuple:
    """One :class:`OpDef` per row, parameters in CANN order (``self``, attributes, ``out``)."""
    defs = []
    for row in unary:
        defs.append(OpDef(row.op_type, (Param("self", INPUT),) + tuple(row.attrs) + (Param("out", OUTPUT),),
                          infer=(lambda r: lambda self, **_: infer_unary(r, self))(row),
                          get_workspace_size=entries[f"aclnn{row.op_type}GetWorkspaceSize"],
                          launch=entries[f"aclnn{row.op_type}"], dtypes=row.dtypes, doc=row.doc))
    for row in binary:
        other = Param("other", INPUT, SCALAR) if row.scalar else Param("other", INPUT)
        defs.append(OpDef(row.op_type, (Param("self", INPUT), other, Param("out", OUTPUT)),
                          infer=(lambda r: lambda self, other: infer_binary_row(r, self, other))(row),
                          get_workspace_size=entries[f"aclnn{row.op_type}GetWorkspaceSize"],
                          launch=entries[f"aclnn{row.op_type}"], dtypes=row.dtypes, doc=row.doc))
    return tuple(defs)
