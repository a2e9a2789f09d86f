"""Chunking, embedding, indexing and KB-versioned retrieval."""
