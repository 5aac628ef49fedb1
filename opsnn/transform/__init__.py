"""Layout and gather operators: aclnnPermute, aclnnCat, aclnnEmbedding, and the
aclTensorList they take."""
