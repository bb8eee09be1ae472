"""Settings: ``base`` holds everything common; ``dev``, ``test`` and ``prod`` override it."""
