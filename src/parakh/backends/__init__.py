"""Generation backends behind one small interface, created from a model config."""

from parakh.backends.base import Backend, ChatRequest, Completion, make_backend

__all__ = ["Backend", "ChatRequest", "Completion", "make_backend"]
