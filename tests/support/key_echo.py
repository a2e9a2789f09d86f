"""Error bodies that quote the caller's API key back, the ways real servers and proxies do.

The fault server's `echo` fault answers with one of these (cycling through `ECHO_ENCODINGS`),
and the secrets tests look for every `leaked_forms` of the key in what a run wrote. Each
body carries the key in a single encoding, in neutral words (`echo: ...`), so that the
scrubber's header rule cannot hide a miss of the encoding itself; `auth_header` is the one
that echoes the request's headers.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from urllib.parse import quote, quote_plus

ECHO_ENCODINGS = (
    "raw_cut",  # raw, placed to cross character 300 of the reason the client keeps
    "upper",
    "lower",
    "json_slash",  # JSON with `/` written `\/`
    "json_unicode",  # every character of the key as `\u00xx`
    "url_quote",
    "url_quote_plus",
    "base64_key",
    "base64_basic",  # base64 of `:<key>`, as HTTP basic auth with an empty user
    "base64_bearer",  # base64 of `Bearer <key>`
    "auth_header",  # the request's Authorization header, quoted back
)
CUT_AT = 300  # openai_http.REASON_CHARS, the reason's length in a row
_PREFIX = '{"error": {"message": "'
_REASON_PREFIX = "HTTP 401: "


def _unicode_escaped(text: str) -> str:
    return "".join(f"\\u{ord(c):04x}" for c in text)


def encoded(key: str, encoding: str) -> str:
    """The key as `encoding` writes it (for `raw_cut`, `auth_header`: the raw key)."""
    raw = key.encode("utf-8")
    forms = {
        "upper": key.upper(),
        "lower": key.lower(),
        "json_slash": key.replace("/", "\\/"),
        "json_unicode": _unicode_escaped(key),
        "url_quote": quote(key, safe=""),
        "url_quote_plus": quote_plus(key),
        "base64_key": base64.b64encode(raw).decode("ascii"),
        "base64_basic": base64.b64encode(b":" + raw).decode("ascii"),
        "base64_bearer": base64.b64encode(b"Bearer " + raw).decode("ascii"),
    }
    return forms.get(encoding, key)


def echo_body(key: str, encoding: str) -> str:
    """A JSON error body holding the key in `encoding`, written byte for byte as a server would."""
    if encoding not in ECHO_ENCODINGS:
        raise ValueError(f"unknown echo encoding {encoding!r}; known: {', '.join(ECHO_ENCODINGS)}")
    if encoding == "auth_header":
        headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        return json.dumps({"error": {"message": "unauthorized", "request_headers": headers}})
    if encoding == "raw_cut":
        # The key starts 10 characters before the cut: a replace after the cut sees a prefix.
        pad = CUT_AT - 10 - len(_REASON_PREFIX) - len(_PREFIX)
        return f'{_PREFIX}{"x" * pad}{key} is not a valid key"}}}}'
    return f'{_PREFIX}echo: {encoded(key, encoding)}"}}}}'


def leaked_forms(key: str) -> list[str]:
    """Every string whose presence in a file means the key leaked: each encoding above, and
    each of those as a JSON writer escapes it again (a row holding the error text)."""
    forms = {encoded(key, e) for e in ECHO_ENCODINGS}
    forms |= {json.dumps(f)[1:-1] for f in forms}
    return sorted(forms)


def decodes_to_secret(text: str, secret: str) -> bool:
    """Whether a base64 run in `text` decodes to bytes holding `secret`: a check
    independent of how `SecretScrubber` finds the encodings."""
    needle = secret.encode("utf-8")
    for run in re.findall(r"[A-Za-z0-9+/_-]{8,}={0,2}", text):
        for shift in range(4):
            chunk = run[shift:]
            chunk = chunk[: len(chunk) - len(chunk) % 4]
            try:
                decoded = base64.b64decode(chunk.replace("-", "+").replace("_", "/"))
            except (binascii.Error, ValueError):
                continue
            if needle in decoded:
                return True
    return False
