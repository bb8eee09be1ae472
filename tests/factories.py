"""Test data: users in each role."""

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from quiz.roles import INSTRUCTORS_GROUP

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
