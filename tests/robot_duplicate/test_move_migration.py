"""Robot duplicate events moved out of tournaments into their own app without losing a row:
tournaments' 0025 drops the models from its state only, robot_duplicate's 0001 takes them
over the same tables (``Meta.db_table``), and 0002 carries their content types across, so
a permission granted to an organiser on the old models holds on the new ones."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from robot_duplicate.models import RobotEntry, RobotEvent

pytestmark = pytest.mark.django_db(transaction=True)
# the users' and content types' tables as they are now (the state of tournaments' 0024
# alone would have content types as they were when it was written)
BEFORE = [("tournaments", "0024_wait_for_players"),
          ("auth", "0012_alter_user_first_name_max_length"),
          ("contenttypes", "0002_remove_content_type_name")]
AFTER = [("robot_duplicate", "0002_content_types")]


def migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)


def executor_leaves() -> list[tuple[str, str]]:
    """Every app at its latest migration again, for the tests after this one."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def test_the_rows_and_the_granted_permissions_survive_the_move() -> None:
    state = migrate(BEFORE).loader.project_state(BEFORE).apps
    assert ("robot_duplicate", "robotevent") not in state.all_models
    OldEvent = state.get_model("tournaments", "RobotEvent")
    OldEntry = state.get_model("tournaments", "RobotEntry")
    User = state.get_model("auth", "User")
    Permission = state.get_model("auth", "Permission")
    OldContentType = state.get_model("contenttypes", "ContentType")
    now = timezone.now()
    try:
        organiser = User.objects.create(username="organiser", is_staff=True)
        player = User.objects.create(username="player")
        event = OldEvent.objects.create(name="Kept", kind="pairs", opens=now - timedelta(days=2),
                                        closes=now - timedelta(days=1), bot_level="random")
        event.organisers.add(organiser)
        entry = OldEntry.objects.create(event=event, player=player, finished=now,
                                        hand_scores=[[0, 40]] * 5, bot_hands=[False] * 5)
        old_type, _made = OldContentType.objects.get_or_create(app_label="tournaments",
                                                               model="robotevent")
        permission, _made = Permission.objects.get_or_create(
            content_type=old_type, codename="change_robotevent",
            defaults={"name": "Can change robot duplicate event"})
        organiser.user_permissions.add(permission)

        migrate(AFTER)
        ContentType.objects.clear_cache()

        kept = RobotEvent.objects.get(pk=event.pk)
        assert (kept.name, kept.kind, kept.seed, kept.bot_level) == (
            "Kept", RobotEvent.Kind.PAIRS, event.seed, "random")
        assert list(kept.organisers.values_list("username", flat=True)) == ["organiser"]
        moved = RobotEntry.objects.get(event=kept)
        assert (moved.pk, moved.player.username, moved.hand_scores) == (
            entry.pk, "player", [[0, 40]] * 5)
        # the same content type, relabelled: what was granted on it still holds
        new_type = ContentType.objects.get_for_model(RobotEvent)
        assert (new_type.pk, new_type.app_label) == (old_type.pk, "robot_duplicate")
        assert not ContentType.objects.filter(app_label="tournaments",
                                              model__in=["robotevent", "robotentry"]).exists()
        reloaded = get_user_model().objects.get(pk=organiser.pk)
        assert reloaded.has_perm("robot_duplicate.change_robotevent")
        # and a new row goes on after the kept ones
        later = RobotEvent.objects.create(name="Later", opens=now, closes=now + timedelta(1))
        assert later.pk > kept.pk
    finally:
        migrate(executor_leaves())
