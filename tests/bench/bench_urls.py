"""Production's URLs plus two reference views for the web bench, through the same server,
settings and middleware:

- ``/bench/bare/``: the cheapest response Django can give, the unit the web bench
  measures pages in;
- ``/bench/floor/<the answer's path>``: the least any answer must do, with no rules in it:
  read the browser's session, run the query that finds the question it owns (the answer's
  own, ``quiz.selectors.owned_item``), write one row in a transaction of its own, and
  render a small template with the site's context processors. The answer's cost over this
  floor is what grading, explaining and drawing the feedback add."""

from typing import Any

from django.db import connection, transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.template import engines
from django.urls import path
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from config.urls import urlpatterns as site_urlpatterns
from quiz.selectors import owned_item

_FLOOR = engines["django"].from_string(
    '<div id="answer-area" class="alert" role="status">{{ item.position }} · '
    '{{ item.question_id }}</div>')
_WRITE = ("INSERT INTO quiz_throttlewindow (name, period, hits, ends) VALUES (%s, 0, 1, 0) "
          "ON CONFLICT (name) DO UPDATE SET hits = quiz_throttlewindow.hits + 1")


def bare(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"ok", content_type="text/plain")


@never_cache
@require_POST
def floor(request: HttpRequest, session_id: Any, position: int) -> HttpResponse:
    if request.user.is_authenticated:
        item = owned_item(session_id=session_id, position=position, user_id=request.user.pk)
    else:
        item = owned_item(session_id=session_id, position=position,
                          session_key=request.session.session_key)
    if item is None:
        raise Http404
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_WRITE, [f"bench-floor:{item.pk}"])
    return HttpResponse(_FLOOR.render({"item": item}, request))


urlpatterns = [
    path("bench/bare/", bare),
    path("bench/floor/<str:language>/quiz/<uuid:session_id>/q/<int:position>/",
         lambda request, language, **kwargs: floor(request, **kwargs)),
    *site_urlpatterns,
]
