"""Experiment validation: one test per kind of mistake, each error naming its field."""
from __future__ import annotations

import pytest

from frontend.sweep import Experiment, ExperimentError

OP = {"op": "softmax", "shapes": [[64, 256]]}


def _exp(**kw):
    data = {"chip": "tiny", "workloads": [OP]}
    data.update(kw)
    return Experiment.from_dict(data)


def _fails(match: str, **kw):
    with pytest.raises(ExperimentError, match=match):
        _exp(**kw)


def test_valid_points_cross_axes_and_zip_in_order():
    e = _exp(axes={"hbm_bandwidth_bytes_per_ns": [25, 50], "ub_bytes": {"start": 8192, "stop": 16384, "step": 8192}},
             zipped=[{"aic_count": [1, 2], "aiv_count": [2, 4]}])
    pts = e.points()
    assert len(pts) == 2 * 2 * 2
    assert pts[0] == {"hbm_bandwidth_bytes_per_ns": 25, "ub_bytes": 8192, "aic_count": 1, "aiv_count": 2}
    assert pts[-1] == {"hbm_bandwidth_bytes_per_ns": 50, "ub_bytes": 16384, "aic_count": 2, "aiv_count": 4}
    assert isinstance(pts[0]["ub_bytes"], int)          # a float range value of an int field becomes an int
    assert e.varied() == ["hbm_bandwidth_bytes_per_ns", "ub_bytes", "aic_count", "aiv_count"]
    assert e.chip_at(pts[-1]).aic_count == 2


def test_log_range():
    e = _exp(axes={"hbm_bandwidth_bytes_per_ns": {"start": 10, "stop": 1000, "num": 3, "scale": "log"}})
    assert [round(p["hbm_bandwidth_bytes_per_ns"], 6) for p in e.points()] == [10, 100, 1000]


def test_unknown_chip_field():
    _fails(r"axes\.hbm_bandwith: not a chip config field", axes={"hbm_bandwith": [1, 2]})


def test_label_field_is_not_an_axis():
    _fails(r"axes\.name: not a chip config field", axes={"name": ["a", "b"]})


def test_impossible_value_names_field_and_point():
    _fails(r"impossible chip at point \(aic_count=0\): aic_count: Input should be greater than 0",
           axes={"aic_count": [2, 0]})


def test_impossible_value_beyond_sanity_bound():
    _fails(r"hbm_bandwidth_bytes_per_ns=1e\+300.*less than or equal", axes={"hbm_bandwidth_bytes_per_ns": [1e300]})


def test_alignment_not_power_of_two():
    _fails(r"ub_align_bytes must be a positive power of two", axes={"ub_align_bytes": [32, 48]})


def test_fractional_int_field():
    _fails(r"ub_bytes.*integer", axes={"ub_bytes": [1000.5]})


def test_fixed_override_checked_too():
    _fails(r"fixed\.l2_size: not a chip config field", fixed={"l2_size": 1})


def test_field_varied_twice():
    _fails(r"zipped\[0\]\.aic_count: already varied in axes",
           axes={"aic_count": [1, 2]}, zipped=[{"aic_count": [1, 2], "aiv_count": [2, 4]}])


def test_zipped_lengths_differ():
    _fails(r"zipped\[0\]: lists of unequal length \[2, 3\]", zipped=[{"aic_count": [1, 2], "aiv_count": [2, 4, 6]}])


def test_empty_axis():
    _fails(r"axes\.aic_count: empty list", axes={"aic_count": []})


def test_bad_range():
    _fails(r"exactly one of step or num", axes={"aic_count": {"start": 1, "stop": 2, "step": 1, "num": 2}})
    _fails(r"step must be > 0", axes={"aic_count": {"start": 4, "stop": 2, "step": 1}})


def test_unknown_chip_preset():
    with pytest.raises(ExperimentError, match=r"chip: unknown chip 'ascend999'"):
        Experiment.from_dict({"chip": "ascend999", "workloads": [OP]})


def test_unknown_metric():
    _fails(r"metrics: unknown metric\(s\) 'latency'", metrics=["latency"])


def test_graph_mode_is_the_default_for_models():
    from frontend.sweep.experiment import Experiment
    exp = Experiment.model_validate({"chip": "tiny", "workloads": [{"op": "softmax", "shapes": [[8, 8]]}]})
    assert exp.mode == "graph"


def test_bad_mode():
    _fails(r"mode: Input should be 'eager' or 'graph'", mode="lazy")


def test_unknown_top_level_key():
    _fails(r"axis: Extra inputs are not permitted", axis={"aic_count": [1]})


def test_no_workloads():
    _fails(r"workloads: List should have at least 1 item", workloads=[])


def test_workload_without_kind():
    _fails(r"workloads\.0: a workload needs exactly one of the keys model, transformer, op",
           workloads=[{"shapes": [[1, 2]]}])


def test_workload_with_two_kinds():
    _fails(r"workloads\.0: a workload needs exactly one", workloads=[{"op": "add", "model": "x"}])


def test_unknown_op():
    _fails(r"workloads\.0\.op: unknown op 'conv'", workloads=[{"op": "conv", "shapes": [[1, 2]]}])


def test_wrong_number_of_shapes():
    _fails(r"op matmul takes 2 input shape\(s\), got 1", workloads=[{"op": "matmul", "shapes": [[4, 4]]}])


def test_inconsistent_matmul_shapes():
    _fails(r"matmul needs \[\[M, K\], \[K, N\]\]", workloads=[{"op": "matmul", "shapes": [[4, 8], [4, 8]]}])


def test_bad_dimension():
    _fails(r"workloads\.0\.op\.shapes\.0\.1: Input should be greater than or equal to 1",
           workloads=[{"op": "softmax", "shapes": [[4, 0]]}])


def test_unknown_transformer_preset():
    _fails(r"workloads\.0\.transformer\.preset: .*unknown transformer preset 'gpt-9'",
           workloads=[{"transformer": "encoder", "preset": "gpt-9"}])


def test_unknown_transformer_kind():
    _fails(r"workloads\.0\.transformer\.transformer: Input should be 'encoder' or 'decoder'",
           workloads=[{"transformer": "mixer"}])


def test_yaml_errors(tmp_path):
    p = tmp_path / "e.yaml"
    p.write_text("chip: [tiny\n")
    with pytest.raises(ExperimentError, match="not valid YAML"):
        Experiment.from_yaml(p)
    p.write_text("- a\n- b\n")
    with pytest.raises(ExperimentError, match="must be a mapping, got list"):
        Experiment.from_yaml(p)
    with pytest.raises(ExperimentError, match="cannot read experiment"):
        Experiment.from_yaml(tmp_path / "missing.yaml")


def test_example_experiments_validate():
    from pathlib import Path
    files = sorted((Path(__file__).resolve().parents[3] / "experiments").glob("*.yaml"))
    assert len(files) >= 5
    for f in files:
        assert Experiment.from_yaml(f).points()


def test_cli_bad_experiment_is_one_line(tmp_path, capsys):
    from frontend.cli import main
    p = tmp_path / "bad.yaml"
    p.write_text("chip: tiny\naxes: {aic_cnt: [1, 2]}\nworkloads: [{op: softmax, shapes: [[8, 8]]}]\n")
    assert main(["sweep", str(p), "--out", str(tmp_path / "o")]) == 2
    out = capsys.readouterr().err          # errors go to stderr (npu-sim's rule)
    assert "error:" in out and "axes.aic_cnt: not a chip config field" in out and "Traceback" not in out
