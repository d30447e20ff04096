"""Live tables: a game of Push played move by move on the server.

The database holds the game: a :class:`~games.live.models.LiveTable` and its append-only
:class:`~games.live.models.LiveAction` log, replayed into the engine on every request
(``state.py``); ``service.py`` accepts actions under a row lock; ``tasks.py`` lets bots act
through that same service; ``consumers.py`` is the websocket edge. This app knows seats,
deals and the kind of table whose handler it calls at the end (``finished``), never
tournaments.
"""
