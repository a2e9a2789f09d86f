"""PII redaction for patient questions and chat logs: phone numbers, e-mails, Aadhaar-like ids,
PAN, patient ids and URLs that carry personal tokens.

Indian phone numbers come in many shapes ("98450 12345", "+91-98450-12345", "098450 12345",
"(080) 2345 6789", "0806903 8900"); the patterns accept the groupings people type and reject
the numbers that look like them in medical text: dosages ("500 mg"), dates, times, "1-2 drops",
year ranges, prices ("Rs 75000-80000"), lens powers. Institutional contacts that answers cite
(a hospital helpline, `info@hospital.org`) are kept when listed in the policy's keep list.
Every match is replaced by a typed placeholder such as `[PHONE]`; the original is not kept.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal, get_args
from urllib.parse import parse_qsl, urlsplit

from parakh.text._lexicons import PERSONAL_URL_HOSTS, PERSONAL_URL_KEYS

PIIKind = Literal["email", "url", "phone", "aadhaar", "pan", "patient_id"]
PLACEHOLDERS: dict[str, str] = {kind: f"[{kind.upper()}]" for kind in get_args(PIIKind)}

_EMAIL = re.compile(
    r"(?<![\w.+-])[A-Za-z0-9._%+-]+(?:@|\s?[\[(]at[\])]\s?)[A-Za-z0-9-]+"
    r"(?:(?:\.|\s?[\[(]dot[\])]\s?)[A-Za-z0-9-]+)*(?:\.|\s?[\[(]dot[\])]\s?)[A-Za-z]{2,}\b",
    re.IGNORECASE,
)
_URL = re.compile(
    r"(?:\bhttps?://|\bwww\.|\b(?:wa\.me|t\.me|bit\.ly|1drv\.ms|we\.tl|forms\.gle)/)"
    r"[^\s<>\"'()\[\]]+",
    re.IGNORECASE,
)
_DIGIT_RUN = re.compile(r"\d+")
# What may stand between two digit groups of one number: "98450 12345", "080-2345", "(080) 23".
_JOINER = re.compile(r"^\)? ?[.\-]? ?\(?$")
_ANNOUNCED = re.compile(
    r"\b(?:ph|phone|tel|telephone|mob|mobile|cell|call|contact|whatsapp|whats app|number)"
    r"\.?(?:\s*(?:no|num|number|me|us|on|at|is)\b\.?)*\s*[:#\-]?\s*\+?\(?$",
    re.IGNORECASE,
)
_PAN = re.compile(
    r"(?<![A-Za-z0-9])[A-Z]{3}[ABCFGHLJPTK][A-Z]\d{4}[A-Z](?![A-Za-z0-9])", re.IGNORECASE
)
_PATIENT_ID = re.compile(
    r"\b(?:uhid|mrn|mr\s?no|patient\s?id|reg(?:istration)?\s?(?:no|number|id)|ip\s?no|op\s?no)"
    r"\b\.?\s*[:#\-]?\s*(?P<id>[A-Za-z]{0,4}[\-/]?\d[\dA-Za-z\-/]{3,})",
    re.IGNORECASE,
)
# How people group a ten-digit mobile number.
_MOBILE_GROUPINGS = {
    (10,),
    (5, 5),
    (3, 3, 4),
    (4, 3, 3),
    (3, 4, 3),
    (2, 4, 4),
    (4, 4, 2),
    (4, 6),
    (6, 4),
    (3, 7),
    (2, 8),
}
_CURRENCY_BEFORE = re.compile(r"(?:rs\.?|inr|₹|rupees?)\s*$", re.IGNORECASE)
_CURRENCY_AFTER = re.compile(r"^\s*(?:/-|rs\b|rupees?\b|inr\b)", re.IGNORECASE)

# A token in a URL: an alphanumeric run of 12+ with letters and 3+ digits (slugs such as
# "4-steps-manage-diabetes" or "diabetestype2.html" are words, not tokens), or a UUID.
_TOKEN = re.compile(
    r"(?<![A-Za-z0-9])(?=(?:[A-Za-z]*\d){3})(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{12,}"
    r"|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class PIIMatch:
    kind: PIIKind
    start: int
    end: int
    text: str


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def phone_key(text: str) -> str:
    """Digits of a number without its country or trunk prefix, for comparing with a keep list."""
    digits = _digits(text)
    if digits.startswith("00"):
        digits = digits[2:]
    if len(digits) >= 12 and digits.startswith("91"):
        digits = digits[2:]
    return digits.lstrip("0")


def _url_key(url: str) -> str:
    return re.sub(r"^(?:https?://)?(?:www\.)?", "", url.strip().casefold()).rstrip("/")


@dataclass(frozen=True)
class PIIPolicy:
    """What to keep: numbers, e-mail addresses, `@domain`s and URL prefixes (institutional)."""

    keep_numbers: frozenset[str] = frozenset()
    keep_emails: frozenset[str] = frozenset()
    keep_domains: frozenset[str] = frozenset()
    keep_url_prefixes: tuple[str, ...] = ()
    kinds: frozenset[str] = field(default_factory=lambda: frozenset(PLACEHOLDERS))

    @classmethod
    def from_keep_list(
        cls, keep: Iterable[str] = (), kinds: Iterable[str] | None = None
    ) -> PIIPolicy:
        numbers, emails, domains, urls = set(), set(), set(), []
        for entry in keep:
            item = entry.strip()
            if item.startswith("@"):
                domains.add(item[1:].casefold())
            elif "@" in item:
                emails.add(item.casefold())
            elif re.search(r"[A-Za-z]", item):
                urls.append(_url_key(item))
            elif _digits(item):
                numbers.add(phone_key(item))
        return cls(
            frozenset(numbers),
            frozenset(emails),
            frozenset(domains),
            tuple(urls),
            frozenset(kinds) if kinds is not None else frozenset(PLACEHOLDERS),
        )

    def keeps(self, kind: str, text: str) -> bool:
        if kind not in self.kinds:
            return True
        if kind == "email":
            address = text.casefold()
            return address in self.keep_emails or address.rsplit("@", 1)[-1] in self.keep_domains
        if kind == "url":
            key = _url_key(text)
            return any(key.startswith(prefix) for prefix in self.keep_url_prefixes)
        if kind == "phone":
            return phone_key(text) in self.keep_numbers
        return False


_Run = re.Match[str]  # a run of digits


def _chains(text: str) -> list[list[_Run]]:
    """Digit runs grouped into chains of runs joined by phone-style separators."""
    chains: list[list[_Run]] = []
    for m in _DIGIT_RUN.finditer(text):
        if chains and _JOINER.match(text[chains[-1][-1].end() : m.start()]):
            chains[-1].append(m)
        else:
            chains.append([m])
    return chains


def _strip_prefix(groups: tuple[int, ...], n: int) -> tuple[int, ...]:
    """Groups of a number after dropping its first n digits (a prefix group or part of one)."""
    first, rest = groups[0], groups[1:]
    if first == n:
        return rest
    return (first - n, *rest) if first > n else ()


def _classify(runs: list[_Run], text: str, international: bool, announced: bool) -> PIIKind | None:
    """The kind of number a sub-chain of digit runs is, or None if it is not one we redact."""
    digits = "".join(r.group() for r in runs)
    groups = tuple(len(r.group()) for r in runs)
    if international or digits.startswith("00"):
        national = digits[2:] if digits.startswith("00") else digits
        return "phone" if 8 <= len(national) <= 15 and len(groups) <= 6 else None
    before, after = text[: runs[0].start()], text[runs[-1].end() :]
    if _CURRENCY_BEFORE.search(before) or _CURRENCY_AFTER.search(after):
        return None
    joiners = {text[a.end() : b.start()] for a, b in zip(runs, runs[1:], strict=False)}
    mobile_with_code = groups == (12,) and digits.startswith("91") and digits[2] in "6789"
    aadhaar_shape = groups in {(12,), (4, 4, 4)} and len(joiners) <= 1
    if aadhaar_shape and digits[0] in "23456789" and not mobile_with_code:
        return "aadhaar"
    core, core_groups = digits, groups
    if len(digits) == 12 and digits.startswith("91"):
        core, core_groups = digits[2:], _strip_prefix(groups, 2)
    elif len(digits) == 11 and digits.startswith("0"):
        core, core_groups = digits[1:], _strip_prefix(groups, 1)
    mobile = len(core) == 10 and core[0] in "6789" and core_groups in _MOBILE_GROUPINGS
    # landline: 0, STD code, subscriber number
    landline = len(digits) == 11 and digits[0] == "0" and digits[1] != "0" and min(groups) >= 3
    if mobile or landline or (announced and 6 <= len(digits) <= 13):
        return "phone"
    return None


def _edge_ok(text: str, start: int, end: int) -> bool:
    """A number must not be glued to a word, a path or a decimal: "v2", "/12", "1.5", "x@1"."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    if before.isalnum() or before in "_/@=&" or after.isalnum() or after in "_/@%":
        return False
    if before in ".," and start >= 2 and text[start - 2].isdigit():
        return False
    return not (after in ".,:-" and end + 1 < len(text) and text[end + 1].isdigit())


