"""Which console step applies and which comes next (tournaments/console_steps.py): pure."""

from __future__ import annotations

from tournaments.console_steps import Facts, console_steps, next_step, over, over_text


def enabled(facts: Facts) -> dict[str, bool]:
    return {step.key: step.enabled for step in console_steps(facts)}


def reasons(facts: Facts) -> dict[str, str]:
    return {step.key: step.reason for step in console_steps(facts) if not step.enabled}


def test_a_new_tournament_pairs_first() -> None:
    facts = Facts(rounds_total=5)
    assert enabled(facts) == {"pair": True, "fill": False, "publish": False, "play": False,
                              "complete": False}
    assert next_step(console_steps(facts)).key == "pair"  # type: ignore[union-attr]


def test_a_draft_is_published_after_its_absent_players_get_bots() -> None:
    draft = Facts(number=1, status="draft", rounds_total=5, open_tables=3)
    assert next_step(console_steps(draft)).key == "publish"  # type: ignore[union-attr]
    assert reasons(draft)["complete"] == "publish round 1 first"
    absent = Facts(number=1, status="draft", rounds_total=5, absent_seated=2)
    steps = console_steps(absent)
    assert next_step(steps).key == "fill"  # type: ignore[union-attr]
    assert "each of the 2 players marked absent for round 1" in steps[1].does


def test_a_published_round_plays_its_bots_then_waits_then_completes() -> None:
    bots = Facts(number=2, status="published", rounds_total=5, open_tables=4,
                 bot_tables_left=2)
    assert next_step(console_steps(bots)).key == "play"  # type: ignore[union-attr]
    playing = Facts(number=2, status="published", rounds_total=5, open_tables=4,
                    bot_tables_left=2, job_running=True)
    assert next_step(console_steps(playing)) is None
    assert reasons(playing)["play"].startswith("the bot matches are being played")
    assert reasons(playing)["complete"] == "4 tables have no confirmed result yet"
    assert reasons(playing)["pair"] == "complete round 2 before pairing the next"
    done = Facts(number=2, status="published", rounds_total=5)
    assert next_step(console_steps(done)).key == "complete"  # type: ignore[union-attr]


def test_after_the_last_round_no_step_is_left_and_it_says_so() -> None:
    done = Facts(number=5, status="complete", rounds_total=5)
    assert console_steps(done) == [] and next_step(console_steps(done)) is None
    assert over(done) and over_text(done) == \
        "All 5 rounds are played: the tournament is over."
    assert over_text(Facts(number=1, status="complete", rounds_total=1)) == \
        "The only round is played: the tournament is over."
    # the last round still played, or a round short of the last: steps are left
    for facts in (Facts(number=5, status="published", rounds_total=5),
                  Facts(number=5, status="draft", rounds_total=5),
                  Facts(number=4, status="complete", rounds_total=5),
                  Facts(number=0, status="", rounds_total=None)):
        assert not over(facts) and console_steps(facts)


def test_too_few_teams_says_why_no_round_can_be_paired() -> None:
    facts = Facts(rounds_total=None, pairing_problem="at least 2 teams are needed, got 1")
    assert reasons(facts)["pair"] == "at least 2 teams are needed, got 1"
    assert next_step(console_steps(facts)) is None


def test_no_step_names_a_round_that_does_not_exist() -> None:
    """Before any round, and after one completed, no step speaks of "round 0" or of the
    completed round as the one it would publish or close (after the last, none is left)."""
    for facts in (Facts(rounds_total=5), Facts(number=4, status="complete", rounds_total=5)):
        does = {step.key: step.does for step in console_steps(facts)}
        assert "round 0" not in " ".join(does.values())
        assert does["publish"].startswith("Makes a paired round official")
        assert does["complete"].startswith("Closes the round being played")
    draft = {step.key: step.does for step in console_steps(
        Facts(number=2, status="draft", rounds_total=5))}
    assert draft["publish"].startswith("Makes round 2 official")
    assert draft["complete"].startswith("Closes round 2")
