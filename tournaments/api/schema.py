"""OpenAPI descriptions of the endpoints (drf-spectacular), kept out of the views, and the
view that serves the schema (in English, as OpenAPI 3.0 that strict readers take)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils import translation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from drf_spectacular.views import SpectacularAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from .boards import BoardsSerializer
from .serializers import MatchDetailSerializer, RoundDetailSerializer
from .standings import StandingsSerializer
from .submissions import CorrectionSerializer, DetailSerializer, ResultSubmissionSerializer

ERROR = {"type": "object", "additionalProperties": True,
         "description": "what is wrong, and where: `detail`, or one list of messages a field"}
# a response format the endpoint does not have (tournaments/api/negotiation.py)
FORMAT_ERROR = {
    "type": "object", "required": ["detail", "code", "formats", "media_types"],
    "description": "the formats and media types the endpoint has",
    "properties": {
        "detail": {"type": "string"},
        "code": {"type": "string", "enum": ["format_not_available"]},
        "formats": {"type": "array", "items": {"type": "string"}},
        "media_types": {"type": "array", "items": {"type": "string"}},
    },
}
# a game record's verdict, or "wrong_deal": not played on the match's own deals
VERDICT_STATUSES = ["illegal", "malformed", "incomplete", "wrong_deal"]
REJECTION = {
    "type": "object", "required": ["detail", "reason"],
    "description": "a result the rules refuse (ResultRejected)",
    "properties": {
        "detail": {"type": "string"},
        "reason": {"type": "string", "description": "what is wrong, naming the rule (R7.1)"},
        "status": {"type": "string", "enum": VERDICT_STATUSES,
                   "description": "a game record's verdict, or wrong_deal: not played on "
                                  "the match's own packs and first dealer"},
        "hand": {"type": "integer", "description": "illegal record: hand 1..5"},
        "action": {"type": "integer",
                   "description": "illegal record: the action's 0-based index in the hand"},
    },
}

tournaments = extend_schema_view(
    list=extend_schema(summary="List tournaments"),
    retrieve=extend_schema(summary="A tournament: settings, entered teams, rounds"),
)

standings = extend_schema(
    summary="Standings, current or after a completed round (JSON, CSV or NDJSON)",
    description=(
        "One row a team: rank, team, points, played/wins/draws/losses/byes, then each "
        "tie-break value under its key, in the tournament's order. The same table is "
        "exported as CSV (a header line of `columns`, then one line a team) and NDJSON (one "
        "JSON object a team): choose with `?format=csv|ndjson|json`, a suffix "
        "(`standings.csv`) or the Accept header. The JSON of a finished tournament's current "
        "table also gives its final `places` and `champion` as its pages do: a knockout's "
        "from its bracket, where the rows' points may rank two teams first."),
    parameters=[
        OpenApiParameter("round", {"type": "integer", "minimum": 1, "maximum": 32767},
                         description="a completed round's number (omit for the current "
                         "standings)"),
        OpenApiParameter("format", str, enum=["json", "csv", "ndjson"],
                         description="the response format"),
    ],
    responses={
        (200, "application/json"): StandingsSerializer,
        (200, "text/csv"): OpenApiTypes.STR,
        (200, "application/x-ndjson"): OpenApiTypes.STR,
        # errors are JSON whatever format was asked for
        (404, "application/json"): OpenApiResponse(
            DetailSerializer, description="no such tournament, or the round is not complete"),
    },
)

boards = extend_schema(
    summary="A duplicate tournament's boards and every result on them (JSON, CSV or NDJSON)",
    description=(
        "One row a team's result on a board: the board, its round, the team's direction "
        "(0: seats 0 and 2), the match and table, the result (the opponents' penalty points "
        "minus the team's own), its matchpoints of the top, percentage, Butler score and "
        "cross-difference against the teams that held the same direction of the same board, "
        "and its rank there on matchpoints (1, 2, 2, 4). The JSON also lists the boards, "
        "their dealer and pack. Only rounds whose boards are no longer secret are listed "
        "(every table finished, the round closed or its boards released); a tournament's "
        "organisers see every round. CSV and NDJSON as the standings: `?format=`, a suffix "
        "(`boards.csv`) or the Accept header."),
    parameters=[OpenApiParameter("format", str, enum=["json", "csv", "ndjson"],
                                 description="the response format")],
    responses={
        (200, "application/json"): BoardsSerializer,
        (200, "text/csv"): OpenApiTypes.STR,
        (200, "application/x-ndjson"): OpenApiTypes.STR,
        (404, "application/json"): OpenApiResponse(DetailSerializer,
                                                   description="no such tournament"),
    },
)

results_file = extend_schema(
    summary="A tournament's results file, push-results/1 (JSON or XML)",
    description=(
        "The event, its players (by handle) and teams (by their number in the file), every "
        "public round's matches with their seats and results, and the final places, in a "
        "versioned schema another installation imports (`manage.py import_results_file`). "
        "JSON, or the same content as XML with `?format=xml` or `Accept: application/xml`; "
        "its JSON Schema and XSD are in the manual (Files). A duplicate round whose boards "
        "are still secret is left out; an unconfirmed result is shown only to those who "
        "may see it, with `confirmed: false`."),
    parameters=[OpenApiParameter("format", str, enum=["json", "xml"],
                                 description="the response format")],
    responses={
        (200, "application/json"): OpenApiResponse(
            OpenApiTypes.OBJECT, description="push-results/1 (its JSON Schema: "
                                             "push-results-1.schema.json)"),
        (200, "application/xml"): OpenApiTypes.STR,
        (404, "application/json"): OpenApiResponse(DetailSerializer,
                                                   description="no such tournament"),
    },
)

trf = extend_schema(
    summary="A TRF-style report of every team's results per round (fixed-width text)",
    description=(
        "Header lines (012 name, 042 and 052 dates, 062 teams, XXR rounds), then one `001` "
        "line a team: number, name, points, rank, and a 10-column block a round (opponent, "
        "side, result); the columns are in the manual (Files). The rounds and results as "
        "the results file shows them."),
    responses={(200, "text/plain"): OpenApiTypes.STR,
               (404, "application/json"): OpenApiResponse(DetailSerializer,
                                                          description="no such tournament")},
)

deal_file = extend_schema(
    summary="A duplicate round's deal file, push-deals/1 (plain text)",
    description=(
        "Each board's number, hand, dealer, the four seats' cards as dealt, the upcard, the "
        "stock and the pack, as `[Tag \"value\"]` lines (the grammar is in the manual, "
        "Files). Only once the round's boards are no longer secret: every table finished, "
        "the round closed or its boards released."),
    responses={(200, "text/plain"): OpenApiTypes.STR,
               (404, "application/json"): OpenApiResponse(
                   DetailSerializer, description="no such round, not a duplicate round, or "
                                                 "its boards still secret")},
)

rounds = extend_schema_view(
    list=extend_schema(summary="List rounds (drafts only to their organisers)"),
    retrieve=extend_schema(summary="A round and its matches"),
)

matches = extend_schema_view(
    list=extend_schema(summary="List matches of the rounds you may see"),
    retrieve=extend_schema(
        summary="A match: seats, hands, totals, winner",
        parameters=[OpenApiParameter("include", str, enum=["record"],
                                     description="`record`: add the stored game record")]),
)

record = extend_schema(
    summary="A match's stored game record (push-record/1), as stored",
    responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="push-record/1 JSON"),
               404: OpenApiResponse(DetailSerializer,
                                    description="no such match, or no stored record")},
)

#: the header every write takes (``api.idempotency``)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", {"type": "string", "minLength": 1, "maxLength": 255,
                        "pattern": "^[\\x20-\\x7e]+$"},
    OpenApiParameter.HEADER, required=False,
    description="1 to 255 printable ASCII characters of the client's choosing (a new UUID "
                "each request): a request sent again with the same key is answered as the "
                "first was (with `Idempotent-Replayed: true`) and writes nothing again. Kept "
                "a day; an error answer is not kept.")
IDEMPOTENCY_REFUSED = OpenApiResponse(DetailSerializer, description=(
    "the Idempotency-Key was used for another request (another method, path or body)"))

submit_result = extend_schema(
    summary="Submit a match's result: a game record or a score sheet",
    description=(
        "For the tournament's organisers and the match's players (token, API key with the "
        "results scope, or session authentication). Send `{\"record\": <push-record/1>}`, "
        "verified move by move and, when the platform deals, against the match's own packs "
        "and first dealer, or "
        "`{\"score_sheet\": {\"hand_scores\": [[a, b] x5], \"out_seats\": [seat or null "
        "x5]}}`. Nothing is stored on any error. A result waits for confirmation (status "
        "`awaiting`) when the tournament asks for it, and a record a player uploads does when "
        "the venue deals."),
    request=ResultSubmissionSerializer,
    parameters=[IDEMPOTENCY_KEY],
    responses={
        201: OpenApiResponse(MatchDetailSerializer, description="stored; the match as it is "
                             "now (the result may await confirmation)"),
        400: OpenApiResponse({"anyOf": [REJECTION, ERROR]}, description=(
            "a result the rules refuse (reason; for a record, its verdict and the hand and "
            "action), or malformed input (one list of messages a field, nested to where)")),
        401: OpenApiResponse(DetailSerializer, description="not authenticated"),
        403: OpenApiResponse(DetailSerializer, description="neither an organiser of the "
                             "tournament nor a player of the match"),
        404: OpenApiResponse(DetailSerializer, description="no such match"),
        409: OpenApiResponse(DetailSerializer, description="the match already has a result"),
        422: IDEMPOTENCY_REFUSED,
    },
)

confirm_result = extend_schema(
    summary="Confirm a match's result that awaits confirmation",
    description=(
        "For a player of the other team, when a player of the match entered the result, and "
        "for the tournament's organisers other than the one who entered it. Confirming a "
        "confirmed result changes nothing."),
    request=None,
    parameters=[IDEMPOTENCY_KEY],
    responses={
        200: OpenApiResponse(MatchDetailSerializer, description="confirmed; the match as it "
                             "is now"),
        400: OpenApiResponse({"anyOf": [ERROR]}, description="the organiser who entered "
                             "it cannot confirm it (`detail`), or a malformed Idempotency-Key "
                             "(a list of messages under its name)"),
        401: OpenApiResponse(DetailSerializer, description="not authenticated"),
        403: OpenApiResponse(DetailSerializer, description="neither a player of the other "
                             "team nor another organiser of the tournament"),
        404: OpenApiResponse(DetailSerializer, description="no such match, or no result"),
        422: IDEMPOTENCY_REFUSED,
    },
)

withdraw_result = extend_schema(
    summary="Withdraw a match's result (an organiser)",
    description=(
        "For the tournament's organisers (token, API key with the results scope, or session "
        "authentication): the result is deleted and the match waits for a result again, "
        "while its round is open (a complete round's results are final). The same service "
        "as the admin's \"withdraw\" action."),
    request=None,
    parameters=[IDEMPOTENCY_KEY],
    responses={
        200: OpenApiResponse(MatchDetailSerializer, description="withdrawn; the match as it "
                             "is now"),
        400: OpenApiResponse({"anyOf": [ERROR]}, description="the round is complete "
                             "(`detail`), or a malformed Idempotency-Key"),
        401: OpenApiResponse(DetailSerializer, description="not authenticated"),
        403: OpenApiResponse(DetailSerializer, description="not an organiser of the "
                             "tournament, or a key without the results scope"),
        404: OpenApiResponse(DetailSerializer, description="no such match, or no result"),
        422: IDEMPOTENCY_REFUSED,
    },
)

correct_result = extend_schema(
    summary="Correct a match's result (an organiser)",
    description=(
        "For the tournament's organisers who do not play in the match (token, API key with "
        "the results scope, or session authentication): the score sheet they find right "
        "(`{\"score_sheet\": {\"hand_scores\": [[a, b] x5], \"out_seats\": [seat or null "
        "x5]}}`) replaces the result's scores (and any game record) and counts at once, "
        "while its round is open. The same service as the admin's \"correct the result\" "
        "page."),
    request=CorrectionSerializer,
    parameters=[IDEMPOTENCY_KEY],
    responses={
        200: OpenApiResponse(MatchDetailSerializer, description="corrected and confirmed; "
                             "the match as it is now"),
        400: OpenApiResponse({"anyOf": [REJECTION, ERROR]}, description=(
            "a sheet the rules refuse, the round complete or its table live (`detail`), or "
            "malformed input (one list of messages a field, nested to where)")),
        401: OpenApiResponse(DetailSerializer, description="not authenticated"),
        403: OpenApiResponse(DetailSerializer, description="not an organiser of the "
                             "tournament, one who plays in the match, or a key without the "
                             "results scope"),
        404: OpenApiResponse(DetailSerializer, description="no such match, or no result"),
        422: IDEMPOTENCY_REFUSED,
    },
)


def organiser_step(summary: str, description: str, done: str, code: int = 200,
                   request: Any = None, answer: Any = RoundDetailSerializer
                   ) -> Callable[[Any], Any]:
    """The schema of an organiser's step (``api.organising``): its ``request`` body (None:
    none), and its ``answer`` (the round, unless told)."""
    return extend_schema(
        summary=summary, description=description + (
            " For the tournament's organisers (token, API key with the organise scope, or "
            "session authentication); the same step, checks and errors as the admin's "
            "console."),
        request=request, parameters=[IDEMPOTENCY_KEY],
        responses={
            code: OpenApiResponse(answer, description=done),
            400: OpenApiResponse({"anyOf": [ERROR]}, description=(
                "the round's state refuses the step (`detail` says why), a malformed body "
                "(one list of messages a field) or Idempotency-Key")),
            401: OpenApiResponse(DetailSerializer, description="not authenticated"),
            403: OpenApiResponse(DetailSerializer, description="not an organiser of the "
                                 "tournament, or a key without the organise scope"),
            404: OpenApiResponse(DetailSerializer, description="no such round that you may "
                                 "see (a draft is its organisers' only)"),
            422: IDEMPOTENCY_REFUSED,
        })


pair_next = organiser_step(
    "Pair the tournament's next round (a draft)",
    "Pairs the next round by the tournament's format, as a draft for its organisers to "
    "inspect and publish. Asked again while that round is a draft, answers the same draft.",
    "the draft round and its matches", code=201)
publish = organiser_step(
    "Publish a draft round",
    "Makes the round official: its all-bot matches are played in the background and, "
    "online, a live table opens for each other match. Repeating changes nothing.",
    "the round, published")
fill_seats = organiser_step(
    "Seat bots for the round's absent players",
    "A bot substitute takes the seat of each player marked absent since the round was "
    "paired (at a live table, for the rest of the game). Repeating changes nothing.",
    "the round, its seats filled")
release_boards = organiser_step(
    "Release a duplicate round's boards",
    "Shows a duplicate round's boards and results before all its tables have finished, "
    "and counts its results in the standings. Repeating changes nothing.",
    "the round, its boards released")
complete = organiser_step(
    "Complete a round",
    "Closes a round whose every match has a confirmed result and updates the standings "
    "(and, in the background, the ratings); after the last round the tournament is "
    "finished.",
    "the round, complete")

teams = extend_schema_view(list=extend_schema(summary="List teams"),
                           retrieve=extend_schema(summary="A team and its tournaments"))

players = extend_schema_view(list=extend_schema(summary="List players with their ratings"),
                             retrieve=extend_schema(summary="A player and rating history"))


class SchemaView(SpectacularAPIView):
    """The schema, always in English: the descriptions Django and DRF write ("A unique
    integer value identifying this match.") would otherwise follow the asker's
    Accept-Language and come half translated ("... identifying this ottelu")."""

    @extend_schema(exclude=True)  # the schema is not one of the API's operations
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        with translation.override("en"):
            # the untyped step of drf-spectacular's own get() that builds the schema
            response: Response = self._get_schema_response(request)  # type: ignore[no-untyped-call]
        return response


# OpenAPI 3.0 has no null type: ``nullable: true`` adds null to the ``type`` beside it and
# to nothing else, so drf-spectacular's ``{"allOf": [{"$ref": ...}], "nullable": true}``
# still refuses null to a strict reader (the referenced schema says "type": "object"). A
# nullable reference is written as one of the reference and this schema, which takes null
# only.
NULL = {"type": "object", "nullable": True, "enum": [None], "description": "null"}


def strict_nullables(node: Any) -> None:
    """Rewrite, in place and throughout ``node``, every nullable schema that has no ``type``
    of its own into a ``oneOf`` with :data:`NULL`."""
    if isinstance(node, list):
        for item in node:
            strict_nullables(item)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        strict_nullables(value)
    if node.get("nullable") and "type" not in node:
        del node["nullable"]
        if "oneOf" in node:  # a choice: null is one more
            node["oneOf"].append(NULL)
        else:  # drf-spectacular's nullable reference: {"allOf": [{"$ref": ...}], ...}
            parts = node.pop("allOf")
            node["oneOf"] = [parts[0] if len(parts) == 1 else {"allOf": parts}, NULL]


def postprocess(result: dict[str, Any], generator: Any, request: Any,
                public: bool) -> dict[str, Any]:
    """Postprocessing hook: every operation with parameters can answer 400 (a bad query
    parameter or body), any can answer 401 (credentials given but wrong: a bad token), 404
    (an unknown id, a page past the last) and 406 (a response format the endpoint does not
    have: ``?format=``, a suffix such as ``.xml``, or the Accept header), as they do.
    Every body the API takes is required (a result's record or score sheet, the token
    endpoint's credentials), though no single field of a result is. Nullable references
    are made strict OpenAPI 3.0 (:func:`strict_nullables`)."""
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if "requestBody" in operation:
                operation["requestBody"]["required"] = True
            responses = operation.setdefault("responses", {})
            params = operation.get("parameters", [])
            if any(p.get("in") == "query" for p in params) or "requestBody" in operation:
                responses.setdefault("400", {"content": {"application/json": {
                    "schema": ERROR}}, "description": "a malformed parameter or body"})
            responses.setdefault("401", {"content": {"application/json": {
                "schema": ERROR}}, "description": "wrong credentials"})
            responses.setdefault("404", {"content": {"application/json": {
                "schema": ERROR}}, "description": "not found"})
            responses.setdefault("406", {"content": {"application/json": {
                "schema": FORMAT_ERROR}}, "description": "no such response format here"})
    # A match's "record" is there only with ?include=record; drf-spectacular makes every
    # read-only field required.
    detail = result.get("components", {}).get("schemas", {}).get("MatchDetail", {})
    if "record" in detail.get("required", []):
        detail["required"].remove("record")
    strict_nullables(result.get("components", {}).get("schemas", {}))
    return result
