"""ChipConfig: presets, JSON/YAML persistence, validation errors that name the field."""
from __future__ import annotations

import pydantic
import pytest

from npu_sim import PRESETS, ChipConfig, get_chip
from npu_sim.chips.presets import TINY


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("suffix", [".json", ".yaml", ".yml"])
def test_preset_round_trips_through_file(tmp_path, name, suffix):
    """Every preset saved as JSON or YAML loads back equal, field for field."""
    chip = PRESETS[name]
    path = tmp_path / f"{name}{suffix}"
    chip.to_file(path)
    loaded = ChipConfig.from_file(path)
    assert loaded == chip
    assert loaded.model_dump() == chip.model_dump()
    assert get_chip(str(path)) == chip


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_are_valid_and_keyed_by_name(name):
    """Each preset re-validates cleanly and is registered under its own name."""
    chip = PRESETS[name]
    assert chip.name == name
    assert ChipConfig.model_validate(chip.model_dump()) == chip
    assert get_chip(name) is chip


def test_910b2_figures_match_design_table():
    """The default preset carries the DESIGN.md section 4 figures."""
    c = get_chip("ascend910b2")
    assert (c.aic_count, c.aiv_count, c.clock_hz) == (24, 48, 1.8e9)
    assert (c.ub_bytes, c.l1_bytes, c.l0c_bytes) == (192 * 1024, 512 * 1024, 128 * 1024)
    assert c.cube_fp16_macs_per_cycle == 16 * 16 * 16
    # 24 x 4096 MAC x 2 x 1.8 GHz ~ 354 TFLOP/s
    assert c.peak_flops("float16") == pytest.approx(353.9e12, rel=1e-3)


@pytest.mark.parametrize("field, value", [("aic_count", 0), ("clock_hz", -1.0), ("ub_bytes", 0),
                                          ("hbm_bandwidth_bytes_per_ns", 0.0), ("dma_latency_ns", -5.0)])
def test_invalid_value_names_the_field(field, value):
    """An out-of-range figure raises pydantic.ValidationError whose location is the field."""
    data = dict(TINY.model_dump(), **{field: value})
    with pytest.raises(pydantic.ValidationError) as exc:
        ChipConfig.model_validate(data)
    assert [e["loc"] for e in exc.value.errors()] == [(field,)]
    assert field in str(exc.value)


def test_unknown_field_is_rejected_by_name():
    """extra="forbid": a misspelt key is named in the error, not silently ignored."""
    with pytest.raises(pydantic.ValidationError) as exc:
        ChipConfig.model_validate(dict(TINY.model_dump(), ub_byte=1))
    assert "ub_byte" in str(exc.value)


def test_separated_chip_without_vector_cores_is_invalid():
    """The architecture check names aiv_count when a separated chip has no AIV."""
    with pytest.raises(pydantic.ValidationError, match="aiv_count"):
        ChipConfig.model_validate(dict(TINY.model_dump(), aiv_count=0))


def test_invalid_yaml_file_names_the_field(tmp_path):
    """Loading a YAML file with a bad value fails with the field's name."""
    path = tmp_path / "bad.yaml"
    TINY.to_file(path)
    path.write_text(path.read_text().replace("aic_count: 2", "aic_count: -3"))
    with pytest.raises(pydantic.ValidationError, match="aic_count"):
        ChipConfig.from_file(path)


def test_unknown_suffix_and_unknown_name(tmp_path):
    """A non-.json/.yaml path is a ValueError; an unknown preset a KeyError listing the presets."""
    toml = tmp_path / "chip.toml"
    with pytest.raises(ValueError, match=r"\.json or \.yaml"):
        TINY.to_file(toml)
    toml.write_text("name = 'x'")
    with pytest.raises(ValueError, match=r"\.json or \.yaml"):
        ChipConfig.from_file(toml)
    with pytest.raises(KeyError, match="tiny"):
        get_chip("ascend9999")


def test_config_is_frozen():
    """Presets are shared objects: assignment is refused (variants come from model_copy)."""
    with pytest.raises(pydantic.ValidationError):
        TINY.aic_count = 3
    variant = TINY.model_copy(update={"aic_count": 3})
    assert variant.aic_count == 3 and TINY.aic_count == 2


def test_derived_figures():
    """ns_per_cycle and vector_core_count follow from the fields and the architecture."""
    assert TINY.ns_per_cycle == pytest.approx(1.0)
    assert get_chip("ascend910b2").vector_core_count == 48
    p = get_chip("ascend310p3")  # coupled: AI Cores' vector units count as well
    assert p.vector_core_count == p.aic_count + p.aiv_count


# ---- sanity validation (robustness) -------------------------------------------------------------
ALIGN_FIELDS = ["ub_align_bytes", "l1_align_bytes", "l0ab_align_bytes", "l0c_align_bytes", "malloc_align_bytes",
                "malloc_round_bytes"]


