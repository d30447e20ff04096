from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.templatetags.static import static
from django.urls import include, path
from django.utils.cache import patch_cache_control

from games import views as game_views
from tournaments import views as tournament_views
from tournaments.views import accounts as account_views
from tournaments.views import keys as key_views
from tournaments.views import notices as notice_views
from tournaments.views import oauth_apps as oauth_app_views

FAVICON = "tournaments/favicon.svg"  # linked from every page's head


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers and feed readers ask for /favicon.ico whatever a page links: the site's icon.
    A temporary redirect, kept a day, since the static file's name changes with its content
    in production (hashed by the static files storage)."""
    response = HttpResponseRedirect(static(FAVICON))
    patch_cache_control(response, public=True, max_age=24 * 3600)
    return response


urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    # the home page shows tournaments, so it is a tournament page (README "Layout")
    path("", tournament_views.home, name="home"),
    path("rules/", game_views.rules, name="rules"),
    path("admin/", admin.site.urls),
    # players log in to report their results (issue 11); LOGIN_URL is Django's default
    path("accounts/login/", account_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", account_views.signup, name="signup"),
    # Django's password reset by mail, its pages in templates/registration/
    path("accounts/password_reset/", account_views.PasswordResetView.as_view(),
         name="password_reset"),
    path("accounts/password_reset/done/", auth_views.PasswordResetDoneView.as_view(),
         name="password_reset_done"),
    path("accounts/password_reset/<uidb64>/<token>/",
         auth_views.PasswordResetConfirmView.as_view(), name="password_reset_confirm"),
    path("accounts/password_reset/complete/", auth_views.PasswordResetCompleteView.as_view(),
         name="password_reset_complete"),
    # an organiser's invite link links the account that opens it to a player
    path("accounts/invite/<str:token>/", account_views.invite, name="player_invite"),
    # a person's notifications, and their mail (tournaments/views/notices.py)
    path("notifications/", notice_views.notification_list, name="notifications"),
    path("notifications/read/", notice_views.notifications_read, name="notifications_read"),
    path("notifications/<int:notification_id>/", notice_views.notification_open,
         name="notification_open"),
    path("accounts/mail/", notice_views.mail_settings, name="mail_settings"),
    path("accounts/mail/confirm/<str:token>/", notice_views.mail_confirm, name="mail_confirm"),
    path("mail/unsubscribe/<str:token>/", notice_views.mail_unsubscribe,
         name="mail_unsubscribe"),
    # a person's API keys (tournaments/views/keys.py)
    path("accounts/api-keys/", key_views.api_keys, name="api_keys"),
    path("accounts/api-keys/<int:key_id>/revoke/", key_views.api_key_revoke,
         name="api_key_revoke"),
    # third-party apps: those a person registered and those they allowed to act for them
    # (tournaments/views/oauth_apps.py), and OAuth2's own endpoints (tournaments/api/oauth.py)
    path("accounts/apps/", oauth_app_views.apps_page, name="oauth_apps"),
    path("accounts/apps/<int:app_id>/delete/", oauth_app_views.oauth_app_delete,
         name="oauth_app_delete"),
    path("accounts/apps/<int:app_id>/withdraw/", oauth_app_views.oauth_app_withdraw,
         name="oauth_app_withdraw"),
    path("oauth/", include("tournaments.api.oauth_urls")),
    path("api/v1/", include("tournaments.api.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("games.live.urls")),
    path("robot/", include("robot_duplicate.urls")),
    path("", include("tournaments.urls")),
]

# errors that Django itself answers: JSON under /api/, its usual pages elsewhere
handler400 = "tournaments.api.errors.bad_request"
handler403 = "tournaments.api.errors.permission_denied"
handler404 = "tournaments.api.errors.page_not_found"
handler500 = "tournaments.api.errors.server_error"
