"""Tables for friends: a waiting table and its seats, before its game exists."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('live', '0004_finished_handlers'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='FriendTable',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('bot', models.CharField(max_length=20)),
                ('auto_start', models.BooleanField(default=True)),
                ('status', models.CharField(choices=[('waiting', 'Waiting'), ('started', 'Started'), ('abandoned', 'Abandoned')], default='waiting', max_length=10)),
                ('key', models.CharField(max_length=32)),
                ('created', models.DateTimeField(auto_now_add=True)),
                ('active', models.DateTimeField()),
                ('host', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='hosted_friend_tables', to=settings.AUTH_USER_MODEL)),
                ('table', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='friend_table', to='live.livetable')),
            ],
        ),
        migrations.CreateModel(
            name='FriendSeat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seat', models.PositiveSmallIntegerField()),
                ('kind', models.CharField(choices=[('host', 'Host'), ('friend', 'Friend'), ('bot', 'Bot')], max_length=6)),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='friend_seats', to=settings.AUTH_USER_MODEL)),
                ('friend_table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='live.friendtable')),
            ],
            options={
                'ordering': ['friend_table', 'seat'],
            },
        ),
        migrations.AddIndex(
            model_name='friendtable',
            index=models.Index(condition=models.Q(('status', 'waiting')), fields=['active'], name='friend_table_waiting'),
        ),
        migrations.AddConstraint(
            model_name='friendtable',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('status', 'started'), ('table__isnull', False)), models.Q(models.Q(('status', 'started'), _negated=True), ('table__isnull', True)), _connector='OR'), name='friend_table_started_has_table'),
        ),
        migrations.AddConstraint(
            model_name='friendseat',
            constraint=models.UniqueConstraint(fields=('friend_table', 'seat'), name='friend_seat_once'),
        ),
        migrations.AddConstraint(
            model_name='friendseat',
            constraint=models.UniqueConstraint(fields=('friend_table', 'user'), name='friend_seat_one_per_person'),
        ),
        migrations.AddConstraint(
            model_name='friendseat',
            constraint=models.CheckConstraint(condition=models.Q(('seat__lte', 3)), name='friend_seat_0_to_3'),
        ),
        migrations.AddConstraint(
            model_name='friendseat',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('kind', 'bot'), _negated=True), ('user__isnull', True), _connector='OR'), name='friend_seat_bot_has_nobody'),
        ),
    ]
