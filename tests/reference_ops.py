"""Tests use the corrected onnx reference evaluator that ships with the frontend."""
from frontend.reference import BatchNormalization, CORRECTED_OPS, LRN, Hardmax, LogSoftmax, Softmax, reference_evaluator  # noqa: F401
