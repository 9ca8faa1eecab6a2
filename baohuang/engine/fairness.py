"""Provably fair deals (公平发牌): a commitment to the seed at the deal, the seed at the end.

At the deal every seat and spectator is shown ``commitment(seed, salt)``, a SHA-256 of the
hand's seed and a random per-hand salt. Once the hand is over, the seed and the salt are
revealed; anyone can then check the commitment and deal the cards again from the seed
(`verify`, also ``python -m baohuang.engine verify``). The salt makes the commitment
impossible to invert by trying seeds. Until the hand is over neither is shown: `disclosure`
is the only place that decides what a view carries.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from functools import lru_cache

SALT_BYTES = 16


def new_salt() -> str:
    """A fresh per-hand salt: 32 hex digits."""
    return secrets.token_hex(SALT_BYTES)


@lru_cache(maxsize=4096)  # every view of a hand shows it: hash each live hand's once
def commitment(seed, salt: str) -> str:
    """SHA-256 (hex) of ``"<seed>:<salt>"`` — the seed in decimal, as the hand stores it."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def disclosure(state: dict) -> dict | None:
    """What a view shows of the deal's fairness now: the commitment; seed and salt once over.

    None for a hand dealt without a salt (hands stored before commitments existed).
    """
    salt = state.get("salt")
    if not salt:
        return None
    shown = {"commitment": commitment(state["seed"], salt)}
    if state["phase"] in ("ended", "void"):
        shown.update(seed=str(state["seed"]), salt=salt)
    return shown


def verify(preset: str, seed, salt: str, claimed: str) -> dict:
    """Check a revealed seed and salt against the commitment shown at the deal.

    Returns ``{"commitment_ok": bool, "commitment": the recomputed hex, "dealt": five
    lists of cards}`` — the cards as the shuffle dealt them, before anything changed hands
    (qingdao's tribute and 买3 come after the deal).
    """
    from .state import deal

    computed = commitment(seed, salt)
    return {"commitment_ok": hmac.compare_digest(computed, claimed.strip().lower()),
            "commitment": computed, "dealt": deal(preset, seed)}
