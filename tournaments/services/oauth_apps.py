"""Third-party apps (OAuth2, django-oauth-toolkit): a person registers an app (its client
secret shown once, only its hash kept), deletes one they registered, and withdraws an app's
leave to act for them; and the tokens past their life are cleared. The consent itself, and
the tokens, are DOT's (``api.oauth``)."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _
from oauth2_provider.generators import generate_client_secret
from oauth2_provider.models import AccessToken, Application, Grant, RefreshToken, clear_expired
from oauth2_provider.settings import oauth2_settings

from .errors import TournamentUserError

#: how many apps a person may register
APPS_A_PERSON = 20
#: an app kept on a person's device can keep no secret, so it authenticates by PKCE alone
CLIENT_TYPES = (Application.CLIENT_PUBLIC, Application.CLIENT_CONFIDENTIAL)


def _redirect_uris(text: str) -> list[str]:
    uris = text.split()
    if not uris:
        raise TournamentUserError(_("redirect URIs: give the address (one or more) the app "
                                    "is sent back to after the consent"))
    schemes = oauth2_settings.ALLOWED_REDIRECT_URI_SCHEMES
    for uri in uris:
        parts = urlsplit(uri)
        if parts.scheme not in schemes or not parts.netloc or parts.fragment:
            raise TournamentUserError(
                _("redirect URIs: %(uri)s is not a whole address of %(schemes)s without a "
                  "#fragment") % {"uri": uri, "schemes": " or ".join(schemes)})
    return uris


def app_register(*, user: User, name: str, client_type: str,
                 redirect_uris: str) -> tuple[Application, str]:
    """A new app of ``user`` (named ``name``, of ``client_type``: public or confidential)
    that may send a person back only to ``redirect_uris`` (separated by spaces or lines),
    for the authorization code grant alone. Returns the row and its client secret, which is
    shown once (a public app's is not used)."""
    name = name.strip()
    if not name:
        raise TournamentUserError(_("name: give the app the name people will see when it "
                                    "asks for their consent"))
    if client_type not in CLIENT_TYPES:
        raise TournamentUserError(_("client type: choose public or confidential"))
    uris = _redirect_uris(redirect_uris)
    secret = generate_client_secret()
    with transaction.atomic():
        # the person's row, locked, so that two registrations at once count each other
        User.objects.select_for_update().filter(pk=user.pk).get()
        if Application.objects.filter(user_id=user.pk).count() >= APPS_A_PERSON:
            raise TournamentUserError(_("you have registered %(count)d apps already: delete "
                                        "one first") % {"count": APPS_A_PERSON})
        app = Application.objects.create(
            user_id=user.pk, name=name[:255], client_type=client_type,
            authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
            redirect_uris=" ".join(uris), client_secret=secret, hash_client_secret=True)
    return app, secret


def app_delete(*, user: User, app_id: int) -> None:
    """Delete ``user``'s app ``app_id``, and with it every token it was given. Another
    person's app is answered as one that does not exist."""
    deleted, _rows = Application.objects.filter(user_id=user.pk, pk=app_id).delete()
    if not deleted:
        raise TournamentUserError(_("you have registered no such app"))


def app_withdraw(*, user: User, app_id: int) -> None:
    """Withdraw app ``app_id``'s leave to act for ``user``: its access and refresh tokens
    and its unused codes for them are deleted. Repeating it changes nothing."""
    with transaction.atomic():
        # the refresh tokens first: an access token's deletion would leave them usable
        for model in (RefreshToken, AccessToken, Grant):
            model.objects.filter(user_id=user.pk, application_id=app_id).delete()


def tokens_clear() -> None:
    """Delete the expired access tokens and codes, and the refresh tokens past their life
    (a used one is kept until then, so that its second use is recognised and revokes the
    tokens it led to): DOT's ``cleartokens``."""
    clear_expired()
