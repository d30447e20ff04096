"""The models' content types follow them from tournaments to this app, keeping their ids,
so that what points at them keeps pointing there: the admin permissions granted to
organisers (and to their groups) and the admin's history of changes. Without this, Django
would make new content types, with new permissions nobody holds, for this app, and leave
the old ones, still granted, naming models that no longer exist."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

MODELS = ["robotevent", "robotentry"]


def relabel(apps: StateApps, old: str, new: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        moving = ContentType.objects.filter(app_label=old, model=model).first()
        if moving is None:  # a database that never had the model under the old label
            continue
        # One already under the new label was made by Django's post-migrate step for the
        # model in its new place (say, after a migration back and forth) and holds only the
        # permissions it gave itself; the old one, with what was granted, takes its place.
        ContentType.objects.filter(app_label=new, model=model).delete()
        moving.app_label = new
        moving.save(update_fields=["app_label"])
    ContentType.objects.clear_cache()


def forwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    relabel(apps, "tournaments", "robot_duplicate")


def backwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    relabel(apps, "robot_duplicate", "tournaments")


class Migration(migrations.Migration):

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("robot_duplicate", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
