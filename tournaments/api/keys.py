"""API keys at the API's door: ``Authorization: Bearer push_…`` authenticates as the key's
person (``services.keys``), and :class:`KeyScopes` lets the request through only within
the key's scopes and tournaments; an app's OAuth2 access token (any other bearer,
:mod:`api.oauth`) is held to the scopes its person allowed it the same way. A login's own
token (``Authorization: Token …``, from ``POST /api/v1/auth/token/``) and a browser's
session stand for the person wholly: they have every scope.

Reading takes the ``read`` scope; a write takes the scope its view names
(``required_scope``: ``results`` for submitting and confirming results), ``organise`` when
it names none. A key limited to some tournaments writes only in those (reads are the
person's, as any of their requests)."""

from __future__ import annotations

from typing import Any

from django.db.models import Model
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from oauth2_provider.models import AccessToken
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from tournaments.models import ApiKey, EntryRequest, Match, Round, Tournament
from tournaments.services.keys import key_find, key_used


class ApiKeyAuthentication(BaseAuthentication):
    """``Authorization: Bearer <key>``: the key's person, with the key as ``request.auth``."""

    def authenticate(self, request: Request) -> tuple[Any, ApiKey] | None:
        words = get_authorization_header(request).split()
        if not words or words[0].lower() != b"bearer":
            return None
        if len(words) == 2 and not words[1].startswith(b"push_"):
            return None  # an app's access token (api.oauth)
        if len(words) != 2:
            raise AuthenticationFailed(_("Authorization: give one API key after Bearer"))
        try:
            key = key_find(words[1].decode("ascii"))
        except UnicodeDecodeError:
            key = None
        if key is None:
            raise AuthenticationFailed(_("Authorization: this API key is not known"))
        if key.revoked is not None or not key.user.is_active:
            raise AuthenticationFailed(_("Authorization: this API key was revoked"))
        key_used(key)
        return key.user, key

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'


def _tournament_id(obj: Model) -> int | None:
    if isinstance(obj, Tournament):
        return obj.pk
    if isinstance(obj, Round | EntryRequest):
        return obj.tournament_id
    if isinstance(obj, Match):
        return obj.round.tournament_id
    return None


class KeyScopes(BasePermission):
    """A request made with an API key stays within the key's scopes and tournaments; one
    made with an app's access token within the scopes its person allowed it."""

    message = ""

    def has_permission(self, request: Request, view: Any) -> bool:
        scope = (ApiKey.Scope.READ if request.method in SAFE_METHODS
                 else getattr(view, "required_scope", ApiKey.Scope.ORGANISE))
        credential = request.auth
        if isinstance(credential, ApiKey):
            if scope not in credential.scopes:
                self.message = _("this API key lacks the %(scope)s scope") % {"scope": scope}
                return False
            # what it would create belongs to none of its tournaments yet
            if getattr(view, "action", None) == "create" and credential.tournaments.exists():
                self.message = _("this API key acts only in its tournaments: it creates "
                                 "nothing outside them")
                return False
        elif isinstance(credential, AccessToken) and not credential.allow_scopes([scope]):
            self.message = _("this access token lacks the %(scope)s scope") % {"scope": scope}
            return False
        return True

    def has_object_permission(self, request: Request, view: Any, obj: Model) -> bool:
        key = request.auth
        if not isinstance(key, ApiKey) or request.method in SAFE_METHODS:
            return True
        allowed = set(key.tournaments.values_list("pk", flat=True))
        if allowed and _tournament_id(obj) not in allowed:
            self.message = _("this API key does not act in this tournament")
            return False
        return True


# the base registers each subclass in an __init_subclass__ that has no annotations
class ApiKeyScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """The schema's word for :class:`ApiKeyAuthentication`, so generated clients offer it."""

    target_class = "tournaments.api.keys.ApiKeyAuthentication"
    name = "apiKey"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "http", "scheme": "bearer",
                "description": "An API key (push_…) made on the account's API keys page, "
                               "with its scopes: read, results, organise."}
