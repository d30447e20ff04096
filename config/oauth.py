"""OAuth2 for third-party apps (django-oauth-toolkit, under /oauth/; api/oauth.py): a club's
tool an organiser registered (accounts/apps/) asks a person's consent and acts for them
with an access token, within the scopes they allowed: the API keys' scopes, with the
keys' words. Only the authorization code grant (with its refresh tokens), always with
PKCE (S256); the other grants are refused (api/oauth.py's validator). Client secrets are
hashed when an app is registered, tokens are stored as their SHA-256 only, and a refresh
token used twice revokes its whole family (RFC 9700).
"""

from django.utils.translation import gettext_lazy as _


def provider(debug: bool) -> dict[str, object]:
    """django-oauth-toolkit's ``OAUTH2_PROVIDER`` setting; ``debug`` lets a development
    machine's apps redirect over http."""
    return {
        "SCOPES": {"read": _("read: everything its person may see"),
                   "results": _("results: submit and confirm match results"),
                   "organise": _("organise: run the tournaments its person organises")},
        "DEFAULT_SCOPES": ["read"],
        "OAUTH2_VALIDATOR_CLASS": "tournaments.api.oauth.CodeGrantOnly",
        "PKCE_REQUIRED": True,
        "AUTHORIZATION_CODE_EXPIRE_SECONDS": 60,
        # an hour's access; the app refreshes it for a month, each refresh token used once
        "ACCESS_TOKEN_EXPIRE_SECONDS": 3600,
        "REFRESH_TOKEN_EXPIRE_SECONDS": 30 * 24 * 3600,
        "ROTATE_REFRESH_TOKEN": True,
        "REFRESH_TOKEN_REUSE_PROTECTION": True,
        "OAUTH2_GRANT_TYPES_SUPPORTED": ["authorization_code", "refresh_token"],
        "OAUTH2_RESPONSE_TYPES_SUPPORTED": ["code"],
        # an app's redirect over https only in production; a development machine's over http
        "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https"] if debug else ["https"],
        "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
        "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
        "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
        "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
        "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
        "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
        "COMPLIANT_BCP_RFC9700_REFRESH_TOKEN": True,
        "COMPLIANT_BCP_RFC9700_REDIRECT_URI_SCHEME": not debug,
        "COMPLIANT_BCP_RFC9700_REDIRECT_URI_MATCHING": True,
        "COMPLIANT_BCP_RFC9700_PKCE_REQUIRED": True,
    }
