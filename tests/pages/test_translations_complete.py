"""Every string the project's Python code marks for translation has a Finnish translation,
no error shown to a user is raised with an unmarked message, and an organiser using the
admin in Finnish sees it."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from textwrap import shorten
from typing import Any

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils.translation.template import templatize

from tests.pages import published_round
from tests.tournaments.factories import UserFactory, tournament_with_teams
from tournaments.models import Round

pytestmark = pytest.mark.django_db

SOURCE_DIRS = ("tournaments", "robot_duplicate", "config", "games")
SKIPPED_DIRS = {"migrations", "tests"}
PO_PATH = Path(settings.BASE_DIR) / "locale" / "fi" / "LC_MESSAGES" / "django.po"

# Django's translation functions, by name, and how their arguments are laid out:
# (position of the context or None, position of the msgid, position of msgid_plural or None).
GETTEXT_FUNCTIONS: dict[str, tuple[int | None, int, int | None]] = {
    "gettext": (None, 0, None),
    "gettext_lazy": (None, 0, None),
    "gettext_noop": (None, 0, None),
    "ngettext": (None, 0, 1),
    "ngettext_lazy": (None, 0, 1),
    "pgettext": (0, 1, None),
    "pgettext_lazy": (0, 1, None),
    "npgettext": (0, 1, 2),
    "npgettext_lazy": (0, 1, 2),
}
TRANSLATION_MODULES = {"django.utils.translation"}

# (msgctxt, msgid, msgid_plural) and where it was found ("path:line").
Message = tuple[str | None, str, str | None]


def _source_files() -> Iterator[Path]:
    base = Path(settings.BASE_DIR)
    for directory in SOURCE_DIRS:
        for path in sorted((base / directory).rglob("*.py")):
            relative = path.relative_to(base)
            if SKIPPED_DIRS.isdisjoint(relative.parts) and not path.name.startswith("test_"):
                yield path


def _aliases(tree: ast.Module) -> tuple[dict[str, str], set[str]]:
    """The names a module binds to translation functions (``_`` -> ``gettext``), and the
    names it binds to the translation module itself (``translation``)."""
    # The conventions, even if bound elsewhere: the engine, which knows no Django, marks
    # its messages with a gettext_noop of its own (games/engine/scoresheet.py).
    functions: dict[str, str] = {"_": "gettext", "gettext_noop": "gettext_noop"}
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in TRANSLATION_MODULES:
            for alias in node.names:
                if alias.name in GETTEXT_FUNCTIONS:
                    functions[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module == "django.utils":
            modules.update(alias.asname or alias.name
                           for alias in node.names if alias.name == "translation")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in TRANSLATION_MODULES and alias.asname:
                    modules.add(alias.asname)
    return functions, modules


def _function(call: ast.Call, functions: dict[str, str], modules: set[str]) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return functions.get(func.id)
    if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id in modules and func.attr in GETTEXT_FUNCTIONS):
        return func.attr
    return None


def _literal(call: ast.Call, position: int | None) -> str | None:
    if position is None or position >= len(call.args):
        return None
    arg = call.args[position]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    return None


def marked_messages() -> tuple[dict[Message, list[str]], list[str]]:
    """Every literal message marked for translation under SOURCE_DIRS, with where it is;
    and the calls whose msgid is not a literal (no catalogue can translate those)."""
    base = Path(settings.BASE_DIR)
    messages: dict[Message, list[str]] = {}
    not_literal: list[str] = []
    for path in _source_files():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        functions, modules = _aliases(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = _function(node, functions, modules)
            if name is None:
                continue
            where = f"{path.relative_to(base)}:{node.lineno}"
            context_at, msgid_at, plural_at = GETTEXT_FUNCTIONS[name]
            msgid = _literal(node, msgid_at)
            if msgid is None or (context_at is not None and _literal(node, context_at) is None):
                not_literal.append(f"{where}: {name}(...) with a non-literal message")
                continue
            key = (_literal(node, context_at), msgid, _literal(node, plural_at))
            messages.setdefault(key, []).append(where)
    return messages, not_literal


# The calls whose message reaches a user, and the position of that message among their
# arguments: the errors an organiser, a player or an API client reads (PermissionDenied and
# ValidationError by any module's name: Django's, DRF's, forms'), the reason a 403 or 404
# page shows (config/error_pages.py), and the admin's own ways of showing one.
USER_MESSAGE_CALLS: dict[str, int] = {
    "TournamentUserError": 0, "ResultRejected": 0, "ResultExists": 0, "PairingError": 0,
    "PermissionDenied": 0, "Http404": 0, "ValidationError": 0, "NotFound": 0,
    "ParseError": 0, "Conflict": 0, "message_user": 1, "add_error": 1,
}
MESSAGE_KEYWORDS = {"message", "detail", "reason"}


def _unmarked_text(node: ast.expr) -> bool:
    """Whether ``node`` builds its text from a literal no gettext call has seen: a string
    literal, an f-string, ``"..." % x``, ``"..." + x``, ``"...".format()``, or such a text
    inside the dict or list a ValidationError takes. A call (``_()``, ``str(exc)``) or a
    variable is taken as the caller's business."""
    match node:
        case ast.Constant(value=str(text)):
            return bool(text.strip())
        case ast.JoinedStr():
            return True
        case ast.BinOp(op=ast.Mod(), left=left):  # the right side fills placeholders
            return _unmarked_text(left)
        case ast.BinOp(op=ast.Add(), left=left, right=right):
            return _unmarked_text(left) or _unmarked_text(right)
        case ast.Call(func=ast.Attribute(value=template, attr="format")):
            return _unmarked_text(template)
        case ast.IfExp(body=body, orelse=orelse):
            return _unmarked_text(body) or _unmarked_text(orelse)
        case ast.BoolOp(values=values) | ast.List(elts=values) | ast.Tuple(elts=values):
            return any(_unmarked_text(value) for value in values)
        case ast.Dict(values=values):
            return any(_unmarked_text(value) for value in values)
    return False


