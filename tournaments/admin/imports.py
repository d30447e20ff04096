"""Bulk registration: players, teams and entries from CSV, and back (django-import-export).

The import shows a preview of every row first, with each refused row's errors in words;
one refused row stores nothing at all (the library imports in one transaction, and only
once the preview has no error). The columns, in the order to import them:

* players: ``handle`` (unique; left empty, it is made from the name), ``name``, and
  ``club`` if you like (a club's name; an empty cell: no club)
* teams: ``name`` (unique), ``player_a``, ``player_b`` (the players' handles), and
  ``club`` if you like (empty: the team belongs to its players' clubs)
* entries: ``tournament`` (its id, as the admin's address shows it), ``team`` (its name),
  ``seed``, ``withdrawn`` (yes/no)

A text cell a spreadsheet would run as a formula (a team named ``=HYPERLINK(...)``) is
exported with a leading ``'`` and read back without it (``tournaments.csv_cells``), so an
export imports back unchanged; django-import-export's own escaping, which only drops a
leading ``=``, is off (``IMPORT_EXPORT_ESCAPE_FORMULAE_ON_EXPORT``).

A file without the optional ``club`` column leaves every club as it is; a club that does
not exist is refused (add it first: a misspelt club would otherwise be a new one).

An import obeys the same rules as the forms: an organiser changes only players and teams
the register lets them change (``services.may_edit_register``) and enters teams only into the
tournaments they organise (``scoping``); a row that would do otherwise is refused, saying
so. Every error is a ``ValidationError``, which the library shows against its row.
"""

from __future__ import annotations

from typing import Any, TypeVar

import django_stubs_ext
from django.core.exceptions import ValidationError
from django.db.models import Model, QuerySet
from django.forms import Form
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise
from import_export import fields, resources, widgets
from import_export.admin import ImportExportMixin
from import_export.formats.base_formats import CSV
from import_export.tmp_storages import TempFolderStorage

from config.users import RequestUser
from tournaments import services
from tournaments.csv_cells import escape, unescape
from tournaments.models import Club, Entry, Player, Team, Tournament

from .scoping import scoped

# The classes the import-export stubs make generic take their type at run time too, as
# Django's do (config/settings.py).
django_stubs_ext.monkeypatch(extra_classes=[ImportExportMixin, resources.ModelResource,
                                            widgets.ForeignKeyWidget])

_M = TypeVar("_M", bound=Model)

NO_PLAYER = gettext_lazy("No player has the handle “%(value)s”: import the players first.")
YES = {"yes", "y", "true", "1", "kyllä", "k"}
NO = {"no", "n", "false", "0", "ei", "e", ""}


class ByKey(widgets.ForeignKeyWidget[Model]):
    """A reference by a unique column (a player's handle, a team's name, a tournament's
    id: only one ``user`` organises); a missing one is an error that names it."""

    def __init__(self, model: type[Model], field: str, missing: StrOrPromise) -> None:
        super().__init__(model, field)
        self.missing = missing
        self.user: RequestUser | None = None

    def get_queryset(self, value: Any, row: Any, *args: Any, **kwargs: Any) -> QuerySet[Model]:
        if self.model is Tournament:
            assert self.user is not None  # its resource hands every ByKey the importing user
            return scoped(Tournament.objects.all(), self.user, "")
        return self.model._default_manager.all()

    def clean(self, value: Any, row: Any = None, **kwargs: Any) -> Any:
        written = str(value if value is not None else "")
        text = written.strip()
        if not text:
            raise ValueError(_("This column is required."))
        if self.model is Tournament and not text.isdigit():
            raise ValueError(_("Give the tournament's number (its id), not “%s”.") % text)
        queryset = self.get_queryset(text, row)
        # The key as written first (a team's name may begin with a tab, as its export
        # writes it), then without the spaces a hand-edited file gains around it.
        for key in dict.fromkeys((written, text)):
            found = queryset.filter(**{self.field: key}).first()
            if found is not None:
                return found
        raise ValueError(self.missing % {"value": text})


class ClubByName(ByKey):
    """A club by its name, an empty cell no club."""

    def __init__(self) -> None:
        super().__init__(Club, "name", missing=gettext_lazy(
            "No club is called “%(value)s”: add it under Clubs first."))

    def clean(self, value: Any, row: Any = None, **kwargs: Any) -> Any:
        if not str(value if value is not None else "").strip():
            return None
        return super().clean(value, row, **kwargs)


class Seed(widgets.Widget):
    def clean(self, value: Any, row: Any = None, **kwargs: Any) -> int | None:
        text = str(value if value is not None else "").strip()
        if not text:
            return None
        if not text.isdigit() or not 1 <= int(text) <= 9999:
            raise ValueError(_("A seed is a whole number from 1 up, not “%s”.") % text)
        return int(text)


class YesNo(widgets.Widget):
    def clean(self, value: Any, row: Any = None, **kwargs: Any) -> bool:
        text = str(value if value is not None else "").strip().casefold()
        if text not in YES | NO:
            raise ValueError(_("Write yes or no, not “%s”.") % value)
        return text in YES

    def render(self, value: Any, obj: Any = None, **kwargs: Any) -> str:
        return "yes" if value else "no"


