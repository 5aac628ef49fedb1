"""Attention operators (ops-transformer's ``attention/`` family): FlashAttentionScore."""
