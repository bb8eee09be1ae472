"""The progress page's review forecast: questions due today, tomorrow and this week."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import factory
import fsrs
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from quiz.models import QuizSession, ReviewCard
from quiz.selectors import review_forecast
from tests.factories import ScenarioFactory, UserFactory

pytestmark = pytest.mark.django_db


class ReviewCardFactory(factory.django.DjangoModelFactory):
    """A review card of a published one-question scenario, due when the test says."""

    class Meta:
        model = ReviewCard

    user = factory.SubFactory(UserFactory)
    scenario = factory.SubFactory(ScenarioFactory)
    question_id = "life"
    card = factory.LazyFunction(lambda: fsrs.Card().to_dict())
    due = factory.LazyFunction(timezone.now)


NOW = datetime(2025, 3, 10, 9, 30, tzinfo=UTC)


def cards_due(user, *dues: datetime) -> None:
    for due in dues:
        ReviewCardFactory(user=user, due=due)


def test_cards_fall_in_today_tomorrow_and_this_week() -> None:
    user = UserFactory()
    cards_due(user,
              NOW - timedelta(days=3),               # overdue: now, today, this week
              NOW + timedelta(hours=10),             # later today
              NOW + timedelta(hours=15),             # tomorrow 00:30
              NOW + timedelta(days=1, hours=13),     # tomorrow 22:30
              NOW + timedelta(days=5),               # this week
              NOW + timedelta(days=7, minutes=1),    # beyond the week
              NOW + timedelta(days=40))
    assert review_forecast(user=user, now=NOW) == {"now": 1, "today": 2, "tomorrow": 2,
                                                   "week": 5}


def test_the_day_ends_at_midnight_in_the_active_time_zone() -> None:
    user = UserFactory()
    cards_due(user, datetime(2025, 3, 10, 23, 15, tzinfo=UTC))  # 00:15 on the 11th in Rome
    late = datetime(2025, 3, 10, 22, 0, tzinfo=UTC)
    assert review_forecast(user=user, now=late)["today"] == 1
    with timezone.override("Europe/Rome"):
        forecast = review_forecast(user=user, now=late)
    assert forecast["today"] == 0 and forecast["tomorrow"] == 1


def test_other_users_and_unpublished_scenarios_are_not_counted() -> None:
    user, other = UserFactory(), UserFactory()
    cards_due(other, NOW - timedelta(hours=1))
    draft = ScenarioFactory(publish=False)
    ReviewCardFactory(user=user, scenario=draft, due=NOW - timedelta(hours=1))
    assert review_forecast(user=user, now=NOW) == {"now": 0, "today": 0, "tomorrow": 0,
                                                   "week": 0}


def test_the_forecast_is_one_query_however_many_cards(django_assert_num_queries) -> None:
    user = UserFactory()
    scenario = ScenarioFactory()
    ReviewCard.objects.bulk_create([
        ReviewCard(user=user, scenario=scenario, question_id=f"q{i}", card={},
                   due=NOW + timedelta(hours=i)) for i in range(300)])
    with django_assert_num_queries(1):
        forecast = review_forecast(user=user, now=NOW)
    assert forecast["week"] == 7 * 24


def test_the_progress_page_shows_the_forecast_and_starts_the_review(client: Client) -> None:
    user = UserFactory()
    now = timezone.now()
    end_today = timezone.localtime(now).replace(hour=0, minute=0, second=0,
                                                microsecond=0) + timedelta(days=1)
    cards_due(user, now - timedelta(days=2), now - timedelta(hours=1),
              end_today + timedelta(hours=12), now + timedelta(days=4),
              now + timedelta(days=30))
    client.force_login(user)
    html = client.get(reverse("quiz:progress")).content.decode()
    assert "Review forecast" in html
    assert "<dt class=\"fw-normal\">Today</dt><dd class=\"fs-5 mb-0\">2 questions</dd>" in html
    assert "<dt class=\"fw-normal\">Tomorrow</dt><dd class=\"fs-5 mb-0\">1 question</dd>" in html
    assert "This week</dt><dd class=\"fs-5 mb-0\">4 questions</dd>" in html
    assert "Review the 2 questions due now" in html
    response = client.post(reverse("quiz:practice"), {"mode": "review"})
    assert response.status_code == 303
    review = QuizSession.objects.get(user=user)
    assert review.mode == "review" and review.items.count() == 2


def test_nothing_due_now_offers_no_review_button(client: Client) -> None:
    user = UserFactory()
    cards_due(user, timezone.now() + timedelta(days=3))
    client.force_login(user)
    html = client.get(reverse("quiz:progress")).content.decode()
    assert "due now" not in html
    assert "Nothing to review right now" in html
