"""The one rule for CSV text cells: escaped where a spreadsheet would run them as formulas,
read back to the text they were."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tournaments.csv_cells import FORMULA_STARTS, escape, unescape

# Text made mostly of the characters that matter here, so that quotes before formula
# characters come up often, and any other text too.
TRICKY = st.text(alphabet=st.sampled_from(["'", *FORMULA_STARTS, "a", " ", "1", "\n"]))
TEXT = st.one_of(TRICKY, st.text())


@given(TEXT)
@example("'=x")
@example("''")
@example("'")
def test_escaping_then_reading_back_gives_the_text_again(text: str) -> None:
    assert unescape(escape(text)) == text


@given(TEXT)
def test_an_escaped_cell_never_begins_as_a_formula(text: str) -> None:
    assert not escape(text).startswith(FORMULA_STARTS)


@given(TEXT)
def test_escaping_adds_at_most_one_quote_and_only_in_front(text: str) -> None:
    assert escape(text) in {text, f"'{text}"}


@pytest.mark.parametrize(("text", "cell"), [
    ('=HYPERLINK("https://example.com","x")', '\'=HYPERLINK("https://example.com","x")'),
    ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
    ("-2+3", "'-2+3"),
    ("@SUM(1+1)", "'@SUM(1+1)"),
    ("\tTab", "'\tTab"),
    ("\rReturn", "'\rReturn"),
    ("'=already quoted", "''=already quoted"),
    ("Plain", "Plain"),
    ("a=b", "a=b"),
    ("'t Hooft", "'t Hooft"),
    (" =spaced", " =spaced"),
    ("", ""),
])
def test_each_formula_start_gets_one_quote_and_other_text_none(text: str, cell: str) -> None:
    assert escape(text) == cell
    assert unescape(cell) == text


@pytest.mark.parametrize(("cell", "text"), [
    ("'=1+1", "=1+1"),  # as a person would type it in a spreadsheet
    ("'-minus", "-minus"),
    ("'t Hooft", "'t Hooft"),  # a name that begins with ' is read as it is
    ("'", "'"),
    ("''", "''"),
    ("=1+1", "=1+1"),  # reading never adds anything
])
def test_reading_drops_a_quote_only_before_a_formula(cell: str, text: str) -> None:
    assert unescape(cell) == text
