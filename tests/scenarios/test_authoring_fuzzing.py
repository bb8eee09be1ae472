"""No editor input, however strange, makes the authoring pages answer 500."""

from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from scenarios.library import dump_document
from tests.factories import InstructorFactory, ScenarioFactory, scenario_document


class EditorFuzzTest(TestCase):
    """Hypothesis's Django support: no editor input gives a 500."""

    def _prepare(self) -> None:
        self.client.force_login(InstructorFactory())
        ScenarioFactory(slug="s1")

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(source=st.one_of(st.text(max_size=300), st.sampled_from([
        "format: 1\nid: x\n", "[1, 2", "!!python/name:os.system", "a: &x [*x]",
        dump_document(scenario_document("s1")).replace("bob", "\u0000"),
        dump_document(scenario_document("s1"))[:200]])))
    def test_the_editor_and_its_preview_never_fail(self, source: str) -> None:
        self._prepare()
        assert self.client.post(reverse("scenarios:preview"), {"source": source}
                                ).status_code == 200
        assert self.client.post(reverse("scenarios:edit", args=["s1"]),
                                {"source": source, "action": "save"}).status_code in (200, 303)

    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.dictionaries(st.sampled_from([
        "meta-topic", "meta-difficulty", "meta-active", "meta-step", "actions-TOTAL_FORMS",
        "actions-0-kind", "actions-0-args", "objects-TOTAL_FORMS", "objects-0-power",
        "questions-0-expect", "params-0-values"]), st.text(max_size=40), max_size=8))
    def test_the_form_editor_never_fails(self, data: dict) -> None:
        self._prepare()
        response = self.client.post(reverse("scenarios:form", args=["s1"]), data)
        assert response.status_code in (200, 303)
