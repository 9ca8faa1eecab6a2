"""Page-number pagination: `?page=2&page_size=20` → `{count, next, previous, results}`."""

from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response


class Pages(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 100


class BoardPages(Pages):
    """Pages of a list that reports its own total with each page (the leaderboard).

    `fetch(offset, limit) -> (rows, total)` runs ONE query: the total comes from a window
    function over the same aggregate, so no second COUNT over the ledger is needed.
    """

    # Far beyond any board, and keeps OFFSET inside the database's integer range.
    last_page = 1_000_000

    def paginate_fetch(self, fetch, request) -> list:
        self.request = request
        size = self.get_page_size(request)
        raw = request.query_params.get(self.page_query_param, "1")
        try:
            number = int(raw)
        except ValueError:
            raise NotFound(self.invalid_page_message.format(page_number=raw, message="not a number")) from None
        if number < 1 or number > self.last_page:
            raise NotFound(self.invalid_page_message.format(page_number=raw, message="no such page"))
        rows, total = fetch((number - 1) * size, size)
        if not rows and number > 1:
            raise NotFound(self.invalid_page_message.format(page_number=raw, message="that page contains no results"))
        self.number, self.size, self.total = number, size, total
        return rows

    def get_paginated_response(self, data):
        return Response({
            "count": self.total,
            "next": self.get_next_link(),
            "previous": self.get_previous_link(),
            "results": data,
        })

    def get_next_link(self):
        if self.number * self.size >= self.total:
            return None
        return self._link(self.number + 1)

    def get_previous_link(self):
        return None if self.number == 1 else self._link(self.number - 1)

    def _link(self, number):
        from rest_framework.utils.urls import replace_query_param

        return replace_query_param(self.request.build_absolute_uri(), self.page_query_param, number)
