"""Bot policies. Each decides from its seat's :class:`~games.engine.Observation` only."""
