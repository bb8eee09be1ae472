from django.urls import path

from quiz.views import accounts, history, pages, practice, quiz, reports, stats

app_name = "quiz"

urlpatterns = [
    path("", pages.home, name="home"),
    path("practice/", quiz.practice_start, name="practice"),
    path("practice/count/", practice.count, name="practice_count"),
    path("quiz/<uuid:session_id>/", quiz.session_current, name="session"),
    path("quiz/<uuid:session_id>/q/<int:position>/", quiz.item_show, name="item"),
    path("quiz/<uuid:session_id>/q/<int:position>/answer/", quiz.answer, name="answer"),
    path("quiz/<uuid:session_id>/q/<int:position>/flag/", quiz.flag, name="flag"),
    path("quiz/<uuid:session_id>/q/<int:position>/report/", reports.report, name="report"),
    path("quiz/<uuid:session_id>/finish/", quiz.finish, name="finish"),
    path("quiz/<uuid:session_id>/retry/", quiz.retry, name="retry"),
    path("quiz/<uuid:session_id>/results/", quiz.results, name="results"),
    path("progress/", quiz.progress, name="progress"),
    path("history/", history.timeline, name="history"),
    path("history/scenario/<slug:slug>/", history.scenario_eras, name="history_scenario"),
    path("history/scenario/<slug:slug>/what-if/", history.what_if, name="what_if"),
    path("history/rules/", history.rules, name="rules"),
    path("history/rules/<str:key>/", history.rule_detail, name="rule"),
    # An authoring page (the scenarios app's URLs are under author/ too), served here
    # because the attempts it reads are the quiz's.
    path("author/s/<slug:slug>/stats/", stats.scenario_stats, name="scenario_stats"),
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
