"""Page-numbered lists: 50 a page by default, ``?page_size=`` up to 500."""

from __future__ import annotations

from typing import Any

from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

from tournaments.params import BIGINT_MAX, positive_int


class Pagination(PageNumberPagination):
    """DRF's page numbers, except that a ``page`` or ``page_size`` that is not a whole number
    of at least 1 is answered 400 (DRF would quietly use the default size, or answer 404).
    A page past the last is still 404."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500

    def get_page_size(self, request: Request) -> int:
        size = positive_int(request.query_params, self.page_size_query_param)
        return self.page_size if size is None else min(size, self.max_page_size)

    def paginate_queryset(self, queryset: Any, request: Request,
                          view: Any = None) -> list[Any] | None:
        if request.query_params.get(self.page_query_param) not in self.last_page_strings:
            positive_int(request.query_params, self.page_query_param)
        return super().paginate_queryset(queryset, request, view)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": BIGINT_MAX}
        return parameters
