"""Robot duplicate events: each entrant plays an event's boards at a live table of their own
with bots in the other seats, within the event's window; pairs invite a partner; everyone
is ranked on matchpoints once the window has closed, and nothing is shown before.

Built on ``tournaments`` (its duplicate scoring, errors, API and admin scoping) and on the
live tables of ``games``; neither imports this app: ``apps.py`` registers it where they
look (``docs/developing/layout.md``)."""
