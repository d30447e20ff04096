"""The results file's two schemas, shipped beside this module, and the check of a file
against them: ``push-results-1.schema.json`` (JSON Schema 2020-12) for the JSON and
``push-results-1.xsd`` for the XML (the same shape, ``xml_form``).

A file is read from bytes: XML when it begins with ``<``, else JSON. Each problem found
says where it is, a JSON pointer (``/rounds/0/matches/2/table``) or an XML path
(``/push-results/rounds/round[1]/matches/match[3]/table``), and what is wrong there.
XML is parsed with its entities and remote references refused (``defuse="always"``).

The XML Schema library is imported by the functions that read XML, not with the module:
the API's URLs import this module, so every web process, Celery worker and command would
otherwise spend a sixth of a second of CPU starting it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import jsonschema

from . import xml_form

if TYPE_CHECKING:
    import xmlschema

HERE = Path(__file__).parent
JSON_SCHEMA = HERE / "push-results-1.schema.json"
XSD = HERE / "push-results-1.xsd"
SHOWN_PROBLEMS = 10  # a broken file can have thousands: the first ones are enough to fix


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file: ``where`` (a JSON pointer or an XML path), ``what``."""

    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where or '/'}: {self.what}"


class FileProblems(ValueError):
    """A file that is not a valid results file, with its problems (at most
    ``SHOWN_PROBLEMS``)."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(map(str, problems)))
        self.problems = problems


@cache
def json_schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(JSON_SCHEMA.read_text(encoding="utf-8"))
    return loaded


@cache
def _xsd() -> xmlschema.XMLSchema:
    import xmlschema

    return xmlschema.XMLSchema(str(XSD))


def json_problems(document: Any) -> list[Problem]:
    """What is wrong with ``document`` (decoded JSON) against the JSON Schema."""
    validator = jsonschema.Draft202012Validator(json_schema())
    errors = sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.path)))
    return [Problem(pointer(error.path), error.message) for error in errors[:SHOWN_PROBLEMS]]


def pointer(parts: Iterable[Any]) -> str:
    """The JSON pointer (RFC 6901) of a path of keys and indexes."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


def xml_problems(source: bytes) -> list[Problem]:
    """What is wrong with the XML ``source`` against the XSD (or as XML at all)."""
    import xmlschema

    try:
        resource = xmlschema.XMLResource(source, defuse="always")
    except (xmlschema.XMLResourceError, SyntaxError) as error:  # ParseError is a SyntaxError
        return [Problem("", f"not well-formed XML: {error}")]
    problems = []
    for found in _xsd().iter_errors(resource):
        problems.append(Problem(found.path or "", found.reason or found.message))
        if len(problems) == SHOWN_PROBLEMS:
            break
    return problems


def read(source: bytes) -> dict[str, Any]:
    """The results file in ``source`` (JSON or XML) as its JSON document; FileProblems
    when it is not one."""
    if source.lstrip()[:1] == b"<":
        problems = xml_problems(source)
        if problems:
            raise FileProblems(problems)
        import xmlschema

        root = xmlschema.XMLResource(source, defuse="always").root
        document = xml_form.from_xml(root, json_schema())
    else:
        try:
            document = json.loads(source)
        except (ValueError, UnicodeDecodeError) as error:
            raise FileProblems([Problem("", f"not JSON: {error}")]) from None
    problems = json_problems(document)
    if problems:
        raise FileProblems(problems)
    return cast(dict[str, Any], document)  # the schema's root is an object


def write_xml(document: dict[str, Any]) -> bytes:
    """The results file's JSON ``document`` as its XML."""
    return xml_form.to_xml(document, json_schema())
