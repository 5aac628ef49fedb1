"""Normalisation operators: LayerNorm, RmsNorm (sharing ``common/``) and BatchNorm
(inference), one folder each in the operator layout (README.md)."""
