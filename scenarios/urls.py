from django.urls import path

from scenarios import catalogue_views, report_views, views

app_name = "scenarios"

urlpatterns = [
    path("", views.author_home, name="author_home"),
    path("new/", views.scenario_new, name="new"),
    path("new/form/", views.form_edit, name="form_new"),
    path("new/form/preview/", views.form_preview, name="form_new_preview"),
    path("preview/", views.preview, name="preview"),
    path("preview/gallery/", views.gallery, name="gallery"),
    path("import/", views.import_files, name="import"),
    path("export/", views.export_all, name="export_all"),
    path("recheck/", views.recheck, name="recheck"),
    path("reports/", report_views.reports, name="reports"),
    path("action-fields/", views.action_fields, name="action_fields"),
    path("cards/", catalogue_views.cards, name="cards"),
    path("schema.json", catalogue_views.schema_json, name="schema"),
    path("s/<slug:slug>/", views.scenario_edit, name="edit"),
    path("s/<slug:slug>/form/", views.form_edit, name="form"),
    path("s/<slug:slug>/form/preview/", views.form_preview, name="form_preview"),
    path("s/<slug:slug>/translate/", views.translate, name="translate"),
    path("s/<slug:slug>/publish/", views.publish, name="publish"),
    path("s/<slug:slug>/retire/", views.retire, name="retire"),
    path("s/<slug:slug>/versions/", views.versions, name="versions"),
    path("s/<slug:slug>/export/", views.export_one, name="export"),
]
