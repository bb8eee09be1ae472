"""The quiz's tables in Django's admin. The attempts list is the one that grows (a million
rows at 100x data): no query per row, a bounded count, filters without a scan of the
table, and a search that goes through an index (a username or a scenario's slug)."""

from __future__ import annotations

from typing import Any, cast

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from engine import ERA_KEYS
from quiz.models import Attempt, QuizSession, ReviewCard
from scenarios.models import ScenarioVersion


class CappedCountPaginator(Paginator):
    """Counts no further than ``CAP`` rows (one ``COUNT`` over at most that many), so a
    page costs the same however many rows match: past the cap, the list offers the
    first ``CAP`` rows' pages (narrow it with the filters or the search)."""

    CAP = 10_000

    @cached_property
    def count(self) -> int:
        rows = cast("QuerySet[Any]", self.object_list)
        return rows.order_by().values("pk")[: self.CAP].count()


class EraFilter(admin.SimpleListFilter):
    """The eras, from the engine's list: the default filter would read every row's era
    (SELECT DISTINCT over the whole table) to offer them."""

    title = _("Era")
    parameter_name = "era"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:  # noqa: ARG002
        return [(key, key) for key in ERA_KEYS]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:  # noqa: ARG002
        return queryset.filter(era=self.value()) if self.value() else queryset


@admin.register(QuizSession)
class QuizSessionAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "mode", "era_mode", "length", "created_at", "finished_at")
    list_filter = ("mode", "era_mode")
    list_select_related = ("user",)
    raw_id_fields = ("user",)
    search_fields = ("user__username",)
    paginator = CappedCountPaginator
    show_full_result_count = False


@admin.register(Attempt)
class AttemptAdmin(admin.ModelAdmin):
    """Attempts are graded by the engine: read-only here."""

    list_display = ("version", "question_id", "era", "user", "correct", "created_at")
    list_filter = ("correct", EraFilter)
    raw_id_fields = ("item", "user", "version")
    search_fields = ("user__username",)  # the search box; the search itself is below
    search_help_text = _("A candidate's username (exactly, or how it begins), or a "
                         "scenario's slug (exactly).")
    paginator = CappedCountPaginator
    show_full_result_count = False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Attempt]:
        # the version's number and its scenario's slug, not its (large) documents
        return (super().get_queryset(request).select_related("version__scenario", "user")
                .only("question_id", "era", "correct", "created_at", "user__username",
                      "version__number", "version__scenario__slug"))

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Attempt],
                           search_term: str) -> tuple[QuerySet[Attempt], bool]:
        """A scenario's slug (its versions' attempts, newest first on an index), else the
        candidates whose username is or begins with the term (at most 50 of them, each
        one's attempts newest first on an index). No join is searched row by row."""
        term = search_term.strip()
        if not term:
            return queryset, False
        versions = list(ScenarioVersion.objects.filter(scenario__slug=term)
                        .values_list("pk", flat=True))
        if versions:
            return queryset.filter(version__in=versions), False
        users = get_user_model().objects
        exact = list(users.filter(username=term).values_list("pk", flat=True))
        ids = exact or list(users.filter(username__istartswith=term)
                            .order_by("username").values_list("pk", flat=True)[:50])
        return queryset.filter(user__in=ids), False

    def has_add_permission(self, request: HttpRequest) -> bool:  # noqa: ARG002
        return False

    def has_change_permission(self, request: HttpRequest,  # noqa: ARG002
                              obj: Attempt | None = None) -> bool:
        return False


@admin.register(ReviewCard)
class ReviewCardAdmin(admin.ModelAdmin):
    list_display = ("user", "scenario", "question_id", "due", "reviews", "lapses")
    list_select_related = ("user", "scenario")
    raw_id_fields = ("user", "scenario")
    search_fields = ("user__username", "scenario__slug")
    paginator = CappedCountPaginator
    show_full_result_count = False
