"""The pages people play on: the lobby, the table, a player's ledger and the leaderboard.

Views are thin: they validate a form, call one service, and render. Everything about a
running hand reaches the table page over the WebSocket protocol (docs/protocol.md); the
page itself carries only who is looking and the words it needs.
"""

import secrets
from collections import Counter

from django.contrib import messages
from django.contrib.auth import login
from django.db import transaction
from django.db.models import Count, Q, Sum
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from baohuang import limits
from baohuang.clients import request_address
from baohuang.errors import ServiceError
from rooms import quickstart, selectors
from rooms.forms import LEVEL_CHOICES, PRESET_LABELS, GuestForm, RoomForm
from rooms.levels import DEFAULT_BOT_LEVEL, playing_level
from rooms.models import SEATS, Player, Room, shown_name
from rooms.page_limits import read_limited
from rooms.room_info import replayable_hands, room_settings
from rooms.services import player_guest, room_create, seat_add_bot, seat_take
from rooms.table_text import refusal, table_text
from scoring import selectors as scoring_selectors
from scoring.leaderboard import ORDERS, PERIODS, board, period_start
from scoring.models import LedgerEntry

ROOMS_LISTED = 50
LEADERBOARD_ROWS = 50


def _next_url(request, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                       require_https=request.is_secure()):
        return target
    return fallback


# -- lobby -------------------------------------------------------------------------


def _listed_rooms() -> list[dict]:
    """The lobby's list: rooms waiting for players first (fullest first), then the rest;
    newest first within each. Dissolved rooms (closed, abandoned) are not listed."""
    rooms = (selectors.rooms_open()
             .annotate(taken=Count("seats", filter=Q(seats__player__isnull=False)),
                       ready=Count("seats", filter=Q(seats__player__isnull=False, seats__ready=True)))
             [:ROOMS_LISTED])
    bots = _bot_levels([room.pk for room in rooms])
    listed = [{"room": room, "free": 5 - room.taken, "preset_label": PRESET_LABELS.get(room.preset, room.preset),
               "bots": bots.get(room.pk, [])} for room in rooms]
    return sorted(listed, key=lambda item: (not (item["free"] and item["room"].status == Room.Status.OPEN),
                                            item["free"] or 5))


def _bot_levels(room_ids: list[int]) -> dict[int, list[dict]]:
    """Room → its seated bots by level (label and count, 入门 first), for the room list."""
    found = {}
    for room_id, level in selectors.bot_levels(room_ids):
        found.setdefault(room_id, Counter())[playing_level(level)] += 1
    labels = dict(LEVEL_CHOICES)
    return {room_id: [{"level": level, "label": labels[level], "count": counts[level]}
                      for level in labels if counts[level]] for room_id, counts in found.items()}


def lobby(request):
    """Pick a nickname or log in; create a room; list open rooms to join or watch."""
    return render(request, "rooms/lobby.html", {
        "guest_form": GuestForm(),
        "room_form": RoomForm(initial={"name": _default_room_name(request)}),
        "rooms": _listed_rooms(),
        "presets": list(PRESET_LABELS.items()),
        "levels": LEVEL_CHOICES, "default_level": DEFAULT_BOT_LEVEL,
    })


def lobby_rooms(request):
    """The lobby's room list alone, which the lobby page fetches every few seconds."""
    return render(request, "rooms/_room_list.html", {"rooms": _listed_rooms()})


def _default_room_name(request) -> str:
    if request.user.is_authenticated:
        return _("%(name)s's table") % {"name": request.user}
    return ""


def _too_many(request, limit: str):
    """The lobby with an error (429) when this client address is past `limit`, else None."""
    if not limits.over(limit, request_address(request)):
        return None
    messages.error(request, _("Too many at once from your address: wait a while and try again."))
    response = lobby(request)
    response.status_code = 429
    return response


