"""Tournament names become unique, in any case of letters. Tournaments that already share
a name keep it in the oldest of them; each later one gets the first free " (2)", " (3)", ...
after it (shortened to fit the field), so the constraint can be added."""

import django.db.models.functions.text
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

NAME_LENGTH = 200  # Tournament.name's max_length


def suffix_repeated_names(apps: StateApps,
                          schema_editor: BaseDatabaseSchemaEditor) -> None:
    Tournament = apps.get_model("tournaments", "Tournament")
    taken: set[str] = set()
    later = []
    for tournament in Tournament.objects.order_by("id"):
        if tournament.name.lower() in taken:
            later.append(tournament)
        else:
            taken.add(tournament.name.lower())
    for tournament in later:
        number = 2
        while True:
            suffix = f" ({number})"
            name = tournament.name[:NAME_LENGTH - len(suffix)] + suffix
            if name.lower() not in taken:
                break
            number += 1
        taken.add(name.lower())
        tournament.name = name
        tournament.save(update_fields=["name"])


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0018_rating_entry_scaled_only"),
    ]

    operations = [
        migrations.RunPython(suffix_repeated_names, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("name"), name="tournament_name_unique",
                violation_error_message="There is already a tournament of this name."),
        ),
    ]
