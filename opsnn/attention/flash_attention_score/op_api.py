"""aclnnFlashAttentionScore: phase 1 (checks, shape inference, tiling) and phase 2.

CANN prototype (aclnn_flash_attention_score.h, ops-transformer docs):
  aclnnFlashAttentionScoreGetWorkspaceSize(query, key, value, realShiftOptional, dropMaskOptional,
      paddingMaskOptional, attenMaskOptional, prefixOptional, scaleValue, keepProb, preTokens, nextTokens,
      headNum, inputLayout, innerPrecise, sparseMode, softmaxMaxOut, softmaxSumOut, softmaxOutOut,
      attentionOutOut, workspaceSize, executor)
  aclnnFlashAttentionScore(workspace, workspaceSize, executor, stream)

Formula: attention_out = Softmax(Mask(scale * (pse + query @ key^T), atten_mask)) @ value.
See README.md for the parameter table, the supported subset and the constraints.
"""
from __future__ import annotations

from ...base.checks import (FLOAT_TYPES_BF16, check_dtype, check_not_null, check_same_dtype, check_tensor_type,
                            invalid)
from ...base.dtypes import aclDataType
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from ...base.status import ACLNN_ERR_PARAM_INVALID, AclnnError
from ...base.tensor import aclTensor
from .infershape import LAYOUTS, layout_dims, layout_shape
from .kernel import fa_body, tile_program
from ...matmul.common.cube_math import cube_compute_dtype
from .tiling import flash_attention_tiling, tiling_summary
from .tiling_data import FlashAttentionScoreTilingKey

OP = "aclnnFlashAttentionScore"
#: sparse modes this simulator implements (CANN defines 0..6; 4 band, 5/6 prefix are not modelled)
SPARSE_MODES = (0, 1, 2, 3)
#: CANN's compressed causal mask for sparseMode 2/3 is [2048, 2048]
CAUSAL_MASK_SHAPE = (2048, 2048)


def _layout_dims(op: str, name: str, t: aclTensor, layout: str, head_num: int | None) -> tuple[int, int, int, int]:
    """(B, N, S, D) of ``t`` in ``layout``; ``head_num`` None means infer N from D (BSH/SBH
    key/value, given D from query). Raises 161002 on a rank or H/N mismatch."""
    shape = t.view_shape
    want = 4 if layout in ("BNSD", "BSND") else 3
    if len(shape) != want:
        raise invalid(op, f"{name} must be {want}-D for inputLayout {layout}, got shape {list(shape)}")
    if layout in ("BSH", "SBH"):
        h = shape[2]
        if head_num is None or head_num <= 0 or h % head_num:
            raise invalid(op, f"{name} hidden size H={h} is not a multiple of the head count {head_num}")
    return layout_dims(shape, layout, head_num)


def _as_layout(op: str, layout) -> str:
    if isinstance(layout, bytes):
        layout = layout.decode(errors="replace")
    if not isinstance(layout, str):
        raise invalid(op, f"inputLayout must be a string, got {type(layout).__name__}")
    layout = layout.rstrip("\0")
    if layout not in LAYOUTS:
        raise invalid(op, f"inputLayout {layout!r} not supported; expected one of {', '.join(LAYOUTS)}")
    return layout


def _int_attr(op: str, name: str, v) -> int:
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        raise invalid(op, f"{name} must be an integer, got {v!r}")
    return int(v)


