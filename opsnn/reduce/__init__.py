"""Reduction operators: aclnnReduceSum, aclnnMean."""