def _callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def unmarked_user_messages(source: str, where: str) -> list[str]:
    """``where:line`` of each call in ``source`` that shows a user an unmarked message."""
    offenders = []
    calls = (node for node in ast.walk(ast.parse(source, filename=where))
             if isinstance(node, ast.Call))
    for node in calls:
        name = _callee(node)
        if name is None or name not in USER_MESSAGE_CALLS:
            continue
        position = USER_MESSAGE_CALLS[name]
        messages = [*node.args[position:position + 1],
                    *(kw.value for kw in node.keywords if kw.arg in MESSAGE_KEYWORDS)]
        unmarked = [message for message in messages if _unmarked_text(message)]
        if unmarked:
            offenders.append((node.lineno, f"{name}({shorten(ast.unparse(unmarked[0]), 70)})"))
    return [f"{where}:{line}: {call}" for line, call in sorted(offenders)]


def _first_place(item: tuple[Message, list[str]]) -> tuple[str, int]:
    path, _colon, line = item[1][0].rpartition(":")
    return path, int(line)


def _translated(entry: polib.POEntry) -> bool:
    if entry.fuzzy or entry.obsolete:
        return False
    if entry.msgid_plural:
        return bool(entry.msgstr_plural) and all(entry.msgstr_plural.values())
    return bool(entry.msgstr)


def _untranslated(messages: dict[Message, list[str]]) -> list[str]:
    """The messages the Finnish catalogue lacks (or has fuzzy, untranslated or with another
    plural), each with where it is used."""
    catalogue = polib.pofile(str(PO_PATH))
    entries = {(entry.msgctxt, entry.msgid): entry for entry in catalogue}
    missing = []
    for (context, msgid, plural), places in sorted(messages.items(), key=_first_place):
        entry = entries.get((context, msgid))
        problem = None
        if entry is None or not _translated(entry):
            problem = "missing" if entry is None else "untranslated or fuzzy"
        elif plural is not None and entry.msgid_plural != plural:
            problem = f"msgid_plural should be {plural!r}"
        if problem:
            label = f"{context!r} | {msgid!r}" if context else repr(msgid)
            missing.append(f"{', '.join(places)}: {label} ({problem})")
    return missing


def test_every_marked_string_has_a_finnish_translation() -> None:
    messages, not_literal = marked_messages()
    assert len(messages) > 50, "the extractor found suspiciously few messages"

    missing = _untranslated(messages)

    assert not missing, (f"{len(missing)} message(s) lack a Finnish translation in "
                         f"{PO_PATH}:\n" + "\n".join(missing))
    assert not not_literal, "\n".join(not_literal)


