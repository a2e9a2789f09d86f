"""Translators (IndicTrans2, NLLB-200, any LLM, a phrase table) behind one interface, with
sentence segmentation, batching and caching shared by all; translate-test and round-trip
filtered dataset translation built on them."""
