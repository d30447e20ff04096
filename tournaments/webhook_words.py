"""A webhook event as a chat message (database-free): the body a Discord or Slack incoming
webhook takes, worded from the event's type and ``data`` (``selectors.webhooks``) in the
active language: a round's pairings, a result, the standings' top ten after a round."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _

#: the standings' lines a message shows
TOP = 10
#: Discord refuses a message longer than this
DISCORD_LIMIT = 2000


#: each chat service's incoming webhook: the field it reads the message from
CHAT_FIELDS = {"discord": "content", "slack": "text"}
#: the services that refuse a longer message
CHAT_LIMITS = {"discord": DISCORD_LIMIT}


def chat_body(service: str, event_type: str, data: dict[str, Any]) -> bytes:
    """The JSON body for the chat ``service`` (discord: ``content``; slack: ``text``)."""
    if service not in CHAT_FIELDS:
        raise ValueError(f"no chat format {service!r}")
    text = chat_text(event_type, data)
    limit = CHAT_LIMITS.get(service)
    if limit is not None and len(text) > limit:
        text = text[:limit - 1] + "…"
    return json.dumps({CHAT_FIELDS[service]: text}, ensure_ascii=False).encode()


def _team(side: dict[str, Any] | None, *, bot: bool = False) -> str:
    if side is not None:
        return str(side["name"])
    return _("the bot team") if bot else _("a bye")


def _pairing(match: dict[str, Any]) -> str:
    return _("table %(table)s: %(a)s vs %(b)s") % {
        "table": match["table"] or "?", "a": _team(match["team_a"]),
        "b": _team(match["team_b"], bot=match["bot_opponent"])}


def _result(match: dict[str, Any]) -> str:
    result = match["result"] or {}
    totals = result.get("totals") or ["?", "?"]
    return _("table %(table)s: %(a)s %(total_a)s – %(total_b)s %(b)s") % {
        "table": match["table"] or "?", "a": _team(match["team_a"]),
        "b": _team(match["team_b"], bot=match["bot_opponent"]),
        "total_a": totals[0], "total_b": totals[1]}


def _standings(standings: dict[str, Any]) -> list[str]:
    return [_("%(rank)s. %(team)s, %(points)g points") % row for row in standings["rows"][:TOP]]


def chat_text(event_type: str, data: dict[str, Any]) -> str:
    """The message for an event: one line saying what happened, then its details."""
    name = data.get("tournament", {}).get("name", "?")
    if event_type == "ping":
        return _("A test event from Push league: this webhook works.")
    if event_type == "tournament.started":
        return _("%(tournament)s has started.") % {"tournament": name}
    if event_type in ("round.published", "round.completed"):
        round = data["round"]
        values = {"tournament": name, "round": round["number"]}
        if event_type == "round.published":
            lines = [_("Round %(round)s of %(tournament)s published:") % values]
            lines += [_pairing(match) for match in round["matches"] if not match["is_bye"]]
        else:
            lines = [_("Round %(round)s of %(tournament)s completed:") % values]
            lines += [_result(match) for match in round["matches"] if match["result"]]
            lines += [_("Standings after round %(round)s:") % values,
                      *_standings(data["standings"])]
        return "\n".join(lines)
    if event_type in ("table.opened", "table.finished", "result.submitted",
                      "result.confirmed"):
        match = data["match"]
        values = {"tournament": name, "round": match["round_number"]}
        heads = {
            "table.opened": _("A table of round %(round)s of %(tournament)s opened:"),
            "table.finished": _("A table of round %(round)s of %(tournament)s finished:"),
            "result.submitted": _("A result of round %(round)s of %(tournament)s was "
                                  "entered, to be confirmed:"),
            "result.confirmed": _("A result of round %(round)s of %(tournament)s:"),
        }
        detail = _pairing(match) if event_type == "table.opened" else _result(match)
        return f"{heads[event_type] % values}\n{detail}"
    if event_type in ("standings.changed", "tournament.finished"):
        head = (_("The standings of %(tournament)s changed:")
                if event_type == "standings.changed"
                else _("%(tournament)s has finished. Final standings:"))
        return "\n".join([head % {"tournament": name}, *_standings(data["standings"])])
    if event_type in ("season.drafted", "season.confirmed"):
        season, league = data["season"], data["league"]["name"]
        values = {"league": league, "season": season["name"]}
        if event_type == "season.confirmed":
            return _("%(season)s of %(league)s has begun.") % values
        went = {"up": _("up"), "down": _("down"), "new": _("new"), "left": _("left")}
        return "\n".join([_("%(season)s of %(league)s is drafted:") % values] + [
            f"{move['team']}: {went[move['kind']]}" for move in season["moves"]
            if move["kind"] in went])
    return _("%(tournament)s: %(event)s") % {"tournament": name, "event": event_type}
