"""Every aclnn entry point, names verbatim from CANN (the binding level).

Phase 1: ``ws, executor, ret = aclnnXxxGetWorkspaceSize(inputs..., attrs..., outputs...)``
Phase 2: ``ret = aclnnXxx(workspace, ws, executor, stream)``
"""
# ruff: noqa: F401
from .base.dtypes import aclDataType, aclFormat
from .base.executor import (aclDestroyAclOpExecutor, aclOpExecutor, aclSetAclOpExecutorRepeatable,
                            aclSetInputTensorAddr, aclSetOutputTensorAddr, aclSetTensorAddr)
from .base.status import (ACLNN_ERR_INNER, ACLNN_ERR_INNER_TILING_ERROR, ACLNN_ERR_PARAM_INVALID,
                          ACLNN_ERR_PARAM_NULLPTR, ACLNN_ERR_RUNTIME_ERROR, ACLNN_SUCCESS, aclGetRecentErrMsg)
from .base.tensor import (aclCreateIntArray, aclCreateScalar, aclCreateTensor, aclDestroyIntArray, aclDestroyScalar,
                          aclDestroyTensor, aclIntArray, aclScalar, aclTensor)
from .math.elementwise import (aclnnAdd, aclnnAddGetWorkspaceSize, aclnnAdds, aclnnAddsGetWorkspaceSize, aclnnRelu,
                               aclnnReluGetWorkspaceSize)
from .matmul.matmul import (aclnnAddmm, aclnnAddmmGetWorkspaceSize, aclnnMatmul, aclnnMatmulGetWorkspaceSize, aclnnMm,
                            aclnnMmGetWorkspaceSize)
from .conv.convolution import aclnnConvolution, aclnnConvolutionGetWorkspaceSize
from .conv.convolution import aclnnFusedConvolution, aclnnFusedConvolutionGetWorkspaceSize
from .matmul.matmul import aclnnFusedMatmul, aclnnFusedMatmulGetWorkspaceSize
from .math.fused_elementwise import aclnnFusedElementwise, aclnnFusedElementwiseGetWorkspaceSize
from .norm.batch_norm import aclnnBatchNorm, aclnnBatchNormGetWorkspaceSize
from .pooling.max_pool import (aclnnMaxPool, aclnnMaxPool2dWithIndices, aclnnMaxPool2dWithIndicesGetWorkspaceSize,
                               aclnnMaxPoolGetWorkspaceSize)
from .pooling.avg_pool2d import aclnnAvgPool2d, aclnnAvgPool2dGetWorkspaceSize
from .pooling.adaptive_avg_pool2d import aclnnAdaptiveAvgPool2d, aclnnAdaptiveAvgPool2dGetWorkspaceSize
from .pooling.pool3d import (aclnnAvgPool3d, aclnnAvgPool3dGetWorkspaceSize, aclnnMaxPool3dWithArgmax,
                            aclnnMaxPool3dWithArgmaxGetWorkspaceSize)
from .pooling.lp_pool import aclnnLpPool, aclnnLpPoolGetWorkspaceSize
from .activation.softmax import aclnnSoftmax, aclnnSoftmaxGetWorkspaceSize
from .activation.lrn import aclnnLrn, aclnnLrnGetWorkspaceSize
from .norm.layer_norm import aclnnLayerNorm, aclnnLayerNormGetWorkspaceSize
from .attention.flash_attention_score import aclnnFlashAttentionScore, aclnnFlashAttentionScoreGetWorkspaceSize
from .norm.rms_norm import aclnnRmsNorm, aclnnRmsNormGetWorkspaceSize
from .norm.group_norm import aclnnGroupNorm, aclnnGroupNormGetWorkspaceSize
from .math.elementwise import (aclnnAdds, aclnnAddsGetWorkspaceSize, aclnnDiv, aclnnDivGetWorkspaceSize, aclnnDivs,
                               aclnnDivsGetWorkspaceSize, aclnnInplaceAdd, aclnnInplaceAddGetWorkspaceSize,
                               aclnnInplaceAdds, aclnnInplaceAddsGetWorkspaceSize, aclnnInplaceDiv,
                               aclnnInplaceDivGetWorkspaceSize, aclnnInplaceDivs, aclnnInplaceDivsGetWorkspaceSize,
                               aclnnInplaceMul, aclnnInplaceMulGetWorkspaceSize, aclnnInplaceMuls,
                               aclnnInplaceMulsGetWorkspaceSize, aclnnInplaceRelu, aclnnInplaceReluGetWorkspaceSize,
                               aclnnInplaceSub, aclnnInplaceSubGetWorkspaceSize, aclnnInplaceSubs,
                               aclnnInplaceSubsGetWorkspaceSize, aclnnMul, aclnnMulGetWorkspaceSize, aclnnMuls,
                               aclnnMulsGetWorkspaceSize, aclnnSub, aclnnSubGetWorkspaceSize, aclnnSubs,
                               aclnnSubsGetWorkspaceSize)
from .math.pointwise import (aclnnClamp, aclnnClampGetWorkspaceSize, aclnnClampMax, aclnnClampMaxGetWorkspaceSize,
                             aclnnClampMin, aclnnClampMinGetWorkspaceSize, aclnnClampTensor,
                             aclnnClampTensorGetWorkspaceSize, aclnnErf, aclnnErfGetWorkspaceSize,
                             aclnnPowTensorScalar, aclnnPowTensorScalarGetWorkspaceSize, aclnnPowTensorTensor,
                             aclnnPowTensorTensorGetWorkspaceSize, aclnnSqrt, aclnnSqrtGetWorkspaceSize)
