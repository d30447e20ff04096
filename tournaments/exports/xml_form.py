"""The results file in XML: the same content as its JSON, one way to write it and back.

The mapping follows the JSON Schema (``push-results-1.schema.json``), so that the XML and
the JSON cannot drift apart, and the XSD (``push-results-1.xsd``) states the same shape:

* the document is ``<push-results>``; an object's keys are child elements of the same
  name, in the schema's order;
* an array is an element of its key's name holding one element a value, named as
  ``ITEMS`` says (``<rounds><round>...``; a hand's two scores are ``<hand><score>``);
* null is an empty element with ``xsi:nil="true"``; booleans are ``true`` and ``false``;
  numbers are written as JSON writes them.

Reading trusts the XSD to have checked the shape first (``schema.xml_problems``) and uses
the JSON Schema for each value's type, so it gives back the JSON document exactly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from decimal import Decimal
from typing import Any
from xml.etree import ElementTree

ROOT = "push-results"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
NIL = f"{{{XSI}}}nil"
ITEMS = {"players": "player", "teams": "team", "rounds": "round", "matches": "match",
         "seats": "seat", "places": "place", "tiebreaks": "tiebreak", "hand_scores": "hand",
         "hand": "score", "out_seats": "out", "totals": "total"}

Schema = Mapping[str, Any]


def to_xml(document: Mapping[str, Any], schema: Schema) -> bytes:
    """The results file ``document`` (valid against ``schema``) as UTF-8 XML."""
    ElementTree.register_namespace("xsi", XSI)
    root = ElementTree.Element(ROOT)
    _write(root, document, schema, schema)
    ElementTree.indent(root)
    written: bytes = ElementTree.tostring(root, encoding="utf-8", xml_declaration=True)
    return written + b"\n"


def from_xml(root: ElementTree.Element, schema: Schema) -> Any:
    """The JSON document an XML results file (already checked against the XSD) holds."""
    return _read(root, schema, schema)


def _resolve(node: Schema, schema: Schema) -> Schema:
    while "$ref" in node:
        node = schema["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _kinds(node: Schema, schema: Schema) -> list[tuple[str, Schema]]:
    """The JSON types ``node`` allows, each with the schema that describes it."""
    node = _resolve(node, schema)
    if "oneOf" in node:
        return [kind for choice in node["oneOf"] for kind in _kinds(choice, schema)]
    types = node.get("type", "string")  # an enum or a const: here, always text
    return [(kind, node) for kind in ([types] if isinstance(types, str) else types)]


def _write(element: ElementTree.Element, value: Any, node: Schema, schema: Schema) -> None:
    if value is None:
        element.set(NIL, "true")
        return
    kind, node = next((k, n) for k, n in _kinds(node, schema) if k != "null")
    if kind == "object":
        for key, child in node["properties"].items():
            if key in value:
                _write(ElementTree.SubElement(element, key), value[key], child, schema)
    elif kind == "array":
        name = ITEMS[element.tag]
        for item in value:
            _write(ElementTree.SubElement(element, name), item, node["items"], schema)
    elif kind == "boolean":
        element.text = "true" if value else "false"
    elif kind in ("integer", "number"):
        element.text = json.dumps(value)
    else:
        element.text = value


def _read(element: ElementTree.Element, node: Schema, schema: Schema) -> Any:
    kinds = _kinds(node, schema)
    if element.get(NIL) == "true":
        return None
    kind, node = next((k, n) for k, n in kinds if k != "null")
    if kind == "object":
        children = {child.tag: child for child in element}
        return {key: _read(children[key], child, schema)
                for key, child in node["properties"].items() if key in children}
    if kind == "array":
        return [_read(child, node["items"], schema) for child in element]
    text = (element.text or "").strip() if kind != "string" else element.text or ""
    if kind == "boolean":
        return text in ("true", "1")
    if kind == "integer":
        return int(text)
    if kind == "number":  # as JSON writes it: 2 points, 1.5 points
        exact = Decimal(text)
        return int(exact) if exact == int(exact) else float(exact)
    return text
