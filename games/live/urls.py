from django.urls import path

from . import friends_views, views

app_name = "live"

urlpatterns = [
    path("play/", views.play_now, name="play_now"),
    path("tables/", views.tables_now, name="tables"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/replay/", views.table_replay, name="replay"),
    path("tables/<int:table_id>/replay.json", views.table_replay_data, name="replay_data"),
    path("tables/<int:table_id>/record.json", views.table_record, name="record"),
    path("friends/", friends_views.friends_new, name="friends_new"),
    path("friends/<int:table_id>/", friends_views.friends_table, name="friends"),
    path("friends/<int:table_id>/seats/", friends_views.friends_seats, name="friends_seats"),
    path("friends/<int:table_id>/start/", friends_views.friends_start, name="friends_start"),
    path("friends/join/<str:token>/", friends_views.friends_join, name="friends_join"),
]
