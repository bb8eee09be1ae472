from django.contrib.auth.forms import UserCreationForm


class SignUpForm(UserCreationForm):
    """A new judge candidate: username and password (twice)."""

    class Meta(UserCreationForm.Meta):
        fields = ("username",)
