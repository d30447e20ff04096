"""``/oauth/``: django-oauth-toolkit's endpoints for the authorization code flow (consent,
token, revocation), under DOT's own names (``oauth2_provider:authorize``, ...), which its
views reverse. Its device, metadata and application pages are left out: organisers register
their apps at ``accounts/apps/`` (``views.oauth_apps``)."""

from django.urls import path
from oauth2_provider.views import RevokeTokenView

from .oauth import ConsentView, ThrottledTokenView

app_name = "oauth2_provider"

urlpatterns = [
    path("authorize/", ConsentView.as_view(), name="authorize"),
    path("token/", ThrottledTokenView.as_view(), name="token"),
    path("revoke_token/", RevokeTokenView.as_view(), name="revoke-token"),
]
