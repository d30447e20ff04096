"""Players and teams, the shared register: registered by any organiser (staff account), and
changed only by whoever may edit them (``access.may_edit_register``: a superuser, or an
organiser when they take part in no tournament but theirs). The admin's pages and the API
store them through :func:`register_save`, with the model's own checks named by field.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from config.users import RequestUser
from tournaments.models import Club, Player, Team

from .access import may_edit_register
from .errors import checked
from .tournaments import require_staff


def register_save(*, item: Player | Team | Club, user: RequestUser) -> Player | Team | Club:
    """Store ``item`` as set, checked: a new one by an organiser, a changed one by whoever
    may edit it."""
    require_staff(user)
    if item.pk is not None and not may_edit_register(user, item):
        raise PermissionDenied(_("%(item)s takes part in a tournament you do not organise: "
                                 "a superuser changes it") % {"item": item})
    checked(item)
    item.save()
    return item


def player_register(*, name: str, handle: str = "", user: RequestUser) -> Player:
    """A new player named ``name``, with ``handle`` (empty: one made from the name)."""
    player = Player(name=name, handle=handle)
    register_save(item=player, user=user)
    return player


def team_register(*, name: str, player_a: Player, player_b: Player,
                  user: RequestUser) -> Team:
    """A new team of two different players."""
    team = Team(name=name, player_a=player_a, player_b=player_b)
    register_save(item=team, user=user)
    return team
