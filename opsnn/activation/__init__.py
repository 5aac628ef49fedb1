"""Activation family (AIV vector kernels): Softmax (:mod:`.softmax`) and LRN
(:mod:`.lrn`, ONNX semantics; ``aclnnLrn`` is this simulator's name, CANN has no
public aclnn LRN). float64 references in :mod:`.golden`."""
