"""Third-party apps as a person's apps page shows them: those they registered, and those
they allowed to act for them (``services.oauth_apps`` writes them)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application, RefreshToken


@dataclass(frozen=True)
class Allowed:
    """An app that may act for a person now (a live access token or refresh token), with
    the scopes of its tokens."""

    app: Application
    scopes: list[str]


def apps_registered(user: User) -> QuerySet[Application]:
    apps: QuerySet[Application] = Application.objects.filter(user_id=user.pk)
    return apps.order_by("name", "pk")


def apps_allowed(user: User) -> list[Allowed]:
    """The apps that hold a live access token or an unrevoked refresh token of ``user``."""
    scopes: dict[int, set[str]] = {}
    apps: dict[int, Application] = {}
    live = (AccessToken.objects.filter(user_id=user.pk, expires__gt=timezone.now())
            .select_related("application"))
    refreshing = (RefreshToken.objects.filter(user_id=user.pk, revoked=None)
                  .select_related("application", "access_token"))
    for token in live:
        apps[token.application_id] = token.application
        scopes.setdefault(token.application_id, set()).update(token.scope.split())
    for refresh in refreshing:
        apps[refresh.application_id] = refresh.application
        held = scopes.setdefault(refresh.application_id, set())
        if refresh.access_token is not None:
            held.update(refresh.access_token.scope.split())
    return [Allowed(app, sorted(scopes[pk])) for pk, app in
            sorted(apps.items(), key=lambda item: (item[1].name, item[0]))]
