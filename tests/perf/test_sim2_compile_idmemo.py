"""``compile_program``'s identity memo (hardware/cost.py ``stage_id_memo``: id(Stage) ->
(the Stage, its terms), looked up before the value memo) gives what ``stage_terms``
computes, the reference: Stage objects shared by many programs, freed and replaced by
new ones of other values (ids may be reused: an entry holds its Stage, so a reused id
belongs to a new object only after the memo is cleared), over the memo's size bound,
with an AIV split."""
from __future__ import annotations

import gc
import random

import pytest

from npu_sim import BlockProgram, GmRange, Pipe, Stage, TileSpec
from npu_sim.chips import PRESETS
from npu_sim.hardware import cost
from npu_sim.hardware.cost import stage_terms
from npu_sim.hardware.pipeline import compile_program


def _stage(rng):
    p = rng.choice([Pipe.MTE2, Pipe.VECTOR, Pipe.MTE3, Pipe.MTE1, Pipe.CUBE, Pipe.FIXPIPE])
    n = rng.choice([0, 512, 4096, 70001])
    return Stage(p, nbytes=n, macs=rng.choice([0, 4096]), vector_bytes=rng.choice([0, 8192]),
                 gm_ranges=tuple(GmRange(max(1, n // 2), run_bytes=rng.choice([0, 33]), key=rng.choice([None, ("A", k)]))
                                 for k in range(rng.randint(0, 2))))


@pytest.mark.parametrize("split", [1, 2])
def test_identity_memo_gives_stage_terms(monkeypatch, split):
    c = PRESETS["tiny"]
    rng = random.Random(split)
    for rnd in range(30):
        shared = [_stage(rng) for _ in range(3)]
        progs = []
        for _ in range(5):
            stages = tuple(rng.choice(shared) if rng.random() < 0.5 else _stage(rng) for _ in range(3))
            progs.append(BlockProgram((TileSpec(stages, rng.randint(1, 3)), TileSpec(stages, 1))))
        for prog in progs:
            p0 = prog.pipes
            if any(tuple(s.pipe for s in g.stages) != p0 for g in prog.tiles):
                continue
            cp = compile_program(c, prog, split)
            ref = [[(g.count,) + stage_terms(c, g.stages[s], split) for g in prog.tiles] for s in range(len(p0))]
            assert cp.groups == ref, rnd
        del shared, progs
        gc.collect()
        if rnd % 10 == 9:   # the memos cleared mid-run, as their size bound does
            cost._ID_MEMOS.clear()
            cost._MEMOS.clear()


def test_one_tile_table_made_on_demand():
    """A one-tile program's ``tiles`` table is made at its first use (the one-tile loops
    read ``stages``), equal to the table of the TileSpecs it expands; others' in phase 1."""
    from npu_sim.hardware.pipeline import _tile_table
    c = PRESETS["tiny"]
    st = (Stage(Pipe.MTE2, nbytes=512), Stage(Pipe.VECTOR, vector_bytes=512), Stage(Pipe.MTE3, nbytes=512))
    one = compile_program(c, BlockProgram((TileSpec(st, 1),)))
    two = compile_program(c, BlockProgram((TileSpec(st, 2),)))
    assert one.single and one._tiles is None and two._tiles is not None
    assert one.tiles == [_tile_table(g) for g in one.groups] and one._tiles is one.tiles
    assert len(two.tiles[0]) == 2
