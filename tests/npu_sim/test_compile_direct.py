"""``compile_program``'s fast path (pipeline.py ``DIRECT_TABLES``: per-Stage entries kept in
the identity memo, the general loop's table built row by row; cost.py ``SHAPE_MEMO``: GM
stages looked up by their shape, keys neither hashed nor compared) gives what the
reference gives: ``_compile_reference`` (value memo, tables from ``_tile_table``), whose
entries are checked against ``stage_terms`` itself. Random programs: shared and equal
Stage objects, GM ranges with and without keys (unhashable keys too), zero-byte stages,
GM pipes given as plain str, TileSpecs of count 0, 1 and more, an AIV split, two chips."""
from __future__ import annotations

import random

import pytest

from npu_sim import BlockProgram, GmRange, Pipe, Stage, TileSpec
from npu_sim.chips import PRESETS
from npu_sim.hardware import cost, pipeline
from npu_sim.hardware.cost import stage_terms
from npu_sim.hardware.pipeline import _tile_table, compile_program

_FIELDS = ("pipes", "groups", "n", "single", "one_tile", "stages", "distinct_pipes", "tiles")


def _key(rng, k):
    r = rng.random()
    if r < 0.3:
        return None
    if r < 0.4:
        return ["W", k]   # unhashable: no value memo
    return ("A", rng.randint(0, 3), k)


def _stage(rng, pipe):
    n = rng.choice([0, 512, 4096, 70001, 1 << 20])
    ranges = tuple(GmRange(rng.choice([0, max(1, n // 3), n]), run_bytes=rng.choice([0, 33, 512, 4096]),
                           key=_key(rng, k)) for k in range(rng.randint(0, 3)))
    if pipe in (Pipe.MTE2, Pipe.MTE3, Pipe.FIXPIPE) and rng.random() < 0.2:
        pipe = pipe.value   # a plain str names a GM pipe too (other pipes are told apart by identity)
    return Stage(pipe, nbytes=n, macs=rng.choice([0, 4096, 123457]), vector_bytes=rng.choice([0, 300, 8192]),
                 issues=rng.choice([0, 0, 3]), tiles=rng.choice([1, 1, 4]), gm_ranges=ranges)


def _programs(rng, count):
    pipe_sets = [(Pipe.MTE2, Pipe.VECTOR, Pipe.MTE3), (Pipe.MTE2, Pipe.MTE1, Pipe.CUBE, Pipe.FIXPIPE),
                 (Pipe.MTE2, Pipe.MTE3)]
    shared = {ps: [tuple(_stage(rng, p) for p in ps) for _ in range(3)] for ps in pipe_sets}
    out = []
    for _ in range(count):
        ps = rng.choice(pipe_sets)
        groups = []
        for _ in range(rng.randint(1, 3)):
            stages = rng.choice(shared[ps]) if rng.random() < 0.5 else tuple(_stage(rng, p) for p in ps)
            groups.append(TileSpec(stages, rng.choice([0, 1, 1, 1, 2, 3])))
        out.append(BlockProgram(tuple(groups)))
    return out


def _reference_groups(chip, prog, split):
    return [[(g.count,) + stage_terms(chip, g.stages[s], split) for g in prog.tiles if g.count > 0]
            for s in range(len(prog.pipes))]


@pytest.mark.parametrize("chip", ["ascend910b2", "tiny"])
@pytest.mark.parametrize("split", [1, 2])
def test_direct_tables_equal_reference(monkeypatch, chip, split):
    c = PRESETS[chip]
    rng = random.Random(f"{chip}{split}")
    progs = _programs(rng, 300)
    for shape_memo in (True, False):
        monkeypatch.setattr(cost, "SHAPE_MEMO", shape_memo)
        cost._SHAPE_MEMOS.clear()
        cost._ID_MEMOS.clear()
        cost._MEMOS.clear()
        for rnd in range(2):   # the second round finds every Stage in the memos
            for prog in progs:
                monkeypatch.setattr(pipeline, "DIRECT_TABLES", True)
                fast = compile_program(c, prog, split)
                monkeypatch.setattr(pipeline, "DIRECT_TABLES", False)
                ref = compile_program(c, prog, split)
                assert ref.groups == _reference_groups(c, prog, split)
                assert ref.tiles == ([_tile_table(g) for g in ref.groups] if ref.n and ref.pipes else [])
                for f in _FIELDS:
                    assert getattr(fast, f) == getattr(ref, f), (f, rnd, prog)


def test_shape_terms_keep_each_stage_keys():
    """Two stages of one shape and different keys get their own keys' pairs, in range order;
    a stage whose keyed range has no bytes gets no pair for it."""
    c = PRESETS["ascend910b2"]
    memo: dict = {}
    a = Stage(Pipe.MTE2, nbytes=8192, gm_ranges=(GmRange(4096, 64, ("A", 0)), GmRange(2048, 0, None),
                                                  GmRange(2048, 0, ["B", 0])))
    b = Stage(Pipe.MTE2, nbytes=8192, gm_ranges=(GmRange(4096, 64, ("A", 1)), GmRange(2048, 0, None),
                                                  GmRange(2048, 0, ["B", 1])))
    z = Stage(Pipe.MTE3, nbytes=4096, gm_ranges=(GmRange(0, 0, ("Z", 0)), GmRange(4096, 0, ("Y", 0))))
    for st in (a, b, a, z, z):
        assert cost.shape_terms(c, st, 1, memo) == stage_terms(c, st, 1)
    assert len(memo) == 2
    assert [k for k, _ in cost.shape_terms(c, b, 1, memo)[4]] == [("A", 1), ["B", 1]]
    assert [k for k, _ in cost.shape_terms(c, z, 1, memo)[4]] == [("Y", 0)]


def test_pipe_mismatch_still_raises():
    c = PRESETS["tiny"]
    st1 = (Stage(Pipe.MTE2, nbytes=512), Stage(Pipe.MTE3, nbytes=512))
    st2 = (Stage(Pipe.MTE2, nbytes=512), Stage(Pipe.VECTOR, vector_bytes=512))
    for direct in (True, False):
        pipeline.DIRECT_TABLES = direct
        try:
            with pytest.raises(ValueError):
                compile_program(c, BlockProgram((TileSpec(st1, 1), TileSpec(st2, 0))))
        finally:
            pipeline.DIRECT_TABLES = True
