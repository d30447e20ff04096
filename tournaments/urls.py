"""Public pages: tournaments, rounds, standings, brackets, matches, teams and players.

The ``.../live/`` URLs answer the HTML fragment a live page swaps in while a round is
being played (see ``views/live.py``).
"""

from django.urls import URLPattern, URLResolver, path
from django.views.generic import RedirectView

from tournaments import views

app_name = "tournaments"
urlpatterns: list[URLPattern | URLResolver] = [
    path("tournaments/", views.tournament_list, name="tournament_list"),
    path("tournaments/<int:tournament_id>/", views.tournament_detail, name="tournament_detail"),
    path("tournaments/<int:tournament_id>/enter/", views.tournament_enter,
         name="tournament_enter"),
    path("tournaments/<int:tournament_id>/withdraw/", views.tournament_withdraw,
         name="tournament_withdraw"),
    path("entries/<int:request_id>/", views.entry_request, name="entry_request"),
    path("tournaments/<int:tournament_id>/rounds/<int:number>/", views.round_detail,
         name="round_detail"),
    path("tournaments/<int:tournament_id>/rounds/<int:number>/live/", views.round_live,
         name="round_live"),
    path("tournaments/<int:tournament_id>/boards/<int:number>/", views.board_detail,
         name="board_detail"),
    path("tournaments/<int:tournament_id>/standings/", views.standings, name="standings"),
    path("tournaments/<int:tournament_id>/standings/live/", views.standings_live,
         name="standings_live"),
    path("tournaments/<int:tournament_id>/bracket/", views.bracket, name="bracket"),
    path("tournaments/<int:tournament_id>/crosstable/", views.crosstable, name="crosstable"),
    # the crosstable's address before it became one word, kept for links made then
    path("tournaments/<int:tournament_id>/cross-table/",
         RedirectView.as_view(pattern_name="tournaments:crosstable", permanent=True)),
    path("tournaments/<int:tournament_id>/calendar.ics", views.tournament_calendar,
         name="tournament_calendar"),
    path("leagues/<slug:slug>/calendar.ics", views.league_calendar, name="league_calendar"),
    path("calendar/<str:token>.ics", views.personal_calendar, name="personal_calendar"),
    path("calendar/renew/", views.calendar_renew, name="calendar_renew"),
    path("leagues/", views.league_list, name="league_list"),
    path("leagues/<slug:slug>/", views.league_detail, name="league_detail"),
    path("leagues/<slug:slug>/seasons/<int:number>/", views.season_detail,
         name="season_detail"),
    path("matches/<int:match_id>/", views.match_detail, name="match_detail"),
    path("matches/<int:match_id>/live/", views.match_live, name="match_live"),
    path("matches/<int:match_id>/record.json", views.match_record, name="match_record"),
    path("matches/<int:match_id>/replay.json", views.match_replay, name="match_replay"),
    path("matches/<int:match_id>/score-sheet/", views.score_sheet, name="score_sheet"),
    path("matches/<int:match_id>/result/confirm/", views.confirm_result, name="confirm_result"),
    path("matches/<int:match_id>/result/dispute/", views.dispute_result, name="dispute_result"),
    path("teams/<int:team_id>/", views.team_detail, name="team_detail"),
    path("players/<int:player_id>/", views.player_detail, name="player_detail"),
    path("players/<int:player_id>/check-in/<int:tournament_id>/", views.player_check_in,
         name="player_check_in"),
]
