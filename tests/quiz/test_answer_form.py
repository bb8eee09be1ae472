"""The answer form (quiz.forms.AnswerForm): it reads every answer the hand-written parser
it replaced read, to the same value or the same refusal; the question page draws it with
crispy inside the htmx form; malformed posts get a field error, never a 500."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.http import QueryDict
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quiz.forms import ANSWER_ERRORS, AnswerError, AnswerForm
from quiz.models import Attempt, QuizItem
from tests.factories import ScenarioFactory
from tests.quiz.test_quiz import all_kinds_document, item_for, post_answer, start

ERAS = ("lrw-2007", "m10-2009", "m11-2010", "m14-2013", "xln-2017", "dom-2018", "mh2-2021",
        "mom-2023", "fdn-2024")
OPTIONS = {"choice": ("zero", "four"), "multi": ("a", "b", "c"), "eras": ERAS}
RECIPIENTS = ("bears", "garruk", "bob")


def legacy_parse(kind: str, data: Any, options: tuple[str, ...]) -> Any:
    """The parser the form replaced (quiz.grading.parse_answer, as it was), kept as the
    oracle the form must agree with: the answer, or ("refused", code)."""
    def one(name: str) -> str:
        return str(data.get(name, "")).strip()

    if kind == "number":
        try:
            value = int(one("answer"))
        except ValueError:
            return ("refused", "number")
        return ("refused", "number") if abs(value) > 10_000 else value
    if kind == "yesno":
        text = one("answer")
        return text == "yes" if text in ("yes", "no") else ("refused", "yesno")
    if kind == "choice":
        text = one("answer")
        return text if text in options else ("refused", "choice")
    if kind in ("multi", "eras"):
        chosen = data.getlist("answer")
        if any(c not in options for c in chosen):
            return ("refused", "choice" if kind == "multi" else "eras")
        none = one("none") == "1"
        if not chosen and not none:
            return ("refused", "nothing-ticked")
        if chosen and none:
            return ("refused", "none-and-some")
        return sorted(set(chosen)) if kind == "multi" else sorted(set(chosen),
                                                                   key=list(options).index)
    out: dict[str, int] = {}  # assign
    filled = False
    for key in data:
        text = one(key)
        if not key.startswith("assign-") or text == "":
            continue
        filled = True
        try:
            n = int(text)
        except ValueError:
            return ("refused", "assign")
        if n < 0 or n > 1000:
            return ("refused", "assign")
        if n:
            out[key.removeprefix("assign-")] = n
    return out if filled else ("refused", "assign-empty")


def form_for(kind: str, data: Any) -> AnswerForm:
    options = OPTIONS.get(kind, ())
    return AnswerForm(data, kind=kind, choices=[(o, o.upper()) for o in options],
                      recipients=[(r, r.title()) for r in RECIPIENTS] if kind == "assign"
                      else [])


def read(kind: str, data: Any) -> Any:
    form = form_for(kind, data)
    if form.is_valid():
        return form.answer
    return ("refused", str(AnswerError(form)))


TOKENS = ["", " ", "0", "1", "4", " 4 ", "-3", "+7", "4.0", "1e3", "1_000", "٣", "10000",
          "10001", "-10001", "1000", "1001", "9" * 5000, "yes", "no", " yes", "YES", "on",
          "zero", "four", "a", "b", "c", "d", *ERAS, "lrw-2007 "]
values = st.one_of(st.sampled_from(TOKENS), st.text(max_size=6),
                   st.integers(-20_000, 20_000).map(str))
FIELDS = ["answer", "none", "seed", "correct", *(f"assign-{r}" for r in RECIPIENTS)]


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(["number", "yesno", "choice", "multi", "eras", "assign"]),
       pairs=st.lists(st.tuples(st.sampled_from(FIELDS), values), max_size=6))
def test_the_form_reads_what_the_old_parser_read(kind: str, pairs: list[tuple[str, str]]):
    """Any post with the served fields, repeated or missing ones included: the same
    answer, or the same refusal, as the hand-written parser."""
    data = QueryDict(mutable=True)
    for key, value in pairs:
        data.appendlist(key, value)
    assert read(kind, data) == legacy_parse(kind, data, OPTIONS.get(kind, ()))


def test_a_refusal_is_a_field_error_with_the_old_message() -> None:
    form = form_for("number", {"answer": "four"})
    assert not form.is_valid()
    assert form.errors["answer"] == [str(ANSWER_ERRORS["number"])] == ["Enter a whole number."]
    form = form_for("multi", QueryDict("answer=a&none=1"))
    assert not form.is_valid() and form.has_error("none", "none-and-some")
    form = form_for("eras", QueryDict(""))
    assert not form.is_valid() and form.has_error("answer", "nothing-ticked")
    form = form_for("assign", {"assign-bears": "x", "assign-bob": "-1", "assign-garruk": ""})
    assert not form.is_valid()
    assert form.has_error("assign-bears", "assign") and form.has_error("assign-bob", "assign")
    assert not form.has_error("assign-garruk")
    form = form_for("assign", {})
    assert not form.is_valid() and form.non_field_errors().as_data()[0].code == "assign-empty"


def test_the_form_ignores_damage_to_what_it_did_not_offer() -> None:
    """Only the offered recipients are read: a posted ``assign-<other>`` is not recorded
    (the old parser recorded it, and grading then called it wrong)."""
    assert read("assign", {"assign-wurm": "6"}) == ("refused", "assign-empty")
    assert read("assign", {"assign-wurm": "6", "assign-bears": "2"}) == {"bears": 2}


def test_answer_error_names_the_first_refusal() -> None:
    err = AnswerError(form_for("assign", {"assign-bears": "x"}))
    assert str(err) == "assign" and err.codes == ["assign"]
    form = form_for("number", {"answer": "5"})
    assert form.is_valid() and form.answer == 5


# -- the question page ---------------------------------------------------------------------

@pytest.fixture
def library(db):
    return ScenarioFactory(slug="all-kinds", document=all_kinds_document())


def page_form(client: Client, item: QuizItem, **extra: Any) -> str:
    html = client.get(reverse("quiz:item", args=[item.session_id, item.position]),
                      **extra).content.decode()
    forms = re.findall(r'<form method="post"[^>]*class="answer-form".*?</form>', html, re.S)
    assert len(forms) == 1, html
    return forms[0]


def inputs(form: str, name: str) -> list[str]:
    return re.findall(rf'<input [^>]*name="{re.escape(name)}"[^>]*>', form)


def value_of(tag: str) -> str:
    found = re.search(r'value="([^"]*)"', tag)
    return found.group(1) if found else ""


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [False, True])
def test_the_page_draws_the_form_inside_the_htmx_form(client: Client, library,
                                                      htmx: bool) -> None:
    from quiz.presenters import shown_options

    session = start(client)
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    for qid in ("num", "yn", "ch", "mu", "as", "er"):
        item = item_for(session, qid)
        form = page_form(client, item, **extra)
        item.refresh_from_db()
        url = reverse("quiz:answer", args=[session.pk, item.position])
        assert f'hx-post="{url}"' in form and 'hx-target="#answer-area"' in form
        assert 'name="csrfmiddlewaretoken"' in form
        assert re.search(rf'<input type="hidden" name="seed" value="{item.seed}"', form)
        assert form.count('type="submit"') == 1
        answers = inputs(form, "answer")
        if qid == "num":
            (tag,) = answers
            for attr in ('type="number"', 'id="answer-number"', "answer-number ", " form-control",
                         'inputmode="numeric"', "required", "autofocus"):
                assert attr in tag, (attr, tag)
        elif qid == "yn":
            assert [value_of(t) for t in answers] == ["yes", "no"]
            assert all('type="radio"' in t for t in answers)
            assert "form-check-inline" in form
        elif qid in ("ch", "mu"):
            from quiz.services import scenario_of

            variant = scenario_of(item.version).variant(item.seed)
            question = next(q for q in variant.questions if q.id == qid)
            assert [value_of(t) for t in answers] == [o.id for o in
                                                      shown_options(question, item)]
            kind = "radio" if qid == "ch" else "checkbox"
            assert all(f'type="{kind}"' in t for t in answers)
        elif qid == "er":
            assert [value_of(t) for t in answers] == list(ERAS)
        if qid in ("mu", "er"):
            (none,) = inputs(form, "none")
            assert 'type="checkbox"' in none and value_of(none) == "1"
            assert "form-check-none" in form
        if qid == "as":
            assert answers == []
            names = re.findall(r'name="(assign-[^"]+)"', form)
            assert names == [f"assign-{r}" for r in RECIPIENTS]
            assert "How does Wurm assign its combat damage?" in form


MALFORMED = [
    ("num", {}, "Enter a whole number."),
    ("num", {"answer": "four"}, "Enter a whole number."),
    ("num", {"answer": "4.0"}, "Enter a whole number."),
    ("num", {"answer": "9" * 5000}, "Enter a whole number."),
    ("num", {"answer": "10001"}, "Enter a whole number."),
    ("num", {"answer": ["4", "x"]}, "Enter a whole number."),  # the last one counts
    ("yn", {"answer": "maybe"}, "Choose yes or no."),
    ("yn", {}, "Choose yes or no."),
    ("ch", {"answer": "nine"}, "Choose one of the options."),
    ("ch", {"answer": ["zero", "nine"]}, "Choose one of the options."),
    ("mu", {"answer": ["a", "z"]}, "Choose one of the options."),
    ("mu", {}, "Nothing is ticked"),
    ("mu", {"answer": "a", "none": "1"}, "“None of them” can&#x27;t go with other ticks"),
    ("er", {"answer": ["lrw-2007", "zzz-2099"]}, "Tick only eras from the list."),
    ("as", {"assign-bears": "two"}, "Enter whole numbers of damage, 0 or more."),
    ("as", {"assign-bears": "-1"}, "Enter whole numbers of damage, 0 or more."),
    ("as", {"assign-bears": "1" * 40}, "Enter whole numbers of damage, 0 or more."),
    ("as", {"assign-wurm": "6"}, "Enter the damage for at least one recipient"),
]


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(("qid", "data", "message"), MALFORMED)
def test_a_malformed_answer_gets_a_field_error_and_no_attempt(
        client: Client, library, htmx: bool, qid: str, data: dict, message: str) -> None:
    item = item_for(start(client), qid)
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = post_answer(client, item, data, **extra)
    html = response.content.decode()
    assert response.status_code == 200
    assert message in html
    assert 'aria-invalid="true"' in html or "invalid-feedback d-block" in html
    assert re.search(r'<p class="visually-hidden" role="alert">[^<]*' + re.escape(message), html)
    assert ("<html" in html) is not htmx
    assert 'class="answer-form"' in html and 'id="answer-area"' in html
    assert not Attempt.objects.exists()


@pytest.mark.django_db
def test_a_refused_answer_comes_back_as_typed_with_the_served_seed(client: Client,
                                                                    library) -> None:
    item = item_for(start(client), "num")
    client.get(reverse("quiz:item", args=[item.session_id, item.position]))
    item.refresh_from_db()
    url = reverse("quiz:answer", args=[item.session_id, item.position])
    html = client.post(url, {"answer": "4.5"}, HTTP_HX_REQUEST="true").content.decode()
    (tag,) = inputs(html, "answer")
    assert value_of(tag) == "4.5" and 'aria-invalid="true"' in tag
    assert 'aria-describedby="answer-answer_error"' in tag and 'id="answer-answer_error"' in html
    (seed,) = inputs(html, "seed")  # none was posted: the served one, ready for the next try
    assert value_of(seed) == str(item.seed)
    assert client.post(url, {"answer": "4", "seed": value_of(seed)}).status_code == 303


@pytest.mark.django_db
@pytest.mark.parametrize(("qid", "data", "answer"), [
    ("ch", {"answer": ["four", "zero"]}, "zero"),  # repeated: the last one counts
    ("mu", {"answer": ["b", "a", "b"]}, ["a", "b"]),
    ("er", {"answer": ["fdn-2024", "lrw-2007", "fdn-2024"]}, ["lrw-2007", "fdn-2024"]),
    ("as", {"assign-bob": "4", "assign-bears": " 2 ", "assign-wurm": "9", "correct": "1"},
     {"bob": 4, "bears": 2}),
    ("num", {"answer": " 4 ", "correct": "true"}, 4),
    ("yn", {"answer": ["no", "yes"]}, True),
])
def test_repeated_and_extra_fields_are_read_as_before(client: Client, library, qid: str,
                                                     data: dict, answer: Any) -> None:
    item = item_for(start(client), qid)
    assert post_answer(client, item, data).status_code == 303
    assert Attempt.objects.get(item=item).answer == answer
