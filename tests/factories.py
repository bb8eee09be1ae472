"""Test data: users in each role."""

import factory
import fsrs
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from scenarios.roles import INSTRUCTORS_GROUP

PASSWORD = "correct horse battery staple"


class UserFactory(factory.django.DjangoModelFactory):
    """A judge candidate: an ordinary signed-up user."""

    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"candidate{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.org")
    password = factory.django.Password(PASSWORD)


class InstructorFactory(UserFactory):
    """A member of the Instructors group."""

    username = factory.Sequence(lambda n: f"instructor{n}")

    @factory.post_generation
    def instructors_group(self, create, extracted, **kwargs):
        if create:
            group, _ = Group.objects.get_or_create(name=INSTRUCTORS_GROUP)
            self.groups.add(group)


class AdminFactory(UserFactory):
    """A superuser (counts as an instructor everywhere)."""

    username = factory.Sequence(lambda n: f"admin{n}")
    is_staff = True
    is_superuser = True


def scenario_document(slug: str = "factory-scenario", **overrides):
    """A small valid, publishable document: a trampler attacking a planeswalker."""
    doc = {
        "format": 1, "id": slug, "topic": "trample-into-planeswalkers", "difficulty": 2,
        "title": {"en": "Trample into {garruk}", "it": "Travolgere {garruk}",
                  "es": "Arrollar a {garruk}"},
        "story": {"en": "Alice attacks.", "it": "Alice attacca.", "es": "Alice ataca."},
        "setup": {
            "turn": {"active": "alice", "step": "main1"},
            "players": [{"id": "alice", "life": 20}, {"id": "bob", "life": 20}],
            "battlefield": [
                {"id": "wurm", "controller": "alice", "types": ["creature"], "power": 6,
                 "toughness": 6, "keywords": ["trample"],
                 "name": {"en": "Wurm", "it": "Wurm", "es": "Sierpe"}},
                {"id": "garruk", "card": "garruk-wildspeaker", "controller": "bob",
                 "counters": {"loyalty": 3}},
                {"id": "bears", "card": "grizzly-bears", "controller": "bob"},
            ],
        },
        "actions": [{"attack": {"wurm": "garruk"}}, {"block": {"bears": "wurm"}},
                    {"combat_damage": {}}],
        "questions": [
            {"id": "life", "kind": "number",
             "ask": {"en": "Bob's life?", "it": "Punti vita di Bob?", "es": "¿Vidas de Bob?"},
             "answer": {"life": "bob"}, "expect": 20},
        ],
        "explain": {"en": "702.19", "it": "702.19", "es": "702.19"},
    }
    doc.update(overrides)
    return doc


class ScenarioFactory(factory.django.DjangoModelFactory):
    """A scenario with one published version, imported through the service."""

    class Meta:
        model = "scenarios.Scenario"

    slug = factory.Sequence(lambda n: f"scenario-{n}")

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        from scenarios.services import scenario_import

        document = kwargs.pop("document", None) or scenario_document(kwargs["slug"])
        return scenario_import(document=document, publish=kwargs.pop("publish", True)).scenario


# -- quiz rows, for data made in bulk (the data-growth bench builds them with
#    ``build_batch`` or ``build`` and writes them with ``bulk_create``) ------------------

class QuizSessionFactory(factory.django.DjangoModelFactory):
    """A practice session of ten questions."""

    class Meta:
        model = "quiz.QuizSession"

    length = 10


class QuizItemFactory(factory.django.DjangoModelFactory):
    """A question served in a session (the caller gives the session and version)."""

    class Meta:
        model = "quiz.QuizItem"

    position = 1
    question_id = "life"
    era = "fdn-2024"
    seed = 0


class AttemptFactory(factory.django.DjangoModelFactory):
    """An answer to an item, with the item's copies of its version, question and era."""

    class Meta:
        model = "quiz.Attempt"

    question_id = factory.LazyAttribute(lambda a: a.item.question_id)
    era = factory.LazyAttribute(lambda a: a.item.era)
    version = factory.LazyAttribute(lambda a: a.item.version)
    seed = 0
    answer = 20
    expected = 20
    correct = True
    time_taken_ms = 5000


class ReviewCardFactory(factory.django.DjangoModelFactory):
    """A candidate's review schedule of one question."""

    class Meta:
        model = "quiz.ReviewCard"

    question_id = "life"
    due = factory.LazyFunction(timezone.now)
    # a new FSRS card due then, as the scheduler stores it (an explicit id: FSRS's own
    # default waits a millisecond per card to make its id from the clock)
    card = factory.LazyAttributeSequence(
        lambda c, n: fsrs.Card(card_id=n + 1, due=c.due).to_dict())


class ProblemReportFactory(factory.django.DjangoModelFactory):
    """A candidate's report on a question they answered."""

    class Meta:
        model = "scenarios.ProblemReport"

    kind = "unclear"
    text = "The question could say which step it is."
    seed = 0
    correct = False
    language = "en"