# Where the templates are: the project's and the apps' (makemessages reads the same).
TEMPLATE_DIRS = ("templates", "tournaments/templates", "robot_duplicate/templates")
# A translation call in the text Django's templatize makes of a template (what makemessages
# hands xgettext): {% translate %} and {% blocktranslate %} become gettext('...'), with a
# count ngettext('...', '...', count), with a context pgettext or npgettext; the rest of the
# template is blanked to X, B and the like, so no quote stands outside these calls.
STRING = r"""u?(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""
TEMPLATE_CALL = re.compile(
    rf"\b(npgettext|pgettext|ngettext|gettext)\(\s*({STRING}(?:\s*,\s*{STRING})*)")


def template_messages() -> dict[Message, list[str]]:
    """Every message the templates mark for translation, with where it is."""
    base = Path(settings.BASE_DIR)
    messages: dict[Message, list[str]] = {}
    for directory in TEMPLATE_DIRS:
        for path in sorted((base / directory).rglob("*.html")):
            text = templatize(path.read_text(encoding="utf-8"), origin=str(path))
            for lineno, line in enumerate(text.splitlines(), start=1):
                for call in TEMPLATE_CALL.finditer(line):
                    name, args = call.group(1), ast.literal_eval(f"({call.group(2)},)")
                    context_at, msgid_at, plural_at = GETTEXT_FUNCTIONS[name]
                    key = (None if context_at is None else args[context_at], args[msgid_at],
                           None if plural_at is None else args[plural_at])
                    messages.setdefault(key, []).append(f"{path.relative_to(base)}:{lineno}")
    return messages


def test_every_template_string_has_a_finnish_translation() -> None:
    messages = template_messages()
    assert len(messages) > 200, "the extractor found suspiciously few messages"
    assert (None, "Upload game record", None) in messages  # {% translate %}
    assert (None, "Left out: a match you play in, until it has a result.",  # with a count
            "Left out: %(n)s matches you play in, until they have a result.") in messages

    missing = _untranslated(messages)

    assert not missing, (f"{len(missing)} template message(s) lack a Finnish translation in "
                         f"{PO_PATH}:\n" + "\n".join(missing))


def test_no_user_facing_error_is_raised_with_an_unmarked_message() -> None:
    base = Path(settings.BASE_DIR)
    offenders = [offender for path in _source_files()
                 for offender in unmarked_user_messages(path.read_text(encoding="utf-8"),
                                                        str(path.relative_to(base)))]
    assert not offenders, ("mark these messages for translation (gettext with %(name)s "
                           "placeholders) and translate them:\n" + "\n".join(offenders))


UNMARKED = """\
from django.utils.translation import gettext as _
raise TournamentUserError("round 1 is complete")
raise serializers.ValidationError(f"round {number} is complete")
raise ValidationError({"round": [f"expected 1 to {total}"]})
raise ResultRejected("hand " + str(hand) + ": " + reason, hand=hand)
raise PairingError("at least %d teams are needed" % minimum)
raise Http404(f"no round {number}")
model_admin.message_user(request, "Done.", messages.SUCCESS)
raise ResultExists(message="{} already has a result".format(match))
raise PermissionDenied(_("only organisers may do this") if user else "log in first")
raise TournamentUserError(_("round %(number)d is complete") % {"number": number})
raise ResultRejected(reason, hand=hand, action=action, status="illegal")
raise ResultRejected(verdict.reason or _("malformed record"), status="malformed")
raise TournamentUserError(str(exc)) from None
raise PermissionDenied
form.add_error(None, rejection_message(exc))
"""


def test_the_checker_names_each_unmarked_message_by_file_and_line() -> None:
    offenders = unmarked_user_messages(UNMARKED, "snippet.py")

    assert [offender.split(": ")[0] for offender in offenders] == [
        f"snippet.py:{line}" for line in range(2, 11)]
    assert offenders[0] == "snippet.py:2: TournamentUserError('round 1 is complete')"


def _organiser_with_a_round() -> tuple[Any, Round]:
    """A staff organiser (not a superuser) of a four-team cup whose round 1 is published."""
    organiser = UserFactory()
    tournament = tournament_with_teams(4, organisers=[organiser])
    return organiser, published_round(tournament)


def test_an_organiser_sees_the_admin_in_finnish(client: Client, finnish: None) -> None:
    organiser, round = _organiser_with_a_round()
    client.force_login(organiser)
    changelist = reverse("admin:tournaments_match_changelist")

    html = client.get(changelist, HTTP_ACCEPT_LANGUAGE="fi").content.decode()

    assert '<html lang="fi"' in html
    assert 'data-filter-title="turnaus"' in html  # the organiser's own tournament filter
    assert 'data-filter-title="tournament"' not in html
    assert "odottaa vahvistusta" in html and "awaiting confirmation" not in html

    # An admin action's message: none of these fresh matches has a result to confirm.
    matches = [str(pk) for pk in round.matches.values_list("pk", flat=True)]
    response = client.post(changelist, {"action": "confirm_result", "index": "0",
                                        "_selected_action": matches},
                           follow=True, HTTP_ACCEPT_LANGUAGE="fi")
    html = response.content.decode()
    assert ("Yhdelläkään valitulla ottelulla ei ole tulosta, jonka sinä voisit vahvistaa."
            in html)
    assert "None of the selected matches" not in html

    # The result page of a match: its title and the form's labels.
    match = round.matches.filter(is_bye=False).first()
    html = client.get(reverse("admin:tournaments_match_record", args=[match.pk]),
                      HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Lähetä pelipöytäkirja" in html and "Upload game record" not in html
    assert "pöytäkirjatiedosto" in html and "record file" not in html
    assert "tai liitä pöytäkirja" in html and "or paste the record" not in html


def test_admin_action_descriptions_and_columns_are_finnish(client: Client,
                                                           finnish: None) -> None:
    organiser, _round = _organiser_with_a_round()
    client.force_login(organiser)

    html = client.get(reverse("admin:tournaments_match_changelist"),
                      HTTP_ACCEPT_LANGUAGE="fi").content.decode()

    assert "Valitse muokattava ottelu" in html  # the model's own name, translated
    assert "Vahvista tulos (toisena järjestäjänä)" in html
    assert "Peru tulos (ottelu odottaa uutta tulosta)" in html
    assert "Confirm result (as a second organiser)" not in html
