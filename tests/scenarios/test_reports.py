"""Problem reports for instructors: the list (open, closed, all; one scenario or every
one), reply, close and reopen, the open count on the scenario list, escaping, and the
services' rules (one open report per quiz item)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase as HypothesisTestCase

from scenarios.models import ProblemReport, Scenario
from scenarios.reports import (
    ReportRefused,
    ReportSource,
    report_close,
    report_create,
    report_reopen,
    report_reply,
)
from tests.factories import AdminFactory, InstructorFactory, ScenarioFactory, UserFactory

pytestmark = pytest.mark.django_db

LIST = reverse("scenarios:reports")
FUZZ = hypothesis_settings(max_examples=30, deadline=None,
                           suppress_health_check=[HealthCheck.too_slow])


def raise_report(scenario: Scenario, *, quiz_item: int, user=None, kind: str = "answer",
                 text: str = "", session_key: str = "") -> ProblemReport:
    version = scenario.current_version
    source = ReportSource(version_id=version.pk, question_id="life", era="fdn-2024", seed=0,
                          correct=False, quiz_item=quiz_item, params={}, answer=17)
    return report_create(source=source, user=user, session_key=session_key, language="it",
                         kind=kind, text=text)


def instructor_client(user=None) -> Client:
    client = Client()
    client.force_login(user or InstructorFactory())
    return client


@pytest.fixture
def two_reports():
    """Two candidates' reports on two scenarios."""
    first, second = ScenarioFactory(slug="first"), ScenarioFactory(slug="second")
    a = raise_report(first, quiz_item=1, user=UserFactory(), text="report of candidate A")
    b = raise_report(second, quiz_item=2, user=UserFactory(), text="report of candidate B")
    return a, b


@pytest.mark.parametrize("role,expected", [("anonymous", 302), ("candidate", 403),
                                           ("instructor1", 200), ("instructor2", 200),
                                           ("admin", 200)])
def test_the_report_list_is_for_instructors_who_see_every_report(two_reports, role: str,
                                                                 expected: int) -> None:
    users = {"anonymous": None, "candidate": two_reports[0].user,
             "instructor1": InstructorFactory(), "instructor2": InstructorFactory(),
             "admin": AdminFactory()}
    client = Client()
    if users[role] is not None:
        client.force_login(users[role])
    response = client.get(LIST)
    assert response.status_code == expected
    posted = client.post(LIST, {"report": two_reports[0].pk, "action": "close"})
    html = response.content.decode()
    if expected == 200:
        assert "report of candidate A" in html and "report of candidate B" in html
        assert posted.status_code == 303
    else:
        assert "report of candidate" not in html
        assert posted.status_code == expected
        assert ProblemReport.objects.open().count() == 2


def test_a_report_shows_its_stored_context(two_reports) -> None:
    html = instructor_client().get(LIST).content.decode()
    report = two_reports[0]
    assert f'id="report-{report.pk}"' in html
    assert "The answer is wrong" in html and "graded wrong" in html
    assert "<code>17</code>" in html and "seed 0" in html and "<code>life</code>" in html
    assert "Foundations" in html  # the era's name
    assert report.user.username in html and "v1" in html


def test_report_text_stays_text_in_the_list(two_reports) -> None:
    scenario = two_reports[0].scenario
    raise_report(scenario, quiz_item=9, text='<script>alert("x")</script><b>bold</b>')
    html = instructor_client().get(LIST).content.decode()
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt;" in html
    assert "<script>alert" not in html and "<b>bold</b>" not in html
    assert "an anonymous visitor" in html


def test_the_list_filters_by_state_and_scenario(two_reports) -> None:
    a, b = two_reports
    report_close(report=b, by=InstructorFactory())
    client = instructor_client()
    open_ = client.get(LIST).content.decode()
    assert a.text in open_ and b.text not in open_
    closed = client.get(LIST + "?status=closed").content.decode()
    assert a.text not in closed and b.text in closed
    every = client.get(LIST + "?status=all").content.decode()
    assert a.text in every and b.text in every
    one = client.get(LIST + "?status=all&scenario=second").content.decode()
    assert a.text not in one and b.text in one
    odd = client.get(LIST + "?status=nonsense&scenario=%3Cx%3E")
    assert odd.status_code == 200 and a.text in odd.content.decode()


def test_reply_close_and_reopen_without_javascript(two_reports) -> None:
    report = two_reports[0]
    teacher = InstructorFactory()
    client = instructor_client(teacher)
    url = LIST + "?status=all"
    response = client.post(url, {"report": report.pk, "action": "reply",
                                 "reply": "Thanks, fixed."})
    assert response.status_code == 303 and response["Location"] == url
    report.refresh_from_db()
    assert (report.reply, report.replied_by, report.is_open) == ("Thanks, fixed.", teacher,
                                                                 True)
    client.post(url, {"report": report.pk, "action": "close", "reply": ""})
    report.refresh_from_db()
    assert not report.is_open and report.closed_by == teacher
    assert report.reply == "Thanks, fixed."  # closing without a reply keeps the last one
    client.post(url, {"report": report.pk, "action": "reopen"})
    report.refresh_from_db()
    assert report.is_open and report.closed_by is None


