"""API keys: when one is required, and how to keep it out of everything a run writes.

A server's error body can quote the key back in forms an exact-string replace misses: in
another case, JSON-escaped (`\\/`, `\\u00xx`), URL-encoded (`quote`, `quote_plus`, twice),
as HTML entities or hex, base64 (of the key alone, of `Bearer <key>`, of `user:<key>`), or
inside an echoed `Authorization` / `api-key` header. `SecretScrubber` finds all of these in a
text and callers scrub the whole text before they cut it short: a key that crosses the cut
would leave a prefix nothing can match afterwards.

A key is required (`require_api_key`) when the model talks to Azure OpenAI or to any server
that is not local. Local means a loopback, private or link-local address, `localhost`, a
single-label host name (`gpu1`, a container's service name) or one under `.local`,
`.internal`, `.lan` or `.home.arpa`: llama.cpp's server and `vllm serve` on a cluster run
without a key, and the backend then sends the placeholder `EMPTY`.
"""

from __future__ import annotations

import base64
import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from urllib.parse import urlsplit

from parakh.errors import ConfigError

REDACTED = "[redacted]"
# Shorter values (the `EMPTY` placeholder, a test's "x") would match ordinary words once case
# and encodings are folded; they are replaced only where they occur exactly.
MIN_FUZZY_CHARS = 8

# An auth header or key parameter quoted back, as `Name: value`, `"name": "value"`, Python's
# `'name': 'value'` or `(b'name', b'value')`, or `?key=value`; the value (with its scheme) goes.
_AUTH_HEADER = re.compile(
    r"""(?P<name>(?:proxy-)?authorization|x-api-key|api[-_ ]?key
         |ocp-apim-subscription-key|x-goog-api-key|[?&]key)
        (?P<sep>(?:[\\"']*\s*[:=]|[\\"']+\s*,)\s*(?:b(?=['"]))?[\\"']*)
        (?!\[redacted\])
        (?P<value>(?:(?:bearer|basic|token)\s+)?(?:\\+u[0-9a-f]{4}|\\+/|[^\s\\"',;}\]&])+)
    """,
    re.IGNORECASE | re.VERBOSE,
)


def _hex(value: int, width: int) -> str:
    """A pattern for `value` in hex, either case."""
    return "".join(f"[{d}{d.upper()}]" if d.isalpha() else d for d in f"{value:0{width}x}")


def _char(c: str, fold_case: bool) -> str:
    """Every way one character of a secret can be written back in an error text."""
    if fold_case and c.isascii() and c.isalpha():
        forms = [f"[{c.lower()}{c.upper()}]"]
    else:
        forms = [re.escape(c)]
    code = ord(c)
    if code < 0x10000:
        forms.append(r"\\+u" + _hex(code, 4))  # JSON \u00xx, also escaped twice
    forms.append("".join(f"%(?:25)?{_hex(b, 2)}" for b in c.encode("utf-8")))
    forms += [f"&#0*{code};", f"&#[xX]0*{_hex(code, 1)};"]
    if c in '/"\\':
        forms.append(r"\\+" + re.escape(c))  # JSON's \/ (PHP, some proxies), \" and \\
    if c == "+":
        forms.append(" ")  # a form-decoded `+`
    if c == " ":
        forms.append(r"\+")  # quote_plus
    return "(?:" + "|".join(forms) + ")"


def _pattern(text: str, fold_case: bool) -> str:
    return "".join(_char(c, fold_case) for c in text)


def base64_cores(secret: bytes) -> set[str]:
    """The base64 characters that depend on `secret` alone, for each of the three alignments
    it can have inside a longer encoded text (`Bearer <key>`, `user:<key>`), in both alphabets."""
    cores: set[str] = set()
    for shift in range(3):
        encoded = base64.b64encode(b"\0" * shift + secret + b"\0\0").decode("ascii")
        # Character i holds bits [6i, 6i + 6); keep those inside the secret's bits.
        start, end = -(-8 * shift // 6), 8 * (shift + len(secret)) // 6
        core = encoded[start:end]
        cores |= {core, core.replace("+", "-").replace("/", "_")}
    return cores


@dataclass(frozen=True)
class SecretScrubber:
    """Replaces every secret, in every encoding above, and echoed auth headers by `[redacted]`."""

    secrets: tuple[str, ...] = ()
    _patterns: tuple[re.Pattern[str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        patterns = []
        for secret in sorted({s for s in self.secrets if s}, key=len, reverse=True):
            if len(secret) < MIN_FUZZY_CHARS:
                patterns.append(re.compile(re.escape(secret)))
                continue
            raw = secret.encode("utf-8")
            forms = [_pattern(secret, fold_case=True), _pattern(raw.hex(), fold_case=True)]
            forms += [_pattern(core, fold_case=False) for core in sorted(base64_cores(raw))]
            patterns.append(re.compile("|".join(forms)))
        object.__setattr__(self, "_patterns", tuple(patterns))

    def __call__(self, text: str) -> str:
        text = _AUTH_HEADER.sub(lambda m: m["name"] + m["sep"] + REDACTED, text)
        for pattern in self._patterns:
            text = pattern.sub(REDACTED, text)
        return text


@lru_cache(maxsize=32)
def scrubber_for(secrets: tuple[str, ...]) -> SecretScrubber:
    """One scrubber per set of secrets (compiling the patterns costs a few milliseconds)."""
    return SecretScrubber(secrets)


def is_local_url(url: str) -> bool:
    """Whether `url` points at a server on this machine or a private network (see above)."""
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if not host:
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        local_suffixes = (".localhost", ".local", ".internal", ".lan", ".home.arpa")
        return host == "localhost" or "." not in host or host.endswith(local_suffixes)
    return address.is_loopback or address.is_private or address.is_link_local


def require_api_key(
    model: str, variable: str, value: str | None, urls: Iterable[str], azure: bool
) -> None:
    """Fail before any request when a key is needed and `variable` holds none."""
    if value:
        return
    remote = [u for u in urls if not is_local_url(u)]
    if not azure and not remote:
        return
    where = "Azure OpenAI" if azure else f"{remote[0]}, not a local server,"
    raise ConfigError(
        f"model '{model}': the environment variable {variable} (the model's `api_key_env`) is "
        f"not set, and {where} needs an API key. Set it (`export {variable}=...`), or point "
        "`api_key_env` at the variable that holds the key; for a server that needs no key, "
        f"set {variable}=EMPTY."
    )
