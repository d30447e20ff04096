"""The API's own rows: a person's API keys (named, each with its scopes and optionally its
tournaments, shown once when made and stored only as a digest: ``services.keys``,
``api.keys``), and the answers to writes sent with an ``Idempotency-Key``
(``api.idempotency``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ApiKey(models.Model):
    """A key a program uses as ``user`` through the API (``Authorization: Bearer <key>``).

    The key is ``push_<prefix>_<secret>``: ``prefix`` finds its row, and ``digest`` (the
    SHA-256 of the whole key) proves it; the key itself is stored nowhere. A key of many
    random bytes needs no slow hash, as a password does: nobody can try them all."""

    class Scope(models.TextChoices):
        READ = "read", _("read: everything its person may see")
        RESULTS = "results", _("results: submit and confirm match results")
        ORGANISE = "organise", _("organise: run the tournaments its person organises")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="api_keys", verbose_name=_("user"))
    name = models.CharField(_("name"), max_length=100)
    prefix = models.CharField(_("prefix"), max_length=16, unique=True)
    digest = models.CharField(_("digest"), max_length=64)
    #: ``Scope`` values
    scopes = models.JSONField(_("scopes"), default=list)
    #: none: every tournament its person may act in; else its writes only in these
    tournaments = models.ManyToManyField("tournaments.Tournament", blank=True,
                                         related_name="+", verbose_name=_("tournaments"))
    created = models.DateTimeField(_("created"), auto_now_add=True)
    last_used = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("API key")
        verbose_name_plural = _("API keys")
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.name} (push_{self.prefix}_…)"


class IdempotentRequest(models.Model):
    """The answer to a write ``user`` sent with the header ``Idempotency-Key: key``: the
    same key again (a retry) gets this answer and does nothing twice. ``fingerprint`` is the
    SHA-256 of the method, path and body, so a key used for another request is refused.
    Kept a day (``api.idempotency.KEPT``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+", verbose_name=_("user"))
    key = models.CharField(_("key"), max_length=255)
    fingerprint = models.CharField(_("fingerprint"), max_length=64)
    status = models.PositiveSmallIntegerField(_("status"), default=0)
    body = models.JSONField(_("body"), null=True, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("idempotent request")
        verbose_name_plural = _("idempotent requests")
        constraints = [models.UniqueConstraint(fields=["user", "key"],
                                               name="idempotency_key_once_a_user")]

    def __str__(self) -> str:
        return f"{self.key} ({self.status})"
