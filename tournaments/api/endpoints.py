"""Endpoints that other apps add to the API (robot duplicate events, ``robot_duplicate``).

An app registers its viewsets in its ``AppConfig.ready()``, which runs before the URLconf
is first read; ``urls`` puts them on the one router, so the API root lists them beside the
tournaments' own and the same error answers, schema and paging apply. ``tournaments`` so
never imports the apps that build on it, as ``games.live.kinds`` does for live tables.
"""

from __future__ import annotations

from rest_framework.viewsets import ViewSetMixin

_ENDPOINTS: dict[str, tuple[type[ViewSetMixin], str]] = {}


def add_endpoint(prefix: str, viewset: type[ViewSetMixin], *, basename: str) -> None:
    """Serve ``viewset`` at ``/api/v1/<prefix>/`` (its routes named ``<basename>-list``
    and so on)."""
    if _ENDPOINTS.get(prefix, (viewset, basename)) != (viewset, basename):
        raise AssertionError(f"two viewsets for the API prefix {prefix!r}")
    _ENDPOINTS[prefix] = (viewset, basename)


def registered() -> list[tuple[str, type[ViewSetMixin], str]]:
    """Every added endpoint: its prefix, viewset and basename, in the order added."""
    return [(prefix, viewset, basename) for prefix, (viewset, basename) in _ENDPOINTS.items()]
