"""The site's header says who is logged in, links their tables and logs out (a POST with
its CSRF token: Django 5's LogoutView takes nothing else); logged out, it offers to log in
or sign up."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _header(html: str) -> str:
    return html[html.index('<header class="site-header">'):html.index("</header>")]


def test_a_logged_in_user_sees_their_name_their_tables_and_a_logout() -> None:
    user = get_user_model().objects.create_user("alice", password="pw-alice-123")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    header = _header(client.get(reverse("rules")).content.decode())
    assert "Logged in as <strong>alice</strong>" in header
    assert f'href="{reverse("live:tables")}#mine"' in header and "My tables" in header
    form = re.search(r'<form class="logout-form" action="([^"]+)" method="post">(.*?)</form>',
                     header, re.S)
    assert form is not None and form[1] == reverse("logout")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form[2])
    assert token is not None and "Log in" not in header and "Sign up" not in header
    # the form's own token logs out (the CSRF check enforced, as in a browser)
    response = client.post(reverse("logout"), {"csrfmiddlewaretoken": token[1]})
    assert response.status_code == 302
    assert "Logged in as" not in _header(client.get(reverse("rules")).content.decode())


def test_a_logout_without_the_token_is_refused() -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(get_user_model().objects.create_user("bob", password="pw-bob-12345"))
    assert client.post(reverse("logout")).status_code == 403
    assert "Logged in as" in _header(client.get(reverse("rules")).content.decode())


def test_a_visitor_is_offered_to_log_in_or_sign_up() -> None:
    header = _header(Client().get(reverse("rules")).content.decode())
    assert f'href="{reverse("login")}?next={reverse("rules")}"' in header
    assert f'href="{reverse("signup")}"' in header
    assert "Logged in as" not in header and "logout-form" not in header
    assert f'href="{reverse("live:tables")}"' in header and "Tables now" in header


def test_the_header_is_in_finnish(finnish: None) -> None:
    user = get_user_model().objects.create_user("alice", password="pw-alice-123")
    client = Client()
    client.force_login(user)
    header = _header(client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="fi").content.decode())
    assert "Kirjautuneena: <strong>alice</strong>" in header
    assert "Omat pöydät" in header and "Kirjaudu ulos" in header
    header = _header(Client().get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="fi").content.decode())
    assert "Kirjaudu sisään" in header and "Rekisteröidy" in header
