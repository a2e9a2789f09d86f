"""Parakh: reproducible evaluation of LLMs as RAG answerers on multilingual Indic questions."""

__version__ = "0.1.0"
