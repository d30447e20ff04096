"""The tournament admin's page for importing a results file (``push-results/1``, JSON or
XML) from another installation: an upload, then the new tournament, or every problem of
the file with where it is, and nothing stored (``services.results_file_import``, which the
``import_results_file`` command calls too). Only staff who may add tournaments reach it;
the importer becomes the tournament's organiser."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import services

MAX_BYTES = 20 * 1024 * 1024  # a thousand-team event's file is a few megabytes


class ResultsFileForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("results file"), help_text=gettext_lazy(
        "A push-results/1 file, JSON or XML, as another installation exports it."))

    def clean_file(self) -> bytes:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(_("A results file is at most %(megabytes)d MB.")
                                        % {"megabytes": MAX_BYTES // (1024 * 1024)})
        content: bytes = upload.read()
        return content


def results_import_urls(model_admin: admin.ModelAdmin[Any]) -> list[Any]:
    """``import-results-file/`` under the tournament admin."""
    def view(request: HttpRequest) -> HttpResponse:
        return results_import_view(model_admin, request)
    return [path("import-results-file/", model_admin.admin_site.admin_view(view),
                  name="tournaments_tournament_import_results_file")]


def results_import_view(model_admin: admin.ModelAdmin[Any],
                        request: HttpRequest) -> HttpResponse:
    if not model_admin.has_add_permission(request):
        raise PermissionDenied(_("You may not add tournaments."))
    form = ResultsFileForm(request.POST or None, request.FILES or None)
    problems: list[Any] = []
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.results_file_import(source=form.cleaned_data["file"],
                                                      organiser=request.user)
        except services.ResultsFileRefused as refused:
            problems = refused.problems
        else:
            model_admin.message_user(request, _("Imported %(tournament)s.") % {
                "tournament": tournament.name}, messages.SUCCESS)
            return HttpResponseRedirect(reverse("admin:tournaments_tournament_change",
                                                args=[tournament.pk]))
    return TemplateResponse(request, "admin/tournaments/tournament/import_results_file.html", {
        **model_admin.admin_site.each_context(request), "opts": model_admin.opts,
        "title": _("Import a results file"), "form": form, "problems": problems})
