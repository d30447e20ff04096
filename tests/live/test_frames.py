"""Every frame a client can send, however wrong, gets one answer, an error saying what is
wrong and where, and the connection stays; a frame over the size limit closes it (1009)
with a reason. On the real application and both channel layers, fuzzed with hypothesis;
and through real servers (uvicorn, daphne) for what only they do (invalid UTF-8)."""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from pathlib import Path
from typing import Any

import polib
import pytest
import websockets
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.db import connection
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from config.asgi_process import AsgiServer
from config.worker_process import database_url
from games.engine import observed_legal_actions, parse_action
from games.live import frames, service
from games.live.models import ChatMessage, ChatReport, LiveAction, LiveTable
from games.live.state import replay
from tests.examples import examples

from .conftest import FIRST, SEED
from .sockets import TIMEOUT, answer, joined, next_frame, send_frame, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]
in_process = pytest.mark.usefixtures("layer")  # both channel layers

MAX = frames.MAX_FRAME_BYTES
NUL, LONE = "\x00", "\ud800"  # PostgreSQL stores no NUL; UTF-8 encodes no lone surrogate
OTHER = (FIRST + 1) % 4
RESUME = json.dumps({"type": "resume", "since": 0})
REASON = f"A message is at most {MAX} bytes."
PROTOCOL_FIELDS = {field for fields in frames.FIELDS.values() for field in fields}
_START = replay(SEED, []).game
LEGAL = {str(a) for a in observed_legal_actions(_START.observation(FIRST))}  # take, push


@pytest.fixture
def table(player: Any) -> LiveTable:
    return service.create_practice_table(player, "greedy", seat=FIRST, seed=SEED)


def _logged_errors(caplog: pytest.LogCaptureFixture, since: int = 0) -> list[logging.LogRecord]:
    return [record for record in caplog.records[since:] if record.levelno >= logging.ERROR]


async def _still_served(comm: WebsocketCommunicator) -> None:
    await send_frame(comm, RESUME)
    update = await answer(comm)
    assert update["type"] == "update" and update["view"]["seq"] == 0, update


def _act(**fields: Any) -> dict[str, Any]:
    # a legal action: only a bad field (given) keeps it from being played
    return {"type": "act", "id": "c1", "action": f"{FIRST} take", **fields}


def _ways(**fields: Any) -> dict[str, Any]:
    return {"type": "ways", "id": "w1", "cards": ["8S"], "meld": None, **fields}


def _deep(levels: int, opener: str = "[", closer: str = "]") -> str:
    return opener * levels + "1" + closer * levels


