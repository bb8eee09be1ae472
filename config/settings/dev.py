"""Local development: debug pages, served on 127.0.0.1."""

from .base import *

DEBUG = True
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
