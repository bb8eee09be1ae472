"""Root URLs: the health check, the admin and the language switcher unprefixed; every app
page under /<lang>/."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from django.views.i18n import set_language

from config.ops import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("i18n/setlang/", set_language, name="set_language"),
]

urlpatterns += i18n_patterns(
    path("", include("quiz.urls")),
    path("author/", include("scenarios.urls")),
    prefix_default_language=True,
)
