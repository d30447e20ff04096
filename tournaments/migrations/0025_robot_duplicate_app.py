# Robot duplicate events moved to their own app, robot_duplicate, whose 0001 takes the
# models over. Their tables stay as they are (the models keep their names through
# Meta.db_table), so this removes the models from tournaments' state only: no table is
# dropped and no row is lost.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0024_wait_for_players'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                # the entry first: it points at the event
                migrations.DeleteModel(name='RobotEntry'),
                migrations.DeleteModel(name='RobotEvent'),
            ],
            database_operations=[],
        ),
    ]
