"""Built-in transformer workloads: tiny encoder layer and decoder step against float64
numpy references of the same layers, the presets in timing-only mode, and errors."""
from __future__ import annotations

import numpy as np
import pytest

from acl_runtime.api import Session
from opsnn import OpError
from frontend.workloads import (PRESETS, decoder_step, decoder_step_reference, encoder_layer, encoder_layer_reference,
                                main, simulate)
from tests.conftest import rel_err

TINY_BERT = PRESETS["bert-base"].with_(name="tiny-bert", hidden=32, heads=2, ffn=64, dtype="float32")
TINY_LLAMA = PRESETS["llama-7b"].with_(name="tiny-llama", hidden=32, heads=4, kv_heads=2, ffn=48, dtype="float32")


@pytest.mark.parametrize("lengths", [None, [8, 5]])
def test_encoder_layer_matches_float64(lengths):
    with Session("tiny") as s:
        wl = encoder_layer(s, TINY_BERT, batch=2, seq=8, lengths=lengths, seed=3)
        res = wl.run()
        ref = encoder_layer_reference(wl)
    assert res.outputs["y"].shape == (2, 8, 32)
    assert rel_err(res.outputs["y"], ref) < 1e-5
    labels = [o.label for o in res.ops]
    assert labels == ["q_proj", "k_proj", "v_proj", "attention", "o_proj", "residual_1", "norm_1", "ffn_up", "gelu",
                      "ffn_down", "residual_2", "norm_2"]
    assert all(o.device_ns > 0 and o.kernels >= 1 for o in res.ops)
    assert res.latency_ns >= sum(o.device_ns for o in res.ops) > 0
    assert res.by_kind()["aclnnFlashAttentionScore"] == res.ops[3].device_ns


def test_encoder_layer_mask_changes_padded_rows_only_through_keys():
    """With lengths [8, 5] the first sequence is unchanged and the second differs."""
    with Session("tiny") as s:
        full = encoder_layer(s, TINY_BERT, batch=2, seq=8, seed=3).run().outputs["y"]
    with Session("tiny") as s:
        masked = encoder_layer(s, TINY_BERT, batch=2, seq=8, lengths=[8, 5], seed=3).run().outputs["y"]
    assert rel_err(masked[0], full[0]) < 1e-6 and rel_err(masked[1], full[1]) > 1e-3


def test_encoder_layer_float16():
    cfg = TINY_BERT.with_(dtype="float16")
    with Session("tiny") as s:
        wl = encoder_layer(s, cfg, batch=1, seq=16, lengths=[11], seed=4)
        res = wl.run()
        ref = encoder_layer_reference(wl)
    assert res.outputs["y"].dtype == np.float16 and rel_err(res.outputs["y"], ref) < 1e-2


@pytest.mark.parametrize("cfg", [TINY_LLAMA, TINY_LLAMA.with_(kv_heads=None)])
def test_decoder_step_with_kv_cache_matches_float64(cfg):
    with Session("tiny") as s:
        wl = decoder_step(s, cfg, batch=2, cache_len=5, max_cache=9, seed=5)
        res = wl.run()
        ref = decoder_step_reference(wl, 5)
    assert res.outputs["y"].shape == (2, 1, 32)
    assert rel_err(res.outputs["y"], ref) < 1e-5
    # the new k/v landed in row 5 of the caches; the rows before are untouched
    k_cache = res.outputs["k_cache"]
    assert np.array_equal(k_cache[:, :5], wl.host["k_cache"][:, :5])
    hn = wl.host["x"][:, 0].astype(np.float64)
    hn = hn / np.sqrt((hn ** 2).mean(-1, keepdims=True) + cfg.eps) * wl.host["norm1.g"]
    assert rel_err(k_cache[:, 5], hn @ wl.host["wk"]) < 1e-5
    assert np.array_equal(k_cache[:, 6:], wl.host["k_cache"][:, 6:])
    assert [o.label for o in res.ops][:7] == ["norm_1", "q_proj", "k_proj", "v_proj", "k_cache_write",
                                              "v_cache_write", "attention"]


def test_presets_run_timing_only():
    enc = simulate("encoder", "bert-base", batch=2, seq=128)
    dec = simulate("decoder", "llama-7b", batch=1, cache_len=1024)
    assert enc.outputs == {} and dec.outputs == {}
    assert enc.latency_ns > 0 and dec.latency_ns > 0
    # a decode step is bound by reading ~200 M fp16 weights: the FFN matmuls dominate
    kinds = dec.by_kind()
    assert kinds["aclnnMatmul"] > 0.7 * sum(kinds.values())
    ffn = sum(o.device_ns for o in dec.ops if o.label.startswith("ffn_"))
    qkvo = sum(o.device_ns for o in dec.ops if o.label in ("q_proj", "k_proj", "v_proj", "o_proj"))
    assert 1.5 < ffn / qkvo < 4.0  # 3 x 4096 x 11008 vs 4 x 4096 x 4096 weights: 2.0


def test_bad_sizes_raise():
    with Session("tiny") as s:
        with pytest.raises(ValueError, match="must split into 3 heads"):
            encoder_layer(s, TINY_BERT.with_(heads=3), batch=1, seq=4)
        with pytest.raises(ValueError, match="max_cache 4 must exceed cache_len 5"):
            decoder_step(s, TINY_LLAMA, batch=1, cache_len=5, max_cache=4)


def test_phase1_failure_is_an_op_error():
    """A head dim the tiny chip cannot tile: FlashAttentionScore's phase 1 returns
    561002 and the builder raises OpError naming the layer and op."""
    cfg = TINY_BERT.with_(hidden=4096, heads=1, ffn=16)
    with Session("tiny", timing_only=True) as s:
        with pytest.raises(OpError) as e:
            encoder_layer(s, cfg, batch=1, seq=16)
    assert e.value.code == 561002 and "attention" in str(e.value)


def test_main_prints_breakdown(capsys):
    assert main(["decoder", "--cache-len", "256", "--chip", "ascend910b4"]) == 0
    out = capsys.readouterr().out
    assert "decoder_step[llama-7b" in out and "ffn_down" in out and "ascend910b4" in out


def test_main_writes_a_trace(tmp_path, capsys):
    """--trace FILE.json: a valid trace whose kernels are the breakdown's (one aclnn
    host span per op of the table); a path that cannot be written fails before the run."""
    import json

    from traces import validate_trace
    path = tmp_path / "enc.json"
    assert main(["encoder", "--seq", "16", "--chip", "tiny", "--trace", str(path)]) == 0
    out = capsys.readouterr().out
    assert str(path) in out
    trace = json.loads(path.read_text())
    assert validate_trace(trace)["spans"] > 0
    res = simulate("encoder", chip="tiny", seq=16)
    host = [e["name"] for e in trace["traceEvents"] if e.get("ph") == "X" and str(e.get("name")).startswith("aclnn")
            and not str(e["name"]).endswith("GetWorkspaceSize")]
    assert sorted(set(host)) == sorted({o.aclnn for o in res.ops})
    assert main(["encoder", "--chip", "tiny", "--trace", str(tmp_path / "no" / "x.json")]) == 2
    assert "does not exist" in capsys.readouterr().err
