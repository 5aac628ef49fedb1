"""KernelSpec's typed fields (flops, gm_bytes, tiling_data, strategy): derived from the
old ``args`` keys, read by the device, and turned into trace args in one place."""
from dataclasses import dataclass

import pytest

from npu_sim import BlockProgram, CoreType, Device, KernelLaunch, KernelSpec, Pipe, Stage, TileSpec
from npu_sim.chips.presets import TINY
from npu_sim.device import spec_trace_args

PROG = BlockProgram((TileSpec((Stage(Pipe.MTE2, nbytes=4096), Stage(Pipe.VECTOR, vector_bytes=4096),
                               Stage(Pipe.MTE3, nbytes=4096)), 3),))


@dataclass
class _Tiling:
    rows: int
    cols: int


def _spec(**kw):
    return KernelSpec("K", CoreType.AIV, (PROG,), **kw)


def test_typed_fields_come_from_the_old_args_keys():
    args = {"shapes": [[4, 4]], "flops": 123, "bytes": 8192, "tiling": {"rows": 4}, "strategy": "one_pass"}
    s = _spec(args=args)
    assert (s.flops, s.gm_bytes, s.tiling_data, s.strategy) == (123, 8192, {"rows": 4}, "one_pass")
    assert spec_trace_args(s) == args and list(spec_trace_args(s)) == list(args)   # same keys, same order
    bare = _spec(args={"shapes": [[1]]})
    assert (bare.flops, bare.gm_bytes, bare.tiling_data, bare.strategy) == (0, 0, None, "")
    assert spec_trace_args(bare) == {"shapes": [[1]]}


def test_non_numbers_in_args_are_not_flops_or_bytes():
    s = _spec(args={"flops": "many", "bytes": True, "strategy": 3})
    assert (s.flops, s.gm_bytes, s.strategy) == (0, 0, "")
    assert spec_trace_args(s) == {"flops": "many", "bytes": True, "strategy": 3}


def test_explicit_typed_fields_win_and_reach_the_trace():
    s = _spec(args={"flops": 1, "dtype": "float16"}, flops=500, gm_bytes=64, tiling_data=_Tiling(2, 3),
              strategy="multi_pass")
    assert s.flops == 500
    assert spec_trace_args(s) == {"flops": 500, "dtype": "float16", "bytes": 64, "tiling": {"rows": 2, "cols": 3},
                                  "strategy": "multi_pass"}


def test_device_reads_the_typed_fields():
    dev = Device(TINY)
    stream = dev.create_stream()
    dev.submit_kernel(stream, KernelLaunch(_spec(flops=10_000, gm_bytes=12288, strategy="s"), None), 0.0)
    dev.run_until(None)
    (rec,) = dev.kernel_records
    assert rec["flops"] == 10_000 and rec["bytes"] == 12288 and rec["strategy"] == "s"
    assert rec["flop_per_s"] == pytest.approx(10_000 / rec["dur_ns"] * 1e9)
    assert rec["gm_bytes"] == 3 * 8192   # what the stages moved (simulator count), not the stated bytes
    (span,) = [s for s in dev.recorder.spans if s.cat == "task"]
    assert span.args == {k: v for k, v in rec.items() if k not in ("name", "stream", "start_ns", "dur_ns")}
