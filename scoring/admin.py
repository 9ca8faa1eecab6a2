"""Admin for the ledger (read-only; adjustments are new entries), tribute debts and ratings."""

from django import forms
from django.contrib import admin

from baohuang.admin_base import AppendOnlyAdmin, ReadOnlyAdmin
from scoring import services
from scoring.models import LedgerEntry, Rating, RatingChange, TributeDebt


class AdjustmentForm(forms.ModelForm):
    """The service's checks, run as form validation so the admin shows them on the form."""

    note = forms.CharField(max_length=150, help_text="Why the points change (kept in the ledger).")

    class Meta:
        model = LedgerEntry
        fields = ("player", "room", "points", "note")

    def clean_points(self):
        if self.cleaned_data["points"] == 0:
            raise forms.ValidationError("An adjustment must change the points.")
        return self.cleaned_data["points"]


@admin.register(LedgerEntry)
class LedgerEntryAdmin(AppendOnlyAdmin):
    """Entries are never edited or deleted; "add" writes an `adjustment` through the service."""

    list_display = ("created", "player", "kind", "points", "room", "hand", "note", "staff")
    list_filter = ("kind", "created")
    search_fields = ("player__username", "player__display_name", "room__name", "note")
    list_select_related = ("player", "room", "hand", "staff")
    date_hierarchy = "created"
    form = AdjustmentForm
    add_fields = AdjustmentForm.Meta.fields
    shown_fields = ("player", "room", "hand", "kind", "points", "note", "staff", "created")

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        entry = services.ledger_adjust(
            player=data["player"], points=data["points"], room=data.get("room"), note=data["note"], staff=request.user,
        )
        obj.pk = entry.pk
        obj._state.adding = False


@admin.register(TributeDebt)
class TributeDebtAdmin(ReadOnlyAdmin):
    list_display = ("id", "room", "hand", "payer", "receiver", "cards", "kind", "status", "paid_in", "settled")
    list_filter = ("status", "kind")
    search_fields = ("room__name", "payer__username", "payer__display_name", "receiver__username", "receiver__display_name")
    list_select_related = ("room", "hand", "payer", "receiver", "paid_in")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    """Each rated hand's move of each seat's skill rating (scoring.skill); never edited."""

    list_display = ("id", "created", "player", "preset", "hand", "seat", "mu_before", "mu", "sigma")
    list_filter = ("preset",)
    search_fields = ("player__username", "player__display_name")
    list_select_related = ("player", "hand")


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("player", "preset", "ordinal", "mu", "sigma", "hands", "updated")
    list_filter = ("preset",)
    search_fields = ("player__username", "player__display_name")
    list_select_related = ("player",)
