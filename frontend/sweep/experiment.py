"""The ``Experiment`` model: what an experiment YAML file maps to, and its points.

An experiment names a base chip, the :class:`npu_sim.ChipConfig` fields to vary
(``axes``: a list or a range per field, crossed; ``zipped``: groups of fields that
vary together), the workloads to run at every point, the mode and the metrics::

    name: hbm-vs-resnet
    chip: ascend910b2                 # a preset name or a .json/.yaml chip file
    fixed: {l2_bytes: 100663296}      # optional overrides applied at every point
    axes:
      hbm_bandwidth_bytes_per_ns: [400, 800, 1600]
      aic_count: {start: 4, stop: 24, step: 4}       # inclusive range
      clock_hz: {start: 1.0e9, stop: 2.0e9, num: 3, scale: log}
    zipped:
      - {aic_count: [8, 16], aiv_count: [16, 32]}     # (8, 16), (16, 32)
    workloads:
      - model: light_resnet50                        # ONNX path or light-model name
      - model: light_resnet50                        # at batch 8 (npu-sim run --batch)
        batch: 8
      - model: minilm                                # symbolic dims pinned (--dim)
        dims: {batch_size: 8, sequence_length: 128}
      - transformer: encoder                         # or decoder
        preset: bert-base
        batch: 1
        seq: 128
      - op: softmax                                  # a single aclnn operator
        shapes: [[1024, 4096]]
        dtype: float16
    mode: eager
    metrics: [latency_ns, throughput_per_s, hbm_bytes, energy_uj]

Every point's chip is validated when the experiment is (pydantic, against
``ChipConfig``), so an impossible value fails at load naming the field and the
value, not halfway through a sweep. Errors are ``ExperimentError`` (a ValueError)
with one line per problem, each naming where it is (``axes.aic_count``).

(A little over 300 lines: the workload models stay next to the experiment that validates them.)
"""
from __future__ import annotations

import itertools
import math
from pathlib import Path
from typing import Annotated, Any, Literal, Optional, Union

import yaml
from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, ValidationError, field_validator, \
    model_validator

from npu_sim import ChipConfig, get_chip

from .workloads import OP_KINDS

#: ChipConfig fields that are labels, not hardware: an axis may not vary them
NOT_AXES = ("name", "description")

#: metric name -> what it is (units in the name); records carry all of them, ``metrics``
#: chooses what the table and the plots show
METRICS = {
    "latency_ns": "simulated ns between the events around the workload (aclrtEventElapsedTime)",
    "throughput_per_s": "samples (batch) per simulated second",
    "tflops": "declared FLOPs / latency, in TFLOP/s",
    "util_cube": "CUBE busy ns / (latency x AIC count)",
    "util_vector": "VECTOR busy ns / (latency x vector cores)",
    "util_mte2": "MTE2 busy ns / (latency x AIC+AIV count)",
    "util_hbm": "HBM bytes / (latency x HBM bandwidth)",
    "compute_bound_share": "share of kernel time in kernels classed compute-bound",
    "memory_bound_share": "share of kernel time in kernels classed memory-bound",
    "latency_bound_share": "share of kernel time in kernels classed latency-bound",
    "hbm_bytes": "bytes served by HBM",
    "l2_hit_bytes": "bytes served by L2 hits",
    "peak_memory_bytes": "peak device memory in use (aligned sizes)",
    "energy_uj": "estimated energy of the run (first-order model, npu_sim.hardware.energy), uJ",
    "ub_factor": "the first kernel's tiling ub_factor (rows or elements per UB tile), if its tiling has one",
    "tiling": "the first kernel's tiling data, as key=value text",
}
DEFAULT_METRICS = ["latency_ns", "throughput_per_s", "util_cube", "util_hbm", "hbm_bytes", "energy_uj"]


