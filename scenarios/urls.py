from django.urls import path

from scenarios import views

app_name = "scenarios"

urlpatterns = [
    path("", views.author_home, name="author_home"),
]
