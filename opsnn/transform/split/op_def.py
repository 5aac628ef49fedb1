"""Split definitions: parameters in CANN order. ``out`` is an aclTensorList, which the
generated Pythonic layer cannot allocate yet (it allocates one tensor per OUTPUT), so
the definitions are kept here for docs and tests but not put in ``OP_DEFS``."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, TENSOR_LIST, OpDef, Param
from .infershape import infer_shape, section_sizes
from .op_api import (aclnnSplitTensor, aclnnSplitTensorGetWorkspaceSize, aclnnSplitWithSize,
                     aclnnSplitWithSizeGetWorkspaceSize)

SPLIT_TENSOR = OpDef(
    "SplitTensor",
    (Param("self", INPUT), Param("splitSections", ATTRIBUTE, ATTR), Param("dim", ATTRIBUTE, ATTR, default=0),
     Param("out", OUTPUT, TENSOR_LIST)),
    infer=lambda self, splitSections, dim: infer_shape(
        self[0], self[1], section_sizes(self[0][int(dim) % len(self[0])], int(splitSections)), dim),
    get_workspace_size=aclnnSplitTensorGetWorkspaceSize, launch=aclnnSplitTensor,
    doc="``self`` cut into pieces of ``splitSections`` along ``dim``",
)
SPLIT_WITH_SIZE = OpDef(
    "SplitWithSize",
    (Param("self", INPUT), Param("splitSize", ATTRIBUTE, INT_ARRAY), Param("dim", ATTRIBUTE, ATTR, default=0),
     Param("out", OUTPUT, TENSOR_LIST)),
    infer=lambda self, splitSize, dim: infer_shape(self[0], self[1], splitSize, dim),
    get_workspace_size=aclnnSplitWithSizeGetWorkspaceSize, launch=aclnnSplitWithSize,
    doc="``self`` cut into pieces of ``splitSize`` along ``dim``",
)

#: empty until the Pythonic layer allocates aclTensorList outputs (module doc)
OP_DEFS = ()
