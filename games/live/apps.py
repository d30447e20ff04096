from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "games.live"
    label = "live"
    verbose_name = "Live tables"
    default_auto_field = "django.db.models.BigAutoField"
