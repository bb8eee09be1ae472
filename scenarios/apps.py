from django.apps import AppConfig
from django.core.signals import setting_changed
from django.utils.translation import gettext_lazy as _


class ScenariosConfig(AppConfig):
    name = "scenarios"
    verbose_name = _("Scenarios")

    def ready(self) -> None:
        """The engine accepts texts in the languages the site offers (``LANGUAGES``): a
        seventh language is a line in the settings (README, "Common changes")."""
        configure_engine_languages()
        setting_changed.connect(_languages_changed)


def configure_engine_languages() -> None:
    from django.conf import settings

    from engine import configure_languages

    configure_languages(code for code, _name in settings.LANGUAGES)


def _languages_changed(*, setting: str, **kwargs: object) -> None:
    if setting == "LANGUAGES":  # a test's override_settings: the engine follows
        from scenarios import caches

        configure_engine_languages()
        caches.clear()  # the navigation bar and the pages kept per language
