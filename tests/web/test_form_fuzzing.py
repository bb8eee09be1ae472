"""No form input, however strange, makes the account pages answer 500."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

anything = st.text(max_size=200)
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class AccountFormsFuzzTest(TestCase):
    @FUZZ
    @given(username=anything, password=anything)
    def test_login_never_fails_with_a_server_error(self, username, password):
        response = self.client.post(
            "/en/accounts/login/", {"username": username, "password": password}
        )
        assert response.status_code in {200, 429}

    @FUZZ
    @given(username=anything, password1=anything, password2=anything)
    def test_signup_never_fails_with_a_server_error(self, username, password1, password2):
        response = self.client.post(
            "/it/accounts/signup/",
            {"username": username, "password1": password1, "password2": password2},
        )
        assert response.status_code in {200, 303}

    @FUZZ
    @given(language=anything, next_url=anything)
    def test_set_language_never_fails_with_a_server_error(self, language, next_url):
        response = self.client.post("/i18n/setlang/", {"language": language, "next": next_url})
        assert response.status_code in {200, 204, 302}
