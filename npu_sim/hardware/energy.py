"""A first-order energy ESTIMATE of a kernel run: dynamic energy per MAC and per byte
moved at each memory level, plus static power over the run's duration.

    E = sum_dtype MACs x e_mac(dtype)
      + HBM bytes x e_hbm + L2 hit bytes x e_l2 + L1/UB bytes x e_l1 + L0 bytes x e_l0
      + P_static x duration

This is an estimate for comparing design points (what a bigger L2 saves in HBM
traffic, what a slower clock costs in static energy), not a power model of any
real chip: no public per-event energy figure exists for Ascend parts.

Figures and sources (units: pJ per MAC, pJ per byte, W):

================  ========  ==========================================================
figure            value     source
================  ========  ==========================================================
e_mac fp32        4.6 pJ    [H14] 45 nm: fp32 multiply 3.7 pJ + add 0.9 pJ
e_mac fp16/bf16   1.5 pJ    [H14] 45 nm: fp16 multiply 1.1 pJ + add 0.4 pJ
e_mac int8        0.23 pJ   [H14] 45 nm: int8 multiply 0.2 pJ + add 0.03 pJ
e_mac hf32        2.3 pJ    [A] between fp16 and fp32 (half the fp32 figure)
L0 (per byte)     0.6 pJ    [H14] 8 KB SRAM, 64-bit read 10 pJ = 1.25 pJ/B, halved for
                            the smaller 64 KB-class L0 banks read as wide rows [A]
L1 / UB           2.5 pJ    [H14] 32 KB SRAM, 64-bit read 20 pJ = 2.5 pJ/B
L2 (per byte)     12.5 pJ   [H14] 1 MB SRAM, 64-bit read 100 pJ = 12.5 pJ/B
HBM (per byte)    31 pJ     [OC17] HBM2 about 3.9 pJ/bit (x 8 bits)
process scale     0.25      [A] 45 nm logic/SRAM figures scaled to a 7 nm-class process
                            (applied to MAC, L0, L1/UB and L2, not to HBM)
P_static          60 W      [A] leakage + clock tree of a ~300 W-class accelerator
                            (scaled by the core count against a 24-AIC chip)
================  ========  ==========================================================

[H14] M. Horowitz, "Computing's energy problem (and what we can do about it)",
ISSCC 2014 (45 nm figures, widely reproduced). [OC17] M. O'Connor et al.,
"Fine-Grained DRAM: Energy-Efficient DRAM for Extreme Bandwidth Systems", MICRO
2017 (HBM2 access energy). [A] assumption.

Traffic per level (first order, [A]): HBM and L2 bytes are the simulator's counters
(``hbm_bytes``, ``l2_hit_bytes``); every GM byte an MTE moves is written into L1/UB
once and read out once (``2 x gm_bytes``); the Cube reads each operand element from
L0A/L0B once per 16-wide reuse of its 16x16x16 fractal (``2 x MACs x itemsize / 16``).
"""
from __future__ import annotations

from dataclasses import dataclass

#: pJ per MAC by cube input dtype at 45 nm [H14]
MAC_PJ_45NM = {"float32": 4.6, "float16": 1.5, "bfloat16": 1.5, "int8": 0.23, "hf32": 2.3}
#: pJ per byte read at each level at 45 nm [H14]; HBM [OC17]
BYTE_PJ = {"l0": 0.6, "l1_ub": 2.5, "l2": 12.5, "hbm": 31.0}
#: 45 nm -> 7 nm-class scale for logic and SRAM figures [A]
PROCESS_SCALE = 0.25
#: static power of a 24-AIC chip [A]
STATIC_W_24_AIC = 60.0
ITEMSIZE = {"float32": 4, "float16": 2, "bfloat16": 2, "int8": 1, "hf32": 4}


@dataclass(frozen=True)
class EnergyModel:
    """Per-event energies (pJ) and static power (W); defaults from the module table."""

    mac_pj: dict
    l0_pj_per_byte: float
    l1_pj_per_byte: float
    l2_pj_per_byte: float
    hbm_pj_per_byte: float
    static_w: float

    @classmethod
    def for_chip(cls, chip) -> "EnergyModel":
        """The default model for a ChipConfig: static power scaled by ``aic_count / 24``."""
        s = PROCESS_SCALE
        return cls({k: v * s for k, v in MAC_PJ_45NM.items()}, BYTE_PJ["l0"] * s, BYTE_PJ["l1_ub"] * s,
                   BYTE_PJ["l2"] * s, BYTE_PJ["hbm"], STATIC_W_24_AIC * chip.aic_count / 24)

    def kernel_pj(self, record: dict) -> dict[str, float]:
        """Energy of one kernel record (``Device.kernel_records`` entry) in pJ, split
        into ``mac``, ``l0``, ``l1_ub``, ``l2``, ``hbm``, ``static`` and ``total``.
        Reads ``flops``, ``dtype``, ``gm_bytes``, ``hbm_bytes``, ``l2_hit_bytes``,
        ``pipe_busy_ns`` and ``dur_ns``; missing fields count as 0."""
        dtype = str(record.get("dtype") or "float16")
        flops = float(record.get("flops", 0) or 0)
        cube = float((record.get("pipe_busy_ns") or {}).get("CUBE", 0.0))
        macs = flops / 2.0
        mac_pj = self.mac_pj.get(dtype, self.mac_pj["float32"])
        out = {
            "mac": macs * mac_pj,
            "l0": (2.0 * macs * ITEMSIZE.get(dtype, 4) / 16.0) * self.l0_pj_per_byte if cube > 0 else 0.0,
            "l1_ub": 2.0 * float(record.get("gm_bytes", 0) or 0) * self.l1_pj_per_byte,
            "l2": float(record.get("l2_hit_bytes", 0) or 0) * self.l2_pj_per_byte,
            "hbm": float(record.get("hbm_bytes", 0) or 0) * self.hbm_pj_per_byte,
            # W x ns = 1e-9 J = 1e3 pJ
            "static": self.static_w * float(record.get("dur_ns", 0.0)) * 1e3,
        }
        out["total"] = sum(out.values())
        return out

    def run_pj(self, records: list[dict], latency_ns: float) -> dict[str, float]:
        """Energy of a run (pJ): the dynamic parts summed over ``records``, static power
        over the whole ``latency_ns`` (idle gaps between kernels leak too)."""
        tot = {k: 0.0 for k in ("mac", "l0", "l1_ub", "l2", "hbm")}
        for r in records:
            e = self.kernel_pj(r)
            for k in tot:
                tot[k] += e[k]
        tot["static"] = self.static_w * latency_ns * 1e3
        tot["total"] = sum(tot.values())
        return tot


__all__ = ["EnergyModel", "MAC_PJ_45NM", "BYTE_PJ", "PROCESS_SCALE", "STATIC_W_24_AIC"]
