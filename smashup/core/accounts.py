"""Accounts: sign up with a name, an e-mail and a password; password reset by e-mail (Django's views,
our pages). Playing as a guest stays possible everywhere: an account only keeps a player's events
and games together. After signing up or logging in the browser goes back to the page it came from
(`next`, when it is a page of this site)."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import UserCreationForm
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        required=True, help_text="For a password reset only; never shown to other players."
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self):
        email = self.cleaned_data["email"].strip().lower()
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError("An account with this e-mail exists; reset its password instead.")
        return email


def safe_next(request, value: str | None) -> str:
    """`value` if it is a page of this site, else the home page (no open redirect)."""
    if value and url_has_allowed_host_and_scheme(
        value, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return value
    return reverse("home")


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request):
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(safe_next(request, next_url))
    return render(request, "registration/signup.html", {"form": form, "next": next_url})
