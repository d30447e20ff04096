from django.conf import settings
from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('tournaments', '0008_round_draw_note'),
    ]

    operations = [
        migrations.AddField(
            model_name='result',
            name='disputed_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='result',
            name='dispute_reason',
            field=models.CharField(blank=True, max_length=500, verbose_name='reason for the dispute'),
        ),
    ]
