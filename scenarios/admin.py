from django.contrib import admin
from django.http import HttpRequest

from scenarios.models import ProblemReport, Scenario, ScenarioVersion


class VersionInline(admin.TabularInline):
    model = ScenarioVersion
    fields = ("number", "content_hash", "created_by", "created_at", "published_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True


@admin.register(Scenario)
class ScenarioAdmin(admin.ModelAdmin):
    list_display = ("slug", "topic", "difficulty", "status", "current_version", "updated_at")
    list_filter = ("topic", "status", "difficulty")
    search_fields = ("slug",)
    readonly_fields = ("current_version", "created_at", "updated_at")
    inlines = [VersionInline]


@admin.register(ScenarioVersion)
class ScenarioVersionAdmin(admin.ModelAdmin):
    """Versions are written by the validation service only; here they are read."""

    list_display = ("scenario", "number", "published_at", "created_by", "created_at")
    list_filter = ("published_at",)
    search_fields = ("scenario__slug",)

    def has_add_permission(self, request: HttpRequest,  # noqa: ARG002
                           obj: ScenarioVersion | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest,  # noqa: ARG002
                              obj: ScenarioVersion | None = None) -> bool:
        return False


@admin.register(ProblemReport)
class ProblemReportAdmin(admin.ModelAdmin):
    """Reports are raised by candidates and answered on the authoring pages; here the
    stored context is read, never rewritten."""

    list_display = ("scenario", "question_id", "era", "kind", "correct", "user", "created_at",
                    "closed_at")
    list_filter = ("kind", "closed_at", "era")
    search_fields = ("scenario__slug", "question_id", "text", "reply")
    readonly_fields = ("scenario", "version", "question_id", "era", "seed", "params", "answer",
                       "correct", "language", "quiz_item", "user", "session_key", "kind", "text",
                       "created_at", "replied_by", "replied_at", "closed_by")

    def has_add_permission(self, request: HttpRequest,  # noqa: ARG002
                           obj: ProblemReport | None = None) -> bool:
        return False
