from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RobotDuplicateConfig(AppConfig):
    name = "robot_duplicate"
    verbose_name = _("Robot duplicate")

    def ready(self) -> None:
        # Django's way: the models (and so the services) load only once the apps are ready.
        # Each registration puts this app where tournaments and games look for others, so
        # that neither imports it.
        from games.live.kinds import on_describe, on_finished, on_watch
        from robot_duplicate.api import RobotEventViewSet
        from robot_duplicate.demo import build_demo_event
        from robot_duplicate.models import ROBOT_TABLE_KIND
        from robot_duplicate.selectors import describe_robot_tables
        from robot_duplicate.services import may_watch_robot_table, record_robot_result
        from tournaments.api.endpoints import add_endpoint
        from tournaments.demo import on_new_demo

        on_finished(ROBOT_TABLE_KIND, record_robot_result)
        on_watch(ROBOT_TABLE_KIND, may_watch_robot_table)
        on_describe(ROBOT_TABLE_KIND, describe_robot_tables)
        add_endpoint("robot-events", RobotEventViewSet, basename="robot-event")
        on_new_demo(build_demo_event)
