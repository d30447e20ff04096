"""Players' accounts: signing up (within the login limits), the password-reset mail, and the
"My page" link of a player's own login."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.test_settings import settings_process
from tests.tournaments.factories import PlayerFactory, UserFactory
from tournaments.models import MailAddress, OutboxTask
from tournaments.services import accounts as account_services
from tournaments.tasks import send_password_reset

pytestmark = pytest.mark.django_db
User = get_user_model()
SIGNUP = "/accounts/signup/"
PASSWORD = "lazy-otter-stacks-9"


def accounts() -> list[tuple[Any, ...]]:
    return sorted(User.objects.values_list("username", "email", "password"))


def sign_up(client: Client, username: str = "ville", password: str = PASSWORD,
            again: str | None = None, **extra: str) -> Any:
    return client.post(SIGNUP, {"username": username, "password1": password,
                                "password2": password if again is None else again, **extra})


def errors_beside(html: str, field: str) -> str:
    """The error text shown beside ``field`` of the sign-up form."""
    label = html.index(f'<label for="id_{field}">')
    start = html.rindex('<div class="form-field">', 0, label)
    return re.sub(r"<[^>]+>", " ", html[start:label])


def test_it_signs_a_player_up_logs_them_in_and_goes_home(client: Client) -> None:
    page = client.get(SIGNUP)
    assert page.status_code == 200 and 'name="csrfmiddlewaretoken"' in page.content.decode()

    response = sign_up(client, email="ville@example.org")

    assert response.status_code == 302 and response["Location"] == reverse("home")
    user = User.objects.get(username="ville")
    # the address is the account's (the password reset's) once its link is opened
    assert MailAddress.objects.get(user=user).email == "ville@example.org"
    assert user.email == "" and user.check_password(PASSWORD)
    assert not user.is_staff and not user.is_superuser
    assert client.session["_auth_user_id"] == str(user.pk)


def test_the_email_is_optional_and_a_safe_next_is_followed(client: Client) -> None:
    response = sign_up(client, next="/tournaments/")
    assert response["Location"] == "/tournaments/"
    assert User.objects.get(username="ville").email == ""

    other = sign_up(Client(), "kaisa", next="https://evil.example/")
    assert other["Location"] == reverse("home")


def test_a_taken_username_is_refused_whatever_its_case(client: Client) -> None:
    UserFactory(username="Ville")
    before = accounts()

    response = sign_up(client, "ville")

    assert response.status_code == 200
    html = response.content.decode()
    assert "A user with that username already exists." in errors_beside(html, "username")
    assert accounts() == before and "_auth_user_id" not in client.session


def test_passwords_that_differ_are_refused(client: Client) -> None:
    response = sign_up(client, again=PASSWORD + "x")

    assert response.status_code == 200
    assert "didn’t match" in errors_beside(response.content.decode(), "password2")
    assert accounts() == []


def test_a_weak_password_is_refused_by_the_sites_validators(client: Client) -> None:
    response = sign_up(client, password="12345678")

    assert "This password is too common." in response.content.decode()
    assert accounts() == []


@pytest.mark.parametrize("body, field, error", [
    ("username=vil%00le", "username", "Null characters are not allowed."),
    ("username=%ED%A0%80", "username", "Enter a valid username."),  # a lone surrogate's bytes
    ("username=%FF%FE", "username", "Enter a valid username."),  # not UTF-8
    ("username=" + "v" * 100_000, "username", "at most 150 characters"),
    ("username=ville&email=v%00@example.org", "email", "Null characters are not allowed."),
    ("username=ville&email=%ED%A0%80@example.org", "email", "Enter a valid email address."),
    ("username=ville&email=not-an-address", "email", "Enter a valid email address."),
    *((f"username={sign}ville", "username", "may not begin with +, -, @ or =")
      for sign in ("%2B", "-", "%40", "%3D")),
])
def test_bad_text_is_an_error_beside_its_field_and_stores_nothing(
        client: Client, body: str, field: str, error: str) -> None:
    response = client.post(SIGNUP, f"{body}&password1={PASSWORD}&password2={PASSWORD}",
                           content_type="application/x-www-form-urlencoded")

    assert response.status_code == 200
    assert error in errors_beside(response.content.decode(), field)
    assert accounts() == []


def test_a_nul_in_the_password_is_refused(client: Client) -> None:
    response = sign_up(client, password="pass\x00word-77")

    assert "Null characters are not allowed." in errors_beside(response.content.decode(),
                                                               "password1")
    assert accounts() == []


def test_a_huge_password_that_differs_is_refused_quickly(client: Client) -> None:
    response = sign_up(client, password="x" * 1_000_000, again="y" * 1_000_000)

    assert response.status_code == 200
    assert "didn’t match" in errors_beside(response.content.decode(), "password2")
    assert accounts() == []


def test_a_body_over_the_upload_limit_is_a_400(client: Client) -> None:
    response = sign_up(client, password="x" * 3_000_000)

    assert response.status_code == 400
    assert accounts() == []


def test_a_sign_up_without_the_csrf_token_is_refused() -> None:
    response = sign_up(Client(enforce_csrf_checks=True))

    assert response.status_code == 403
    assert accounts() == []


def test_sign_ups_from_one_address_are_limited_made_or_refused(settings: Any) -> None:
    settings.SIGNUP_LIMIT = 2
    here = Client(REMOTE_ADDR="198.51.100.4")
    assert sign_up(here, "first", again="typo").status_code == 200  # refused: counts too
    assert sign_up(here, "second").status_code == 302

    third = sign_up(Client(REMOTE_ADDR="198.51.100.4"), "third")

    assert third.status_code == 429 and int(third["Retry-After"]) > 0
    assert "Too many requests from this address" in third.content.decode()
    assert sign_up(Client(REMOTE_ADDR="198.51.100.5"), "fourth").status_code == 302
    assert sorted(User.objects.values_list("username", flat=True)) == ["fourth", "second"]


def test_an_address_locked_out_of_logging_in_cannot_sign_up(settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = settings.LOGIN_ADDRESS_FAILURE_LIMIT = 2
    address = "198.51.100.9"
    for guess in ("a", "b"):
        Client(REMOTE_ADDR=address).post("/admin/login/", {"username": "organiser",
                                                           "password": guess})

    locked = sign_up(Client(REMOTE_ADDR=address))

    assert locked.status_code == 429 and locked["Retry-After"] == str(15 * 60)
    assert "signing up is refused for 15 minutes" in locked.content.decode()
    assert accounts() == []
    assert sign_up(Client(REMOTE_ADDR="198.51.100.10")).status_code == 302


def test_a_logged_in_user_is_sent_on(client: Client) -> None:
    client.force_login(UserFactory(is_staff=False))
    assert client.get(SIGNUP)["Location"] == reverse("home")


def test_the_login_page_links_to_sign_up_and_the_reset(client: Client) -> None:
    html = client.get("/accounts/login/?next=/tournaments/").content.decode()

    assert 'href="/accounts/password_reset/"' in html
    assert 'href="/accounts/signup/?next=/tournaments/"' in html


def reset_link(message: Any) -> str:
    found = re.search(r"https?://[^/\s]+(/accounts/password_reset/\S+/)", message.body)
    assert found, message.body
    return found[1]


@pytest.mark.usefixtures("eager_tasks")
def test_the_reset_mail_brings_a_link_that_sets_a_new_password(
        client: Client, django_capture_on_commit_callbacks: Any) -> None:
    user = UserFactory(username="ville", email="ville@example.org", is_staff=False)
    user.set_password("old-pass-991")
    user.save()

    with django_capture_on_commit_callbacks(execute=True):  # the worker's task runs here
        sent = client.post("/accounts/password_reset/", {"email": "VILLE@example.org"})

    assert sent["Location"] == "/accounts/password_reset/done/"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ville@example.org"] and "ville" in message.body
    assert message.subject == "A new password for the Push league"
    link = client.get(reset_link(message), follow=True)
    assert link.status_code == 200 and 'name="new_password1"' in link.content.decode()
    done = client.post(link.redirect_chain[-1][0], {"new_password1": PASSWORD,
                                                    "new_password2": PASSWORD})
    assert done["Location"] == "/accounts/password_reset/complete/"
    user.refresh_from_db()
    assert user.check_password(PASSWORD)
    # the link works once
    again = client.get(reset_link(message), follow=True).content.decode()
    assert "cannot be used" in again and 'name="new_password1"' not in again


def plain(sql: str) -> str:
    """A statement without what differs from one request to the next (a savepoint's name,
    the time)."""
    return re.sub(r"'\d{4}-\d\d-\d\d[ T][\d:.+]+'", "TIME", re.sub(r'"s\d+_x\d+"', "SP", sql))


def test_the_request_leaves_the_mail_to_a_worker_alike_for_a_known_and_an_unknown_address(
        client: Client) -> None:
    UserFactory(email="ville@example.org")
    written, queries = [], []
    for email in ("ville@example.org", "nobody@example.org"):
        with CaptureQueriesContext(connection) as context:
            response = client.post("/accounts/password_reset/", {"email": email})
        assert response["Location"] == "/accounts/password_reset/done/"
        queries.append([plain(q["sql"]).replace(email, "EMAIL") for q in context.captured_queries])
        row = OutboxTask.objects.get(task="send_password_reset", args=[email])
        written.append((row.kwargs, len(row.args)))
    # the request looked nobody up and sent nothing: the two did the same, and wrote alike
    assert queries[0] == queries[1] and not any("auth_user" in q for q in queries[0])
    assert mail.outbox == [] and written[0] == written[1]
    assert written[0][0] == {"domain": "testserver", "use_https": False, "language": "en"}

    # the worker's task mails the account, and nobody for the unknown address
    for row in OutboxTask.objects.order_by("pk"):
        send_password_reset(*row.args, **row.kwargs)
    assert [m.to for m in mail.outbox] == [["ville@example.org"]]
    assert reset_link(mail.outbox[0]).startswith("/accounts/password_reset/")


def test_the_reset_mail_is_in_the_language_the_request_was_made_in() -> None:
    UserFactory(email="ville@example.org")
    send_password_reset("ville@example.org", domain="push.example", use_https=True,
                        language="fi")
    (message,) = mail.outbox
    assert "https://push.example/accounts/password_reset/" in message.body
    assert message.subject == "Uusi salasana Push-liigaan"


def test_a_bad_address_is_an_error_beside_the_field(client: Client) -> None:
    response = client.post("/accounts/password_reset/", "email=a%00@example.org",
                           content_type="application/x-www-form-urlencoded")

    assert response.status_code == 200
    assert "Null characters are not allowed." in response.content.decode()
    assert mail.outbox == [] and not OutboxTask.objects.exists()


def test_reset_mails_from_one_address_are_limited(settings: Any) -> None:
    settings.SIGNUP_LIMIT = 1
    UserFactory(email="ville@example.org")
    here = Client(REMOTE_ADDR="198.51.100.20")

    assert here.post("/accounts/password_reset/", {"email": "ville@example.org"}
                     ).status_code == 302
    assert here.post("/accounts/password_reset/", {"email": "ville@example.org"}
                     ).status_code == 429
    assert OutboxTask.objects.filter(task="send_password_reset").count() == 1


def test_without_mail_the_reset_page_says_to_ask_an_organiser(client: Client,
                                                              settings: Any) -> None:
    settings.MAIL_CONFIGURED = False
    UserFactory(email="ville@example.org")

    response = client.post("/accounts/password_reset/", {"email": "ville@example.org"})

    assert response.status_code == 200
    assert "ask an organiser to set a new password" in response.content.decode()
    assert mail.outbox == [] and not OutboxTask.objects.exists()


def test_a_linked_login_has_my_page_in_the_header(client: Client) -> None:
    user = UserFactory(is_staff=False)
    player = PlayerFactory(user=user)
    mine = reverse("tournaments:player_detail", args=[player.pk])
    client.force_login(user)
    assert f'<a href="{mine}">My page</a>' in client.get("/").content.decode()

    client.force_login(UserFactory(is_staff=False))
    assert "My page" not in client.get("/").content.decode()
    assert "My page" not in Client().get("/").content.decode()


def test_the_pages_and_their_errors_are_in_finnish(client: Client, finnish: None) -> None:
    html = client.get(SIGNUP, HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Rekisteröidy" in html
    assert "Vapaaehtoinen: kun olet avannut siihen postitetun linkin" in html

    forged = client.get(reverse("player_invite", args=["1.0:forged:token"]),
                        HTTP_ACCEPT_LANGUAGE="fi")
    assert forged.status_code == 400
    assert "Tämä ei ole kelvollinen kutsulinkki." in forged.content.decode()
    player = PlayerFactory(name="Ville")
    client.force_login(UserFactory(is_staff=False))
    invite = reverse("player_invite", args=[account_services.invite_token(player)])
    assert "Kyllä, olen Ville" in client.get(invite, HTTP_ACCEPT_LANGUAGE="fi"
                                             ).content.decode()


PRODUCTION = {"DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "x" * 50,
              "DJANGO_ALLOWED_HOSTS": "example.org"}
SHOW_MAIL = ("from django.conf import settings; print(settings.EMAIL_BACKEND, "
             "settings.MAIL_CONFIGURED, getattr(settings, 'EMAIL_PORT', None), "
             "settings.DEFAULT_FROM_EMAIL)")


@pytest.mark.parametrize("env, shown", [
    ({**PRODUCTION, "EMAIL_HOST": "smtp.example.org", "DEFAULT_FROM_EMAIL": "noreply@example.org"},
     "django.core.mail.backends.smtp.EmailBackend True 587 noreply@example.org"),
    ({**PRODUCTION, "EMAIL_HOST": "smtp.example.org", "DEFAULT_FROM_EMAIL": "noreply@example.org",
      "EMAIL_USE_TLS": "false", "EMAIL_USE_SSL": "true"},
     "django.core.mail.backends.smtp.EmailBackend True 465 noreply@example.org"),
    ({**PRODUCTION, "EMAIL_HOST": None},
     "django.core.mail.backends.dummy.EmailBackend False 25 webmaster@localhost"),
    ({"DJANGO_DEBUG": "true", "EMAIL_HOST": None},
     "django.core.mail.backends.console.EmailBackend True 25 webmaster@localhost"),
])
def test_mail_goes_by_smtp_when_configured_and_to_the_console_under_make_run(
        env: dict[str, str | None], shown: str) -> None:
    result = settings_process("-c", SHOW_MAIL, **env)
    assert result.stdout.strip() == shown, result.stderr


@pytest.mark.parametrize("env, error", [
    ({"EMAIL_HOST": "smtp.example.org", "DEFAULT_FROM_EMAIL": None},
     "DEFAULT_FROM_EMAIL must be set when EMAIL_HOST is"),
    ({"EMAIL_HOST": "smtp.example.org", "DEFAULT_FROM_EMAIL": "a@example.org",
      "EMAIL_USE_SSL": "true"}, "EMAIL_USE_TLS and EMAIL_USE_SSL exclude each other"),
    ({"PLAYER_INVITE_DAYS": "0"},
     "PLAYER_INVITE_DAYS=0: expected a whole number of days from 1 to 365"),
])
def test_a_mail_or_invite_setting_that_cannot_work_stops_the_start(
        env: dict[str, str | None], error: str) -> None:
    result = settings_process("manage.py", "check", **{**PRODUCTION, **env})
    assert result.returncode != 0 and error in result.stderr


@pytest.mark.parametrize(("next_url", "lead"), [
    ("", "Log in to play at your tables, enter tournaments, and report and confirm"),
    ("/tournaments/", "Log in to play at your tables, enter tournaments, and report"),
    ("/tables/12/", "Log in to take your seat at your table."),
    ("/friends/join/abc.def/", "Log in to take the seat your friend saved for you."),
    ("/accounts/invite/1.0:x:y/", "Log in (or sign up) to become the player this"),
    ("/tournaments/3/enter/", "Log in to enter the tournament with a partner."),
    ("/entries/4/", "Log in to answer your partner's request."),
    ("/no/such/page/", "Log in to play at your tables, enter tournaments, and report"),
])
def test_the_login_page_says_what_logging_in_leads_to(client: Client, next_url: str,
                                                      lead: str) -> None:
    query = f"?next={next_url}" if next_url else ""
    html = client.get(f"{reverse('login')}{query}").content.decode()
    found = re.search(r'<p class="lead">(.*?)</p>', html, re.S)
    assert found and found[1].strip().replace("&#x27;", "'").startswith(lead), found