from .math.select import (aclnnEqScalar, aclnnEqScalarGetWorkspaceSize, aclnnEqTensor, aclnnEqTensorGetWorkspaceSize,
                          aclnnEqual, aclnnEqualGetWorkspaceSize, aclnnSWhere, aclnnSWhereGetWorkspaceSize, aclnnWhere,
                          aclnnWhereGetWorkspaceSize)
from .math.cast import aclnnCast, aclnnCastGetWorkspaceSize
from .activation.gelu import (aclnnGelu, aclnnGeluGetWorkspaceSize, aclnnGeluV2, aclnnGeluV2GetWorkspaceSize,
                              aclnnSilu, aclnnSiluGetWorkspaceSize)
from .reduce.mean import aclnnMean, aclnnMeanGetWorkspaceSize
from .reduce.reduce_sum import aclnnReduceSum, aclnnReduceSumGetWorkspaceSize
from .transform.tensor_list import aclCreateTensorList, aclDestroyTensorList, aclTensorList
from .transform.permute import aclnnPermute, aclnnPermuteGetWorkspaceSize
from .transform.trans_data import aclnnTransData, aclnnTransDataGetWorkspaceSize
from .transform.cat import aclnnCat, aclnnCatGetWorkspaceSize
from .transform.embedding import aclnnEmbedding, aclnnEmbeddingGetWorkspaceSize
from .transform.gather_v2 import aclnnGatherV2, aclnnGatherV2GetWorkspaceSize
from .matmul.matmul import aclnnBatchMatMul, aclnnBatchMatMulGetWorkspaceSize
from .matmul.quant_matmul import aclnnQuantMatmulV4, aclnnQuantMatmulV4GetWorkspaceSize
from .conv.quant_convolution import aclnnQuantConvolution, aclnnQuantConvolutionGetWorkspaceSize
from .quant.quantize import (aclnnQuantize, aclnnQuantizeBlock, aclnnQuantizeBlockGetWorkspaceSize,
                             aclnnQuantizeGetWorkspaceSize)
from .quant.dequantize import (aclnnDequantizeLinear, aclnnDequantizeLinearBlock,
                               aclnnDequantizeLinearBlockGetWorkspaceSize, aclnnDequantizeLinearGetWorkspaceSize)
from .quant.dynamic_quantize import aclnnDynamicQuantizeLinear, aclnnDynamicQuantizeLinearGetWorkspaceSize
from .base.cache import clear_executor_cache, executor_cache_stats, no_executor_cache, set_executor_cache
from .base.pool import executor_pool_stats
from .activation.unary_activation import *  # noqa: F403,E402  (the table-generated activations)
from .math.unary_math import *  # noqa: F403,E402  (the table-generated unary math)
from .math.compare import *  # noqa: F403,E402  (the table-generated comparisons)
from .math.logical import *  # noqa: F403,E402  (the table-generated logical and bitwise ops)
from .math.minmax import *  # noqa: F403,E402  (the table-generated Maximum, Minimum, Remainder, Fmod)
from .activation.prelu import aclnnPrelu, aclnnPreluGetWorkspaceSize  # noqa: E402
from .reduce.reduce_ext import *  # noqa: F403,E402  (the table-generated extra reductions)
from .activation.row_activation import *  # noqa: F403,E402  (LogSoftmax, Hardmax)
from .transform.pad import *  # noqa: F403 (shapeops: every aclnn entry point of the folder)
from .transform.split import *  # noqa: F403 (shapeops: every aclnn entry point of the folder)
from .transform.repeat import *  # noqa: F403 (shapeops: every aclnn entry point of the folder)
from .transform.depth_to_space import *  # noqa: F403 (shapeops: every aclnn entry point of the folder)
from .transform.triangular import *  # noqa: F403 (shapeops: every aclnn entry point of the folder)
from .transform.arange import *  # noqa: F403 (shapeops: every aclnn entry point of the folder)
from .transform.one_hot import *  # noqa: F403 (shapeops: every aclnn entry point of the folder)
from .transform.cumsum import *  # noqa: F403 (shapeops: every aclnn entry point of the folder)
from .transform.gather import *  # noqa: F403 (shapeops: every aclnn entry point of the folder)
from .transform.scatter import *  # noqa: F403 (shapeops: every aclnn entry point of the folder)
from .transform.topk import *  # noqa: F403 (shapeops: every aclnn entry point of the folder)
from .transform.arg_max import *  # noqa: F403 (shapeops: every aclnn entry point of the folder)
from .transform.resize import *  # noqa: F403 (shapeops: every aclnn entry point of the folder)
from .transform.einsum import *  # noqa: F403 (shapeops: every aclnn entry point of the folder)
from .posembedding.apply_rotary_pos_emb import (  # noqa: E402
    aclnnApplyRotaryPosEmb, aclnnApplyRotaryPosEmbGetWorkspaceSize)
from .activation.swi_glu import aclnnSwiGlu, aclnnSwiGluGetWorkspaceSize  # noqa: E402
from .norm.add_rms_norm import aclnnAddRmsNorm, aclnnAddRmsNormGetWorkspaceSize  # noqa: E402
