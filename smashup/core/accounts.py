"""Accounts: sign-up confirmed by e-mail, password reset by e-mail, and logins that nobody else can
lock (issue 28). Playing as a guest stays possible everywhere: an account only keeps a player's events
and games together. After signing up or logging in the browser goes back to the page it came from
(`next`, a page of this site).

Nothing here says whether an account exists
    Sign-up asks for a user name, an e-mail and a password and always answers "check your e-mail".
    The account is made when the link in that mail is opened (``PendingSignup`` keeps the request,
    the password as its hash); if the e-mail already has an account, the mail says so instead and
    offers a password reset. A user name that is taken is settled on the link's page, with the owner
    of the e-mail alone. Password reset answers the same for any e-mail. Mails go out on a thread of
    their own (``smashup.core.mail``), so no answer is slower when something was sent, and the
    password is hashed on every sign-up, used or not, for the same reason.

Logins: slowed per (user name, address) and per address, never locked per user name
    Failed logins count against the address (``login_address``) and against the pair (user name,
    address) (``login_pair``); over either, that address gets a 429 for that user name (or for all,
    the address limit), and the password is not even checked. Someone guessing at Ada's account
    therefore slows down only themselves: Ada, from anywhere else, logs in as ever. A browser that
    has logged into an account before carries a signed cookie naming it (``KNOWN_COOKIE``, a year);
    for that account it counts under its own pair and never under its address, so even someone
    behind the same address (a venue's wifi) cannot slow Ada's own phone down.

    Guessing from many addresses (``login_username``: failed logins of one user name from browsers
    that never logged into it, from anywhere) cannot be slowed by address, and refusing the user name
    outright would hand anyone a lock on any account. So over that count the account asks browsers it
    does not know for a second factor instead: their login gets one answer whatever the password ("if
    it was right, a link is on its way to the account's e-mail") and, when it was right, a one-time
    link by mail (15 minutes) logs that browser in. The guesser learns nothing from a guess, so
    guessing is pointless while it lasts; Ada, on a new phone, waits for one mail; on a browser she
    used before, for nothing. An account without an e-mail (made in the admin) cannot receive the
    link: its known browsers still log in, new ones wait until the guessing stops.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model, login, password_validation
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.hashers import make_password
from django.contrib.auth.tokens import PasswordResetTokenGenerator, default_token_generator
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core import signing
from django.db import IntegrityError, transaction
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.utils.encoding import force_bytes, force_str
from django.utils.http import (
    base36_to_int,
    url_has_allowed_host_and_scheme,
    urlsafe_base64_decode,
    urlsafe_base64_encode,
)
from django.views.decorators.http import require_http_methods, require_safe
from django.views.generic import TemplateView

from smashup.core import limits
from smashup.core.mail import send_account_mail
from smashup.core.models import PendingSignup

BACKEND = "django.contrib.auth.backends.ModelBackend"


def _seconds(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def signup_link_seconds() -> int:
    return _seconds("SIGNUP_LINK_SECONDS", 3 * 24 * 3600)


def login_link_seconds() -> int:
    return _seconds("LOGIN_LINK_SECONDS", 15 * 60)


def safe_next(request, value: str | None) -> str:
    """`value` if it is a page of this site, else the home page (no open redirect)."""
    if value and url_has_allowed_host_and_scheme(
        value, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return value
    return reverse("home")


def login_key(username) -> str:
    """What a user name counts under: Django matches user names case-sensitively, but a guesser
    gains nothing from changing case, so the counts ignore it."""
    return str(username or "").strip()[:150].casefold()


# ---------------------------------------------------------------------------------- known browsers
KNOWN_COOKIE = "smashup_known"
KNOWN_SALT = "smashup.accounts.known-browser"
KNOWN_DAYS = 365
KNOWN_ACCOUNTS = 5  # the accounts one browser remembers, latest kept


@dataclass
class KnownBrowser:
    """A browser's own id and the accounts (``login_key``) it has logged into."""

    browser: str
    names: list[str] = field(default_factory=list)


