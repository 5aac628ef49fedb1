"""Helpers shared by the row normalisations (LayerNorm, RmsNorm), as ops-nn's
``norm/common/``: the row-norm tiling struct and key (:mod:`.tiling_data`), its two
strategies (:mod:`.tiling`), the tile programs and numpy helpers (:mod:`.kernel`), and
the phase-1 helpers both entry points use (:mod:`.host`)."""
