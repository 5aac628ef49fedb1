"""Graph rewrite before lowering: the ONNX attention subgraph -> one FlashAttentionScore node.

Transformer exports (HF BERT/MiniLM via torch.onnx) spell self-attention as::

    S = MatMul(Q, K^T)                      Q [B, N, Sq, D], K^T [B, N, D, Skv]
    S = Div(S, c) | Mul(S, c)               c a constant scalar (scale = 1/c or c)
    S = Add(S, M)                           optional additive mask M
    P = Softmax(S, axis=-1)
    O = MatMul(P, V)                        V [B, N, Skv, Dv]

:func:`fuse_attention` replaces each match by a node ``FlashAttentionScore`` (an
internal op type, lowered to ``aclnnFlashAttentionScore``) when every intermediate
has one consumer and is not a graph output, and the shapes are static. Details:

* Layout: when Q and V are ``Transpose(X, [0, 2, 1, 3])`` and K^T is
  ``Transpose(Xk, [0, 2, 3, 1])`` of [B, S, N, D] tensors (the usual split-heads),
  the node reads X, Xk, Xv directly in layout ``BSND``; if O's only consumer is
  ``Transpose(O, [0, 2, 1, 3])`` (merge-heads) the node writes that tensor and the
  transpose goes too. Otherwise it reads Q, V as ``BNSD`` and K from a new
  ``Transpose(K^T, [0, 1, 3, 2])``.
* Mask: CANN's attenMask is boolean (1 = masked) and its score fill is the most
  negative float, which is exactly what HF's additive mask
  ``M = (1 - Cast(U)) * c`` (c <= -1e4) does to a softmax. That chain is recognised
  and becomes ``Equal(Cast(U), 0)`` expanded to [B, 1, Sq, Skv] (shared by every
  layer that uses the same U). Any other additive mask leaves the subgraph alone.
* Nodes left without consumers afterwards are removed (they are all pure).

Numbers: FA's online softmax in fp32 against the decomposed fp32 kernels agree to
float32 rounding; a fully masked row averages V uniformly in both.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from .graph import Graph, Node

FUSED_OP = "FlashAttentionScore"
MASK_FILL_MAX = -1e4  #: an additive mask constant at or below this acts as "masked out" [assumption]


def _consumers(nodes: list[Node]) -> dict[str, list[Node]]:
    out: dict[str, list[Node]] = defaultdict(list)
    for n in nodes:
        for i in n.inputs:
            if i:
                out[i].append(n)
    return out


def _scalar_const(g: Graph, name: str) -> float | None:
    v = g.constants.get(name)
    if v is None or np.asarray(v).size != 1 or np.asarray(v).dtype.kind not in "fiu":
        return None
    return float(np.asarray(v).reshape(-1)[0])


def _binary(n: Node | None) -> bool:
    """``n`` has exactly two named inputs (malformed nodes are left for lowering to report)."""
    return n is not None and len(n.inputs) == 2 and all(n.inputs)


def _perm(n: Node) -> list[int] | None:
    p = n.attrs.get("perm")
    if isinstance(p, (list, tuple)) and all(isinstance(v, (int, np.integer)) for v in p):
        return [int(v) for v in p]
    return None


def _int_attr(n: Node, name: str, default: int) -> int | None:
    v = n.attrs.get(name, default)
    return int(v) if isinstance(v, (int, np.integer)) and not isinstance(v, bool) else None


def _producer_map(nodes: list[Node]) -> dict[str, Node]:
    return {o: n for n in nodes for o in n.outputs if o}


def fuse_attention(g: Graph) -> int:
    """Rewrite ``g.nodes`` in place (module docstring); returns the number of fused
    attention blocks."""
    fused = 0
    while True:
        n = _fuse_one(g, fused)
        if not n:
            break
        fused += 1
    if fused:
        _restore_order(g)
        _drop_dead(g)
    return fused


def _fuse_one(g: Graph, index: int) -> bool:
    nodes = g.nodes
    cons = _consumers(nodes)
    prod = _producer_map(nodes)
    outputs = set(g.outputs)

    def single(name: str) -> Node | None:
        c = cons.get(name, [])
        return c[0] if len(c) == 1 and name not in outputs else None

    for mm1 in nodes:
        if mm1.op_type != "MatMul" or not _binary(mm1):
            continue
        q_name, kt_name = mm1.inputs
        qs, kts = g.shapes.get(q_name), g.shapes.get(kt_name)
        if not qs or not kts or len(qs) != 4 or len(kts) != 4 or qs[:2] != kts[:2] or qs[3] != kts[2]:
            continue
        chain = [mm1]
        cur = single(mm1.outputs[0])
        scale = 1.0
        if cur is not None and cur.op_type in ("Div", "Mul") and _binary(cur) \
                and cur.inputs[0] == chain[-1].outputs[0]:
            c = _scalar_const(g, cur.inputs[1])
            if c is None or c == 0:
                continue
            scale = 1.0 / c if cur.op_type == "Div" else c
            chain.append(cur)
            cur = single(cur.outputs[0])
        mask_src = None
        if cur is not None and cur.op_type == "Add" and _binary(cur):
            other = [i for i in cur.inputs if i != chain[-1].outputs[0]]
            if len(other) != 1:
                continue
            mask_src = _hf_mask_source(g, prod, other[0])
            if mask_src is None:
                continue
            chain.append(cur)
            cur = single(cur.outputs[0])
        if cur is None or cur.op_type != "Softmax" or _int_attr(cur, "axis", -1) not in (-1, 3) \
                or g.opset < 13:
            continue
        chain.append(cur)
        mm2 = single(cur.outputs[0])
        if mm2 is None or mm2.op_type != "MatMul" or not _binary(mm2) or mm2.inputs[0] != cur.outputs[0]:
            continue
        v_name = mm2.inputs[1]
        vs = g.shapes.get(v_name)
        b, heads, s_q, d = qs
        s_kv = kts[3]
        if not vs or len(vs) != 4 or vs[:3] != (b, heads, s_kv):
            continue
        chain.append(mm2)
        _rewrite(g, prod, cons, outputs, chain, q_name, kt_name, v_name, mask_src, scale, (b, heads, s_q, s_kv),
                 index)
        return True
    return False


def _hf_mask_source(g: Graph, prod: dict[str, Node], name: str) -> str | None:
    """The float tensor ``F = Cast(U)`` of an HF additive mask ``(1 - F) * c``, else None."""
    mul = prod.get(name)
    if mul is None or mul.op_type != "Mul" or not _binary(mul):
        return None
    consts = [_scalar_const(g, i) for i in mul.inputs]
    if sum(c is not None for c in consts) != 1:
        return None
    c = next(c for c in consts if c is not None)
    sub_name = mul.inputs[0] if consts[1] is not None else mul.inputs[1]
    sub = prod.get(sub_name)
    if c > MASK_FILL_MAX or not _binary(sub) or sub.op_type != "Sub" or _scalar_const(g, sub.inputs[0]) != 1.0:
        return None
    cast = prod.get(sub.inputs[1])
    if cast is None or cast.op_type != "Cast" or len(cast.inputs) != 1 or not cast.outputs:
        return None
    return cast.outputs[0]


def _transpose_of(prod: dict[str, Node], name: str, perm: list[int]) -> str | None:
    n = prod.get(name)
    if n is not None and n.op_type == "Transpose" and n.inputs and _perm(n) == perm:
        return n.inputs[0]
    return None


def _rewrite(g: Graph, prod, cons, outputs, chain: list[Node], q_name: str, kt_name: str, v_name: str,
             mask_src: str | None, scale: float, dims: tuple[int, int, int, int], index: int) -> None:
    b, heads, s_q, s_kv = dims
    mm2 = chain[-1]
    base = f"{mm2.name}__fa{index}"
    new_nodes: list[Node] = []
    xq = _transpose_of(prod, q_name, [0, 2, 1, 3])
    xk = _transpose_of(prod, kt_name, [0, 2, 3, 1])
    xv = _transpose_of(prod, v_name, [0, 2, 1, 3])
    out_name = mm2.outputs[0]
    drop = set(id(n) for n in chain)
    fa_out_nodes: list[Node] = []
    if xq and xk and xv:
        layout, ins = "BSND", [xq, xk, xv]
        merge = cons.get(out_name, [])
        if len(merge) == 1 and out_name not in outputs and merge[0].op_type == "Transpose" and \
                _perm(merge[0]) == [0, 2, 1, 3]:
            fa_out = merge[0].outputs[0]
            drop.add(id(merge[0]))
        else:
            fa_out = base + "__out_bsnd"
            fa_out_nodes.append(Node("Transpose", base + "__to_bnsd", [fa_out], [out_name], {"perm": [0, 2, 1, 3]}))
    else:
        layout = "BNSD"
        k_name = base + "__k"
        new_nodes.append(Node("Transpose", base + "__k_t", [kt_name], [k_name], {"perm": [0, 1, 3, 2]}))
        ins = [q_name, k_name, v_name]
        fa_out = out_name
    mask_name = ""
    if mask_src is not None:
        mask_name = f"{mask_src}__atten_mask_{b}x{s_q}x{s_kv}"
        if mask_name not in {o for n in g.nodes for o in n.outputs}:
            zero, shape = f"{mask_src}__zero", f"{mask_name}__shape"
            g.constants[zero] = np.zeros((), np.float32)
            g.constants[shape] = np.array([b, 1, s_q, s_kv], np.int64)
            eq = mask_src + "__is_masked"
            new_nodes.append(Node("Equal", eq, [mask_src, zero], [eq]))
            new_nodes.append(Node("Expand", mask_name, [eq, shape], [mask_name]))
    fa = Node(FUSED_OP, base, ins + [mask_name], [fa_out],
              {"scale": float(scale), "head_num": int(heads), "input_layout": layout,
               "fused_from": [n.name for n in chain]})
    new_nodes.append(fa)
    new_nodes.extend(fa_out_nodes)
    # splice in place of the last MatMul (its inputs are all defined before it)
    pos = next(i for i, n in enumerate(g.nodes) if n is mm2)
    g.nodes[pos:pos + 1] = new_nodes
    g.nodes[:] = [n for n in g.nodes if id(n) not in drop]


def _restore_order(g: Graph) -> None:
    """Stable topological sort (Kahn's algorithm, ready nodes taken in their current
    order), so inserted nodes always follow what they read."""
    import heapq
    produced_by = {o: i for i, n in enumerate(g.nodes) for o in n.outputs if o}
    users: dict[int, list[int]] = defaultdict(list)
    indeg = [0] * len(g.nodes)
    for i, n in enumerate(g.nodes):
        for d in {produced_by[x] for x in n.inputs if x in produced_by and produced_by[x] != i}:
            users[d].append(i)
            indeg[i] += 1
    ready = [i for i, k in enumerate(indeg) if k == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        i = heapq.heappop(ready)
        order.append(i)
        for u in users[i]:
            indeg[u] -= 1
            if indeg[u] == 0:
                heapq.heappush(ready, u)
    if len(order) == len(g.nodes):
        g.nodes[:] = [g.nodes[i] for i in order]


def _drop_dead(g: Graph) -> None:
    keep_names = set(g.outputs)
    changed = True
    while changed:
        used = keep_names | {i for n in g.nodes for i in n.inputs if i}
        alive = [n for n in g.nodes if any(o in used for o in n.outputs if o)]
        changed = len(alive) != len(g.nodes)
        g.nodes[:] = alive