def find_numbers(text: str) -> list[PIIMatch]:
    """Phone numbers and Aadhaar-like ids; the longest number wins at each start."""
    found: list[PIIMatch] = []
    for chain in _chains(text):
        i = 0
        while i < len(chain):
            matched = False
            start_ok = i == 0 or text[chain[i - 1].end() : chain[i].start()] == " "
            if start_ok:
                lead = chain[i].start()
                while lead > 0 and text[lead - 1] in "+(" and lead > chain[i].start() - 2:
                    lead -= 1
                international = "+" in text[lead : chain[i].start()]
                announced = bool(_ANNOUNCED.search(text[max(0, lead - 60) : lead]))
                for j in range(len(chain) - 1, i - 1, -1):
                    end_ok = (
                        j == len(chain) - 1 or text[chain[j].end() : chain[j + 1].start()] == " "
                    )
                    if not end_ok or not _edge_ok(text, lead, chain[j].end()):
                        continue
                    runs = chain[i : j + 1]
                    kind = _classify(runs, text, international, announced)
                    if kind is not None:
                        end = chain[j].end()
                        if end < len(text) and text[end] == ")" and "(" in text[lead:end]:
                            end += 1
                        found.append(PIIMatch(kind, lead, end, text[lead:end]))
                        i, matched = j + 1, True
                        break
            if not matched:
                i += 1
    return found


