from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0010_player_handle'),
    ]

    operations = [
        migrations.CreateModel(
            name='CheckIn',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('round_number', models.PositiveSmallIntegerField(verbose_name='round')),
                ('by_player', models.BooleanField(default=False, verbose_name='checked in by the player')),
                ('created', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'verbose_name': 'check-in',
                'verbose_name_plural': 'check-ins',
            },
        ),
        migrations.AddField(
            model_name='tournament',
            name='check_in_closes',
            field=models.DateTimeField(blank=True, help_text='Until then, players check themselves in for the next round on their player page. Empty: only organisers check players in.', null=True, verbose_name='self check-in open until'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='check_in_required',
            field=models.BooleanField(default=False, help_text='A player not checked in for a round when it is paired is absent, and a bot plays in their seat.', verbose_name='players must check in'),
        ),
        migrations.AddField(
            model_name='checkin',
            name='player',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='check_ins', to='tournaments.player'),
        ),
        migrations.AddField(
            model_name='checkin',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='check_ins', to='tournaments.tournament'),
        ),
        migrations.AddConstraint(
            model_name='checkin',
            constraint=models.UniqueConstraint(fields=('tournament', 'round_number', 'player'), name='check_in_once', violation_error_message='This player is already checked in for this round.'),
        ),
    ]