REPROS = [  # (frame, the field named, what the message says, the id echoed)
    (_deep(1000), None, "nests too deeply", None),
    (_deep(1000, '{"a":', "}"), None, "nests too deeply", None),
    (_deep(7000), None, "nests too deeply", None),  # near the size limit
    (json.dumps(_act(id="c" + NUL)), "id", "NUL", None),
    (json.dumps(_act(id="c" + LONE)), "id", "surrogate", None),  # as \ud800 on the wire
    (json.dumps(_act(id="c" + LONE), ensure_ascii=False), "id", "surrogate", None),
    (json.dumps(_act(id=NUL)), "id", "NUL", None),
    (json.dumps(_act(action=f"{FIRST} take{NUL}")), "action", "NUL", "c1"),
    (json.dumps(_act(action=LONE)), "action", "surrogate", "c1"),
    (json.dumps(_ways(cards=["8S", "8H" + NUL])), "cards", "NUL", "w1"),
    (json.dumps(_ways(cards=[LONE])), "cards", "surrogate", "w1"),
    (json.dumps({"type": "resume" + NUL, "since": 0}), "type", "NUL", None),
    (json.dumps({"type": LONE, "since": 0}), "type", "surrogate", None),
    (json.dumps({"type": "resume", "since": "0" + NUL}), "since", "whole number", None),
    (json.dumps({"type": "resume", "since": LONE}), "since", "whole number", None),
    ('{"type": "act", "id": "c\x00", "action": "0 take"}', None, "not JSON", None),  # raw
    ('{"type": "resume", "since": NaN}', None, "NaN is not JSON", None),
    ('{"type": "resume", "since": -Infinity}', None, "-Infinity is not JSON", None),
    ('{"type": "resume", "since": 5, "since": 0}', "since", "appears twice", None),
    ('{"type": "resume", "since": ' + "9" * 5000 + "}", "since", "18 digits", None),
    (json.dumps(_act(id="c2", seq=1)), None, "no field \"seq\"", "c2"),
    (json.dumps(_act(id=17)), "id", "must be a string", None),
    (json.dumps(_act(id="!bot-0")), "id", "beginning with a letter or digit", None),
    (json.dumps(_act(action=["take"])), "action", "must be a string", "c1"),
    (json.dumps({"type": "act", "id": "c1"}), "action", "needs the field", "c1"),
    (json.dumps({"type": ["act"]}), "type", "\"type\", a string", None),
    (json.dumps({"since": 0}), "type", "\"type\", a string", None),
    (json.dumps(_ways(meld=1.0)), "meld", "\"meld\"", "w1"),
    (json.dumps(_ways(cards=["8S"] * 109)), "cards", "at most 108", "w1"),
    ("", None, "not JSON", None),
    ("[1, 2]", None, "JSON object", None),
    (json.dumps({"type": "hand_log", "id": "h1", "hand": 0}), "hand", "from 1 to 5", "h1"),
    (json.dumps({"type": "hand_log", "id": "h1", "hand": 6}), "hand", "from 1 to 5", "h1"),
    (json.dumps({"type": "hand_log", "id": "h1", "hand": "2"}), "hand", "from 1 to 5", "h1"),
    (json.dumps({"type": "hand_log", "id": "h1", "hand": True}), "hand", "from 1 to 5", "h1"),
    (json.dumps({"type": "hand_log", "id": "h1"}), "hand", "from 1 to 5", "h1"),
    (json.dumps({"type": "hand_log", "hand": 1}), "id", "needs the field", None),
    # well formed, but the table is at hand 1 (the service's refusal, with its field)
    (json.dumps({"type": "hand_log", "id": "h1", "hand": 2}), "hand", "not been dealt",
     "h1"),
]


@in_process
@pytest.mark.parametrize(("frame", "field", "says", "echoed"), REPROS)
def test_a_wrong_frame_gets_an_error_naming_the_problem_and_the_connection_stays(
        table: LiveTable, cookie: str, caplog: pytest.LogCaptureFixture,
        frame: str, field: str | None, says: str, echoed: str | None) -> None:
    async def run() -> None:
        comm, _ = await joined(table.pk, cookie)
        await send_frame(comm, frame)
        error = await answer(comm)
        assert error == {"type": "error", "id": echoed, "rule": "", "field": field,
                         "message": error["message"]}
        assert says in error["message"], error
        await _still_served(comm)
        await comm.disconnect()

    async_to_sync(run)()
    assert not _logged_errors(caplog)
    assert not LiveAction.objects.exists()


def test_the_parser_needs_no_size_limit_to_stay_standing() -> None:
    """The attacker's 100,000 levels are over the size limit (below), but reading them
    would not fail either, nor a number of 100,000 digits."""
    for text in (_deep(100_000), "[" * 100_000, '{"type": "resume", "since": '
                 + "1" * 100_000 + "}"):
        with pytest.raises(frames.FrameError):
            frames.read(text)


@in_process
def test_a_binary_frame_is_told_to_send_text(table: LiveTable, cookie: str) -> None:
    async def run() -> None:
        comm, _ = await joined(table.pk, cookie)
        for data in (RESUME.encode(), b"", b"\xff\xfe"):
            await send_frame(comm, data=data)
            error = await answer(comm)
            assert error["type"] == "error" and "text frames of JSON" in error["message"]
        await _still_served(comm)
        await comm.disconnect()

    async_to_sync(run)()


