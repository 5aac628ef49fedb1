"""``opsnn.base.tiling_base.tiling_dict`` (the trace's ``"tiling"`` of a kernel spec,
read field by field for flat structs) gives exactly ``dataclasses.asdict``: the same
keys in the same order, values of the same types, nested structs and containers
through asdict itself."""
from __future__ import annotations

import dataclasses
import importlib

import pytest

from npu_sim import PRESETS

from opsnn.base.tiling_base import tiling_dict
from opsnn.base.vector_tiling import vector_spec, vector_tiling

ct = importlib.import_module("opsnn.matmul.common.cube_tiling")


@dataclasses.dataclass(frozen=True)
class _Flat:
    a: int
    b: float
    c: bool
    d: str
    e: None = None


@dataclasses.dataclass(frozen=True)
class _Nested:
    inner: _Flat
    rows: tuple = (1, 2)
    n: int = 3


def _same(got: dict, want: dict) -> None:
    assert list(got.items()) == list(want.items())
    assert [type(v) for v in got.values()] == [type(v) for v in want.values()]


def test_tiling_dict_is_asdict():
    chip = PRESETS["tiny"]
    structs = [ct.cube_tiling(chip, 2, 100, 70, 300, 2, 2, "float16"),
               vector_tiling(chip, "X", 5000, 2, 2),
               _Flat(1, 0.5, True, "s"), _Nested(_Flat(-1, -0.0, False, "")), _Nested(_Flat(2, 1e300, True, "x"),
                                                                                        rows=[[1], {"k": 2}])]
    for td in structs + structs:   # twice: the field names cached after the first call
        _same(tiling_dict(td), dataclasses.asdict(td))
    nested = _Nested(_Flat(1, 2.0, True, "y"))
    assert tiling_dict(nested)["inner"] is not nested.inner   # a copy, as asdict makes
    with pytest.raises(TypeError):
        tiling_dict((1, 2))


def test_vector_spec_tiling_arg():
    chip = PRESETS["tiny"]
    td = vector_tiling(chip, "X", 12345, 4, 2)
    spec = vector_spec("X", td, 4, 2, 4, args={"shape": [12345]})
    _same(spec.args["tiling"], dataclasses.asdict(td))