@require_POST
def guest(request):
    """Become a guest player (游客) with a nickname, logged in for this browser."""
    form = GuestForm(request.POST)
    if form.is_valid() and (refused := _too_many(request, "guests")) is not None:
        return refused
    if form.is_valid():
        try:
            player = player_guest(nickname=form.cleaned_data["nickname"])
        except ServiceError as error:
            messages.error(request, refusal(error))
        else:
            login(request, player, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(_next_url(request, reverse("rooms:lobby")))
    else:
        messages.error(request, _("Choose a nickname of at most 20 characters."))
    return redirect("rooms:lobby")


@require_POST
def room_new(request):
    """Create a room with its preset and options, sit the creator down, seat any bots."""
    if not request.user.is_authenticated:
        messages.error(request, _("Pick a nickname or log in first."))
        return redirect("rooms:lobby")
    form = RoomForm(request.POST)
    if not form.is_valid():
        return render(request, "rooms/lobby.html", {
            "guest_form": GuestForm(), "room_form": form,
            "rooms": [],
        }, status=400)
    if (refused := _too_many(request, "rooms")) is not None:
        return refused
    try:
        with transaction.atomic():  # a creator who may not sit down leaves no empty room behind
            room = room_create(creator=request.user, name=form.cleaned_data["name"],
                               preset=form.cleaned_data["preset"], options=form.options())
            seat_take(room_id=room.pk, player=request.user)
            for _count in range(form.cleaned_data.get("bots") or 0):
                seat_add_bot(room_id=room.pk, by=request.user, level=form.cleaned_data["bot_level"])
    except ServiceError as error:
        messages.error(request, refusal(error))
        return redirect("rooms:lobby")
    return redirect("rooms:table", room_id=room.pk)


def _player_for(request) -> Player:
    """The signed-in player, or a new guest with a numbered nickname: one tap needs no form."""
    if request.user.is_authenticated:
        return request.user
    player = player_guest(nickname=_("Guest %(number)s") % {"number": secrets.randbelow(9000) + 1000})
    login(request, player, backend="django.contrib.auth.backends.ModelBackend")
    return player


@require_POST
def quick_start(request, mode: str):
    """快速开始: 和机器人打一局 (mode "bots": a dealt hand with four bots) or 找人打 (mode
    "match": the waiting table with the most people, or a new one) — `rooms.quickstart`."""
    preset = request.POST.get("preset")
    if preset not in PRESET_LABELS:
        messages.error(request, _("Choose the rules to play."))
        return redirect("rooms:lobby")
    # Counted as a new room (and a new guest) even when 找人打 finds a table: one tap may make both.
    if not request.user.is_authenticated and (refused := _too_many(request, "guests")) is not None:
        return refused
    if (refused := _too_many(request, "rooms")) is not None:
        return refused
    try:
        player = _player_for(request)
        name = _default_room_name(request)
        if mode == "bots":
            level = request.POST.get("level") or DEFAULT_BOT_LEVEL
            room_id = quickstart.quick_bots(player=player, preset=preset, name=name, level=level).room_id
        else:
            room_id = quickstart.quick_match(player=player, preset=preset, name=name).pk
    except ServiceError as error:
        messages.error(request, refusal(error))
        return redirect("rooms:lobby")
    return redirect("rooms:table", room_id=room_id)


def _seat_index(raw) -> int | None:
    """The seat a form names ("0"–"4"), or None for the lowest free one."""
    return int(raw) if raw in {str(index) for index in range(SEATS)} else None


@require_POST
def room_bot(request, room_id: int):
    """The room's creator fills an empty seat (the one named, else the lowest) with a bot
    of the level chosen (default 普通 normal)."""
    room = get_object_or_404(Room, pk=room_id)
    if not request.user.is_authenticated:
        raise Http404
    try:
        seat_add_bot(room_id=room.pk, by=request.user, index=_seat_index(request.POST.get("seat")),
                     level=request.POST.get("level") or DEFAULT_BOT_LEVEL)
    except ServiceError as error:
        messages.error(request, refusal(error))
    return redirect("rooms:table", room_id=room.pk)


# -- the table ---------------------------------------------------------------------


def table(request, room_id: int):
    """The live table: the page's script speaks the WebSocket protocol for everything."""
    room = get_object_or_404(Room, pk=room_id)
    player = request.user if request.user.is_authenticated else None
    seat = selectors.seat_of_player(room=room, player=player) if player else None
    if player is None and not room.options.get("allow_spectators", True):
        messages.error(request, _("This room does not allow spectators. Pick a nickname to sit down."))
        return redirect(f"{reverse('rooms:lobby')}?next={request.path}")
    config = {
        "room": room.pk,
        "preset": room.preset,
        "ws": f"/ws/rooms/{room.pk}/",
        "player": player.pk if player else None,
        "playerName": str(player) if player else None,
        "seat": seat.index if seat else None,
        "creator": room.creator_id,
        "allowBots": bool(room.options.get("allow_bots", True)),
        "botUrl": reverse("rooms:room_bot", args=[room.pk]),
        "lobbyUrl": reverse("rooms:lobby"),
        "playerUrl": reverse("rooms:player", args=[0]).replace("/0/", "/{id}/"),
        "publicRecords": bool(room.options.get("public_records", False)),
    }
    return render(request, "rooms/table.html", {
        "room": room,
        "preset_label": PRESET_LABELS.get(room.preset, room.preset),
        "config": config,
        "text": table_text(),
        "room_settings": room_settings(room),
        "room_hands": replayable_hands(room, request.user),
    })


def room_ledger(request, room_id: int):
    """The room's running ledger (points won or lost here, per player) for the score sheet.

    The WebSocket protocol carries each hand's scores but not the room's totals, so the
    table page reads them here after a hand ends. With ``?hand=<id>`` (a finished hand of
    the room) also that hand's other ledger lines (`scoring.selectors.hand_ledger_lines`:
    −40 for leaving, 进贡 turned into points), which the sheet lists on their own.
    """
    room = get_object_or_404(Room, pk=room_id)
    if not selectors.may_watch(room=room, user=request.user):
        return JsonResponse({"code": "spectators_not_allowed", "detail": _("This room does not allow spectators.")},
                            status=403)
    rows = (LedgerEntry.objects.filter(room=room)
            .values("player_id", "player__display_name", "player__username", "player__is_bot")
            .annotate(points=Sum("points"), hands=Count("id", filter=Q(kind=LedgerEntry.Kind.HAND_SCORE)))
            .order_by("-points", "player_id"))
    hand = room.hands.filter(pk=_int_or_none(request.GET.get("hand")), ended__isnull=False).first()
    return JsonResponse({"room": room.pk, "players": [
        {"id": row["player_id"], "points": row["points"], "hands": row["hands"],
         "name": shown_name(name=row["player__display_name"] or row["player__username"], bot=row["player__is_bot"])}
        for row in rows],
        "lines": scoring_selectors.hand_ledger_lines(hand=hand) if hand else []})


def _int_or_none(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() and len(text) < 12 else None


# -- players and the leaderboard ---------------------------------------------------


@read_limited
def player_page(request, player_id: int):
    """A player's public profile: totals, figures per preset and the chart of the running total.

    The ledger's entries (when, which room, notes — admins' notes among them) are private:
    only the player and staff see them, as `/api/players/<id>/ledger/` already decides.
    Deactivated players have no page.
    """
    player = get_object_or_404(Player.objects.filter(is_active=True), pk=player_id)
    entries = list(LedgerEntry.objects.filter(player=player).select_related("room", "hand")
                   .order_by("created", "id"))
    running, total = [], 0
    for entry in entries:
        total += entry.points
        running.append(total)
    context = {
        "profile": player,
        "total": total,
        "hands": sum(1 for entry in entries if entry.kind == LedgerEntry.Kind.HAND_SCORE),
        "by_preset": _figures_by_preset(entries, player),
        "chart": ledger_chart(running),
        "history": None,
        "last_hands": _last_hands(player, request.user),
    }
    if request.user.is_authenticated and (request.user.pk == player.pk or request.user.is_staff):
        kinds = ledger_kinds()
        history = [{"entry": entry, "total": after, "kind": kinds.get(entry.kind, entry.kind),
                    "detail": ledger_detail(entry)} for entry, after in zip(entries, running)]
        history.reverse()  # newest first in the table; the chart runs oldest to newest
        context["history"] = history[:200]
    return render(request, "rooms/player.html", context)


LAST_HANDS = 10


def _last_hands(player: Player, viewer) -> list[dict]:
    """The player's last scored hands whose replay `viewer` may watch (`selectors.record_visible`:
    the hand's players and staff, everyone for rooms with public records), newest first."""
    roles = _role_labels()
    rows = []
    entries = (LedgerEntry.objects.filter(player=player, kind=LedgerEntry.Kind.HAND_SCORE, hand__isnull=False)
               .select_related("hand__room").order_by("-id")[:4 * LAST_HANDS])
    for entry in entries:
        hand = entry.hand
        if len(rows) == LAST_HANDS or not hand.result or player.pk not in hand.players:
            continue
        if not selectors.record_visible(hand, viewer):
            continue
        seat = hand.players.index(player.pk)
        rows.append({"hand": hand, "points": entry.points, "preset_label": PRESET_LABELS.get(hand.preset, hand.preset),
                     "role": roles[scoring_selectors.role_in(hand.result, seat)],
                     "place": hand.result["places"].index(seat) + 1})
    return rows


def _role_labels() -> dict:
    return {"emperor": _("Emperor 皇帝"), "guard": _("Guard 保皇派"), "rebel": _("Rebel 造反派"), "solo": _("Solo 独")}


def _figures_by_preset(entries, player: Player) -> list[dict]:
    """Per preset, in the order of the room form's presets: points, hands and hands won;
    average place, points per hand and each role's hands and outcomes; the skill rating
    now and its chart (`scoring.selectors`)."""
    figures = {}
    for entry in entries:
        if not entry.preset:
            continue
        row = figures.setdefault(entry.preset, {"points": 0, "hands": 0, "wins": 0})
        row["points"] += entry.points
        if entry.kind == LedgerEntry.Kind.HAND_SCORE:
            row["hands"] += 1
            row["wins"] += bool(entry.won)
    stats = scoring_selectors.player_hand_stats(player=player)
    ratings = scoring_selectors.rating_history(player=player)
    roles = _role_labels()
    rows = []
    for preset, label in PRESET_LABELS.items():
        if preset not in figures:
            continue
        played = stats.get(preset, {})
        series = ratings.get(preset, [])
        rows.append({"preset": preset, "label": label, **figures[preset],
                     "average_place": played.get("average_place"), "points_per_hand": played.get("points_per_hand"),
                     "roles": [{"role": role, "label": roles[role], **counts}
                               for role, counts in played.get("roles", {}).items() if counts["hands"]],
                     "rating": round(series[-1], 1) if series else None,
                     "rating_chart": ledger_chart([round(value, 2) for value in series]) if series else None})
    return rows


def ledger_detail(entry: LedgerEntry) -> str:
    """The ledger line's detail in the page's language. The stored `note` of entries the
    server writes is English for the admin ("hand 1, seat 0"); only an administrator's
    adjustment shows its note (words a person wrote), the others the hand they belong to."""
    if entry.kind == LedgerEntry.Kind.ADJUSTMENT:
        return entry.note
    if entry.hand is not None:
        return _("Hand %(n)s") % {"n": entry.hand.number}
    return ""


def ledger_kinds() -> dict:
    return {LedgerEntry.Kind.HAND_SCORE: _("Hand score"),
            LedgerEntry.Kind.LEAVE_PENALTY: _("Left during a hand (强退)"),
            LedgerEntry.Kind.TRIBUTE_POINTS: _("Tribute 进贡 turned into points"),
            LedgerEntry.Kind.ADJUSTMENT: _("Adjustment")}


def ledger_chart(totals: list[int], *, width: int = 600, height: int = 180, pad: int = 24) -> dict | None:
    """An SVG polyline of the running total (0 is the dashed line); None with no entries."""
    if not totals:
        return None
    series = [0] + totals
    low, high = min(series), max(series)
    if low == high:
        low, high = low - 1, high + 1
    span_x = max(len(series) - 1, 1)

    def x(i):
        return round(pad + i * (width - 2 * pad) / span_x, 1)

    def y(v):
        return round(height - pad - (v - low) * (height - 2 * pad) / (high - low), 1)

    points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(series))
    return {"width": width, "height": height, "points": points, "zero": y(0),
            "low": low, "high": high, "last_x": x(len(series) - 1), "last_y": y(series[-1]),
            "left": pad, "right": width - pad}


@read_limited
def leaderboard(request):
    """Players ranked by points or by skill rating; hands played and won; bots are left off.

    The ranking is `scoring.leaderboard.board`, the same SQL aggregation the REST API serves.
    """
    preset = request.GET.get("preset") or ""
    if preset not in PRESET_LABELS:
        preset = ""
    period = request.GET.get("period") or "all"
    if period not in PERIODS:
        period = "all"
    order = request.GET.get("order") if request.GET.get("order") in ORDERS else "points"
    min_hands = request.GET.get("min_hands", "")
    min_hands = int(min_hands) if min_hands.isdigit() and len(min_hands) < 7 else 0
    standings, _ranked = board(since=period_start(period), preset=preset or None,
                               offset=0, limit=LEADERBOARD_ROWS, order=order, min_hands=min_hands)
    rows = [{"rank": s.rank, "player_id": s.player_id, "name": s.display_name,
             "points": s.points, "hands": s.hands, "wins": s.wins, "rating": s.rating,
             "rate": round(100 * s.win_rate) if s.hands else None} for s in standings]
    return render(request, "rooms/leaderboard.html", {
        "rows": rows, "preset": preset, "period": period, "order": order, "min_hands": min_hands,
        "presets": list(PRESET_LABELS.items()),
        "periods": [("all", _("All time")), ("30d", _("30 days")), ("7d", _("7 days")),
                    ("today", _("Today"))],
        "orders": [("points", _("Points")), ("rating", _("Skill rating"))],
    })

