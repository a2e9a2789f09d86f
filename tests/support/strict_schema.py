"""The fault server's check of a strict `response_format` schema, as OpenAI's API makes it.

Written from the documentation's rules (guide "Structured model outputs", section "Supported
schemas", https://platform.openai.com/docs/guides/structured-outputs#supported-schemas) and
kept apart from the client's allow-list (`parakh.backends.structured_outputs`), so a test that
the client's schema passes here checks the client against the rules, not against itself:

- the root is an object, not `anyOf`;
- every object sets `additionalProperties: false` and lists every property in `required`;
- a keyword is allowed only where the documentation lists it for the schema's type; models
  marked `fine_tuned` also refuse `minLength`, `maxLength`, `pattern`, `format`, `minimum`,
  `maximum`, `multipleOf`, `patternProperties`, `minItems` and `maxItems`.

The error text imitates the API's: "Invalid schema for response_format '<name>': In
context=('properties', 'Justification'), 'maxLength' is not permitted."
"""

from __future__ import annotations

from typing import Any, Literal

StrictRules = Literal["api", "fine_tuned"]

_ANY_TYPE = frozenset({"type", "description", "title", "enum", "const", "anyOf", "$ref", "$defs"})
_BY_TYPE: dict[str, frozenset[str]] = {
    "string": frozenset({"pattern", "format"}),
    "number": frozenset(
        {"multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"}
    ),
    "array": frozenset({"items", "minItems", "maxItems"}),
    "object": frozenset({"properties", "required", "additionalProperties"}),
    "boolean": frozenset(),
    "null": frozenset(),
}
_BY_TYPE["integer"] = _BY_TYPE["number"]
_NOT_FOR_FINE_TUNED = frozenset(
    {
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "multipleOf",
        "patternProperties",
        "minItems",
        "maxItems",
    }
)


def _types(schema: dict[str, Any]) -> list[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return [declared]
    if isinstance(declared, list):
        return [t for t in declared if isinstance(t, str)]
    return []


def _allowed(schema: dict[str, Any], rules: StrictRules) -> frozenset[str]:
    allowed = set(_ANY_TYPE)
    for kind in _types(schema):
        allowed |= _BY_TYPE.get(kind, frozenset())
    if rules == "fine_tuned":
        allowed -= _NOT_FOR_FINE_TUNED
    return frozenset(allowed)


def _problem(
    schema: Any, context: tuple[str, ...], rules: StrictRules, refused: frozenset[str]
) -> str | None:
    where = f"In context={context!r}, "
    if not isinstance(schema, dict):
        return f"{where}schema must be a JSON Schema object."
    allowed = _allowed(schema, rules) - refused
    for keyword in schema:
        if keyword not in allowed:
            return f"{where}'{keyword}' is not permitted."
    if "object" in _types(schema):
        if schema.get("additionalProperties") is not False:
            return f"{where}'additionalProperties' is required to be supplied and to be false."
        properties = schema.get("properties") or {}
        required = schema.get("required")
        missing = [k for k in properties if not isinstance(required, list) or k not in required]
        if missing:
            return (
                f"{where}'required' is required to be supplied and to be an array including "
                f"every key in properties. Missing '{missing[0]}'."
            )
    children: list[tuple[tuple[str, ...], Any]] = []
    for name, sub in (schema.get("properties") or {}).items():
        children.append(((*context, "properties", name), sub))
    for name, sub in (schema.get("$defs") or {}).items():
        children.append(((*context, "$defs", name), sub))
    for i, sub in enumerate(schema.get("anyOf") or []):
        children.append(((*context, "anyOf", str(i)), sub))
    if isinstance(schema.get("items"), dict):
        children.append(((*context, "items"), schema["items"]))
    for child_context, sub in children:
        problem = _problem(sub, child_context, rules, refused)
        if problem is not None:
            return problem
    return None


def strict_schema_error(
    response_format: Any, rules: StrictRules = "api", refused: frozenset[str] = frozenset()
) -> str | None:
    """The API's error message for a strict `response_format` it would refuse, else None.

    `refused` names further keywords to refuse, as a stricter model or a later API might."""
    if not isinstance(response_format, dict) or response_format.get("type") != "json_schema":
        return None
    spec = response_format.get("json_schema")
    if not isinstance(spec, dict) or spec.get("strict") is not True:
        return None
    name = spec.get("name", "")
    schema = spec.get("schema")
    prefix = f"Invalid schema for response_format '{name}': "
    if not isinstance(schema, dict) or "anyOf" in schema or schema.get("type") != "object":
        return prefix + "schema must be a JSON Schema of 'type: \"object\"', got a different root."
    problem = _problem(schema, (), rules, refused)
    return None if problem is None else prefix + problem
