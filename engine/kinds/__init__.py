"""Action and query kinds, one small module each.

``base`` defines what a kind is (:class:`~engine.kinds.base.ActionSpec`,
:class:`~engine.kinds.base.QuerySpec`); ``actions/<kind>.py`` and ``queries/<kind>.py``
hold one kind each; ``actions/__init__.py`` and ``queries/__init__.py`` are the
registries that list them.
"""
