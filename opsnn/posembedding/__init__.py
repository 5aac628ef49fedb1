"""Position-embedding operators (ops-transformer's ``posembedding/`` family):
ApplyRotaryPosEmb."""
