"""Prompts live as data in conf/prompt/; this package renders them."""
