"""What ``several_hosts`` counts, and its namespaces: the check of what people sent and
were told against the tables' logs finds an action lost, doubled or unknown and an event
told wrong (so its zeros mean something); the figures' windows and p95; the command's
refusal of bad options; and the namespaces themselves (root and iproute2: elsewhere they
skip, in CI they fail), reaching each other by address only and removed after."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from bench import hosts, netns
from bench.hosts import Fault, Outcome
from bench.people import Figures, Person, check
from games.live import service
from games.live.models import LiveTable
from games.live.state import replay, seat_view
from tests.services import require


def _played(moves: int) -> tuple[LiveTable, list[Person]]:
    """A table of four people where ``moves`` actions were played, each by its person
    (ids ``a-1``, ``a-2``, ...), who was told of every one."""
    users = [get_user_model().objects.create_user(f"hosts-check-{s}") for s in range(4)]
    table = service.create_table([service.SeatPlan(user=u) for u in users], seed=5,
                                 move_seconds=None)
    people = [Person(table.pk, seat, "") for seat in range(4)]
    done: list[str] = []
    for n in range(1, moves + 1):
        live = replay(table.seed, done)
        seat = live.game.to_move
        assert seat is not None
        action = seat_view(live, seat)["legal"][0]
        seq = service.table_act(table.pk, seat, action, f"a-{n}")
        people[seat].sent[f"a-{n}"] = action
        people[seat].acked[f"a-{n}"] = seq
        for person in people:
            person.told[seq] = action
        done.append(action)
    return table, people


@pytest.mark.django_db
def test_it_counts_nothing_wrong_in_a_sound_game() -> None:
    _, people = _played(6)
    figures = Figures()
    check(people, figures)
    assert (figures.logged, figures.lost, figures.doubled, figures.unknown,
            figures.told_wrong, figures.gaps) == (6, 0, 0, 0, 0, 0)


@pytest.mark.django_db
def test_it_finds_an_action_lost_unknown_or_told_wrong() -> None:
    _, people = _played(6)
    mover = next(p for p in people if p.acked)
    mover.acked["ghost"] = 99  # acknowledged, yet not in the log
    first = next(iter(mover.sent))
    del mover.sent[first]  # logged at its seat under an id it never sent
    people[0].told[2] = "0 nonsense"
    figures = Figures()
    check(people, figures)
    assert (figures.lost, figures.unknown, figures.told_wrong) == (1, 1, 1)


@pytest.mark.django_db
def test_it_finds_an_action_acknowledged_at_another_number() -> None:
    _, people = _played(4)
    mover = next(p for p in people if p.acked)
    action_id = next(iter(mover.acked))
    mover.acked[action_id] += 1  # the log has it at its own number
    figures = Figures()
    check(people, figures)
    assert figures.lost == 1


def _outcome() -> Outcome:
    actions = [(t, 0.010 * (1 + t % 3)) for t in range(100)]  # sent at 0..99, 10-30 ms
    figures = {**Figures(tables=2, people=8, finished=2).__dict__, "actions": actions,
               "stand_in_times": [25.0, 26.0, 71.0]}
    return Outcome(figures, [Fault("kill-web", 20, 20), Fault("cut-worker", 50, 60)], 0, 100)


def test_the_windows_are_during_and_after_each_fault() -> None:
    outcome = _outcome()
    assert outcome.windows() == [("whole round", 0, 100), ("during kill-web", 20, 30),
                                 ("after kill-web", 30, 50), ("during cut-worker", 50, 70),
                                 ("after cut-worker", 70, 100)]
    count, p95 = outcome.p95(20, 30)
    assert (count, round(p95)) == (10, 30)
    assert outcome.p95(200, 300)[0] == 0
    lines = "\n".join(outcome.lines())
    assert "during kill-web: 10 people's actions, p95 30 ms; 2 stand-ins' actions" in lines
    assert outcome.sound


def test_a_lost_action_or_an_unfinished_table_is_not_sound() -> None:
    for change in ({"lost": 1}, {"doubled": 1}, {"finished": 1}, {"told_wrong": 1}):
        outcome = _outcome()
        outcome.figures.update(change)
        assert not outcome.sound, change


def test_the_command_refuses_bad_options_before_making_anything() -> None:
    for bad in ({"tables": 0}, {"cut_seconds": -1}, {"timeout": 0}):
        with pytest.raises(CommandError, match="--tables must be at least 1"):
            call_command("several_hosts", **bad)


def test_the_hosts_reach_each_other_by_address_only_and_are_removed() -> None:
    require(netns.missing(), "network namespaces")
    probe = ("import socket, sys; socket.create_connection((sys.argv[1], 9), 2)")
    with netns.Network(["a", "b"]) as net:
        b = net.addresses["b"]
        server = net.start("b", [sys.executable, "-c",
                                 f"import socket, time; s = socket.create_server(('{b}', 9)); "
                                 "time.sleep(60)"], env={})

        def reaches() -> int:
            return net.start("a", [sys.executable, "-c", probe, b], env={}).wait(timeout=30)

        for _ in range(50):  # until the server listens
            if reaches() == 0:
                break
        assert reaches() == 0
        net.cut("b")
        assert reaches() != 0  # the cable pulled: a timeout
        net.mend("b")
        assert reaches() == 0
        # the machine's own namespace has no address of theirs, nor a way to them
        assert netns.SUBNET not in subprocess.run(["ip", "addr"], capture_output=True,
                                                  text=True).stdout
        assert server.poll() is None
        names = [net.name(host) for host in ("a", "b", netns.SWITCH)]
    assert server.poll() is not None
    assert not set(names) & set(netns.namespaces())


def test_a_killed_runs_namespaces_are_removed_by_the_next() -> None:
    require(netns.missing(), "network namespaces")
    gone = subprocess.Popen(["true"])
    gone.wait()  # its pid names a run that can no longer clean up after itself
    name = f"{netns.PREFIX}{gone.pid}-left"
    subprocess.run(["ip", "netns", "add", name], check=True)
    folder = Path(tempfile.gettempdir()) / f"{hosts.FOLDER}{gone.pid}-left"
    folder.mkdir()
    try:
        assert name in netns.remove_leftovers()
        assert name not in netns.namespaces()
        hosts.remove_old_folders()
        assert not folder.exists()
    finally:
        subprocess.run(["ip", "netns", "delete", name], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
