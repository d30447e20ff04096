"""A finished table names the kind of table whose handler an app registered, not a dotted
path to code."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("live", "0003_abandoned_tables"),
    ]

    operations = [
        migrations.RenameField(model_name="livetable", old_name="result_hook",
                               new_name="reports_to"),
        migrations.AlterField(model_name="livetable", name="reports_to",
                              field=models.CharField(blank=True, max_length=40)),
    ]
