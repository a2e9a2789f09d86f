"""The JSON schema OpenAI's strict structured outputs accept, and a rejected schema told apart.

Followed: OpenAI API documentation, guide "Structured model outputs", section "Supported
schemas" (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas, the
text read in December 2026). It lists the supported types (string, number, boolean, integer,
object, array, enum, anyOf), definitions (`$defs`, `$ref`), and a few constraints per type:
string `pattern`, `format`; number `multipleOf`, `maximum`, `exclusiveMaximum`, `minimum`,
`exclusiveMinimum`; array `minItems`, `maxItems`. "For fine-tuned models, we additionally do not
support" `minLength`, `maxLength`, `pattern`, `format`, `minimum`, `maximum`, `multipleOf`,
`patternProperties`, `minItems`, `maxItems`; `minLength` and `maxLength` are on no supported
list at all. Every object needs `additionalProperties: false` and every property `required`.

Parakh sends, in strict mode, only the keywords that every model accepts, fine-tuned ones
included (`STRICT_SCHEMA_KEYWORDS`); what that drops (a non-integer score's range, the
justification's length) is checked after parsing (`parakh.judging.parse`). Grammar backends
(llama.cpp, vLLM in process) still get the full schema.
"""

from __future__ import annotations

import re
from typing import Any

from parakh.errors import ConfigError

# The one allow-list: schema keywords sent with `response_format` {"type": "json_schema",
# "strict": true}. Structure and enumerations only; no numeric or length constraints.
STRICT_SCHEMA_KEYWORDS: frozenset[str] = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "const",
        "anyOf",
        "$ref",
        "$defs",
        "description",
    }
)


def strict_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with every keyword outside `STRICT_SCHEMA_KEYWORDS` removed, at every level.

    Property and definition names are kept whatever they are; only keywords are filtered."""
    kept: dict[str, Any] = {}
    for keyword, value in schema.items():
        if keyword not in STRICT_SCHEMA_KEYWORDS:
            continue
        if keyword in ("properties", "$defs") and isinstance(value, dict):  # name -> schema
            value = {name: _strict(sub) for name, sub in value.items()}
        elif keyword == "anyOf" and isinstance(value, list):
            value = [_strict(sub) for sub in value]
        elif keyword == "items":
            value = _strict(value)
        kept[keyword] = value
    return kept


def _strict(value: Any) -> Any:
    return strict_schema(value) if isinstance(value, dict) else value


# OpenAI answers an unusable schema with a 400 whose error names `response_format`:
# {"error": {"message": "Invalid schema for response_format 'response': In context=(...),
# 'maxLength' is not permitted.", "type": "invalid_request_error", "param": "response_format"}}.
# The openai SDK quotes the body as a Python dict, hence either quote.
_REJECTION = re.compile(
    r"invalid schema for response_format|['\"]param['\"]\s*:\s*['\"]response_format['\"]",
    re.IGNORECASE,
)


def is_schema_rejection(status: int, text: str) -> bool:
    """True for a 400 that refuses the request's `response_format` (its schema): every request
    of the run carries the same schema, so every one would be refused the same way."""
    return status == 400 and _REJECTION.search(text) is not None


class SchemaRejectedError(ConfigError):
    """The server refused the JSON schema sent as `response_format`; the stage stops."""

    def __init__(self, model: str, reason: str) -> None:
        super().__init__(
            f"model '{model}': the server rejected the JSON schema sent as `response_format` "
            f"({reason}). Stopped at the first rejected request; no rows were written. To send "
            f"no schema, set `structured_output: none` in conf/model/{model}.yaml (for the "
            "judge's model on the command line: judge.model.structured_output=none); every "
            "judge output is still checked after parsing (keys, score range, justification "
            "length). A llama-cpp-python server takes `structured_output: json_object_schema`."
        )
