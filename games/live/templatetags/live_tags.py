"""``{% play_now_form bot as form %}``: the "Play now" form, so that any page (the home
page, a finished table) can include ``live/_play_now.html`` without its view's help."""

from __future__ import annotations

from django import template

from games.live.forms import PlayNowForm

register = template.Library()


@register.simple_tag
def play_now_form(bot: str = "") -> PlayNowForm:
    """An unbound form, with ``bot`` chosen when given (play again at the same level)."""
    return PlayNowForm(initial={"bot": bot} if bot else None)
