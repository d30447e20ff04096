from django.urls import path

from . import views

app_name = "live"

urlpatterns = [
    path("play/", views.play_now, name="play_now"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/replay/", views.table_replay, name="replay"),
    path("tables/<int:table_id>/replay.json", views.table_replay_data, name="replay_data"),
    path("tables/<int:table_id>/record.json", views.table_record, name="record"),
]
