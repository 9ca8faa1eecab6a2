"""The points ledger and qingdao tribute debts (进贡) owed between hands."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from scoring import skill


class AppendOnly(ValueError):
    pass


class LedgerQuerySet(models.QuerySet):
    """Refuses bulk updates and deletes: a ledger only grows."""

    def update(self, **kwargs):
        raise AppendOnly("ledger entries are append-only")

    def delete(self):
        raise AppendOnly("ledger entries are append-only")


class LedgerEntry(models.Model):
    """One change of a player's points. A player's total is the sum of their entries."""

    class Kind(models.TextChoices):
        HAND_SCORE = "hand_score"
        LEAVE_PENALTY = "leave_penalty"  # −40 for leaving mid-hand or being kicked (RULES §8)
        TRIBUTE_POINTS = "tribute_points"  # an unpaid 进贡 card converted to one point
        ADJUSTMENT = "adjustment"  # an administrator's correction

    player = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="ledger")
    room = models.ForeignKey("rooms.Room", models.PROTECT, null=True, blank=True, related_name="ledger")
    hand = models.ForeignKey("rooms.Hand", models.PROTECT, null=True, blank=True, related_name="ledger")
    kind = models.CharField(max_length=20, choices=Kind.choices, db_index=True)
    points = models.IntegerField()
    note = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True,
                              related_name="ledger_adjustments", help_text="who made an adjustment")
    # Denormalised for the leaderboard, which aggregates the whole ledger and must not
    # join rooms and hands (nor read `Hand.result` JSON) for every entry.
    preset = models.CharField(max_length=24, blank=True, default="", help_text="the room's preset; empty without a room")
    won = models.BooleanField(
        null=True, blank=True, help_text="hand_score only: whether the player's side won the hand (None for other kinds)"
    )

    objects = LedgerQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name_plural = "ledger entries"
        indexes = [
            # A player's history, newest first (the REST ledger endpoint).
            models.Index(fields=["player", "-created", "-id"], name="ledger_player_newest"),
            # The leaderboard of a period (30 days, 7 days, today) reads only this index
            # (PostgreSQL: an index-only scan; elsewhere `include` is ignored).
            models.Index(fields=["created"], include=["player", "points", "kind", "won", "preset"],
                         name="ledger_period_board"),
        ]

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnly("ledger entries are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnly("ledger entries are append-only")

    def __str__(self) -> str:
        return f"{self.player} {self.points:+d} ({self.kind})"


class LedgerTotal(models.Model):
    """A player's running totals in one preset: the sums of their ledger entries.

    Kept by `scoring.services` in the same transaction as each entry it writes, so the
    all-time leaderboard reads ~one row per player and preset instead of the whole ledger.
    `preset` is empty for entries without a room (adjustments). `totals_rebuild()`
    recomputes every row from the ledger (after a bulk import, or to check).
    """

    player = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="ledger_totals")
    preset = models.CharField(max_length=24, blank=True, default="")
    points = models.BigIntegerField(default=0)
    hands = models.PositiveIntegerField(default=0, help_text="hand_score entries")
    wins = models.PositiveIntegerField(default=0, help_text="hand_score entries whose side won")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "preset"], name="ledger_total_per_player_preset")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.preset or 'no preset'}: {self.points:+d}"


class TributeDebt(models.Model):
    """进贡: cards a payer owes a receiver, from one qingdao hand to be paid after the next deal."""

    class Kind(models.TextChoices):
        HIGHEST = "highest"  # the payer's highest card(s)
        TWO = "two"  # a 2

    class Status(models.TextChoices):
        OPEN = "open"
        PAID = "paid"  # paid in cards after the deal of `paid_in`
        CONVERTED = "converted"  # payer or receiver left first: one point per card

    room = models.ForeignKey("rooms.Room", models.CASCADE, related_name="tribute_debts")
    hand = models.ForeignKey("rooms.Hand", models.CASCADE, related_name="debts_created", help_text="the hand it came from")
    payer = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="debts_owed")
    receiver = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="debts_due")
    payer_seat = models.PositiveSmallIntegerField()
    receiver_seat = models.PositiveSmallIntegerField()
    cards = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    paid_in = models.ForeignKey(
        "rooms.Hand", models.SET_NULL, null=True, blank=True, related_name="debts_paid", help_text="the hand whose deal paid it"
    )
    created = models.DateTimeField(auto_now_add=True)
    settled = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["room", "created", "id"]
        constraints = [models.CheckConstraint(condition=Q(cards__gt=0), name="debt_has_cards")]

    def as_engine_debt(self, seat_of: dict[int, int]) -> dict:
        """The engine's debt dict, with seats taken from `seat_of` (player id → seat now)."""
        return {"from": seat_of[self.payer_id], "to": seat_of[self.receiver_id], "cards": self.cards, "kind": self.kind}

    def __str__(self) -> str:
        return f"{self.payer} owes {self.receiver} {self.cards} ({self.kind}, {self.status})"


class RatingChange(models.Model):
    """Append-only: how one rated hand moved one player's skill rating (`scoring.skill`).

    The rows of a (player, preset), in id order, are that rating's history; the last one is
    the rating now (`Rating` keeps a copy for the leaderboard).
    """

    hand = models.ForeignKey("rooms.Hand", models.PROTECT, related_name="rating_changes")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="rating_changes")
    preset = models.CharField(max_length=24)
    seat = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    created = models.DateTimeField(auto_now_add=True)

    objects = LedgerQuerySet.as_manager()

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["hand", "player"], name="rating_change_once_per_hand")]
        indexes = [models.Index(fields=["player", "preset", "id"], name="rating_history")]

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnly("rating changes are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnly("rating changes are append-only")

    @property
    def ordinal(self) -> float:
        return skill.Skill(self.mu, self.sigma).ordinal

    def __str__(self) -> str:
        return f"{self.player_id} {self.preset} hand {self.hand_id}: {self.mu_before:.2f} → {self.mu:.2f}"


class Rating(models.Model):
    """A player's skill rating in one preset now: a copy of their last `RatingChange`.

    `ordinal` (μ − 3σ, what is shown and ranked) is stored so the board sorts on an index.
    """

    player = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="ratings")
    preset = models.CharField(max_length=24)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    hands = models.PositiveIntegerField(default=0, help_text="rated hands")
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "preset"], name="rating_per_player_preset")]
        indexes = [models.Index(fields=["preset", "-ordinal"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.preset}: {self.ordinal:.1f}"
