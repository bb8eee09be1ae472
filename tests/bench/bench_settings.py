"""The web bench's settings: production's, unchanged, with a URLconf that adds one bare
view (``tests.bench.bench_urls``). Never used outside the bench: production's URLconf
has no such page."""

from config.settings.prod import *  # noqa: F403

ROOT_URLCONF = "tests.bench.bench_urls"
