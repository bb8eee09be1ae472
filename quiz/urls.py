from django.urls import path

from quiz.views import accounts, pages

app_name = "quiz"

urlpatterns = [
    path("", pages.home, name="home"),
    path("practice/", pages.practice_start, name="practice"),
    path("history/", pages.history_index, name="history"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", accounts.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/change/",
        accounts.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/change/done/",
        accounts.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
]