@in_process
@pytest.mark.parametrize("frame", [
    _deep(100_000),  # the attacker's
    " " * MAX + RESUME,
    "€" * (MAX // 3 + 1),  # fewer characters than the limit, more bytes
    LONE * (MAX // 3 + 1),  # surrogates count as the 3 bytes they would take
    b"x" * (MAX + 1),
], ids=["nested-100000", "spaces", "euro-signs", "surrogates", "binary"])
def test_a_frame_over_the_limit_closes_the_connection_with_1009_and_a_reason(
        table: LiveTable, cookie: str, caplog: pytest.LogCaptureFixture,
        frame: str | bytes) -> None:
    async def run() -> None:
        comm, _ = await joined(table.pk, cookie)
        if isinstance(frame, bytes):
            await send_frame(comm, data=frame)
        else:
            await send_frame(comm, frame)
        closed = await comm.receive_output(timeout=TIMEOUT)
        assert closed == {"type": "websocket.close", "code": 1009, "reason": REASON}
        await send_frame(comm, RESUME)  # arrived before the server closed: ignored
        assert await comm.receive_nothing()
        await comm.disconnect(code=1009)

    async_to_sync(run)()
    assert not _logged_errors(caplog)


@in_process
def test_a_frame_at_the_limit_is_read(table: LiveTable, cookie: str) -> None:
    async def run() -> None:
        comm, _ = await joined(table.pk, cookie)
        await send_frame(comm, " " * (MAX - len(RESUME)) + RESUME)
        assert (await answer(comm))["type"] == "update"
        await comm.disconnect()

    async_to_sync(run)()


def test_the_close_reason_fits_a_close_frame_in_every_language() -> None:
    """A close frame's reason is at most 123 bytes of UTF-8 (RFC 6455, 5.5)."""
    msgid = "A message is at most %(size)s bytes."
    po = polib.pofile(str(Path(django_settings.BASE_DIR) / "locale/fi/LC_MESSAGES/django.po"))
    entry = po.find(msgid)
    assert entry is not None and entry.msgstr
    for text in (msgid, entry.msgstr):
        assert len((text % {"size": MAX}).encode()) <= 123


@in_process
def test_a_bug_in_handling_a_frame_is_logged_and_answered_the_connection_stays(
        table: LiveTable, cookie: str, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What the fuzzing below checks never happens: a handler's exception is logged with
    its traceback, and the client gets a generic error instead of a dropped connection."""
    def broken(*args: Any) -> list[str]:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(service, "table_ways", broken)

    async def run() -> None:
        comm, _ = await joined(table.pk, cookie)
        await send_frame(comm, json.dumps(_ways()))
        error = await answer(comm)
        assert error == {"type": "error", "id": None, "rule": "", "field": None,
                         "message": "The server could not handle this message."}
        await _still_served(comm)
        await comm.disconnect()

    async_to_sync(run)()
    [record] = _logged_errors(caplog)
    assert record.exc_info is not None and record.exc_info[0] is ZeroDivisionError
    assert "handling a frame failed" in record.getMessage()


# ---- fuzzing ----------------------------------------------------------------------------

TRICKY = [NUL, LONE, "\udfff", "\udc00", "\ufeff", "\u2028", "é", "\U0001f0a1"]
TEXTS = st.text(st.one_of(st.characters(codec=None), st.sampled_from(TRICKY)), max_size=12)
SCALARS = (st.none() | st.booleans() | st.integers(-(10**40), 10**40) | st.floats()
           | TEXTS | st.sampled_from(["act", "resume", "ways", "c1", "8S", "take"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(TEXTS, inner, max_size=4), max_leaves=10)
CARD_CODES = st.sampled_from(["8S", "8H", "2S", "JK", "TC", "AD"])
# Values every field may hold that are well formed but still refused at this table (seat
# FIRST to move, before its draw), so no frame is ever played, nor a resume answered:
# another seat's action, a resume from a number the table has not reached, ways before
# the draw.
WELL_FORMED = {
    "id": st.sampled_from(["c1", "w-3", "A.b:c_d-9", "x" * 64]),
    "action": st.sampled_from([f"{OTHER} take", "take everything", f"{FIRST} discard 4C",
                               f"{FIRST} draw", f"{FIRST} take 8S"]),
    "since": st.integers(min_value=1, max_value=10**18) | st.integers(max_value=-1),
    "cards": st.lists(CARD_CODES, max_size=5),
    "meld": st.none() | st.integers(-5, 10**18),
    # hands not dealt yet at this table (it is at hand 1), or no hand of a game (R3.1)
    "hand": st.integers(2, 5) | st.integers(max_value=0) | st.integers(6, 10**18),
    # chat: nothing to say, or too much; a report of no message of this table
    "text": st.sampled_from(["", "   ", "\n\t", "x" * (frames.MAX_CHAT_CHARS + 1)]),
    "message": st.integers(max_value=0) | st.integers(10**9, 10**18),
    # a ping's lag out of range (its "hidden" is either: a ping is answered)
    "hidden": st.just("yes"),
    "lag": st.integers(max_value=-1) | st.integers(frames.MAX_LAG_MS + 1, 10**18),
}
CLIENT_IDS = st.text(st.characters(codec=None), max_size=70) | st.sampled_from(
    ["", "!bot-0", "-x", "x" * 65, "c 1", "c\n"])


def _answered(message: dict[str, Any]) -> bool:
    """Whether ``message`` is one this table would answer without an error, or play: a
    resume from 0, the legal act (the well-formed values above are chosen to be refused,
    but a wrong value drawn at random may happen to be right), a heartbeat, the log of
    hand 1, resigning or leaving, a hint."""
    fields, kind = set(message), message.get("type")
    since, action = message.get("since"), message.get("action")
    return ((kind == "resume" and fields <= {"type", "since"} and type(since) is int
             and since == 0)
            or (kind == "act" and isinstance(action, str) and _legal(action))
            or (kind == "ping" and fields <= {"type", "hidden", "lag"}
                and type(message.get("hidden", True)) is bool
                and _lag_fits(message.get("lag")))
            # a line anyone could say (a spoiled empty text may be one: "é")
            or (kind == "chat" and fields == {"type", "id", "text"}
                and frames.valid_client_id(message["id"]) is not None
                and isinstance(message["text"], str)
                and 0 < len(message["text"].strip()) <= frames.MAX_CHAT_CHARS
                and not frames.UNCLEAN.search(message["text"]))
            # resigning or leaving, well formed, is done (a rematch is refused: in play)
            or (kind in ("resign", "leave") and fields == {"type", "id"}
                and frames.valid_client_id(message["id"]) is not None)
            or (kind == "hand_log" and fields == {"type", "id", "hand"}
                and message["hand"] == 1 and type(message["hand"]) is int
                and frames.valid_client_id(message["id"]) is not None)
            # a hint, well formed, is given: it is the seat holder's turn at a practice table
            or (kind == "hint" and fields == {"type", "id"}
                and frames.valid_client_id(message["id"]) is not None))


def _lag_fits(lag: Any) -> bool:
    return lag is None or (type(lag) is int and 0 <= lag <= frames.MAX_LAG_MS)


def _legal(action: str) -> bool:
    try:
        return str(parse_action(action)) in LEGAL
    except ValueError:
        return False


@st.composite
def _spoiled(draw: st.DrawFn, text: str) -> str:
    """``text`` with a NUL, a lone surrogate or another odd character put in."""
    at = draw(st.integers(0, len(text)))
    return text[:at] + draw(st.sampled_from(TRICKY)) + text[at:]


def _spoil(value: Any) -> st.SearchStrategy[Any]:
    if isinstance(value, str):
        return _spoiled(value)
    if isinstance(value, list) and value:
        return st.integers(0, len(value) - 1).flatmap(lambda i: _spoiled(value[i]).map(
            lambda card: [*value[:i], card, *value[i + 1:]]))
    return st.just(value)


@st.composite
def _message(draw: st.DrawFn) -> dict[str, Any]:
    """A message of a real type, each field well formed, spoiled (an odd character put
    in), wrong or missing, maybe with a field of another type or of none, maybe of a
    wrong type."""
    kind = draw(st.sampled_from(sorted(frames.FIELDS)))
    odd = draw(st.integers(0, 5))  # 0: a wrong type, 1: spoiled, else the right one
    message: dict[str, Any] = {"type": draw(VALUES | TEXTS) if odd == 0 else
                               draw(_spoiled(kind)) if odd == 1 else kind}
    for field in frames.FIELDS[kind][1:]:
        choice = draw(st.sampled_from(["good", "spoiled", "wrong", "missing"]))
        if choice in ("good", "spoiled"):
            message[field] = draw(WELL_FORMED[field])
            if choice == "spoiled":
                message[field] = draw(_spoil(message[field]))
        elif choice == "wrong":
            message[field] = draw(CLIENT_IDS if field == "id" else VALUES)
    if draw(st.booleans()):
        message[draw(TEXTS | st.sampled_from(sorted(PROTOCOL_FIELDS)))] = draw(VALUES)
    assume(not _answered(message))
    return message


@st.composite
def _repeated_key(draw: st.DrawFn) -> str:
    """A message with one of its keys written twice (json would keep the last)."""
    message = draw(_message())
    key = draw(st.sampled_from(sorted(message)))
    return f'{{{json.dumps(key)}: {json.dumps(draw(VALUES))}, {json.dumps(message)[1:]}'


def _fits(frame: tuple[str, Any]) -> bool:
    return not frames.too_large(*((frame[1], None) if frame[0] == "text" else (None, frame[1])))


def _dumped(value: Any, ascii_only: bool) -> str:
    return json.dumps(value, ensure_ascii=ascii_only, allow_nan=True)


TEXT_FRAMES = [
    st.builds(_dumped, _message(), st.booleans()),
    st.builds(_dumped, _message(), st.booleans()),  # twice: the likeliest to get far
    st.builds(_dumped, VALUES, st.booleans()),
    _repeated_key(),
    st.text(st.one_of(st.characters(codec=None), st.sampled_from(TRICKY + list("{}[]\":,"))),
            max_size=60),
    st.builds(_deep, st.integers(1, 7000) | st.sampled_from([900, 1000, 7000]),
              st.sampled_from(["[", '{"type": ', '{"a": [', '{"type": "act", "id": ']),
              st.sampled_from(["]", "}", "]}", ""])),
    st.builds(lambda digits, where: where % ("9" * digits), st.integers(15, 6000),
              st.sampled_from(["%s", "-%s", '{"type": "resume", "since": %s}', "[%s]",
                               '{"type": "ways", "id": "w1", "cards": [], "meld": -%s}',
                               '{"type": "act", "id": %s, "action": "0 take"}'])),
    st.sampled_from(["NaN", "-Infinity", "1e400", "-0", "1" * 5000, '"\\ud800"', '"\\u0000"',
                     '{"type": "resume", "since": Infinity}', "\ufeff" + RESUME, RESUME[:-1],
                     '{"type": "resume", "since": 1' + "0" * 30 + "}", "null", "{}"]),
]
FRAMES = st.one_of(*(st.tuples(st.just("text"), frame) for frame in TEXT_FRAMES),
                   st.tuples(st.just("bytes"), st.binary(max_size=40))).filter(_fits)


async def _exchange(comm: WebsocketCommunicator, batch: list[tuple[str, Any]]) -> None:
    """Send the batch and a resume; exactly one error for each frame, then the update: a
    frame answered twice or not at all shows as the update out of place."""
    for kind, payload in batch:
        await (send_frame(comm, payload) if kind == "text" else send_frame(comm, data=payload))
    await send_frame(comm, RESUME)
    for _ in batch:
        error = await answer(comm)
        assert error["type"] == "error", error
        assert error["id"] is None or frames.valid_client_id(error["id"]) == error["id"]
        assert error["field"] is None or error["field"] in PROTOCOL_FIELDS
    update = await answer(comm)
    assert update["type"] == "update" and update["view"]["seq"] == 0, update


def _fuzz(comm: WebsocketCommunicator, caplog: pytest.LogCaptureFixture,
          sent: list[Any]) -> None:
    @settings(max_examples=examples(200), deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.filter_too_much])
    @given(st.lists(FRAMES, min_size=1, max_size=4))
    def check(batch: list[tuple[str, Any]]) -> None:
        before = len(caplog.records)
        async_to_sync(_exchange)(comm, batch)
        # no bug met, not even one caught and answered (what this example logged)
        assert not _logged_errors(caplog, since=before)
        sent.extend(batch)

    check()


@in_process
@pytest.mark.usefixtures("frames_unlimited")
def test_no_frame_gets_anything_but_one_error_and_nothing_is_stored(
        table: LiveTable, cookie: str, caplog: pytest.LogCaptureFixture) -> None:
    """Hypothesis's frames, on one connection (the examples share it: that it survives
    them all is the point), hypothesis itself in a thread of its own whose exchanges run
    on the test's event loop."""
    sent: list[Any] = []

    async def run() -> None:
        comm, _ = await joined(table.pk, cookie)
        await sync_to_async(_fuzz, thread_sensitive=False)(comm, caplog, sent)
        await comm.disconnect()

    async_to_sync(run)()
    assert len(sent) >= 200
    assert LiveTable.objects.get(pk=table.pk).seq == 0 and not LiveAction.objects.exists()
    assert not ChatMessage.objects.exists() and not ChatReport.objects.exists()
    assert not _logged_errors(caplog)


# ---- real servers ----------------------------------------------------------------------

@pytest.mark.parametrize("server", ["uvicorn", "daphne"])
def test_real_servers_refuse_invalid_utf8_and_pass_the_rest_on(
        server: str, table: LiveTable, player: Any) -> None:
    """Invalid UTF-8 in a text frame (a lone surrogate's bytes included) never reaches the
    application: uvicorn closes with 1007, daphne drops the connection (autobahn's
    ``failByDrop``: the client sees 1006). What JSON escapes (``\\u0000``, ``\\ud800``)
    does, and gets its error; an over-size frame is closed: by uvicorn itself (1009, its
    ``--ws-max-size``), by the application under daphne (which allows no 1009 from an
    application and passes on no reason: 4009)."""
    if connection.vendor != "postgresql":
        pytest.skip("the server process needs the test database in PostgreSQL")
    cookie = session_cookie(player)
    process = AsgiServer({"DATABASE_URL": database_url(connection.settings_dict),
                          "CHANNEL_PREFIX": f"test-frames-{uuid.uuid4().hex[:8]}"},
                         server=server)

    async def connect() -> Any:
        ws = await websockets.connect(
            process.url(f"/ws/tables/{table.pk}/"), open_timeout=TIMEOUT, ping_interval=None,
            additional_headers={"Origin": "http://127.0.0.1", "Cookie": f"sessionid={cookie}"})
        assert (await next_frame(ws))["type"] == "update"
        return ws

    async def closed(ws: Any) -> tuple[int | None, str | None]:
        with pytest.raises(websockets.ConnectionClosed):
            await next_frame(ws)  # only the table's talk may come before the close
        return ws.close_code, ws.close_reason

    async def run() -> None:
        ws = await connect()
        for frame, field in ((json.dumps(_act(id="c" + NUL)), "id"),
                             (json.dumps(_act(action=LONE)), "action"),
                             (json.dumps(_ways(cards=["8S" + NUL])), "cards")):
            await ws.send(frame)
            error = await next_frame(ws)
            assert error["type"] == "error" and error["field"] == field, error
        await ws.send(b"\x00", text=False)
        assert "text frames" in (await next_frame(ws))["message"]
        await ws.send(RESUME)
        assert (await next_frame(ws))["type"] == "update"
        await ws.send(" " * MAX + RESUME)
        # uvicorn, run with --ws-max-size at the same limit (config/asgi_process.py, as in
        # production), closes before the application reads the frame (websockets words
        # the reason "frame with N bytes exceeds ...", without compression)
        code, reason = await closed(ws)
        if server == "uvicorn":
            assert code == 1009 and (reason or "").endswith(f"exceeds limit of {MAX} bytes"), reason
        else:
            assert (code, reason) == (4009, "")
        for data in (b'{"type": "resume", "since": 0}\xff', b'"\xed\xa0\x80"'):
            ws = await connect()
            await ws.send(data, text=True)
            assert (await closed(ws))[0] == (1007 if server == "uvicorn" else 1006)

    try:
        asyncio.run(run())
    finally:
        process.stop(kill=True)
    assert not LiveAction.objects.exists()
    # the application met no error (uvicorn logs the invalid UTF-8 it refused, itself)
    assert not [line for line in process.log if "handling a frame failed" in line
                or "Exception in ASGI application" in line
                or "Exception inside application" in line], "".join(process.log)
