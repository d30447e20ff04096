"""A request body's text is taken as sent (``tournaments/api/text.py``): only a JSON string
(a number is not turned into one), refused when longer than the schema's ``maxLength`` even
where it would fit once the spaces around it are trimmed; a text that fits is trimmed and
taken."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rest_framework import serializers

from tests.tournaments.factories import UserFactory
from tournaments.api.text import SentSlug, SentText
from tournaments.models import Player, Tournament

from .conftest import client_of

SPACES = " \t\n\r\f\v"


@given(st.text(alphabet=st.sampled_from("ab" + SPACES), max_size=12),
       st.integers(min_value=1, max_value=8))
def test_a_text_is_taken_trimmed_only_while_it_fits_as_sent(raw: str, most: int) -> None:
    field = SentText(max_length=most)
    if not raw.strip():  # told first: nothing but spaces is no text, however long
        with pytest.raises(serializers.ValidationError, match="may not be blank"):
            field.run_validation(raw)
    elif len(raw) > most:
        with pytest.raises(serializers.ValidationError, match=f"no more than {most} char"):
            field.run_validation(raw)
    else:
        assert field.run_validation(raw) == raw.strip()


@given(st.integers(min_value=0, max_value=6))
def test_a_slug_counts_its_length_as_sent(spaces: int) -> None:
    field = SentSlug(max_length=5)
    raw = " " * spaces + "ab-c"
    if len(raw) > 5:
        with pytest.raises(serializers.ValidationError, match="no more than 5 char"):
            field.run_validation(raw)
    else:
        assert field.run_validation(raw) == "ab-c"


NOT_STRINGS = st.one_of(st.integers(), st.floats(allow_nan=False), st.booleans(),
                        st.lists(st.text(max_size=3), max_size=2),
                        st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=2))


@given(NOT_STRINGS, st.sampled_from([SentText, SentSlug]))
def test_only_a_string_is_a_text(value: Any, field_class: Any) -> None:
    with pytest.raises(serializers.ValidationError, match="Not a valid string"):
        field_class(max_length=50).run_validation(value)


TOURNAMENT = {"format": "swiss", "rounds_planned": 3}
WRITES = [  # a body's path, the rest of it, its text field, that field's maxLength, model
    ("/api/v1/tournaments/", TOURNAMENT, "name", 200, Tournament),  # the model's field
    ("/api/v1/players/", {}, "name", 100, Player),  # the body's own field
]


@pytest.mark.django_db
@pytest.mark.parametrize(("path", "rest", "field", "most", "model"), WRITES)
@pytest.mark.parametrize("space", ["\f", " ", "\n"])
def test_the_api_refuses_a_text_longer_than_its_schema_says_and_stores_nothing(
        path: str, rest: dict[str, Any], field: str, most: int, model: Any,
        space: str) -> None:
    client = client_of(UserFactory())
    response = client.post(path, {**rest, field: space + "x" * most}, format="json")
    assert response.status_code == 400, response.content
    assert f"no more than {most} characters" in response.json()[field][0]
    assert not model.objects.exists()
    response = client.post(path, {**rest, field: space + "x" * (most - 1)}, format="json")
    assert response.status_code == 201, response.content
    assert model.objects.get().name == "x" * (most - 1)


@pytest.mark.django_db
@pytest.mark.parametrize(("path", "rest", "field", "most", "model"), WRITES)
@pytest.mark.parametrize("value", [42, -1.5e-89, True, ["x"]])
def test_the_api_refuses_a_number_or_a_list_for_a_text_and_stores_nothing(
        path: str, rest: dict[str, Any], field: str, most: int, model: Any,
        value: Any) -> None:
    response = client_of(UserFactory()).post(path, {**rest, field: value}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()[field] == ["Not a valid string."]
    assert not model.objects.exists()
