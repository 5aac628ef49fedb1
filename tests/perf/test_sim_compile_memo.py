"""``compile_program``'s stage lookups (the value memo, hardware/cost.py
``stage_memo``) give what ``stage_terms`` computes for each stage, the reference: programs sharing Stage objects, equal Stage objects
that are distinct, stages whose L2 key is unhashable (no memo: several in one
program), compiled twice on two chips and with an AIV split."""
from __future__ import annotations

import pytest

from npu_sim import BlockProgram, GmRange, Pipe, Stage, TileSpec
from npu_sim.chips import PRESETS
from npu_sim.hardware.cost import stage_terms
from npu_sim.hardware.pipeline import compile_program


def _programs():
    shared = (Stage(Pipe.MTE2, nbytes=4096, gm_ranges=(GmRange(4096, key=("A", 1)),)),
              Stage(Pipe.VECTOR, vector_bytes=4096), Stage(Pipe.MTE3, nbytes=4096))
    equal = (Stage(Pipe.MTE2, nbytes=4096, gm_ranges=(GmRange(4096, key=("A", 1)),)),
             Stage(Pipe.VECTOR, vector_bytes=4096), Stage(Pipe.MTE3, nbytes=4096))
    unhashable = (Stage(Pipe.MTE2, nbytes=2048, gm_ranges=(GmRange(2048, key=["A", 2]),)),
                  Stage(Pipe.VECTOR, vector_bytes=2048),
                  Stage(Pipe.MTE3, nbytes=2048, gm_ranges=(GmRange(2048, key=["W", 2]),)))
    return [BlockProgram((TileSpec(shared, 3), TileSpec(equal, 2), TileSpec(shared, 1))),
            BlockProgram((TileSpec(unhashable, 2), TileSpec(shared, 1), TileSpec(unhashable, 1))),
            BlockProgram((TileSpec(equal, 4),))]


@pytest.mark.parametrize("chip", ["ascend910b2", "tiny"])
@pytest.mark.parametrize("split", [1, 2])
def test_compiled_stage_terms_equal_stage_terms(chip, split):
    c = PRESETS[chip]
    for _ in range(2):
        for prog in _programs():
            cp = compile_program(c, prog, split)
            ref = [[(g.count,) + stage_terms(c, g.stages[s], split) for g in prog.tiles] for s in range(len(prog.pipes))]
            assert cp.groups == ref
