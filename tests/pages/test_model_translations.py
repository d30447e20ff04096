"""Every name the admin shows for the project's models is marked for translation and has a
Finnish translation: the apps' and the models' names, each field's name, help text and
choices, and the admin's own column headers, filters, actions, form fields, inlines and
fieldsets.

Django makes a name of its own for whatever is left unnamed (``team_a`` becomes "Team a",
``LiveTable`` "live table"), in English whatever the language: those fail here too.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import polib
import pytest
from django.apps import apps
from django.conf import settings
from django.contrib import admin
from django.db import models
from django.test import Client
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, override

from tests.pages import published_round
from tests.tournaments.factories import UserFactory, tournament_with_teams

PO_PATH = Path(settings.BASE_DIR) / "locale" / "fi" / "LC_MESSAGES" / "django.po"
# the apps whose models are the project's (app labels)
APPS = ("games", "live", "tournaments", "robot_duplicate")


def _translated_msgids() -> set[str]:
    entries = (entry for entry in polib.pofile(str(PO_PATH))
               if not entry.fuzzy and not entry.obsolete)
    return {entry.msgid for entry in entries
            if entry.msgstr or (entry.msgid_plural and all(entry.msgstr_plural.values()))}


TRANSLATED = _translated_msgids()


def _problem(text: Any) -> str | None:
    """Why ``text`` would reach a Finnish admin in English, or None when it would not: it is
    not marked for translation (a plain ``str`` is fixed when the module loads, and Django's
    own names for unnamed things are plain), or the catalogue has no translation of it."""
    if not isinstance(text, Promise):
        return "not marked for translation"
    with override("en"):
        msgid = str(text)
    if msgid not in TRANSLATED:
        return "no Finnish translation"
    return None


def _models() -> Iterator[type[models.Model]]:
    for label in APPS:
        yield from apps.get_app_config(label).get_models()


def _own_fields(model: type[models.Model]) -> Iterator[Any]:
    """The fields a model declares: not the ones Django adds (the id, reverse relations)."""
    for field in model._meta.get_fields():
        if not field.auto_created:
            yield field


def _offenders(named: Iterable[tuple[str, Any]]) -> list[str]:
    found = []
    for where, text in named:
        problem = _problem(text)
        if problem:
            with override("en"):
                found.append(f"{where}: {str(text)!r} ({problem})")
    return found


def model_names() -> Iterator[tuple[str, Any]]:
    for label in APPS:
        yield f"app {label}", apps.get_app_config(label).verbose_name
    for model in _models():
        meta = model._meta
        for attr in ("verbose_name", "verbose_name_plural"):
            # a plural Django makes adds an English "s" to the name
            given = attr in meta.original_attrs
            yield f"{meta.label}.Meta.{attr}", getattr(meta, attr) if given else "(not set)"


def field_texts() -> Iterator[tuple[str, Any]]:
    for model in _models():
        for field in _own_fields(model):
            where = f"{model._meta.label}.{field.name}"
            yield f"{where} verbose_name", field.verbose_name
            if str(field.help_text):
                yield f"{where} help_text", field.help_text
            for value, label in field.flatchoices or ():
                yield f"{where} choice {value!r}", label


def _description(model_admin: Any, name: Any) -> Any:
    """The column header or field label of ``name`` (in list_display, readonly_fields) when
    the admin's own method or a function names it; a model field's is its verbose name."""
    item = name if callable(name) else getattr(model_admin, str(name), None)
    return getattr(item, "short_description", None)


def admin_texts() -> Iterator[tuple[str, Any]]:
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in APPS:
            continue
        where = type(model_admin).__name__
        names = [*model_admin.list_display, *model_admin.readonly_fields]
        for name in names:
            description = _description(model_admin, name)
            if description is not None:
                yield f"{where} column {name}", description
        for action in model_admin.actions or ():
            function = action if callable(action) else getattr(model_admin, action)
            yield f"{where} action {getattr(function, '__name__', action)}", (
                function.short_description)
        for list_filter in model_admin.list_filter:
            if isinstance(list_filter, type) and hasattr(list_filter, "title"):
                yield f"{where} filter {list_filter.__name__}", list_filter.title
        # the admin form's own fields (the model's take their labels from the model)
        for name, form_field in model_admin.form.declared_fields.items():
            if form_field.label is not None:
                yield f"{where} form field {name} label", form_field.label
            if str(form_field.help_text):
                yield f"{where} form field {name} help_text", form_field.help_text
        for fieldset_name, _options in model_admin.fieldsets or ():
            if fieldset_name:
                yield f"{where} fieldset", fieldset_name
        for inline in model_admin.inlines:
            for attr in ("verbose_name", "verbose_name_plural"):
                if inline.__dict__.get(attr) is not None:
                    yield f"{where} {inline.__name__}.{attr}", inline.__dict__[attr]
            for name in inline.readonly_fields:
                description = _description(inline, name)
                if description is not None:
                    yield f"{where} {inline.__name__} column {name}", description


def test_every_app_and_model_name_is_translated() -> None:
    names = list(model_names())
    assert len(names) > 30, "suspiciously few models"

    offenders = _offenders(names)

    assert not offenders, ("give these a verbose name marked with gettext_lazy, and "
                           f"translate it in {PO_PATH}:\n" + "\n".join(offenders))


def test_every_field_name_help_text_and_choice_is_translated() -> None:
    texts = list(field_texts())
    assert len(texts) > 200, "suspiciously few fields"
    assert any(where == "tournaments.Tournament.bye_policy choice 'bot'" for where, _t in texts)

    offenders = _offenders(texts)

    assert not offenders, ("mark these with gettext_lazy (a field's verbose name is its first "
                           f"argument) and translate them in {PO_PATH}:\n"
                           + "\n".join(offenders))


def test_every_admin_column_filter_and_action_is_translated() -> None:
    texts = list(admin_texts())
    assert len(texts) > 30, "suspiciously few admin texts"

    offenders = _offenders(texts)

    assert not offenders, ("mark these with gettext_lazy (a class attribute or a decorator's "
                           "text is made when the module loads: gettext would fix it in "
                           f"English) and translate them in {PO_PATH}:\n"
                           + "\n".join(offenders))


@pytest.mark.parametrize("text, problem", [
    ("team a", "not marked for translation"),
    (models.Field(verbose_name="bye policy").verbose_name, "not marked for translation"),
])
def test_the_checker_refuses_unmarked_text(text: Any, problem: str) -> None:
    assert _problem(text) == problem


def test_the_checker_refuses_marked_text_the_catalogue_lacks() -> None:
    assert _problem(gettext_lazy("a name nobody has translated")) == "no Finnish translation"
    assert _problem(gettext_lazy("player")) is None


# -- the pages an organiser reads in Finnish ---------------------------------------------------


@pytest.mark.django_db
def test_the_tournament_form_and_the_match_page_read_finnish(client: Client,
                                                             finnish: None) -> None:
    organiser = UserFactory(is_superuser=True)
    tournament = tournament_with_teams(4, organisers=[organiser])
    match = published_round(tournament).matches.filter(is_bye=False).first()
    assert match is not None
    client.force_login(organiser)
    fi = {"accept-language": "fi"}

    # the add page shows every setting (a saved tournament only those its format reads)
    form = client.get(reverse("admin:tournaments_tournament_add"), headers=fi).content.decode()
    page = client.get(reverse("admin:tournaments_match_change", args=[match.pk]),
                      headers=fi).content.decode()

    for label in ("Järjestäjät", "Muoto", "Tila", "Kierroksia suunniteltu",
                  "Pisteet voitosta", "Pisteet vapaakierroksesta",
                  "Vastustajatta jäävä joukkue saa", "Bottitaso",
                  "Pudotuspelin tasapelisääntö", "Pronssiottelu", "Pöytäkirjat vahvistetaan"):
        assert f">{label}" in form, label
    for english in ("Organisers", "Rounds planned", "Points win", "Bye policy", "Bot level",
                    "Knockout tie rule", "Third place match", "Confirm score sheets"):
        assert english not in form, english
    assert f"{tournament.name}, kierros 1" in page and " round 1" not in page
    for label in ("Joukkue A", "Vapaakierros", "Bottijoukkuetta vastaan", "Paikka",
                  "Pelaaja", "Bottitaso"):
        assert f">{label}" in page, label
    for english in ("Team a", "Is bye", "Bot opponent", ">Position", ">Bot level"):
        assert english not in page, english


@pytest.mark.django_db
def test_the_admin_chooser_of_organisers_reads_finnish(client: Client, finnish: None) -> None:
    client.force_login(UserFactory(is_superuser=True))

    script = client.get(reverse("admin:jsi18n"), headers={"accept-language": "fi"})

    assert script.status_code == 200
    text = script.content.decode()
    assert "Valitse kaikki: %s" in text and "Poista merkityt: %s" in text