class ScopedResource(resources.ModelResource[_M]):
    """A resource that knows who imports (``user``), as the admin passes it."""

    #: columns a file may leave out (what they set is then left as it is)
    optional: tuple[str, ...] = ()

    def before_import(self, dataset: Any, **kwargs: Any) -> None:
        """A file without the columns this register needs is refused as a whole, naming
        them (the library would show a traceback)."""
        wanted = [field.column_name for field in self.get_import_fields()
                  if field.column_name and field.column_name not in self.optional]
        missing = [name for name in wanted if name not in (dataset.headers or [])]
        if missing:
            raise FileProblem(_("The file's first line must name the columns %(wanted)s; "
                                "%(missing)s is missing.") % {
                "wanted": ", ".join(wanted), "missing": ", ".join(missing)})

    def __init__(self, user: RequestUser | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.user = user
        for field in self.fields.values():
            if isinstance(field.widget, ByKey):
                field.widget.user = user

    def export_field(self, field: fields.Field, instance: Any, **kwargs: Any) -> Any:
        """Every exported text cell, escaped where a spreadsheet would run it as a formula.
        (The preview's before/after columns come from the fields themselves and so show
        the names as stored.)"""
        value = super().export_field(field, instance, **kwargs)
        return escape(value) if isinstance(value, str) else value

    def before_import_row(self, row: dict[str, Any], **kwargs: Any) -> None:
        """Every cell read as the export wrote it: a ``'`` before a formula is dropped."""
        for column, value in row.items():
            if isinstance(value, str):
                row[column] = unescape(value)

    def before_save_instance(self, instance: _M, row: dict[str, Any], **kwargs: Any) -> None:
        assert self.user is not None  # the admin hands every import its user
        if (instance.pk is not None and isinstance(instance, Player | Team)
                and not services.may_edit_register(self.user, instance)):
            raise ValidationError(_("%(item)s takes part in a tournament you do not organise: "
                                    "only a superuser may change it.") % {"item": instance})


class PlayerResource(ScopedResource[Player]):
    handle = fields.Field(attribute="handle", column_name="handle",
                          widget=widgets.CharWidget())
    name = fields.Field(attribute="name", column_name="name", widget=widgets.CharWidget())
    club = fields.Field(attribute="club", column_name="club", widget=ClubByName())
    optional = ("club",)

    class Meta:
        model = Player
        fields = ["handle", "name", "club"]
        import_id_fields = ["handle"]
        clean_model_instances = True
        skip_unchanged = True
        report_skipped = True

    def before_import_row(self, row: dict[str, Any], **kwargs: Any) -> None:
        super().before_import_row(row, **kwargs)
        if not str(row.get("name") or "").strip():
            raise ValidationError({"name": _("Every player needs a name.")})


class TeamResource(ScopedResource[Team]):
    name = fields.Field(attribute="name", column_name="name", widget=widgets.CharWidget())
    player_a = fields.Field(attribute="player_a", column_name="player_a",
                            widget=ByKey(Player, "handle", missing=NO_PLAYER))
    player_b = fields.Field(attribute="player_b", column_name="player_b",
                            widget=ByKey(Player, "handle", missing=NO_PLAYER))
    club = fields.Field(attribute="club", column_name="club", widget=ClubByName())
    optional = ("club",)

    class Meta:
        model = Team
        fields = ["name", "player_a", "player_b", "club"]
        import_id_fields = ["name"]
        clean_model_instances = True
        skip_unchanged = True
        report_skipped = True


class EntryResource(ScopedResource[Entry]):
    tournament = fields.Field(attribute="tournament", column_name="tournament", widget=ByKey(
        Tournament, "pk", missing=gettext_lazy("You organise no tournament %(value)s.")))
    team = fields.Field(attribute="team", column_name="team", widget=ByKey(
        Team, "name", missing=gettext_lazy("No team is called “%(value)s”.")))
    seed = fields.Field(attribute="seed", column_name="seed", widget=Seed())
    withdrawn = fields.Field(attribute="withdrawn", column_name="withdrawn", widget=YesNo())

    class Meta:
        model = Entry
        fields = ["tournament", "team", "seed", "withdrawn"]
        import_id_fields = ["tournament", "team"]
        clean_model_instances = True
        skip_unchanged = True
        report_skipped = True


class FileProblem(Exception):
    """A file that cannot be imported at all: its message is shown as it is."""


class UploadAsWritten(TempFolderStorage):
    """The uploaded file, between preview and confirmation, read back as it was written:
    Python's text mode turns a carriage return into a newline, so a name beginning (or
    holding) one would otherwise import changed."""

    def read(self) -> Any:
        if "b" in self.read_mode:
            return super().read()
        with open(self.get_full_path(), self.read_mode, encoding=self.encoding,
                  newline="") as file:
            return file.read()


class CsvImportExport(ImportExportMixin[_M]):
    """Admin mixin: the changelist's Import and Export buttons, CSV only, with the user's
    scope handed to the resource."""

    import_formats = [CSV]
    export_formats = [CSV]
    import_error_display = ("message",)
    import_template_name = "admin/tournaments/import.html"  # errors in words, no traceback
    tmp_storage_class = UploadAsWritten

    def get_resource_kwargs(self, request: HttpRequest, *args: Any,
                            **kwargs: Any) -> dict[str, Any]:
        return {**kwargs, "user": request.user}

    def get_import_data_kwargs(self, **kwargs: Any) -> dict[str, Any]:
        """The confirmed import stores nothing when a row is refused (as the preview did)."""
        return {**super().get_import_data_kwargs(**kwargs), "rollback_on_validation_errors": True}

    def add_data_read_fail_error_to_form(self, form: Form, exc: Exception) -> None:
        form.add_error("import_file", _("This file cannot be read as CSV: save it as CSV "
                                        "(UTF-8), with the column names on its first line."))