class ExperimentError(ValueError):
    """An invalid experiment: the message has one line per problem, each naming its place."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Range(_Strict):
    """Inclusive ``start..stop`` by ``step``, or ``num`` values spaced linearly or
    logarithmically (``scale: log``)."""

    start: float
    stop: float
    step: float | None = None
    num: int | None = Field(None, ge=2, le=10_000)
    scale: Literal["linear", "log"] = "linear"

    @model_validator(mode="after")
    def _one_of(self) -> "Range":
        if (self.step is None) == (self.num is None):
            raise ValueError("a range needs exactly one of step or num")
        if self.step is not None and (self.step <= 0 or self.stop < self.start):
            raise ValueError(f"step must be > 0 and stop >= start (got start {self.start}, stop {self.stop}, "
                             f"step {self.step})")
        if self.scale == "log" and (self.num is None or self.start <= 0 or self.stop <= 0):
            raise ValueError("a log range needs num and positive start and stop")
        return self

    def values(self) -> list[float]:
        if self.step is not None:
            n = int(math.floor((self.stop - self.start) / self.step + 1e-9)) + 1
            return [self.start + i * self.step for i in range(n)]
        if self.scale == "log":
            a, b = math.log(self.start), math.log(self.stop)
            return [math.exp(a + (b - a) * i / (self.num - 1)) for i in range(self.num)]
        return [self.start + (self.stop - self.start) * i / (self.num - 1) for i in range(self.num)]


AxisValues = Union[list[Any], Range]


class ModelWorkload(_Strict):
    """An ONNX model: a path or the name of a light model the onnx package ships
    (``light_resnet50``), or ``minilm`` (optional extra ``models``). ``batch``: run
    at that batch (``npu-sim run --batch``, frontend/batch.py); ``dims``: symbolic
    input dims pinned by name (``--dim``)."""

    model: str
    fuse: bool = True
    batch: Optional[int] = Field(None, ge=1)   # no cap, as npu-sim run --batch
    dims: dict[str, int] = Field(default_factory=dict)

    @property
    def label(self) -> str:
        extra = "".join(f",{k}={v}" for k, v in sorted(self.dims.items()))
        return Path(self.model).stem + (f"[B{self.batch}{extra}]" if self.batch else f"[{extra[1:]}]" if extra else "")


class TransformerWorkload(_Strict):
    """A built-in layer (frontend.workloads): ``encoder`` (batch, seq) or ``decoder``
    (batch, cache_len), with a preset and an optional dtype."""

    transformer: Literal["encoder", "decoder"]
    preset: str = "bert-base"
    batch: int = Field(1, ge=1, le=4096)
    seq: int = Field(128, ge=1, le=1 << 20)
    cache_len: int = Field(1024, ge=0, le=1 << 22)
    dtype: Literal["float16", "bfloat16", "float32"] | None = None

    @field_validator("preset")
    @classmethod
    def _preset(cls, v: str) -> str:
        from ..workloads import PRESETS
        if v not in PRESETS:
            raise ValueError(f"unknown transformer preset {v!r}; presets: {', '.join(sorted(PRESETS))}")
        return v

    @property
    def label(self) -> str:
        size = f"S{self.seq}" if self.transformer == "encoder" else f"cache{self.cache_len}"
        return f"{self.transformer}[{self.preset},B{self.batch},{size}]"


class OpWorkload(_Strict):
    """One aclnn operator on fresh tensors: ``op`` (see ``frontend.sweep.workloads.OP_KINDS``),
    the input ``shapes`` (one per tensor input) and the ``dtype``."""

    op: str
    shapes: list[list[Annotated[int, Field(ge=1, le=1 << 31)]]]
    dtype: Literal["float16", "bfloat16", "float32"] = "float16"

    @model_validator(mode="after")
    def _known(self) -> "OpWorkload":
        if self.op not in OP_KINDS:
            raise ValueError(f"unknown op {self.op!r}; ops: {', '.join(sorted(OP_KINDS))}")
        want = OP_KINDS[self.op].inputs
        if len(self.shapes) != want:
            raise ValueError(f"op {self.op} takes {want} input shape(s), got {len(self.shapes)}")
        OP_KINDS[self.op].check(self.shapes)
        return self

    @property
    def label(self) -> str:
        return f"{self.op}[{'x'.join(map(str, self.shapes[0]))}{'' if len(self.shapes) < 2 else ',...'},{self.dtype}]"


def _workload_kind(v: Any) -> str | None:
    if isinstance(v, dict):
        kinds = [k for k in ("model", "transformer", "op") if k in v]
        return kinds[0] if len(kinds) == 1 else None
    return {ModelWorkload: "model", TransformerWorkload: "transformer", OpWorkload: "op"}.get(type(v))


Workload = Annotated[Union[Annotated[ModelWorkload, Tag("model")], Annotated[TransformerWorkload, Tag("transformer")],
                           Annotated[OpWorkload, Tag("op")]],
                     Discriminator(_workload_kind, custom_error_type="workload_kind",
                                   custom_error_message="a workload needs exactly one of the keys model, transformer, "
                                                        "op")]


class Experiment(_Strict):
    """An experiment (module docstring). Build from a mapping with :meth:`from_dict`
    or a YAML file with :meth:`from_yaml`; both raise :class:`ExperimentError`."""

    name: str = "experiment"
    chip: str = "ascend910b2"
    fixed: dict[str, Any] = Field(default_factory=dict)
    axes: dict[str, AxisValues] = Field(default_factory=dict)
    zipped: list[dict[str, list[Any]]] = Field(default_factory=list)
    workloads: list[Workload] = Field(min_length=1)
    mode: Literal["eager", "graph"] = "graph"
    timing_only: bool = True
    metrics: list[str] = Field(default_factory=lambda: list(DEFAULT_METRICS))

    @field_validator("metrics")
    @classmethod
    def _metrics(cls, v: list[str]) -> list[str]:
        bad = [m for m in v if m not in METRICS]
        if bad:
            raise ValueError(f"unknown metric(s) {', '.join(map(repr, bad))}; metrics: {', '.join(METRICS)}")
        return v

    @model_validator(mode="after")
    def _chip_fields(self) -> "Experiment":
        try:
            base = get_chip(self.chip)
        except (KeyError, TypeError, OSError, ValueError) as e:
            raise ValueError(f"chip: {str(e).strip(chr(34))}") from None
        problems = []
        seen: dict[str, str] = {}
        places = [("fixed", f) for f in self.fixed] + [("axes", f) for f in self.axes] + \
            [(f"zipped[{i}]", f) for i, g in enumerate(self.zipped) for f in g]
        for where, f in places:
            if f not in ChipConfig.model_fields or f in NOT_AXES:
                problems.append(f"{where}.{f}: not a chip config field (fields: see `npu-sim chips` or "
                                f"npu_sim/chips/base.py)")
            elif f in seen and where != "fixed":
                problems.append(f"{where}.{f}: already varied in {seen[f]}")
            elif where != "fixed":
                seen[f] = where
        for i, g in enumerate(self.zipped):
            lens = {len(v) for v in g.values()}
            if len(lens) > 1:
                problems.append(f"zipped[{i}]: lists of unequal length {sorted(lens)} ({', '.join(g)})")
            if 0 in lens:
                problems.append(f"zipped[{i}]: empty list")
        for f, v in self.axes.items():
            if isinstance(v, list) and not v:
                problems.append(f"axes.{f}: empty list")
        if problems:
            raise ValueError("; ".join(problems))
        base_dump = base.model_dump()
        for point in self.points():
            try:
                ChipConfig.model_validate({**base_dump, **self.fixed, **point})
            except ValidationError as e:
                errs = "; ".join(f"{'.'.join(map(str, er['loc'])) or 'chip'}: {er['msg']}" for er in e.errors())
                where = ", ".join(f"{k}={v!r}" for k, v in point.items()) or "the base chip"
                raise ValueError(f"impossible chip at point ({where}): {errs}") from None
        return self

    # ---- points ---------------------------------------------------------------------------------------------
    def varied(self) -> list[str]:
        """The varied field names, in axis order then zipped order."""
        return list(self.axes) + [f for g in self.zipped for f in g]

    def points(self) -> list[dict[str, Any]]:
        """Every point as ``{field: value}`` (axes crossed with each zipped group), in a
        fixed order: the first axis varies slowest. Int fields get ints (a float value
        that is not whole is left for ChipConfig to reject)."""
        groups: list[list[dict[str, Any]]] = []
        for f, v in self.axes.items():
            vals = v.values() if isinstance(v, Range) else list(v)
            groups.append([{f: _as_field_type(f, x)} for x in vals])
        for g in self.zipped:
            keys = list(g)
            groups.append([{k: _as_field_type(k, g[k][i]) for k in keys} for i in range(len(g[keys[0]]))])
        out = []
        for combo in itertools.product(*groups):
            p: dict[str, Any] = {}
            for d in combo:
                p.update(d)
            out.append(p)
        return out

    def chip_at(self, point: dict[str, Any]) -> ChipConfig:
        """The full ChipConfig of one point (base, then ``fixed``, then the point)."""
        base = get_chip(self.chip)
        return ChipConfig.model_validate({**base.model_dump(), **self.fixed, **point})

    # ---- loading ----------------------------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: Any, source: str = "experiment") -> "Experiment":
        """Validate a mapping. Raises ExperimentError naming each wrong field."""
        if not isinstance(data, dict):
            raise ExperimentError(f"{source}: an experiment must be a mapping, got {type(data).__name__}")
        try:
            return cls.model_validate(data)
        except ValidationError as e:
            raise ExperimentError(f"{source}: " + "; ".join(_describe(er) for er in e.errors())) from None

    @classmethod
    def from_yaml(cls, path: str | Path) -> "Experiment":
        """Load and validate an experiment file. Raises ExperimentError (also for an
        unreadable file or a YAML syntax error)."""
        path = Path(path)
        try:
            data = yaml.safe_load(path.read_text())
        except OSError as e:
            raise ExperimentError(f"cannot read experiment {str(path)!r}: {e.strerror or e}") from None
        except yaml.YAMLError as e:
            raise ExperimentError(f"{path}: not valid YAML: {e}") from None
        return cls.from_dict(data, str(path))


def _as_field_type(field: str, v: Any) -> Any:
    ann = ChipConfig.model_fields[field].annotation if field in ChipConfig.model_fields else None
    if ann is int and isinstance(v, float) and v.is_integer():
        return int(v)
    if ann is int and isinstance(v, float) and abs(v - round(v)) < 1e-6 * max(1.0, abs(v)):
        return int(round(v))
    return v


def _describe(err: dict) -> str:
    loc = ".".join(str(x) for x in err["loc"])
    msg = err["msg"].removeprefix("Value error, ")
    return f"{loc}: {msg}" if loc else msg