def _build(chip, query, key, value, pse, drop_mask, padding_mask, atten_mask, prefix, scale_value, keep_prob,
           pre_tokens, next_tokens, head_num, input_layout, inner_precise, sparse_mode, softmax_max, softmax_sum,
           softmax_out, attention_out):
    op = OP
    # 1. null pointers
    check_not_null(op, query=query, key=key, value=value, inputLayout=input_layout, softmaxMaxOut=softmax_max,
                   softmaxSumOut=softmax_sum, attentionOutOut=attention_out)
    check_tensor_type(op, query=query, key=key, value=value, softmaxMaxOut=softmax_max, softmaxSumOut=softmax_sum,
                      attentionOutOut=attention_out)
    for name, t in (("realShiftOptional", pse), ("attenMaskOptional", atten_mask)):
        if t is not None:
            check_tensor_type(op, **{name: t})
    # 2. dtypes
    check_dtype(op, "query", query, FLOAT_TYPES_BF16)
    check_same_dtype(op, query=query, key=key, value=value, attentionOutOut=attention_out)
    check_dtype(op, "softmaxMaxOut", softmax_max, (aclDataType.ACL_FLOAT,))
    check_dtype(op, "softmaxSumOut", softmax_sum, (aclDataType.ACL_FLOAT,))
    if pse is not None:
        check_same_dtype(op, query=query, realShiftOptional=pse)
    if atten_mask is not None:
        check_dtype(op, "attenMaskOptional", atten_mask, (aclDataType.ACL_BOOL, aclDataType.ACL_UINT8))
    # 3. attributes
    layout = _as_layout(op, input_layout)
    head_num = _int_attr(op, "headNum", head_num)
    if head_num <= 0:
        raise invalid(op, f"headNum must be positive, got {head_num}")
    sparse_mode = _int_attr(op, "sparseMode", sparse_mode)
    if sparse_mode not in SPARSE_MODES:
        raise invalid(op, f"sparseMode {sparse_mode} not supported (npu-sim implements "
                          f"{', '.join(map(str, SPARSE_MODES))}: default, allMask, leftUpCausal, rightDownCausal)")
    inner_precise = _int_attr(op, "innerPrecise", inner_precise)
    if inner_precise not in (0, 1, 2):
        raise invalid(op, f"innerPrecise must be 0, 1 or 2, got {inner_precise}")
    _int_attr(op, "preTokens", pre_tokens)
    _int_attr(op, "nextTokens", next_tokens)
    try:
        scale = float(scale_value)
        kp = float(keep_prob)
    except (TypeError, ValueError):
        raise invalid(op, f"scaleValue and keepProb must be numbers, got {scale_value!r}, {keep_prob!r}") from None
    if not (0.0 < kp <= 1.0):
        raise invalid(op, f"keepProb must be in (0, 1], got {kp}")
    if kp < 1.0 or drop_mask is not None:
        raise invalid(op, "dropout (keepProb < 1 or dropMaskOptional) is not supported by npu-sim (inference only)")
    if padding_mask is not None:
        raise invalid(op, "paddingMaskOptional is reserved in CANN and must be null")
    # 4. shapes
    b, n, s_q, d = _layout_dims(op, "query", query, layout, head_num)
    if n != head_num:
        raise invalid(op, f"headNum {head_num} differs from query's N={n}")
    if layout in ("BSH", "SBH"):
        _layout_dims(op, "key", key, layout, 1)
        if key.view_shape[2] % d:
            raise invalid(op, f"key hidden size {key.view_shape[2]} is not a multiple of D={d}")
        n_kv = key.view_shape[2] // d
        kb, n_kv, s_kv, dk = _layout_dims(op, "key", key, layout, n_kv)
        _layout_dims(op, "value", value, layout, 1)
        if value.view_shape[2] % n_kv:
            raise invalid(op, f"value hidden size {value.view_shape[2]} is not a multiple of N_kv={n_kv}")
        vb, vn, vs, dv = _layout_dims(op, "value", value, layout, n_kv)
    else:
        kb, n_kv, s_kv, dk = _layout_dims(op, "key", key, layout, None)
        vb, vn, vs, dv = _layout_dims(op, "value", value, layout, None)
    if kb != b or vb != b:
        raise invalid(op, f"batch sizes differ: query {b}, key {kb}, value {vb}")
    if dk != d or dv > dk:
        raise invalid(op, f"head dims must satisfy qD == kD >= vD, got qD={d}, kD={dk}, vD={dv}")
    if (vn, vs) != (n_kv, s_kv):
        raise invalid(op, f"key and value must match except in D: key (N={n_kv}, S={s_kv}), value (N={vn}, S={vs})")
    if n_kv <= 0 or n % n_kv:
        raise invalid(op, f"query heads N={n} must be a multiple of key/value heads N={n_kv}")
    out_shape = layout_shape(layout, b, n, s_q, dv)
    if tuple(attention_out.view_shape) != out_shape:
        raise invalid(op, f"attentionOutOut shape {list(attention_out.view_shape)} does not match expected "
                          f"{list(out_shape)}")
    for name, t in (("softmaxMaxOut", softmax_max), ("softmaxSumOut", softmax_sum)):
        if tuple(t.view_shape) != (b, n, s_q, 8):
            raise invalid(op, f"{name} shape {list(t.view_shape)} does not match expected {[b, n, s_q, 8]}")
    if pse is not None:
        allowed = [(b, n, s_q, s_kv), (b, n, 1, s_kv), (1, n, s_q, s_kv)]
        if tuple(pse.view_shape) not in allowed:
            raise invalid(op, f"realShiftOptional shape {list(pse.view_shape)} not supported; expected one of "
                              f"{[list(a) for a in allowed]}")
    mask_key = FlashAttentionScoreTilingKey.DENSE
    if atten_mask is not None:
        if sparse_mode in (2, 3):
            allowed = [CAUSAL_MASK_SHAPE]
            mask_key = FlashAttentionScoreTilingKey.CAUSAL
        else:
            allowed = [(b, n, s_q, s_kv), (b, 1, s_q, s_kv), (1, 1, s_q, s_kv), (s_q, s_kv)]
            mask_key = FlashAttentionScoreTilingKey.MASKED
        if tuple(atten_mask.view_shape) not in allowed:
            raise invalid(op, f"attenMaskOptional shape {list(atten_mask.view_shape)} not supported for sparseMode "
                              f"{sparse_mode}; expected one of {[list(a) for a in allowed]}")
    # 5. empty tensors
    if b * n * s_q == 0 or dv == 0:
        return aclOpExecutor("FlashAttentionScore", [], [query, key, value], [softmax_max, softmax_sum,
                                                                               attention_out], 0,
                             info={"strategy": "empty"})
    if s_kv == 0 or d == 0:
        raise AclnnError(ACLNN_ERR_PARAM_INVALID, f"{op}: key sequence length and head dim must be positive "
                                                  f"for a non-empty query (Skv={s_kv}, D={d})")
    # 6. tiling (host) -> tile program (kernel)
    from ...base.dtypes import dtype_name
    causal_offset = None
    if mask_key == FlashAttentionScoreTilingKey.CAUSAL:
        causal_offset = 0 if sparse_mode == 2 else s_kv - s_q
    args = {"shapes": [list(query.view_shape), list(key.view_shape), list(value.view_shape)],
            "dtype": query.dtype_name, "inputLayout": layout, "headNum": head_num, "scaleValue": scale,
            "sparseMode": sparse_mode}
    res = flash_attention_tiling(chip, batch=b, head_num=n, kv_head_num=n_kv, s_q=s_q, s_kv=s_kv, d=d, d_v=dv,
                                 itemsize=query.itemsize, has_pse=pse is not None, key=mask_key,
                                 causal_offset=causal_offset)
    td = res.data
    cube = cube_compute_dtype(dtype_name(query.data_type), 0)  # FA has no cubeMathType: computed as stored
    spec = tile_program(td, chip, cube, causal_offset=causal_offset, row_strided=layout != "BNSD", args=args)
    inputs = [query, key, value]
    tensors = {"query": query, "key": key, "value": value, "softmax_max": softmax_max, "softmax_sum": softmax_sum,
               "out": attention_out}
    slot = {"query": 0, "key": 1, "value": 2}
    if pse is not None:
        slot["pse"] = len(inputs)
        inputs.append(pse)
        tensors["pse"] = pse
    if atten_mask is not None:
        slot["mask"] = len(inputs)
        inputs.append(atten_mask)
        tensors["mask"] = atten_mask
    outputs = [softmax_max, softmax_sum, attention_out]
    for i, role in enumerate(("softmax_max", "softmax_sum", "out")):
        slot[role] = len(inputs) + i
    body = fa_body(tensors, layout=layout, head_num=n, kv_head_num=n_kv, scale=scale, block_kv=td.base_s_kv,
                   sparse_mode=sparse_mode, inner_precise=inner_precise, slot=slot)
    info = {"strategy": "flash", "summary": tiling_summary(td), "tiling": spec.args["tiling"],
            "core_model": spec.args["core_model"]}
    return aclOpExecutor("FlashAttentionScore", [PreparedKernel(spec, body)], inputs, outputs, res.workspace_bytes,
                         info=info)


