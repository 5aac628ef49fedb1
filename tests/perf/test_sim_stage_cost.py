"""``stage_cost`` (hardware/cost.py, pipes compared by identity, issues derived
inline) agrees with the module's reference pieces: its fixed term is
``stage_issues * per-issue cost + scalar`` and its GM engine term is the bus bytes
(``gm_bus_bytes`` of every range and the uncovered rest) over the pipe's rate, on
random stages of every pipe on every chip preset; a GM pipe given as its plain str
name costs what the member costs, and ``stage_terms``' write and AIV flags find a str
name as the pipe sets do."""
from __future__ import annotations

import random

import pytest

from npu_sim import GmRange, Pipe, Stage
from npu_sim.chips import PRESETS
from npu_sim.hardware.cost import _WRITE_PIPES, gm_bus_bytes, stage_cost, stage_issues, stage_terms


def _stages(rng):
    for _ in range(300):
        p = rng.choice(list(Pipe))
        n = rng.choice([0, 1, 100, 4096, 70001])
        ranges = tuple(GmRange(rng.randint(1, max(1, n)), run_bytes=rng.choice([0, 33, 512]),
                               key=rng.choice([None, ("A", rng.randint(0, 3))])) for _ in range(rng.randint(0, 2)))
        yield Stage(p, nbytes=n, macs=rng.choice([0, 4096, 10 ** 6]), vector_bytes=rng.choice([0, 255, 8192, 10 ** 6]),
                    issues=rng.choice([0, 0, 3]), tiles=rng.choice([0, 1, 4]), gm_ranges=ranges)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_stage_cost_matches_its_reference_pieces(name):
    chip = PRESETS[name]
    rng = random.Random(3)
    for st in _stages(rng):
        c = stage_cost(chip, st)
        scalar = max(1, st.tiles) * chip.scalar_ns_per_tile
        gm = st.pipe in (Pipe.MTE2, Pipe.MTE3, Pipe.FIXPIPE)
        if gm and st.nbytes > 0:
            assert c.fixed_ns == stage_issues(chip, st) * chip.dma_latency_ns + scalar
            covered = sum(r.nbytes for r in st.gm_ranges)
            bus = sum(gm_bus_bytes(chip, r.nbytes, r.run_bytes) for r in st.gm_ranges)
            if st.nbytes > covered:
                bus += gm_bus_bytes(chip, st.nbytes - covered)
            rate = {Pipe.MTE2: chip.mte2_bytes_per_cycle, Pipe.MTE3: chip.mte3_bytes_per_cycle,
                    Pipe.FIXPIPE: chip.fixpipe_bytes_per_cycle}[st.pipe]
            assert c.engine_ns == bus / rate * chip.ns_per_cycle
            assert c.bus_bytes + sum(b for _, b in c.keyed) == bus
        elif st.pipe is Pipe.VECTOR and c.engine_ns:
            assert c.fixed_ns == stage_issues(chip, st) * chip.vector_issue_ns + scalar
        as_str = Stage(st.pipe.value, st.nbytes, st.macs, st.vector_bytes, st.dtype, st.issues, st.tiles, st.gm_ranges)
        if gm:
            assert stage_cost(chip, as_str) == c
        for split in (1, 2):
            got, ref = stage_terms(chip, as_str, split), stage_terms(chip, st, split)
            assert got[7] == (st.pipe in _WRITE_PIPES) == ref[7]
            if gm:
                assert got == ref
