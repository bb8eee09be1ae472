from django.contrib import admin
from django.http import HttpRequest

from quiz.models import Attempt, QuizSession, ReviewCard


@admin.register(QuizSession)
class QuizSessionAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "mode", "era_mode", "length", "created_at", "finished_at")
    list_filter = ("mode", "era_mode")
    search_fields = ("user__username",)


@admin.register(Attempt)
class AttemptAdmin(admin.ModelAdmin):
    """Attempts are graded by the engine: read-only here."""

    list_display = ("version", "question_id", "era", "user", "correct", "created_at")
    list_filter = ("correct", "era")
    search_fields = ("user__username", "version__scenario__slug")

    def has_add_permission(self, request: HttpRequest) -> bool:  # noqa: ARG002
        return False

    def has_change_permission(self, request: HttpRequest,  # noqa: ARG002
                              obj: Attempt | None = None) -> bool:
        return False


@admin.register(ReviewCard)
class ReviewCardAdmin(admin.ModelAdmin):
    list_display = ("user", "scenario", "question_id", "due", "reviews", "lapses")
    search_fields = ("user__username", "scenario__slug")
