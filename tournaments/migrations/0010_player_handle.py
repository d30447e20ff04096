"""Players get a unique handle (made from their name, as ``Player.save`` makes it); the
database constraints' messages read as sentences for an organiser."""

from typing import Any

from django.db import migrations, models
from django.utils.text import slugify


def fill_handles(apps: Any, schema_editor: Any) -> None:
    Player = apps.get_model("tournaments", "Player")
    taken: set[str] = set()
    players = list(Player.objects.order_by("id"))
    for player in players:
        stem = slugify(player.name)[:34].strip("-") or "player"
        handle, number = stem, 1
        while handle in taken:
            number += 1
            handle = f"{stem}-{number}"
        taken.add(handle)
        player.handle = handle
    Player.objects.bulk_update(players, ["handle"], batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0009_result_dispute'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='handle',
            field=models.SlugField(null=True, blank=True, db_index=False, error_messages={'unique': 'Another player already has this handle.'}, help_text='Unique: letters, digits, hyphens and underscores. Left empty, it is made from the name.', max_length=40, verbose_name='handle'),
        ),
        migrations.RunPython(fill_handles, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='player',
            name='handle',
            field=models.SlugField(blank=True, error_messages={'unique': 'Another player already has this handle.'}, help_text='Unique: letters, digits, hyphens and underscores. Left empty, it is made from the name.', max_length=40, unique=True, verbose_name='handle'),
        ),
        migrations.AlterField(
            model_name='team',
            name='name',
            field=models.CharField(error_messages={'unique': 'There is already a team of this name.'}, max_length=100, unique=True, verbose_name='name'),
        ),
        migrations.AlterConstraint(
            model_name='absence',
            name='absence_once',
            constraint=models.UniqueConstraint(fields=('tournament', 'round_number', 'player'), name='absence_once', violation_error_message='This player is already marked absent from this round.'),
        ),
        migrations.AlterConstraint(
            model_name='entry',
            name='entry_once_per_tournament',
            constraint=models.UniqueConstraint(fields=('tournament', 'team'), name='entry_once_per_tournament', violation_error_message='This team is already entered in this tournament.'),
        ),
        migrations.AlterConstraint(
            model_name='seat',
            name='player_sits_once_per_round',
            constraint=models.UniqueConstraint(condition=models.Q(('player__isnull', False)), fields=('round', 'player'), name='player_sits_once_per_round', violation_error_message='This player already sits at a table in this round.'),
        ),
        migrations.AlterConstraint(
            model_name='seat',
            name='seat_is_a_player_or_a_bot',
            constraint=models.CheckConstraint(condition=models.Q(('player__isnull', False), models.Q(('bot_level', ''), _negated=True), _connector='OR'), name='seat_is_a_player_or_a_bot', violation_error_message='A seat needs a player, or a bot level for a bot.'),
        ),
        migrations.AlterConstraint(
            model_name='team',
            name='team_two_different_players',
            constraint=models.CheckConstraint(condition=models.Q(('player_a', models.F('player_b')), _negated=True), name='team_two_different_players', violation_error_message='A team needs two different players.'),
        ),
    ]
