"""Embedding tiling without a device: row chunking against the UB budget, bytes, block_dim."""
from npu_sim import PRESETS
from opsnn.transform.embedding.infershape import infer_shape
from opsnn.transform.embedding.tiling import embedding_tiling
from opsnn.transform.embedding.tiling_data import INDEX_UB_BYTES, EmbeddingTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def test_short_rows_are_gathered_whole():
    # MiniLM: 384 fp32 per row, int64 indices
    for chip in (TINY, B2):
        res = embedding_tiling(chip, 32, 384, 4, 8)
        td, v = res.data, res.data.vector
        assert (res.strategy, res.tiling_key, res.workspace_bytes) == ("gather", EmbeddingTilingKey.GATHER, 0)
        assert (td.chunk_elems, td.chunks_per_row, td.units) == (384, 1, 32)
        # a 1536 B row (whole 32 B blocks) + its 8 B index in; the row out; no Vector work
        assert td.unit_bytes() == (1536 + 8, 1536, 0)
        assert v.total_units == 32 and v.ub_bytes_used <= chip.ub_bytes


def test_long_rows_are_chunked_to_fit_two_slots_in_ub():
    res = embedding_tiling(TINY, 5, 10000, 4, 4)
    td = res.data
    assert td.chunks_per_row >= 2 and td.chunk_elems * td.chunks_per_row >= 10000
    assert td.chunk_elems * (td.chunks_per_row - 1) < 10000
    # two queue slots of (chunk in + chunk out) fit beside the index tile and 128 B of slack
    assert 4 * td.chunk_elems * 4 <= TINY.ub_bytes - INDEX_UB_BYTES - 128
    assert td.vector.total_units == 5 * td.chunks_per_row and td.vector.ub_bytes_used <= TINY.ub_bytes


def test_shape_inference():
    assert infer_shape((1000, 64), "f", (2, 7)) == [((2, 7, 64), "f")]
