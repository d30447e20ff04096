"""Players' accounts: the rule that an account belongs to one player at most, the invite link
that links the account opening it to a player, and the count that limits sign-ups.

An invite is a signed value (``django.core.signing.TimestampSigner``, salted for invites
alone): the player's id and the id of the account linked to that player when the link was
made (0: none). As with Django's password-reset tokens, nothing is stored: the link stops
working once used, because using it changes the account the player is linked to, and
``PLAYER_INVITE_DAYS`` after it was made, because the signer's timestamp is signed with it.
Without the site's secret key nobody can make one or change the player it names. (An
organiser who clears a player's account within those days revives the links made for the
player before it was linked: they were made for a player without one.)
"""

from __future__ import annotations

import re
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.signing import BadSignature, SignatureExpired, TimestampSigner
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from config.users import RequestUser
from tournaments.models import Player

from . import followups
from .errors import TournamentUserError

_SALT = "tournaments.services.accounts.invite"
_VALUE = re.compile(r"([0-9]{1,19})\.([0-9]{1,19})")  # ids are 64-bit


class InviteInvalid(TournamentUserError):
    """The link was not made by this site (mistyped, cut short or forged)."""

    code = "invite_invalid"


class InviteGone(TournamentUserError):
    """The link was made by this site but can no longer be used."""

    code = "invite_gone"
    status = 410


class AccountTaken(TournamentUserError):
    """The account is another player's already."""

    code = "account_taken"


def invite_value(player_id: int, user_id: int | None) -> str:
    """What an invite signs: the player and the account linked to them (0 for none)."""
    return f"{player_id}.{user_id or 0}"


def read_invite_value(value: str) -> tuple[int, int | None] | None:
    """The player id and account id (None for none) of an invite's value, or None when it
    is not one :func:`invite_value` makes."""
    match = _VALUE.fullmatch(value)
    if match is None:
        return None
    return int(match[1]), int(match[2]) or None


def _signer() -> TimestampSigner:
    return TimestampSigner(salt=_SALT)


def invite_days() -> int:
    return int(settings.PLAYER_INVITE_DAYS)


def invite_token(player: Player) -> str:
    """A new invite link's token for ``player`` (what follows ``/accounts/invite/``)."""
    return _signer().sign(invite_value(player.pk, player.user_id))


def invite_expires(now: datetime | None = None) -> datetime:
    """When an invite made at ``now`` (default: now) stops working."""
    return (now or timezone.now()) + timedelta(days=invite_days())


def invite_player(token: str, user: RequestUser | None = None, *,
                  for_update: bool = False) -> Player:
    """The player an invite is for, while the invite may still be used by ``user`` (whoever
    opens it; anonymous or None while not logged in). Raises :class:`InviteInvalid` (400)
    for a token this site did not sign, and :class:`InviteGone` (410) for one that expired,
    was used, or whose player has an account now. ``for_update`` locks the player's row."""
    try:
        value = _signer().unsign(token, max_age=timedelta(days=invite_days()))
    except SignatureExpired:
        raise InviteGone(_("This invite link has expired (links work for %(days)d days): "
                           "ask the organiser for a new one."), {"days": invite_days()}) from None
    except BadSignature:
        raise InviteInvalid(_("This is not a valid invite link. Check that the whole link "
                              "was copied, or ask the organiser for a new one.")) from None
    parsed = read_invite_value(value)
    if parsed is None:  # signed by this site, so never; but never a 500 either
        raise InviteInvalid(_("This is not a valid invite link. Check that the whole link "
                              "was copied, or ask the organiser for a new one."))
    player_id, user_id = parsed
    players = Player.objects.select_for_update() if for_update else Player.objects.all()
    player = players.filter(pk=player_id).first()
    if player is None:
        raise InviteGone(_("The player this invite link was for no longer exists."))
    if player.user_id is not None and user is not None and player.user_id == user.pk:
        raise InviteGone(_("This invite link has been used: your account is %(player)s's "
                           "already."), {"player": player.name})
    if player.user_id != user_id:
        raise InviteGone(_("This invite link has been used: %(player)s is linked to an "
                           "account now. If that is not yours, ask the organiser."),
                         {"player": player.name})
    if player.user_id is not None:
        raise InviteGone(_("%(player)s is linked to another account already: this invite "
                           "link cannot be used."), {"player": player.name})
    return player


def require_free_account(user: User, player: Player) -> None:
    """An account belongs to one player at most: refuse ``user`` (AccountTaken) when it is
    linked to a player other than ``player``."""
    other = Player.objects.filter(user_id=user.pk).exclude(pk=player.pk).first()
    if other is not None:
        raise AccountTaken(_("The account %(username)s is linked to %(player)s already; an "
                             "account belongs to one player at most."),
                           {"username": user.get_username(), "player": other})


def invite_accept(*, token: str, user: User) -> Player:
    """Link ``user`` to the player of the invite ``token``: once, while it has not expired,
    and only to an account that is no other player's (InviteInvalid, InviteGone or
    AccountTaken otherwise, with nothing stored)."""
    try:
        with transaction.atomic():
            # The account's row, then the player's: one account accepting two invites at
            # once, or two accounts one invite, wait here, and the second sees the first.
            User.objects.select_for_update().filter(pk=user.pk).first()
            player = invite_player(token, user, for_update=True)
            require_free_account(user, player)
            player.user = user
            player.save(update_fields=["user"])
    except IntegrityError:  # an organiser gave the account to another player meanwhile
        raise AccountTaken(_("The account %(username)s is linked to another player already; "
                             "an account belongs to one player at most."),
                           {"username": user.get_username()}) from None
    return player


def password_reset_later(*, email: str, domain: str, use_https: bool, language: str) -> None:
    """Leave the reset mail to a worker (``send_password_reset``): the request neither looks
    the address up nor talks to the mail server, so it is answered as fast for an address
    nobody has as for a known one, and tells nobody which addresses have an account."""
    with transaction.atomic():
        followups.password_reset_mail_later(email=email, domain=domain, use_https=use_https,
                                            language=language)


def send_password_reset(email: str, *, domain: str, use_https: bool, language: str) -> None:
    """Mail each active account of ``email`` a link that sets a new password (Django's
    reset form and its token), in the language the request was made in."""
    form = PasswordResetForm({"email": email})
    if not form.is_valid():
        return
    with translation.override(language):
        form.save(domain_override=domain, use_https=use_https)


def within_request_limit(kind: str, address: str) -> int | None:
    """Count a request of ``kind`` (a sign-up, a password-reset mail) from ``address``.
    None while the address stays within ``SIGNUP_LIMIT`` such requests in the current
    window of ``SIGNUP_WINDOW_MINUTES``; past it, the seconds until the window ends.

    The count is the cache's, as the token endpoint's rate is: one count for all processes
    once they share a cache (``DJANGO_CACHE_URL``). Windows are fixed, so a burst at a
    window's end and the next one's start can reach twice the limit.
    """
    window = int(settings.SIGNUP_WINDOW_MINUTES) * 60
    now = time.time()
    bucket = int(now // window)
    key = f"push.accounts.{kind}.{address}.{bucket}"
    cache.add(key, 0, timeout=window)
    try:
        count = cache.incr(key)
    except ValueError:  # the key expired between the two calls: a new window
        cache.set(key, 1, timeout=window)
        count = 1
    if count <= int(settings.SIGNUP_LIMIT):
        return None
    return max(1, int((bucket + 1) * window - now))