def known_browser(request) -> KnownBrowser | None:
    raw = request.COOKIES.get(KNOWN_COOKIE)
    if not raw:
        return None
    try:
        data = signing.loads(raw, salt=KNOWN_SALT, max_age=KNOWN_DAYS * 24 * 3600)
        browser, names = data["b"], data["n"]
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None
    if (
        not isinstance(browser, str)
        or not isinstance(names, list)
        or not all(isinstance(n, str) for n in names)
    ):
        return None
    return KnownBrowser(browser, names)


def remember_browser(request, response, username: str) -> None:
    """After a login: this browser now knows the account (see the module's docstring)."""
    known = known_browser(request) or KnownBrowser(secrets.token_hex(12))
    name = login_key(username)
    names = ([n for n in known.names if n != name] + [name])[-KNOWN_ACCOUNTS:]
    response.set_cookie(
        KNOWN_COOKIE,
        signing.dumps({"b": known.browser, "n": names}, salt=KNOWN_SALT),
        max_age=KNOWN_DAYS * 24 * 3600,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )


# ---------------------------------------------------------------------------------- login --------
@dataclass
class LoginCounts:
    """The counters one login attempt reads and, when it fails, adds to: (limit, who) pairs."""

    name: str
    known: bool
    counters: list[tuple[str, str | None]]

    @classmethod
    def of(cls, request, username) -> LoginCounts:
        name = login_key(username)
        browser = known_browser(request)
        known = bool(name) and browser is not None and name in browser.names
        if known:
            return cls(name, True, [("login_pair", f"user:{name}|browser:{browser.browser}")])
        address = limits.request_address(request) or "unknown"
        counters = [("login_address", address)]
        if name:
            counters += [("login_pair", f"user:{name}|ip:{address}"), ("login_username", f"user:{name}")]
        return cls(name, False, counters)

    def refused(self) -> str | None:
        """The limit that refuses this attempt outright, if any (never the user name's own count)."""
        for limit, who in self.counters:
            if limit != "login_username" and limits.reached(limit, who):
                return limit
        return None

    def needs_second_factor(self) -> bool:
        return not self.known and any(
            limit == "login_username" and limits.reached(limit, who) for limit, who in self.counters
        )

    def failed(self) -> None:
        for limit, who in self.counters:
            limits.record(limit, who)


REFUSALS = {
    "login_address": "Too many failed logins from this address.",
    "login_pair": "Too many failed logins for this user name from here.",
}


class LoginLinkTokens(PasswordResetTokenGenerator):
    """One-time login links: the token covers the user's last login, so logging in (by the link or
    otherwise) spends it, and it lasts ``login_link_seconds()``."""

    key_salt = "smashup.core.accounts.LoginLinkTokens"

    def _make_hash_value(self, user, timestamp):
        # Django's reset tokens read the last login to the second; a link used within the second of
        # the login before it would still work. To the microsecond, any login spends it.
        last = "" if user.last_login is None else user.last_login.isoformat()
        return f"{user.pk}{user.password}{last}{timestamp}{user.email}"

    def check_token(self, user, token) -> bool:
        if not super().check_token(user, token):
            return False
        try:
            made = base36_to_int(token.split("-")[0])
        except ValueError:
            return False
        return self._num_seconds(self._now()) - made <= login_link_seconds()


login_link_tokens = LoginLinkTokens()


def send_login_link(request, user, next_url: str) -> None:
    if not user.email:
        return
    path = reverse(
        "login_link",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": login_link_tokens.make_token(user),
        },
    )
    if next_url:
        path += "?" + urlencode({"next": next_url})
    context = {
        "username": user.get_username(),
        "link": request.build_absolute_uri(path),
        "minutes": login_link_seconds() // 60,
        "site": request.get_host(),
    }
    send_account_mail("login_link", user.email, context)


