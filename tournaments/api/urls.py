"""Routes of the REST API (mounted at /api/v1/)."""

from django.http import HttpRequest, JsonResponse
from django.urls import URLPattern, URLResolver, include, path, re_path
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.views import SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from . import endpoints, entry_requests, leagues, views, webhooks
from .root import ApiRoot
from .schema import SchemaView
from .tokens import token_view

router = DefaultRouter()
router.APIRootView = ApiRoot  # a description and every link, not DRF's stock text
router.register("tournaments", views.TournamentViewSet, basename="tournament")
router.register("rounds", views.RoundViewSet, basename="round")
router.register("matches", views.MatchViewSet, basename="match")
router.register("teams", views.TeamViewSet, basename="team")
router.register("players", views.PlayerViewSet, basename="player")
router.register("leagues", leagues.LeagueViewSet, basename="league")
router.register("seasons", leagues.SeasonViewSet, basename="season")
router.register("entry-requests", entry_requests.EntryRequestViewSet, basename="entry-request")
router.register("webhooks", webhooks.WebhookViewSet, basename="webhook")
# the endpoints other apps add (robot duplicate events), listed at the root as these are
for prefix, viewset, basename in endpoints.registered():
    router.register(prefix, viewset, basename=basename)


@csrf_exempt
def not_found(request: HttpRequest, rest: str) -> JsonResponse:
    """Any other path under the API: a JSON 404 (not Django's HTML page, nor a redirect to
    add a slash, which a POST cannot follow)."""
    detail = (_("no such endpoint: %(path)s") if request.path.endswith("/") else
              _("no such endpoint: %(path)s (paths end in a slash: %(path)s/)"))
    return JsonResponse({"detail": detail % {"path": request.path}}, status=404)


urlpatterns: list[URLPattern | URLResolver] = [
    path("schema/", SchemaView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    # POST username and password, get {"token": ...}; send it as "Authorization: Token ..."
    path("auth/token/", token_view, name="api-token"),
    # sign-in and sign-out pages of the browsable API (session authentication)
    path("auth/", include("rest_framework.urls")),
    path("", include(router.urls)),
    re_path(r"^(?P<rest>.*)$", not_found),
]
