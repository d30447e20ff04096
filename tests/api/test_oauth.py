"""OAuth2 for third-party apps: an app registered on the apps page asks an organiser's
consent (authorization code with PKCE), gets a token for the scopes allowed, and acts for
them through the API within those scopes and within their own permissions; until the token
is revoked or the app withdrawn."""

from __future__ import annotations

import base64
import hashlib
import secrets
from datetime import timedelta
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.conf import settings
from django.contrib.auth.hashers import check_password
from django.test import Client
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application, Grant, RefreshToken
from rest_framework.test import APIClient

from tournaments import tasks
from tournaments.models import ApiKey, Round
from tournaments.services import keys, oauth_apps
from tournaments.services.errors import TournamentUserError

from .conftest import League, bearer, database_state

pytestmark = pytest.mark.django_db
BACK = "https://club.example/callback"


def challenge(verifier: str) -> str:
    digest = hashlib.sha256(verifier.encode()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def register(user: Any, client_type: str = Application.CLIENT_PUBLIC) -> Application:
    app, _secret = oauth_apps.app_register(user=user, name="Club results board",
                                           client_type=client_type, redirect_uris=BACK)
    return app


def ask(app: Application, scope: str, verifier: str | None, **extra: str) -> str:
    query = {"response_type": "code", "client_id": app.client_id, "redirect_uri": BACK,
             "scope": scope, "state": "st-1", **extra}
    if verifier is not None:
        query |= {"code_challenge": challenge(verifier), "code_challenge_method": "S256"}
    return "/oauth/authorize/?" + urlencode(query)


def consent(user: Any, app: Application, scope: str, verifier: str, *,
            allow: bool = True) -> dict[str, list[str]]:
    """``user`` opens the consent page and answers it; the query the app is sent back with."""
    browser = Client()
    browser.force_login(user)
    page = browser.get(ask(app, scope, verifier))
    assert page.status_code == 200, page.content
    form = page.context["form"]
    answer = {name: field.value() for name, field in
              ((name, form[name]) for name in form.fields) if field.value() is not None}
    answer.pop("allow", None)
    if allow:
        answer["allow"] = "on"
    response = browser.post("/oauth/authorize/", answer)
    assert response.status_code == 302
    sent_back = urlsplit(response["Location"])
    assert f"{sent_back.scheme}://{sent_back.netloc}{sent_back.path}" == BACK
    return parse_qs(sent_back.query)


def exchange(app: Application, code: str, verifier: str) -> Any:
    return Client().post("/oauth/token/", {
        "grant_type": "authorization_code", "code": code, "redirect_uri": BACK,
        "client_id": app.client_id, "code_verifier": verifier})


def token_for(user: Any, app: Application, scope: str) -> str:
    verifier = secrets.token_urlsafe(48)
    code = consent(user, app, scope, verifier)["code"][0]
    response = exchange(app, code, verifier)
    assert response.status_code == 200, response.content
    return str(response.json()["access_token"])


def publish(client: APIClient, league: League) -> Any:
    return client.post(f"/api/v1/rounds/{league.draft_match.round_id}/publish/", format="json")


def state() -> dict[str, Any]:
    return database_state()


def test_an_app_registered_on_the_page_acts_for_the_organiser_who_allowed_it(
        league: League) -> None:
    organiser = league.cup_organiser
    browser = Client()
    browser.force_login(organiser)
    made = browser.post("/accounts/apps/", {"name": "Club results board",
                                            "client_type": "public", "redirect_uris": BACK})
    assert made.status_code == 201, made.content
    app = Application.objects.get(user=organiser)
    assert app.authorization_grant_type == Application.GRANT_AUTHORIZATION_CODE
    assert app.client_id in made.content.decode()

    verifier = secrets.token_urlsafe(48)
    page = browser.get(ask(app, "read organise", verifier))
    text = page.content.decode()
    assert "Allow “Club results board” to act for you?" in text
    assert "organise: run the tournaments its person organises" in text
    assert "results: submit" not in text  # not asked
    # the answer redirects to the app's address, which the page's form-action must allow
    form_action = next(part for part in page["Content-Security-Policy"].split(";")
                       if part.strip().startswith("form-action"))
    assert "https:" in form_action.split()
    sent_back = consent(organiser, app, "read organise", verifier)
    assert sent_back["state"] == ["st-1"]
    answer = exchange(app, sent_back["code"][0], verifier)
    assert answer.status_code == 200, answer.content
    tokens = answer.json()
    assert tokens["scope"] == "read organise" and tokens["refresh_token"]
    assert tokens["expires_in"] == 3600

    client = bearer(tokens["access_token"])
    read = client.get(f"/api/v1/tournaments/{league.cup.pk}/")
    assert read.status_code == 200 and read.json()["name"] == "Autumn Cup"
    published = publish(client, league)
    assert published.status_code == 200, published.content
    assert Round.objects.get(pk=league.draft_match.round_id).status == Round.Status.PUBLISHED
    # the token is kept only as its digest
    assert not AccessToken.objects.filter(token=tokens["access_token"]).exists()
    # the apps page lists the app the organiser allowed
    assert "Withdraw Club results board" in browser.get("/accounts/apps/").content.decode()


def test_a_read_token_is_refused_a_write_naming_the_scope(league: League) -> None:
    token = token_for(league.cup_organiser, register(league.cup_organiser), "read")
    before = state()
    refused = publish(bearer(token), league)
    assert refused.status_code == 403
    assert refused.json()["detail"] == "this access token lacks the organise scope"
    assert state() == before
    assert bearer(token).get("/api/v1/tournaments/").status_code == 200


def test_a_token_without_the_read_scope_reads_nothing(league: League) -> None:
    token = token_for(league.cup_organiser, register(league.cup_organiser), "organise")
    refused = bearer(token).get("/api/v1/tournaments/")
    assert refused.status_code == 403
    assert refused.json()["detail"] == "this access token lacks the read scope"


def test_a_token_acts_with_no_more_than_its_persons_permissions(league: League) -> None:
    # the cup's organiser does not organise the Spring League
    token = token_for(league.cup_organiser, register(league.cup_organiser), "read organise")
    before = state()
    refused = bearer(token).post(f"/api/v1/tournaments/{league.tournament.pk}/pair-next/",
                                 format="json")
    assert refused.status_code == 403
    assert refused.json()["detail"] == "only the organisers of Spring League may do this"
    assert state() == before


def test_an_authorisation_without_pkce_is_refused(league: League) -> None:
    app = register(league.cup_organiser)
    browser = Client()
    browser.force_login(league.cup_organiser)
    response = browser.get(ask(app, "read", None))
    assert response.status_code == 302
    sent_back = parse_qs(urlsplit(response["Location"]).query)
    assert sent_back["error"] == ["invalid_request"]
    assert "code" not in sent_back
    assert not Grant.objects.exists()


def test_a_plain_pkce_challenge_gets_no_code(league: League) -> None:
    app = register(league.cup_organiser)
    browser = Client()
    browser.force_login(league.cup_organiser)
    verifier = secrets.token_urlsafe(48)
    page = browser.get(ask(app, "read", None, code_challenge=verifier,
                           code_challenge_method="plain"))
    form = page.context["form"]
    answer = {name: form[name].value() or "" for name in form.fields}
    response = browser.post("/oauth/authorize/", {**answer, "allow": "on"})
    assert response.status_code == 302
    assert parse_qs(urlsplit(response["Location"]).query)["error"] == ["invalid_request"]
    assert not Grant.objects.exists()


def test_a_wrong_verifier_gets_no_token(league: League) -> None:
    app = register(league.cup_organiser)
    verifier = secrets.token_urlsafe(48)
    code = consent(league.cup_organiser, app, "read", verifier)["code"][0]
    refused = exchange(app, code, secrets.token_urlsafe(48))
    assert refused.status_code == 400
    assert refused.json()["error"] == "invalid_grant"
    assert not AccessToken.objects.exists()


def test_a_denied_consent_gives_no_code(league: League) -> None:
    app = register(league.cup_organiser)
    sent_back = consent(league.cup_organiser, app, "read", secrets.token_urlsafe(48),
                        allow=False)
    assert sent_back["error"] == ["access_denied"] and "code" not in sent_back
    assert not Grant.objects.exists()


def test_the_consent_page_asks_for_a_login_and_checks_csrf(league: League) -> None:
    app = register(league.cup_organiser)
    url = ask(app, "read", secrets.token_urlsafe(48))
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(league.cup_organiser)
    assert browser.post("/oauth/authorize/", {"allow": "on"}).status_code == 403
    assert not Grant.objects.exists()


def test_a_revoked_token_authenticates_nobody(league: League) -> None:
    app = register(league.cup_organiser)
    token = token_for(league.cup_organiser, app, "read organise")
    revoked = Client().post("/oauth/revoke_token/", {"token": token, "client_id": app.client_id})
    assert revoked.status_code == 200
    before = state()
    for response in (bearer(token).get("/api/v1/tournaments/"), publish(bearer(token), league)):
        assert response.status_code == 401
        assert response.json()["detail"] == ("Authorization: this access token is not known, "
                                             "has expired or was revoked")
        assert response["WWW-Authenticate"].startswith("Token")
    assert state() == before


def test_a_withdrawn_app_loses_its_access_and_refresh_tokens(league: League) -> None:
    organiser = league.cup_organiser
    app = register(organiser)
    verifier = secrets.token_urlsafe(48)
    code = consent(organiser, app, "read", verifier)["code"][0]
    tokens = exchange(app, code, verifier).json()
    browser = Client()
    browser.force_login(organiser)
    assert browser.post(f"/accounts/apps/{app.pk}/withdraw/").status_code == 302
    assert bearer(tokens["access_token"]).get("/api/v1/tournaments/").status_code == 401
    refreshed = Client().post("/oauth/token/", {"grant_type": "refresh_token",
                                                "refresh_token": tokens["refresh_token"],
                                                "client_id": app.client_id})
    assert refreshed.status_code == 400
    assert not AccessToken.objects.exists() and not RefreshToken.objects.exists()
    assert "No app may act for you." in browser.get("/accounts/apps/").content.decode()


def test_a_refresh_token_gives_a_new_access_token_once(league: League) -> None:
    app = register(league.cup_organiser)
    verifier = secrets.token_urlsafe(48)
    code = consent(league.cup_organiser, app, "read", verifier)["code"][0]
    tokens = exchange(app, code, verifier).json()
    refresh = {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"],
               "client_id": app.client_id}
    renewed = Client().post("/oauth/token/", refresh)
    assert renewed.status_code == 200, renewed.content
    assert bearer(renewed.json()["access_token"]).get("/api/v1/tournaments/").status_code == 200
    # used again, it is refused and revokes the family it started
    assert Client().post("/oauth/token/", refresh).status_code == 400
    assert bearer(renewed.json()["access_token"]).get("/api/v1/tournaments/").status_code == 401


def test_a_confidential_app_proves_its_secret_kept_only_hashed(league: League) -> None:
    app, secret = oauth_apps.app_register(user=league.cup_organiser, name="Club server",
                                          client_type=Application.CLIENT_CONFIDENTIAL,
                                          redirect_uris=BACK)
    stored = Application.objects.get(pk=app.pk).client_secret
    assert stored != secret and check_password(secret, stored)
    verifier = secrets.token_urlsafe(48)
    code = consent(league.cup_organiser, app, "read", verifier)["code"][0]
    body = {"grant_type": "authorization_code", "code": code, "redirect_uri": BACK,
            "client_id": app.client_id, "code_verifier": verifier}
    assert Client().post("/oauth/token/", {**body, "client_secret": "wrong"}).status_code == 401
    answer = Client().post("/oauth/token/", {**body, "client_secret": secret})
    assert answer.status_code == 200, answer.content


def test_no_grant_but_the_code_is_taken_even_from_an_app_that_names_another(
        league: League) -> None:
    app, secret = oauth_apps.app_register(user=league.cup_organiser, name="Club server",
                                          client_type=Application.CLIENT_CONFIDENTIAL,
                                          redirect_uris=BACK)
    # as the admin could set it
    Application.objects.filter(pk=app.pk).update(
        authorization_grant_type=Application.GRANT_CLIENT_CREDENTIALS)
    refused = Client().post("/oauth/token/", {"grant_type": "client_credentials",
                                              "client_id": app.client_id,
                                              "client_secret": secret})
    assert refused.status_code == 400
    assert refused.json()["error"] == "unauthorized_client"
    assert not AccessToken.objects.exists()


def test_the_token_endpoint_takes_a_few_tries_a_minute(league: League) -> None:
    app = register(league.cup_organiser)
    client = Client(REMOTE_ADDR="203.0.113.9")
    guess = {"grant_type": "authorization_code", "code": "guess", "redirect_uri": BACK,
             "client_id": app.client_id, "code_verifier": "v" * 43}
    for _ in range(10):
        assert client.post("/oauth/token/", guess).status_code == 400
    refused = client.post("/oauth/token/", guess)
    assert refused.status_code == 429
    assert refused.json()["error"] == "too_many_requests"
    assert int(refused["Retry-After"]) > 0
    # the password token's endpoint counts with it: the address has used its tries
    assert APIClient(REMOTE_ADDR="203.0.113.9").post(
        "/api/v1/auth/token/", {"username": "x", "password": "y"}).status_code == 429
    assert Client(REMOTE_ADDR="203.0.113.10").post("/oauth/token/", guess).status_code == 400


def test_an_api_key_and_an_unknown_bearer_are_told_apart(league: League) -> None:
    _row, key = keys.key_create(user=league.cup_organiser, name="board", scopes=["read"])
    assert bearer(key).get("/api/v1/tournaments/").status_code == 200
    unknown = bearer("not-a-token").get("/api/v1/tournaments/")
    assert unknown.status_code == 401
    assert unknown.json()["detail"] == ("Authorization: this access token is not known, "
                                        "has expired or was revoked")
    assert bearer("push_nope").get("/api/v1/tournaments/").json()["detail"] == (
        "Authorization: this API key is not known")


def test_an_inactive_persons_token_is_refused(league: League) -> None:
    token = token_for(league.cup_organiser, register(league.cup_organiser), "read")
    league.cup_organiser.is_active = False
    league.cup_organiser.save()
    assert bearer(token).get("/api/v1/tournaments/").status_code == 401


def test_the_scopes_are_the_api_keys_with_their_words() -> None:
    scopes = settings.OAUTH2_PROVIDER["SCOPES"]
    assert {name: str(text) for name, text in scopes.items()} == {
        value: str(label) for value, label in ApiKey.Scope.choices}


@pytest.mark.parametrize(("fields", "words"), [
    ({"name": " "}, "name: give the app the name"),
    ({"client_type": "hybrid"}, "client type: choose public or confidential"),
    ({"redirect_uris": ""}, "redirect URIs: give the address"),
    ({"redirect_uris": "ftp://club.example/x"}, "ftp://club.example/x is not a whole address"),
    ({"redirect_uris": f"{BACK} https://club.example/#x"}, "https://club.example/#x is not"),
    ({"redirect_uris": "/callback"}, "/callback is not a whole address"),
])
def test_a_registration_with_bad_fields_says_which_and_stores_nothing(
        league: League, fields: dict[str, str], words: str) -> None:
    given = {"name": "Club board", "client_type": "public", "redirect_uris": BACK, **fields}
    with pytest.raises(TournamentUserError, match=words):
        oauth_apps.app_register(user=league.cup_organiser, **given)
    assert not Application.objects.exists()


def test_the_apps_page_answers_a_bad_form_with_its_error(league: League) -> None:
    browser = Client()
    browser.force_login(league.cup_organiser)
    response = browser.post("/accounts/apps/", {"name": "Board", "client_type": "public",
                                                "redirect_uris": "nowhere"})
    assert response.status_code == 400
    assert "nowhere is not a whole address" in response.content.decode()
    assert not Application.objects.exists()


def test_a_person_deletes_only_their_own_apps(league: League) -> None:
    app = register(league.cup_organiser)
    other = Client()
    other.force_login(league.organiser)
    assert other.post(f"/accounts/apps/{app.pk}/delete/").status_code == 404
    assert Application.objects.filter(pk=app.pk).exists()
    own = Client()
    own.force_login(league.cup_organiser)
    assert own.post(f"/accounts/apps/{app.pk}/delete/").status_code == 302
    assert not Application.objects.exists()


def test_the_apps_page_needs_a_login() -> None:
    response = Client().get("/accounts/apps/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_beat_clears_the_tokens_past_their_life_daily(league: League, settings: Any) -> None:
    assert settings.CELERY_BEAT_SCHEDULE["oauth-tokens-clear"] == {
        "task": tasks.oauth_tokens_clear.name, "schedule": 24 * 3600.0}
    app = register(league.cup_organiser)
    live = token_for(league.cup_organiser, app, "read")
    token_for(league.cup_organiser, app, "read")
    expired = AccessToken.objects.order_by("pk").last()
    assert expired is not None
    # a refresh token lives a month after its latest access token expired
    AccessToken.objects.filter(pk=expired.pk).update(
        expires=timezone.now() - timedelta(days=31))
    Grant.objects.create(application=app, user=league.cup_organiser, code="old",
                         expires=timezone.now() - timedelta(seconds=1),
                         redirect_uri=BACK, code_challenge="x" * 43,
                         code_challenge_method="S256")
    tasks.oauth_tokens_clear()
    assert AccessToken.objects.count() == 1 and not AccessToken.objects.filter(
        pk=expired.pk).exists()
    assert RefreshToken.objects.count() == 1 and not Grant.objects.exists()
    assert bearer(live).get("/api/v1/tournaments/").status_code == 200
