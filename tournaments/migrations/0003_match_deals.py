"""Each match gets its deals (a seed), and each tournament says who deals (issue 9.2).

A match already played keeps the seed its bot game was dealt from (its pk, as bot games
were dealt before), so its stored record stays the match's own deals. A match not yet
played gets a random seed: deals from its pk could be worked out by anyone. Tournaments
that exist already deal at the venue: their tables had no printed deals to play on; new
ones are dealt by the platform.
"""

import secrets

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from django.db.models import F

import tournaments.models

CHUNK = 1000
DEALING = [("platform", "the platform deals (printed deals at a venue)"),
           ("venue", "the venue deals freely")]


def give_seeds(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Match = apps.get_model("tournaments", "Match")
    Match.objects.filter(result__isnull=False).update(seed=F("pk"))
    unplayed = Match.objects.filter(result__isnull=True).only("pk")
    batch = []
    for match in unplayed.iterator(chunk_size=CHUNK):
        match.seed = secrets.randbits(63)
        batch.append(match)
        if len(batch) == CHUNK:
            Match.objects.bulk_update(batch, ["seed"])
            batch = []
    Match.objects.bulk_update(batch, ["seed"])


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0002_verbose_names"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="seed",
            field=models.BigIntegerField(default=tournaments.models.new_deal_seed,
                                         editable=False,
                                         help_text="the seed of the match's deals"),
        ),
        migrations.RunPython(give_seeds, migrations.RunPython.noop),
        migrations.AddField(
            model_name="tournament",
            name="dealing",
            # the tournaments there are already dealt at their venues
            field=models.CharField(choices=DEALING, default="venue", max_length=10,
                                   verbose_name="dealing"),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="dealing",
            field=models.CharField(
                choices=DEALING, default="platform",
                help_text="Platform: each match has its own packs, fixed when it is paired; "
                          "an uploaded record must be played on them (print them for a venue "
                          "table). Venue: any packs, and a record a player uploads waits for "
                          "the other team to confirm it.",
                max_length=10, verbose_name="dealing"),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="confirm_score_sheets",
            field=models.BooleanField(
                default=False,
                help_text="Each entered score sheet and uploaded game record waits for "
                          "confirmation: by a player of the other team when a player entered "
                          "it, or by another organiser."),
        ),
    ]