@pytest.mark.parametrize("field", ALIGN_FIELDS)
@pytest.mark.parametrize("value", [0, -32, 3, 48, 96])
def test_alignment_must_be_a_positive_power_of_two(field, value):
    """0, negative and non-power-of-two alignments are refused at load, naming the field
    (they used to fail much later, e.g. ZeroDivisionError inside acl.rt.malloc)."""
    with pytest.raises(pydantic.ValidationError) as exc:
        ChipConfig.model_validate(dict(TINY.model_dump(), **{field: value}))
    assert [e["loc"] for e in exc.value.errors()] == [(field,)]
    assert "power of two" in str(exc.value)


def test_malloc_alignment_keeps_tensor_addresses_32_byte_aligned():
    """aclCreateTensor needs 32 B aligned addresses: malloc_align_bytes below 32 is refused."""
    with pytest.raises(pydantic.ValidationError, match="malloc_align_bytes"):
        ChipConfig.model_validate(dict(TINY.model_dump(), malloc_align_bytes=16))
    assert ChipConfig.model_validate(dict(TINY.model_dump(), malloc_align_bytes=4096)).malloc_align_bytes == 4096


FLOAT_FIELDS = ["clock_hz", "l2_bandwidth_bytes_per_ns", "hbm_bandwidth_bytes_per_ns",
                "host_link_bandwidth_bytes_per_ns", "dma_latency_ns", "kernel_launch_ns", "vector_issue_ns"]


@pytest.mark.parametrize("field", FLOAT_FIELDS)
@pytest.mark.parametrize("value", [float("inf"), float("nan"), float("-inf")])
def test_non_finite_figures_are_refused(field, value):
    """inf / nan never reach the simulator: the error names the field."""
    with pytest.raises(pydantic.ValidationError) as exc:
        ChipConfig.model_validate(dict(TINY.model_dump(), **{field: value}))
    assert [e["loc"] for e in exc.value.errors()] == [(field,)]


@pytest.mark.parametrize("field, value, bound", [
    ("clock_hz", 1e-300, "1000000"), ("clock_hz", 5e5, "1000000"), ("clock_hz", 1e12, "100000000000"),
    ("hbm_bandwidth_bytes_per_ns", 1e-9, "0.001"), ("l2_bandwidth_bytes_per_ns", 1e7, "1000000"),
    ("host_link_bandwidth_bytes_per_ns", 1e300, "1000000"), ("kernel_launch_ns", 1e20, "1000000000"),
    ("dma_latency_ns", 2e9, "1000000000"), ("hbm_bytes", 2 ** 43, str(2 ** 42)), ("l2_bytes", 2 ** 50, str(2 ** 42)),
    ("aic_count", 10 ** 9, "4096"), ("ub_bytes", 2 ** 31, str(2 ** 30))])
def test_absurd_figures_are_outside_the_documented_bounds(field, value, bound):
    """Sanity bounds (npu_sim.chips.base.BOUNDS): a figure outside them is refused, naming
    the field and the bound."""
    with pytest.raises(pydantic.ValidationError) as exc:
        ChipConfig.model_validate(dict(TINY.model_dump(), **{field: value}))
    assert [e["loc"] for e in exc.value.errors()] == [(field,)]
    assert bound in str(exc.value)


def test_bounds_admit_every_preset_and_are_documented():
    """The bounds are wide: every preset sits well inside them; the module documents them."""
    from npu_sim.chips import base
    assert {"clock_hz", "hbm_bandwidth_bytes_per_ns", "hbm_bytes", "kernel_launch_ns"} <= set(base.BOUNDS)
    for chip in PRESETS.values():
        for field, (lo, hi) in base.BOUNDS.items():
            assert lo <= getattr(chip, field) <= hi, (chip.name, field)
            assert getattr(chip, field) * 10 <= hi, (chip.name, field)   # well away from the upper bound
    for field in base.BOUNDS:
        assert field in base.__doc__ or field.endswith("_per_cycle"), field


def test_yaml_syntax_error_is_a_value_error_naming_the_file(tmp_path):
    """A file that is not YAML at all fails with a ValueError naming the path (not a
    yaml.ParserError), and one that is not a mapping with a ValidationError."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed\n  aic_count: 2\n")
    with pytest.raises(ValueError, match="bad.yaml") as exc:
        ChipConfig.from_file(bad)
    assert "YAML" in str(exc.value)
    bad.write_text("- just\n- a list\n")
    with pytest.raises(pydantic.ValidationError):
        ChipConfig.from_file(bad)
    js = tmp_path / "bad.json"
    js.write_text("{not json")
    with pytest.raises(ValueError, match="bad.json"):
        ChipConfig.from_file(js)


@pytest.mark.parametrize("value", [123, 1.5, None, b"tiny", ["tiny"]])
def test_get_chip_refuses_non_string_with_a_type_error(value):
    """get_chip takes a name, a path or a ChipConfig: anything else is a TypeError that
    says so (it used to be an AttributeError from ``.endswith``)."""
    with pytest.raises(TypeError, match="preset name"):
        get_chip(value)


def test_get_chip_accepts_a_pathlike(tmp_path):
    path = tmp_path / "chip.yaml"
    TINY.to_file(path)
    assert get_chip(path) == TINY
