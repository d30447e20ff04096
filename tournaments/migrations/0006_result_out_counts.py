from typing import Any

from django.db import migrations, models


def count_out_hands(apps: Any, schema_editor: Any) -> None:
    """Fill ``out_a`` and ``out_b`` of the stored results from their ``out_seats`` (seats 0
    and 2 are team a, 1 and 3 team b), as ``services.results`` now stores them."""
    Result = apps.get_model("tournaments", "Result")
    results = list(Result.objects.only("out_seats"))
    for result in results:
        seats = result.out_seats
        result.out_a = seats.count(0) + seats.count(2)
        result.out_b = seats.count(1) + seats.count(3)
    Result.objects.bulk_update(results, ["out_a", "out_b"], batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0005_task_outbox'),
    ]

    operations = [
        migrations.AddField(
            model_name='result',
            name='out_a',
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='result',
            name='out_b',
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.RunPython(count_out_hands, migrations.RunPython.noop),
    ]
