"""The REST views: thin reads that validate parameters, query, and serialize.

Every view states its number of queries; the counts are pinned in `api/tests/test_queries.py`.
"""

from api.views.hands import HandEventsView, HandRecordView, HandView
from api.views.leaderboard import LeaderboardView
from api.views.players import LedgerView, MeView, PlayerView, TokenView
from api.views.rooms import RoomHandsView, RoomListView, RoomView
from api.views.root import ApiRootView

__all__ = ["ApiRootView", "HandEventsView", "HandRecordView", "HandView", "LeaderboardView", "LedgerView",
           "MeView", "PlayerView", "RoomHandsView", "RoomListView", "RoomView", "TokenView"]
