"""Production's URLs plus ``/bench/bare/``: the cheapest response Django can give through
the same server, settings and middleware, the unit the web bench measures pages in."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns


def bare(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [path("bench/bare/", bare), *site_urlpatterns]
