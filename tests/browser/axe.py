"""axe-core, Deque's accessibility engine, run on the page a browser test has open.

axe-core comes bundled with the ``axe-playwright-python`` package (``axe.min.js``), so nothing
is fetched while the tests run. It is injected with ``page.evaluate``, which Playwright sends
over the DevTools protocol: the page's Content-Security-Policy (no inline script) does not
apply to it, so the page is checked under its real policy. Any test may call
:func:`assert_accessible` once the page shows what it should check (after a waiting
``expect``), e.g. the organiser's console or the phone score sheet::

    from .axe import assert_accessible
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert_accessible(page)
"""

from __future__ import annotations

from typing import Any

BLOCKING = ("serious", "critical")  # axe's impacts: minor, moderate, serious, critical
EVERY_IMPACT = ("minor", "moderate", "serious", "critical")


def _script() -> str:
    from axe_playwright_python.base import AXE_SCRIPT  # imported late: browser tests skip

    return str(AXE_SCRIPT)


def axe_violations(page: Any, impacts: tuple[str, ...] = BLOCKING,
                   only: tuple[str, ...] = (), include: str | None = None) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it stands, those of the given impacts; with
    ``only``, of those rules alone (which may be rules axe leaves off by default, such as
    ``target-size``, WCAG 2.5.8); with ``include`` (a CSS selector), in that part alone."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_script())
    options: dict[str, Any] = {"resultTypes": ["violations"]}
    if only:
        options["runOnly"] = {"type": "rule", "values": list(only)}
    results = page.evaluate("([context, options]) => axe.run(context || document, options)",
                            [{"include": [include]} if include else None, options])
    return [v for v in results["violations"] if v.get("impact") in impacts]


def describe(violations: list[dict[str, Any]], nodes: int = 5) -> str:
    """The violations as people read them: rule, impact, help and the first few elements
    with axe's summary of what to fix."""
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}, {len(violation['nodes'])} "
                     f"nodes): {violation['help']} <{violation['helpUrl']}>")
        for node in violation["nodes"][:nodes]:
            summary = " ".join(node.get("failureSummary", "").split())
            lines.append(f"  {' '.join(map(str, node['target']))}: {node['html'][:160]}")
            if summary:
                lines.append(f"    {summary[:300]}")
    return "\n".join(lines)


def assert_accessible(page: Any, impacts: tuple[str, ...] = BLOCKING,
                      include: str | None = None) -> None:
    """Fail, listing them, when axe-core finds violations of these impacts on the page (or
    in its part ``include``, a CSS selector)."""
    violations = axe_violations(page, impacts, include=include)
    assert not violations, (f"axe-core on {page.url}: {len(violations)} rule(s) violated\n"
                            + describe(violations))
