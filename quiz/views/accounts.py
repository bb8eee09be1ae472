"""Sign up, log in, log out and password change.

Django's own auth views do the work; these only add the sign-up view and wire the
templates in ``templates/registration/``. Login throttling is django-axes' job (its
backend and middleware are in the settings).
"""

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from quiz.forms import SignUpForm
from quiz.services import quiz_sessions_claim


class HttpResponseSeeOther(HttpResponseRedirect):
    status_code = 303


@sensitive_post_parameters("password1", "password2")
@csrf_protect
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create a candidate account and sign it in. Signed-in users go home."""
    if request.user.is_authenticated:
        return redirect("quiz:home")
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if form.is_valid():
            user = form.save()
            anonymous_key = request.session.session_key or ""  # login() replaces it
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            _claim(request, user, anonymous_key)
            messages.success(
                request,
                _("Welcome, %(username)s! Your account is ready.")
                % {"username": user.get_username()},
            )
            return HttpResponseSeeOther(reverse("quiz:home"))
    else:
        form = SignUpForm()
    return render(request, "registration/signup.html", {"form": form})


def _claim(request: HttpRequest, user: Any, anonymous_key: str) -> None:
    """Move the quizzes this browser made before signing in to the account (the key is
    the session's from before login, which cycles it) and say so."""
    _, attempts = quiz_sessions_claim(user=user, session_key=anonymous_key)
    if attempts:
        messages.info(request, ngettext(
            "%(count)d answer you gave before signing in is now in your account.",
            "%(count)d answers you gave before signing in are now in your account.",
            attempts) % {"count": attempts})


class LoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def form_valid(self, form: Any) -> HttpResponse:
        """Log in, then claim this browser's anonymous quizzes for the account."""
        anonymous_key = self.request.session.session_key or ""
        response = super().form_valid(form)
        _claim(self.request, form.get_user(), anonymous_key)
        return response


class LogoutView(auth_views.LogoutView):
    """POST only (Django's default): a GET answers 405 and changes nothing."""


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "registration/password_change_form.html"
    success_url = reverse_lazy("quiz:password_change_done")


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "registration/password_change_done.html"
