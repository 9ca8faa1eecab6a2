"""The replay page of a finished hand (/hands/<id>/): the deal, then every action.

Who may watch is `selectors.record_visible` (the hand's players and staff; everyone when
the room keeps public records), the same rule as the API's record. A running hand is never
replayable (404, so a running hand's existence tells nothing more than its room does).
The steps are rebuilt by the engine from the stored seed and actions
(`engine.replays.steps`); the page also shows the deal's commitment with the revealed seed
and salt, checked here by `engine.fairness.verify` against the cards dealt.
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from baohuang.engine import preset_named
from baohuang.engine.fairness import verify
from baohuang.engine.replays import steps
from rooms.forms import PRESET_LABELS
from rooms.models import Hand, HandEvent, Player
from rooms.page_limits import read_limited
from rooms.selectors import record_visible
from django.utils.translation import gettext as _

from rooms.table_text import table_text


@read_limited
def hand_replay_page(request, hand_id: int):
    hand = get_object_or_404(Hand.objects.select_related("room"), pk=hand_id)
    if hand.running:
        raise Http404("a running hand cannot be replayed")
    if not record_visible(hand, request.user):
        raise PermissionDenied("only the hand's players may replay it")
    actions = list(HandEvent.objects.filter(hand=hand).order_by("version").values_list("action", flat=True))
    found = steps(hand.preset, hand.seed, actions, options=hand.options, tribute=tuple(hand.tribute),
                  salt=hand.salt or None)
    return render(request, "rooms/replay.html", {
        "hand": hand, "room": hand.room, "preset_label": PRESET_LABELS.get(hand.preset, hand.preset),
        "config": {"steps": found, "names": _names(hand), "preset": hand.preset,
                   "fair": _fairness(hand, found), "stored": hand.result,
                   "tableUrl": reverse("rooms:table", args=[hand.room_id])},
        "text": replay_text(),
    })


def replay_text() -> dict:
    """The table's words (card names, places, roles) and the replay page's own."""
    return {
        **table_text(),
        "replayTitle": _("Replay"), "replayToTable": _("Back to the table"), "replayControls": _("Replay controls"),
        "replayFirst": _("To the deal"), "replayBack": _("Step back"), "replayNext": _("Step forward"),
        "replayLast": _("To the end"), "replayPlay": _("Play back"), "replayPause": _("Pause"), "replaySpeed": _("Speed"),
        "replayJump": _("Jump to"), "replayRound": _("Round %(n)s"), "replayPosition": _("Step of the hand"),
        "replayStep": _("Step %(n)s of %(total)s"), "replayDeal": _("The deal"),
        "replayActions": {"call": _("calls"), "decline": _("passes the throne"), "accept": _("takes the throne"),
                          "seize": _("seizes the throne"), "declare": _("declares")},
        "fairTitle": _("Fair deal"), "fairCommitment": _("Commitment shown at the deal"),
        "fairSeed": _("Seed"), "fairSalt": _("Salt"),
        "fairOk": _("The seed and salt match the commitment."),
        "fairBad": _("The seed and salt do NOT match the commitment."),
        "fairDealOk": _("The seed deals exactly these cards."),
        "fairDealBad": _("The seed does NOT deal these cards."),
    }


def _names(hand: Hand) -> list[str]:
    players = {player.pk: str(player) for player in Player.objects.filter(pk__in=[pk for pk in hand.players if pk])}
    return [players.get(pk, "—") for pk in hand.players]


def _fairness(hand: Hand, found: list[dict]) -> dict | None:
    """The commitment shown at the deal, the seed and salt revealed at the end, whether they
    match (the page checks the SHA-256 again in the browser) and whether the seed deals the
    replay's first cards (qingdao: None, its tribute and 买3 move cards before bidding)."""
    shown = found[0]["view"].get("fair")
    if shown is None:
        return None  # dealt before commitments existed
    checked = verify(hand.preset, hand.seed, hand.salt, shown["commitment"])
    return {"commitment": shown["commitment"], "seed": str(hand.seed), "salt": hand.salt,
            "commitment_ok": checked["commitment_ok"],
            "deal_ok": (None if preset_named(hand.preset).tribute
                        else checked["dealt"] == found[0]["hands"])}
