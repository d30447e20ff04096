"""The benchmarks: each is run by a management command and prints its figures (a benchmark
is a command, not a timed test). ``engine`` and ``anchor`` time the rules engine and the
bots (``bench_engine``), ``bots`` the rollouts' agreement with the greedy bot
(``bench_bots``), ``tables`` the live tables through real servers (``bench_tables``) and
``platform`` the pairing, standings and background work (``bench_platform``).

Nothing in ``games`` or ``tournaments`` imports this package but those commands; it may
import them both."""
