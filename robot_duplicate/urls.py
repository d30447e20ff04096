"""Robot duplicate pages, mounted at ``/robot/`` (``config/urls.py``): the events, an
event's page, starting one's table (or inviting a partner) and answering an invitation."""

from django.urls import URLPattern, URLResolver, path

from . import views

app_name = "robot_duplicate"
urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.robot_list, name="list"),
    path("<int:event_id>/", views.robot_detail, name="detail"),
    path("<int:event_id>/play/", views.robot_play, name="play"),
    *(path(f"<int:event_id>/invitations/<int:entry_id>/{answer}/",
           views.robot_invitation, {"answer": answer}, name=answer)
      for answer in ("accept", "refuse", "withdraw")),
]
