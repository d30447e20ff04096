"""Public pages: tournaments, rounds, standings, brackets, matches, teams and players."""

from django.urls import URLPattern, URLResolver

app_name = "tournaments"
urlpatterns: list[URLPattern | URLResolver] = []
