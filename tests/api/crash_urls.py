"""The site's routes plus a view under /api/ and one outside it that fail unexpectedly, to
see what Django's error handlers answer (tests/api/test_bad_bytes.py)."""

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver, path

from config import urls


def crash(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("an unexpected failure")


urlpatterns: list[URLPattern | URLResolver] = [
    path("api/v1/crash/", crash), path("crash/", crash), *urls.urlpatterns]
handler500 = urls.handler500
