"""OAuth2 for third-party apps (django-oauth-toolkit, ``OAUTH2_PROVIDER`` in the settings): a
club's tool asks an organiser's consent at ``/oauth/authorize/`` and then acts for them
with an access token (``Authorization: Bearer <token>``), within the scopes they allowed:
the API keys' own (``read``, ``results``, ``organise``; :class:`api.keys.KeyScopes` holds a
token to them as it holds a key). A token stands for its person and no more: every view
still asks what that person may do.

Only the authorization code grant is taken, with PKCE (and refresh tokens); the token
endpoint counts its tries per client address with the password token's (``API_AUTH_RATE``,
:mod:`api.tokens`)."""

from __future__ import annotations

from typing import Any

from csp.decorators import csp_update
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from oauth2_provider.contrib.rest_framework import OAuth2Authentication
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauth2_provider.settings import oauth2_settings
from oauth2_provider.views import AuthorizationView, TokenView
from rest_framework.authentication import get_authorization_header
from rest_framework.exceptions import AuthenticationFailed, Throttled
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request

from tournaments.models import ApiKey

from .logins import AuthRateThrottle

#: the grants an app may use: a code, and the refresh tokens that come with it
GRANTS = ("authorization_code", "refresh_token")


class CodeGrantOnly(OAuth2Validator):
    """DOT's validator, refusing every grant but the authorization code's, whatever an
    application's row says (the admin could give one another)."""

    def validate_grant_type(self, client_id: str, grant_type: str, client: Any,
                            request: Any, *args: Any, **kwargs: Any) -> bool:
        return grant_type in GRANTS and bool(super().validate_grant_type(
            client_id, grant_type, client, request, *args, **kwargs))

    def validate_response_type(self, client_id: str, response_type: str, client: Any,
                               request: Any, *args: Any, **kwargs: Any) -> bool:
        return response_type == "code" and bool(super().validate_response_type(
            client_id, response_type, client, request, *args, **kwargs))


class OAuthTokenAuthentication(OAuth2Authentication):
    """``Authorization: Bearer <access token>``: the person who authorised the app, with
    the token as ``request.auth``. An API key (``push_…``) is :class:`ApiKeyAuthentication`'s;
    any other bearer that is not a live token is refused, not taken as anonymous."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        words = get_authorization_header(request).split()
        if (len(words) != 2 or words[0].lower() != b"bearer"
                or words[1].startswith(b"push_")):
            return None
        found: tuple[Any, Any] | None = super().authenticate(request)
        if found is None:
            raise AuthenticationFailed(
                _("Authorization: this access token is not known, has expired or was revoked"))
        if not found[0].is_active:
            raise AuthenticationFailed(_("Authorization: this access token's person is "
                                         "no longer active"))
        return found


# A consent's answer redirects to the app's own address, which the browser checks against
# form-action: the page allows any address of the schemes an app may redirect to, since
# the app's is only known from its request (DOT redirects only to an address it registered).
@method_decorator(csp_update({"form-action": [
    f"{scheme}:" for scheme in oauth2_settings.ALLOWED_REDIRECT_URI_SCHEMES]}), name="dispatch")
class ConsentView(AuthorizationView):
    """The consent page: the app's name, the scopes it asks, allow or deny."""

    template_name = "tournaments/oauth_authorize.html"


class ThrottledTokenView(TokenView):
    """DOT's token endpoint, a few tries a minute per client address."""

    throttle_scope = "auth"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        throttle = AuthRateThrottle()
        # counted per client address, whoever's session the browser may carry
        if not throttle.allow_request(Request(request, authenticators=()), self):
            wait = throttle.wait()
            refused = JsonResponse({"error": "too_many_requests",
                                    "error_description": str(Throttled(wait).detail)},
                                   status=429)
            refused["Retry-After"] = str(int(wait or 1))
            return refused
        response: HttpResponse = super().post(request, *args, **kwargs)
        return response


# the base registers each subclass in an __init_subclass__ that has no annotations
class OAuthScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """The schema's word for :class:`OAuthTokenAuthentication`: the authorization code
    flow, its scopes, and the scope each operation takes."""

    target_class = "tournaments.api.oauth.OAuthTokenAuthentication"
    name = "oauth2"

    def get_security_requirement(self, auto_schema: Any) -> dict[str, list[str]]:
        scope = (ApiKey.Scope.READ if auto_schema.method in SAFE_METHODS
                 else getattr(auto_schema.view, "required_scope", ApiKey.Scope.ORGANISE))
        return {self.name: [str(scope)]}

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        token = reverse("oauth2_provider:token")
        flow = {"authorizationUrl": reverse("oauth2_provider:authorize"), "tokenUrl": token,
                "refreshUrl": token,
                "scopes": {name: str(text) for name, text in oauth2_settings.SCOPES.items()}}
        return {"type": "oauth2", "flows": {"authorizationCode": flow},
                "description": "An app's access token, given with its person's consent "
                               "(authorization code with PKCE, S256)."}