def _url_is_personal(url: str) -> bool:
    """A link to a person (chat, profile, shared file) or one carrying a token, e-mail or phone."""
    parts = urlsplit(url if "://" in url else f"http://{url}")
    host = (parts.hostname or "").casefold()
    host = host[4:] if host.startswith("www.") else host
    if any(host == h or host.endswith(f".{h}") for h in PERSONAL_URL_HOSTS):
        return True
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if key.casefold() in PERSONAL_URL_KEYS or _EMAIL.search(value) or _TOKEN.search(value):
            return True
        if find_numbers(value):
            return True
    segments = [s for s in parts.path.split("/") if s]
    return any(_TOKEN.search(s) or _EMAIL.search(s) or find_numbers(s) for s in segments)


def find_pii(text: str, policy: PIIPolicy | None = None) -> list[PIIMatch]:
    """PII spans in `text`, left to right, none overlapping; kept ones are left out.

    URLs, then e-mails, are found first, so that digits inside them are not read as numbers; a
    public URL (no personal host or token) and anything on the keep list still claim their span.
    """
    policy = policy or PIIPolicy()
    claimed: list[PIIMatch] = []

    def claim(kind: PIIKind, start: int, end: int, redact: bool) -> None:
        if any(start < m.end and m.start < end for m in claimed):
            return
        trimmed = text[start:end].rstrip(".,;:!?")
        end = start + len(trimmed)
        keep = not redact or policy.keeps(kind, trimmed)
        claimed.append(PIIMatch(kind, start, end, "" if keep else trimmed))

    for m in _URL.finditer(text):
        claim("url", m.start(), m.end(), _url_is_personal(m.group()))
    for m in _EMAIL.finditer(text):
        claim("email", m.start(), m.end(), True)
    for m in _PATIENT_ID.finditer(text):
        claim("patient_id", m.start("id"), m.end("id"), True)
    for number in find_numbers(text):
        claim(number.kind, number.start, number.end, True)
    for m in _PAN.finditer(text):
        claim("pan", m.start(), m.end(), True)
    return sorted((m for m in claimed if m.text), key=lambda m: m.start)


@dataclass(frozen=True)
class Redaction:
    text: str
    counts: Counter[str]


def redact(text: str, policy: PIIPolicy | None = None) -> Redaction:
    """`text` with every PII span replaced by its placeholder, and the count per kind."""
    matches = find_pii(text, policy)
    pieces: list[str] = []
    last = 0
    for m in matches:
        pieces.extend((text[last : m.start], PLACEHOLDERS[m.kind]))
        last = m.end
    pieces.append(text[last:])
    return Redaction("".join(pieces), Counter(m.kind for m in matches))
