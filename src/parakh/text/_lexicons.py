"""The curated word lists behind `parakh.text.langid` and `parakh.text.pii`, read once from
`lexicons.yaml` (which says how they were written)."""

from __future__ import annotations

from importlib.resources import files

import yaml


def _words(lines: list[str]) -> frozenset[str]:
    return frozenset(word for line in lines for word in line.split())


_TABLE = yaml.safe_load(files("parakh.text").joinpath("lexicons.yaml").read_bytes())
# language -> (function words, content words), Latin letters
LATIN_LEXICONS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    code: (_words(lists["function"]), _words(lists["content"]))
    for code, lists in _TABLE["latin"].items()
}
# Devanagari languages -> their distinctive function words
NATIVE_MARKERS: dict[str, frozenset[str]] = {
    code: _words(lines) for code, lines in _TABLE["native_markers"].items()
}
# language -> the letters only it writes, of the languages sharing its script
DISTINCTIVE_LETTERS: dict[str, str] = _TABLE["distinctive_letters"]
# hosts whose URLs link to a person, and URL query keys that carry a personal value (pii)
PERSONAL_URL_HOSTS = _words(_TABLE["personal_url_hosts"])
PERSONAL_URL_KEYS = _words(_TABLE["personal_url_keys"])