def aclnnFlashAttentionScoreGetWorkspaceSize(query, key, value, realShiftOptional, dropMaskOptional,  # noqa: N802,N803
                                             paddingMaskOptional, attenMaskOptional, prefixOptional, scaleValue,
                                             keepProb, preTokens, nextTokens, headNum, inputLayout, innerPrecise,
                                             sparseMode, softmaxMaxOut, softmaxSumOut, softmaxOutOut,
                                             attentionOutOut):
    """Phase 1 of FlashAttention (README.md for the parameter table).

    Tensors: query/key/value FLOAT16/BF16/FLOAT in layout ``inputLayout`` ("BNSD",
    "BSND", "BSH", "SBH"); realShiftOptional (pse, query's dtype) [B,N,Sq,Skv],
    [B,N,1,Skv] or [1,N,Sq,Skv]; attenMaskOptional BOOL/UINT8 (1 = masked out)
    [B,N,Sq,Skv], [B,1,Sq,Skv], [1,1,Sq,Skv] or [Sq,Skv] ([2048,2048] for sparseMode
    2/3); softmaxMaxOut/softmaxSumOut FLOAT [B,N,Sq,8]; attentionOutOut query's dtype,
    query's layout with D = value's D. softmaxOutOut and prefixOptional are reserved
    (ignored); dropout (keepProb < 1, dropMaskOptional) and paddingMaskOptional are
    rejected. preTokens/nextTokens do not change the numbers (CANN requires them to
    agree with the mask in sparseMode 0).

    Returns (workspace_size bytes, executor, status): 161001 null required tensor or
    layout; 161002 dtype, layout, shape, headNum, sparseMode (4-6 unsupported),
    keepProb or dropout; 561002 no tile fits the chip.
    """
    return prepare("FlashAttentionScore", _build, query, key, value, realShiftOptional, dropMaskOptional,
                   paddingMaskOptional, attenMaskOptional, prefixOptional, scaleValue, keepProb, preTokens,
                   nextTokens, headNum, inputLayout, innerPrecise, sparseMode, softmaxMaxOut, softmaxSumOut,
                   softmaxOutOut, attentionOutOut)


def aclnnFlashAttentionScore(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2: bind addresses and enqueue the one FA kernel on ``stream``. Returns a status."""
    return execute("FlashAttentionScore", workspace, workspaceSize, executor, stream)


__all__ = ["aclnnFlashAttentionScoreGetWorkspaceSize", "aclnnFlashAttentionScore"]
