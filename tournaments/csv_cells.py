"""Text cells of the CSV files the platform writes, kept from running as spreadsheet formulas.

A spreadsheet takes a cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return for a formula (OWASP, "CSV Injection"): a team named ``=HYPERLINK(...)`` or
``+cmd|' /C calc'!A0`` would run as one on opening the file. ``escape`` writes such text
with a leading ``'``, which a spreadsheet shows as text; ``unescape`` takes it off again when
a file is read back, so an exported file, edited or not, imports as it was.

How a leading ``'`` is read: one ``'`` is dropped only when what follows it is a formula
character, after any further ``'``. ``'=SUM(A1)`` reads as ``=SUM(A1)`` and ``''=x`` as
``'=x``, while a name that truly begins with ``'`` and then anything else (``'t Hooft``) is
read as it is. ``escape`` adds the ``'`` to exactly the text that reading would shorten (a
formula character after no or any number of ``'``), so reading an escaped cell always gives
back the original text, and no escaped cell begins with a formula character.

Both the admin's exports (``tournaments.admin.imports``) and the API's CSV renderer use these
two functions: pure, on text only (the callers decide what is text; numbers stay numbers).
"""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
QUOTE = "'"


def runs_as_formula(text: str) -> bool:
    """Whether ``text``, after any leading ``'``, begins as a spreadsheet formula would."""
    return text.lstrip(QUOTE).startswith(FORMULA_STARTS)


def escape(text: str) -> str:
    """``text`` as a CSV cell: with one more leading ``'`` if it could be read as a formula
    (or is such text already quoted, so that ``unescape`` gives it back as it was)."""
    return QUOTE + text if runs_as_formula(text) else text


def unescape(cell: str) -> str:
    """The text of a CSV cell ``escape`` wrote (or a person typed the same way): one leading
    ``'`` dropped where it stands before a formula character, anything else as it is."""
    return cell[1:] if cell.startswith(QUOTE) and runs_as_formula(cell) else cell
