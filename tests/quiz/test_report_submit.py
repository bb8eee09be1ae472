"""A candidate reports a problem from a question's feedback: only on their own answered
item, only once its feedback is shown (after hand-in in a mock exam), throttled, escaped,
with the attempt's context stored, and with the instructor's reply shown back to them
alone."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase as HypothesisTestCase

from quiz.models import Attempt, QuizItem
from scenarios.models import ProblemReport
from scenarios.reports import report_close, report_reply
from tests.factories import AdminFactory, InstructorFactory, ScenarioFactory, UserFactory
from tests.quiz.test_quiz import RIGHT, WRONG, all_kinds_document, post_answer, start

pytestmark = pytest.mark.django_db
FUZZ = hypothesis_settings(max_examples=30, deadline=None,
                           suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture
def library():
    return ScenarioFactory(slug="all-kinds", document=all_kinds_document())


def report_url(item: QuizItem) -> str:
    return reverse("quiz:report", args=[item.session_id, item.position])


def item_url(item: QuizItem) -> str:
    return reverse("quiz:item", args=[item.session_id, item.position])


def answered(client: Client, qid: str = "num", data: dict | None = None, **start_data
             ) -> QuizItem:
    session = start(client, **start_data)
    item = session.items.get(question_id=qid)
    post_answer(client, item, data or WRONG[qid])
    return item


def signed_in(user=None) -> Client:
    client = Client()
    client.force_login(user or UserFactory())
    return client


def test_a_report_keeps_the_attempts_context(library) -> None:
    user = UserFactory()
    client = signed_in(user)
    item = answered(client, "mu")
    response = client.post(report_url(item), {"kind": "answer", "text": "B holds too."})
    assert response.status_code == 303 and response["Location"] == item_url(item)
    attempt = Attempt.objects.get(item=item)
    report = ProblemReport.objects.get()
    stored = (report.version_id, report.question_id, report.era, report.seed, report.params,
              report.answer, report.correct)
    assert stored == (attempt.version_id, attempt.question_id, attempt.era, attempt.seed,
                      attempt.params, attempt.answer, attempt.correct)
    assert report.params == {"l": item.params["l"]} and report.correct is False
    assert (report.scenario, report.user, report.session_key) == (library, user, "")
    assert (report.quiz_item, report.kind, report.text) == (item.pk, "answer", "B holds too.")
    assert report.language == "en" and report.is_open
    page = client.get(item_url(item)).content.decode()
    assert "Thank you: an instructor will read your report." in page
    assert "B holds too." in page and "Your reports on this question" in page


def test_an_anonymous_report_keeps_the_browser_session(client: Client, library) -> None:
    item = answered(client, "num", RIGHT["num"])
    assert client.post(report_url(item), {"kind": "unclear"}).status_code == 303
    report = ProblemReport.objects.get()
    assert report.user is None and report.session_key == client.session.session_key
    assert report.correct is True and report.answer == 4 and report.text == ""


def test_the_feedback_offers_the_form_and_htmx_swaps_in_a_thank_you(library) -> None:
    client = signed_in()
    item = answered(client)
    page = client.get(item_url(item)).content.decode()
    assert "<summary>Report a problem with this question</summary>" in page
    assert f'hx-post="{report_url(item)}"' in page and 'hx-target="#problem-report"' in page
    response = client.post(report_url(item), {"kind": "translation", "text": "typo"},
                           HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert html.lstrip().startswith('<section id="problem-report"')
    assert "Thank you" in html and "A translation is wrong" in html
    assert "<summary>" not in html  # one open report at a time: no form until it is closed
    assert ProblemReport.objects.count() == 1


def test_no_report_before_the_answer_is_submitted(library) -> None:
    client = signed_in()
    session = start(client)
    item = session.items.get(question_id="num")
    page = client.get(item_url(item)).content.decode()
    assert "Report a problem" not in page
    response = client.post(report_url(item), {"kind": "answer"})
    assert response.status_code == 409 and not ProblemReport.objects.exists()


def test_no_report_while_the_exam_runs_and_one_after_hand_in(library) -> None:
    client = signed_in()
    exam = start(client, mode="exam")
    item = exam.items.get(position=1)
    qid = item.question_id
    post_answer(client, item, WRONG[qid])
    assert Attempt.objects.filter(item=item).exists()
    assert "Report a problem" not in client.get(item_url(item)).content.decode()
    for extra in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = client.post(report_url(item), {"kind": "answer"}, **extra)
        assert response.status_code == 409
    assert not ProblemReport.objects.exists()
    client.post(reverse("quiz:finish", args=[exam.pk]))
    assert "Report a problem" in client.get(item_url(item)).content.decode()
    assert client.post(report_url(item), {"kind": "answer"}).status_code == 303
    assert ProblemReport.objects.get().quiz_item == item.pk


def test_a_practice_report_is_refused_while_an_exam_runs(library) -> None:
    client = signed_in()
    item = answered(client)
    start(client, mode="exam")
    response = client.post(report_url(item), {"kind": "answer"})
    assert response.status_code == 403 and not ProblemReport.objects.exists()


VISITORS = ("anonymous", "candidate2", "instructor1", "instructor2", "admin")


@pytest.mark.parametrize("visitor", VISITORS)
def test_only_the_owner_can_report_on_an_item(library, visitor: str) -> None:
    owner = signed_in()
    item = answered(owner)
    users = {"anonymous": None, "candidate2": UserFactory(), "instructor1": InstructorFactory(),
             "instructor2": InstructorFactory(), "admin": AdminFactory()}
    client = Client() if users[visitor] is None else signed_in(users[visitor])
    for extra in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = client.post(report_url(item), {"kind": "answer", "text": "x"}, **extra)
        assert response.status_code == 404
    assert not ProblemReport.objects.exists()
    assert client.get(item_url(item)).status_code == 404


def test_a_candidate_never_sees_another_candidates_report(library) -> None:
    first, second = signed_in(), signed_in()
    mine = answered(first)
    first.post(report_url(mine), {"kind": "other", "text": "first candidate's secret"})
    theirs = answered(second)
    page = second.get(item_url(theirs)).content.decode()
    assert "first candidate&#x27;s secret" not in page and "Your reports" not in page
    assert "Report a problem with this question" in page
    assert "first candidate&#x27;s secret" in first.get(item_url(mine)).content.decode()


def test_reports_are_throttled_per_client(library, settings) -> None:
    settings.QUIZ_REPORT_RATE = (2, 600)
    client = signed_in()
    session = start(client)
    items = [session.items.get(question_id=q) for q in ("num", "yn", "ch")]
    for item in items:
        post_answer(client, item, WRONG[item.question_id])
    statuses = [client.post(report_url(i), {"kind": "answer"}).status_code for i in items]
    assert statuses == [303, 303, 429]
    assert ProblemReport.objects.count() == 2
    htmx = client.post(report_url(items[2]), {"kind": "answer"}, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 200 and "Too many reports" in htmx.content.decode()
    assert ProblemReport.objects.count() == 2


def test_the_default_throttle_allows_five_reports_in_ten_minutes() -> None:
    assert getattr(settings, "QUIZ_REPORT_RATE", (5, 600)) == (5, 600)


def test_one_open_report_per_item_and_another_once_it_is_closed(library) -> None:
    client = signed_in()
    item = answered(client)
    client.post(report_url(item), {"kind": "answer"})
    again = client.post(report_url(item), {"kind": "other", "text": "more"})
    assert again.status_code == 200
    assert "already have an open report" in again.content.decode()
    assert ProblemReport.objects.count() == 1
    report_close(report=ProblemReport.objects.get(), by=InstructorFactory())
    assert client.post(report_url(item), {"kind": "other"}).status_code == 303
    assert ProblemReport.objects.count() == 2 and ProblemReport.objects.open().count() == 1


def test_an_invalid_report_comes_back_with_its_errors(library) -> None:
    client = signed_in()
    item = answered(client)
    page = client.post(report_url(item), {"kind": "praise", "text": "x" * 2001})
    html = page.content.decode()
    assert page.status_code == 200 and '<main id="main"' in html
    assert '<details class="report-disclosure" open>' in html
    assert "Select a valid choice" in html and "at most 2000 characters" in html
    partial = client.post(report_url(item), {"text": "x"}, HTTP_HX_REQUEST="true")
    assert partial.status_code == 200 and "This field is required" in partial.content.decode()
    assert not ProblemReport.objects.exists()


def test_a_report_needs_the_csrf_token(csrf_client: Client, library) -> None:
    user = UserFactory()
    item = answered(signed_in(user))
    csrf_client.force_login(user)
    csrf_client.get(item_url(item))  # the page sets the CSRF cookie its form needs
    response = csrf_client.post(report_url(item), {"kind": "answer"})
    assert response.status_code == 403 and not ProblemReport.objects.exists()
    token = csrf_client.cookies[settings.CSRF_COOKIE_NAME].value
    response = csrf_client.post(report_url(item), {"kind": "answer",
                                                   "csrfmiddlewaretoken": token})
    assert response.status_code == 303 and ProblemReport.objects.count() == 1


def test_the_candidate_sees_the_reply_escaped_under_the_question(library) -> None:
    client = signed_in()
    item = answered(client)
    client.post(report_url(item), {"kind": "unclear", "text": "<script>alert(1)</script>"})
    report_reply(report=ProblemReport.objects.get(), by=InstructorFactory(),
                 reply="<b>Fixed</b> in v2")
    html = client.get(item_url(item)).content.decode()
    assert "&lt;b&gt;Fixed&lt;/b&gt; in v2" in html and "<b>Fixed</b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>alert" not in html
    assert "An instructor's reply:" in html


def test_report_get_is_refused(library) -> None:
    client = signed_in()
    item = answered(client)
    assert client.get(report_url(item)).status_code == 405


class ReportFormFuzzTest(HypothesisTestCase):
    """No report input, however strange, makes the report answer 500."""

    def setUp(self) -> None:
        ScenarioFactory(slug="all-kinds", document=all_kinds_document())
        self.browser = signed_in()
        self.item = answered(self.browser)

    @FUZZ
    @given(kind=st.one_of(st.sampled_from(["answer", "other"]), st.text(max_size=20)),
           text=st.text(max_size=300), htmx=st.booleans())
    def test_a_report_never_fails_with_a_server_error(self, kind, text, htmx):
        with override_settings(QUIZ_REPORT_RATE=(10_000, 600)):
            extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
            response = self.browser.post(report_url(self.item), {"kind": kind, "text": text},
                                         **extra)
        assert response.status_code in {200, 303}
