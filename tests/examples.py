"""How many examples a property test tries.

Its own number, except under mutation testing (``make mutation``: mutmut names the mutant
it runs in ``MUTANT_UNDER_TEST``, and sets it before the tests are first imported), where
it is at most ``UNDER_MUTATION``. A mutant is killed by the first example that fails, and
with the full numbers the property tests alone would keep two cores busy for days.
"""

from __future__ import annotations

import os

UNDER_MUTATION = 10


def examples(number: int) -> int:
    """``number``, or at most ``UNDER_MUTATION`` under mutation testing."""
    return min(number, UNDER_MUTATION) if "MUTANT_UNDER_TEST" in os.environ else number