class LoginView(auth_views.LoginView):
    """Django's login with the limits of the module's docstring."""

    def post(self, request, *args, **kwargs):
        self.counts = LoginCounts.of(request, request.POST.get("username"))
        over = self.counts.refused()
        if over:
            seconds = limits.rate(over)[1]
            message = f"{REFUSALS[over]} Please wait {limits.wait_text(seconds)} and try again."
            return limits.refusal(request, message, seconds)
        self.second_factor = self.counts.needs_second_factor()
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        if self.second_factor:
            send_login_link(self.request, form.get_user(), self.get_redirect_url())
            return self.check_your_email()
        response = super().form_valid(form)
        remember_browser(self.request, response, form.get_user().get_username())
        return response

    def form_invalid(self, form):
        self.counts.failed()
        if self.second_factor:
            return self.check_your_email()
        return super().form_invalid(form)

    def check_your_email(self):
        """The one answer, right password or not, while the account asks new browsers for its mail."""
        return render(
            self.request, "registration/login_check_email.html", {"minutes": login_link_seconds() // 60}
        )


def _user_of(uidb64):
    try:
        return get_user_model()._default_manager.get(pk=force_str(urlsafe_base64_decode(uidb64)))
    except (TypeError, ValueError, OverflowError, get_user_model().DoesNotExist):
        return None


@require_http_methods(["GET", "HEAD", "POST"])
def login_link(request, uidb64, token):
    """The e-mailed login link: the page asks for one tap (a POST, so a mail scanner that fetches
    the link logs nobody in), which logs this browser in and makes it a known one."""
    user = _user_of(uidb64)
    if user is None or not user.is_active or not login_link_tokens.check_token(user, token):
        return render(
            request,
            "message.html",
            {
                "title": "This link no longer works",
                "message": "It was used already or is too old. Log in again.",
            },
            status=404,
        )
    next_url = request.GET.get("next", "")
    if request.method != "POST":
        return render(
            request, "registration/login_link.html", {"username": user.get_username(), "next": next_url}
        )
    login(request, user, backend=BACKEND)
    response = HttpResponseRedirect(safe_next(request, next_url))
    remember_browser(request, response, user.get_username())
    return response


# ---------------------------------------------------------------------------------- sign-up ------
def _username_field() -> forms.CharField:
    return forms.CharField(
        label="User name",
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text="Shown to other players. Letters, digits and @ . + - _ only.",
    )


class SignupForm(forms.Form):
    """What a sign-up asks. Its errors are about what was typed, never about other accounts."""

    username = _username_field()
    email = forms.EmailField(
        label="E-mail",
        max_length=254,
        help_text=(
            "We send a link there: your account is made when you open it. Never shown to other players."
        ),
    )
    password1 = forms.CharField(label="Password", strip=False, widget=forms.PasswordInput)
    password2 = forms.CharField(label="Password again", strip=False, widget=forms.PasswordInput)

    def clean_email(self):
        return self.cleaned_data["email"].strip().lower()

    def clean(self):
        data = super().clean()
        first, second = data.get("password1"), data.get("password2")
        if first and second and first != second:
            self.add_error("password2", "The two passwords differ.")
        elif first:
            candidate = get_user_model()(username=data.get("username", ""), email=data.get("email", ""))
            try:
                password_validation.validate_password(first, candidate)
            except forms.ValidationError as exc:
                self.add_error("password1", exc)
        return data


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def accounts_with_email(email: str):
    return get_user_model()._default_manager.filter(email__iexact=email, is_active=True)


def start_signup(request, username: str, email: str, password: str, next_url: str = "") -> None:
    """Mail `email` either the link that makes the account, or (it has one already) a reminder
    with a password reset. The same work either way, so the answer takes as long."""
    hashed = make_password(password)  # hashed even when unused: the answer must take as long
    site = request.get_host()
    existing = [user for user in accounts_with_email(email) if user.has_usable_password()]
    if existing:
        accounts = [
            {
                "username": user.get_username(),
                "reset": request.build_absolute_uri(
                    reverse(
                        "password_reset_confirm",
                        kwargs={
                            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
                            "token": default_token_generator.make_token(user),
                        },
                    )
                ),
            }
            for user in existing
        ]
        context = {"accounts": accounts, "login": request.build_absolute_uri(reverse("login")), "site": site}
        send_account_mail("signup_exists", email, context)
        return
    PendingSignup.objects.filter(
        created_at__lt=timezone.now() - timedelta(seconds=signup_link_seconds())
    ).delete()
    token = secrets.token_urlsafe(32)
    PendingSignup.objects.create(
        token_hash=token_hash(token), username=username, email=email, password=hashed, next_url=next_url[:200]
    )
    link = request.build_absolute_uri(reverse("signup_confirm", kwargs={"token": token}))
    context = {"username": username, "link": link, "hours": signup_link_seconds() // 3600, "site": site}
    send_account_mail("signup_confirm", email, context)


@method_decorator(
    limits.throttle(
        "account_signup",
        "Too many sign-ups from this address.",
        applies=lambda request: request.method == "POST",
    ),
    name="dispatch",
)
class SignupView(TemplateView):
    template_name = "registration/signup.html"
    http_method_names = ["get", "head", "post"]

    def get(self, request):
        next_url = request.GET.get("next", "")
        return self.render_to_response({"form": SignupForm(), "next": next_url})

    def post(self, request):
        next_url = request.POST.get("next", "")
        form = SignupForm(request.POST)
        if not form.is_valid():
            return self.render_to_response({"form": form, "next": next_url})
        data = form.cleaned_data
        start_signup(request, data["username"], data["email"], data["password1"], next_url)
        return redirect("signup_sent")


signup = SignupView.as_view()


@require_safe
def signup_sent(request):
    return render(request, "registration/signup_sent.html", {"hours": signup_link_seconds() // 3600})


def username_taken(username: str) -> bool:
    return get_user_model()._default_manager.filter(username__iexact=username).exists()


class ConfirmForm(forms.Form):
    username = _username_field()

    def clean_username(self):
        username = self.cleaned_data["username"]
        if username_taken(username):
            raise forms.ValidationError(f"The user name {username} is taken: choose another.")
        return username


def pending_signup(token: str) -> PendingSignup | None:
    oldest = timezone.now() - timedelta(seconds=signup_link_seconds())
    return PendingSignup.objects.filter(token_hash=token_hash(token), created_at__gte=oldest).first()


@require_http_methods(["GET", "HEAD", "POST"])
def signup_confirm(request, token):
    """The sign-up's e-mailed link: only the owner of the e-mail gets here. The page shows the user
    name asked for (or says it is taken now and asks for another); its POST makes the account."""
    pending = pending_signup(token)
    if pending is None:
        return render(
            request,
            "message.html",
            {
                "title": "This link no longer works",
                "message": "It was used already or is too old. Sign up again.",
            },
            status=404,
        )
    if accounts_with_email(pending.email).exists():
        return render(request, "registration/signup_has_account.html", {"email": pending.email})
    if request.method != "POST":
        form = ConfirmForm(initial={"username": pending.username})
        taken = username_taken(pending.username)
        return render(
            request, "registration/signup_confirm.html", {"form": form, "taken": taken, "pending": pending}
        )
    form = ConfirmForm(request.POST)
    if form.is_valid():
        user = get_user_model()(username=form.cleaned_data["username"], email=pending.email)
        user.password = pending.password  # the hash made at sign-up
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:  # taken in the meantime
            form.add_error("username", "This user name was just taken: choose another.")
        else:
            PendingSignup.objects.filter(email__iexact=pending.email).delete()
            login(request, user, backend=BACKEND)
            response = HttpResponseRedirect(safe_next(request, pending.next_url))
            remember_browser(request, response, user.get_username())
            return response
    return render(
        request, "registration/signup_confirm.html", {"form": form, "taken": False, "pending": pending}
    )


# ---------------------------------------------------------------------------------- password reset
class ResetForm(PasswordResetForm):
    """Django's reset form; its mails go out in the background, at most so many per recipient."""

    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email, **kwargs):
        send_account_mail("password_reset", to_email, context)


@method_decorator(
    limits.throttle(
        "password_reset",
        "Too many password resets asked from this address.",
        applies=lambda request: request.method == "POST",
    ),
    name="dispatch",
)
class PasswordResetView(auth_views.PasswordResetView):
    form_class = ResetForm