def test_an_htmx_action_swaps_in_the_reports_card(two_reports) -> None:
    report = two_reports[0]
    response = instructor_client().post(
        LIST, {"report": report.pk, "action": "close", "reply": "<i>Done</i>"},
        HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert html.lstrip().startswith(f'<article id="report-{report.pk}"')
    assert "The report is closed." in html and "Reopen" in html
    assert "&lt;i&gt;Done&lt;/i&gt;" in html and "<i>Done</i>" not in html
    report.refresh_from_db()
    assert report.reply == "<i>Done</i>" and not report.is_open


def test_an_empty_reply_is_refused_with_its_error(two_reports) -> None:
    report = two_reports[0]
    client = instructor_client()
    page = client.post(LIST, {"report": report.pk, "action": "reply", "reply": "  "})
    assert page.status_code == 200 and "Write the reply to send." in page.content.decode()
    card = client.post(LIST, {"report": report.pk, "action": "reply", "reply": ""},
                       HTTP_HX_REQUEST="true")
    assert card.status_code == 200 and "Write the reply to send." in card.content.decode()
    assert client.post(LIST, {"report": 999999, "action": "close"}).status_code == 404
    too_long = client.post(LIST, {"report": report.pk, "action": "reply",
                                  "reply": "x" * 4001})
    assert "at most 4000 characters" in too_long.content.decode()
    report.refresh_from_db()
    assert report.reply == "" and report.replied_at is None and report.is_open


def test_instructor_actions_need_the_csrf_token(csrf_client: Client, two_reports) -> None:
    report = two_reports[0]
    csrf_client.force_login(InstructorFactory())
    response = csrf_client.post(LIST, {"report": report.pk, "action": "close"})
    assert response.status_code == 403
    report.refresh_from_db()
    assert report.is_open
    csrf_client.get(LIST)
    token = csrf_client.cookies[settings.CSRF_COOKIE_NAME].value
    csrf_client.post(LIST, {"report": report.pk, "action": "close",
                            "csrfmiddlewaretoken": token})
    report.refresh_from_db()
    assert not report.is_open


def test_the_scenario_list_shows_each_scenarios_open_count(two_reports) -> None:
    a, b = two_reports
    raise_report(a.scenario, quiz_item=3)
    closed = raise_report(a.scenario, quiz_item=4)
    report_close(report=closed, by=InstructorFactory())
    report_close(report=b, by=InstructorFactory())
    html = instructor_client().get(reverse("scenarios:author_home")).content.decode()
    assert (f'<a class="badge text-bg-warning" href="{LIST}?scenario=first">2</a>'
            in html)
    assert f'href="{LIST}?scenario=second&amp;status=all">0</a>' in html
    assert f'href="{LIST}">Problem reports</a>' in html


def test_one_open_report_per_quiz_item() -> None:
    scenario = ScenarioFactory(slug="one")
    first = raise_report(scenario, quiz_item=5)
    with pytest.raises(ReportRefused):
        raise_report(scenario, quiz_item=5)
    teacher = InstructorFactory()
    report_close(report=first, by=teacher)
    second = raise_report(scenario, quiz_item=5)
    with pytest.raises(ReportRefused):
        report_reopen(report=first)
    assert first.pk != second.pk and ProblemReport.objects.open().get() == second


def test_the_one_open_report_holds_in_the_database() -> None:
    from django.db import IntegrityError, transaction

    scenario = ScenarioFactory(slug="db")
    first = raise_report(scenario, quiz_item=6)
    duplicate = ProblemReport(scenario=scenario, version=first.version, question_id="life",
                              era="fdn-2024", seed=0, correct=True, quiz_item=6,
                              kind="other")
    with pytest.raises(IntegrityError), transaction.atomic():
        duplicate.save()


def test_services_store_what_they_are_given() -> None:
    scenario = ScenarioFactory(slug="svc")
    user = UserFactory()
    report = raise_report(scenario, quiz_item=7, user=user, text="  spaced  ",
                          session_key="ignored-for-users")
    assert (report.scenario, report.version, report.user) == (scenario,
                                                              scenario.current_version, user)
    assert report.session_key == "" and report.text == "spaced" and report.language == "it"
    teacher = InstructorFactory()
    report_reply(report=report, by=teacher, reply="ok")
    report_close(report=report, by=teacher, reply="final word")
    report.refresh_from_db()
    assert report.reply == "final word" and report.closed_by == teacher
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        raise_report(scenario, quiz_item=8, kind="praise")
    assert ProblemReport.objects.count() == 1


class ReportActionFuzzTest(HypothesisTestCase):
    """No reply, action or report id, however strange, makes the list answer 500."""

    def setUp(self) -> None:
        self.report = raise_report(ScenarioFactory(slug="fuzz"), quiz_item=1)
        self.browser = instructor_client()

    @FUZZ
    @given(report=st.one_of(st.just("mine"), st.text(max_size=12)),
           action=st.one_of(st.sampled_from(["reply", "close", "reopen"]),
                            st.text(max_size=12)),
           reply=st.text(max_size=300), htmx=st.booleans())
    def test_an_action_never_fails_with_a_server_error(self, report, action, reply, htmx):
        extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        data = {"report": self.report.pk if report == "mine" else report, "action": action,
                "reply": reply}
        response = self.browser.post(LIST, data, **extra)
        assert response.status_code in {200, 303, 400, 404}
