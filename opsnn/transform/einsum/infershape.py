"""Einsum equation parsing and shape inference: pure, no status codes (ValueError for
a malformed equation; op_api turns it into 161002)."""
from __future__ import annotations

import string


def parse(equation: str, shapes) -> tuple[list[str], str, dict[str, int]]:
    """(input terms, output term, label -> size) with ``...`` expanded to upper-case
    labels and the implicit output (labels seen once, sorted) filled in."""
    eq = equation.replace(" ", "")
    lhs, _, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"equation has {len(terms)} operands, got {len(shapes)} tensors")
    ell = ""
    out_terms, sizes = [], {}
    for t, shp in zip(terms, shapes):
        if "..." in t:
            n = len(shp) - (len(t) - 3)
            ell = string.ascii_uppercase[:n] if len(string.ascii_uppercase[:n]) > len(ell) else ell
            t = t.replace("...", string.ascii_uppercase[max(0, len(ell) - n):len(ell)] if n else "")
        if len(t) != len(shp) or not all(c.isalpha() for c in t):
            raise ValueError(f"term {t!r} does not match a {len(shp)}-D tensor")
        for c, d in zip(t, shp):
            if sizes.get(c, d) != d and 1 not in (sizes.get(c), d):
                raise ValueError(f"label {c!r} has sizes {sizes[c]} and {d}")
            sizes[c] = max(sizes.get(c, d), d)
        out_terms.append(t)
    if "->" in eq:
        out = rhs.replace("...", ell)
    else:
        counts = {c: sum(t.count(c) for t in out_terms) for c in sizes}
        out = ell + "".join(sorted(c for c, k in counts.items() if k == 1 and c.islower()))
    if any(c not in sizes for c in out) or len(set(out)) != len(out):
        raise ValueError(f"output term {out!r} is not valid")
    return out_terms, out, sizes


def infer_shape(tensors, equation):
    _, out, sizes = parse(equation, [s for s, _ in tensors])
    return [(tuple(sizes[c] for c in out), tensors[0][1])]
