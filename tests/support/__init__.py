"""Test servers on loopback: a fault-injecting OpenAI-compatible server and process helpers."""
