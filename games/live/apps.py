from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LiveConfig(AppConfig):
    name = "games.live"
    label = "live"
    verbose_name = _("Live tables")
    default_auto_field = "django.db.models.BigAutoField"
