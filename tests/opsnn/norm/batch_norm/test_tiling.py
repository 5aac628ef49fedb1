"""BatchNorm (inference) tiling and tile program without a device: feed a chip config
and a shape, expect the key, tiling data, block_dim and per-block parameter loads."""
from npu_sim import PRESETS
from npu_sim.program import Pipe
from opsnn.norm.batch_norm.kernel import tile_program
from opsnn.norm.batch_norm.op_def import BATCH_NORM
from opsnn.norm.batch_norm.tiling import batch_norm_tiling
from opsnn.norm.batch_norm.tiling_data import PARAM_BYTES_PER_CHANNEL, BatchNormTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def _loads(spec, pipe):
    return [sum(t.count * (s.nbytes if pipe is Pipe.MTE2 else s.vector_bytes) for t in p.tiles for s in t.stages
                if s.pipe is pipe) for p in spec.blocks]


def test_resident_params_cover_every_element():
    shape = (2, 8, 16, 16)
    for chip in (TINY, B2):
        res = batch_norm_tiling(chip, shape, 4)
        td, v = res.data, res.data.vector
        assert (res.tiling_key, res.workspace_bytes, res.strategy) == (BatchNormTilingKey.RESIDENT_PARAMS, 0,
                                                                       "resident_params")
        assert (td.channels, td.inner) == (8, 256) and res.block_dim == v.block_dim <= chip.vector_core_count
        assert v.per_block * (v.block_dim - 1) < v.total_units == 2 * 8 * 256 <= v.per_block * v.block_dim
        # UB: in + out double-buffered per element, plus the 8 channels' params (32 B padded)
        assert v.ub_bytes_used == 2 * (4 + 4) * v.ub_factor + 8 * PARAM_BYTES_PER_CHANNEL <= chip.ub_bytes


def test_params_stream_when_they_exceed_a_quarter_of_ub():
    c = TINY.ub_bytes // 4 // PARAM_BYTES_PER_CHANNEL + 1  # one channel over the quarter
    res = batch_norm_tiling(TINY, (3, c), 4)
    assert res.tiling_key == BatchNormTilingKey.STREAMED_PARAMS and not res.data.resident
    assert res.data.vector.ub_bytes_used <= TINY.ub_bytes
    assert batch_norm_tiling(TINY, (3, c - 1), 4).tiling_key == BatchNormTilingKey.RESIDENT_PARAMS


def test_each_block_loads_the_channels_it_spans_once():
    shape = (2, 8, 16, 16)  # 4096 elements, 256 a channel
    td = batch_norm_tiling(TINY, shape, 4).data
    v = td.vector
    spec = tile_program(td, {})
    assert spec.block_dim == v.block_dim and spec.tiling_key == 0
    streamed = [-(-min(v.per_block, v.total_units - b * v.per_block) // 256) + 1 for b in range(v.block_dim)]
    extra_mte2 = [m - 4 * min(v.per_block, v.total_units - b * v.per_block)
                  for b, m in enumerate(_loads(spec, Pipe.MTE2))]
    assert extra_mte2 == [PARAM_BYTES_PER_CHANNEL * min(8, s) for s in streamed]
    extra_vec = [m - 8 * min(v.per_block, v.total_units - b * v.per_block)
                 for b, m in enumerate(_loads(spec, Pipe.VECTOR))]
    assert extra_vec == extra_mte2


def test_a_shorter_last_block_loads_fewer_channels():
    # 1034 fp32 elements: blocks of at least 4 KiB of traffic (512 elements), so the
    # third block gets 10 elements and spans 2 channels where the others span all 11
    td = batch_norm_tiling(TINY, (2, 11, 47), 4).data
    v = td.vector
    last = v.total_units - v.per_block * (v.block_dim - 1)
    assert (v.block_dim, v.per_block, last) == (3, 512, 10)
    assert (td.param_load_bytes(v.per_block), td.param_load_bytes(last)) == (11 * 16, 2 * 16)
    spec = tile_program(td, {})
    assert spec.blocks[0] is spec.blocks[v.block_dim - 2] and spec.blocks[-1] is not spec.blocks[0]


def test_op_def_defaults():
    names = [p.name for p in BATCH_NORM.params]
    assert names == ["input", "weight", "bias", "runningMean", "runningVar", "training", "momentum", "eps",
                     "output", "saveMean", "saveInvstd"]
    assert {p.name: p.default for p in BATCH_NORM.attrs} == {"training": False, "momentum": 0.1, "eps": 1e-5}
    assert BATCH_NORM.infer(input=((2, 3, 4), "dt"), runningMean=((3,), "dt"), runningVar=((3,), "dt")) == \
        [((2, 3, 4), "dt")]
