"""Pages and endpoints of a player's notices away from their page: the Web Push subscription of this
browser (tournaments.push) and the e-mail address (tournaments.mailing), turned on and off from the
player's page (templates/tournaments/_notice_channels.html, static/js/tournament-notices.js), and the
two links the mails carry (confirm an address; stop the mails, without logging in).

Thin: each view finds the player (this browser's session or account, as every player page does),
checks the input, calls tournaments.push / mailing / delivery, and answers."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.db import transaction
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from .. import mailing, push, services
from ..delivery import mark_seen
from ..models import Event, NoticeEmail, PushSubscription

MAX_SUBSCRIPTIONS = 5  # browsers per player; the oldest goes when a sixth subscribes


class AddressForm(forms.Form):
    address = forms.EmailField(max_length=254)


def own_post(view):
    """Marks a view whose POST acts only for whoever sends it: the player this browser is, or the
    holder of a signed link (tests/tournaments/test_tournament_permissions.py skips these; their
    refusals are tested in test_tournament_notice_delivery.py)."""
    view.own_post = True
    return view


def _me(request, pk: int):
    event = get_object_or_404(Event, pk=pk)
    return event, services.entrant_for(event, request.user, request.session)


def _refuse(message: str, status: int) -> JsonResponse:
    return JsonResponse({"ok": False, "error": message}, status=status)


@own_post
@require_POST
def push_subscribe(request, pk):
    """This browser's push subscription for the player (``endpoint``, ``p256dh``, ``auth``: the
    fields of PushSubscription.toJSON()). Stored once per endpoint; the page's notices now count as
    sent. 400 for a subscription that cannot be used, nothing stored."""
    event, me = _me(request, pk)
    if me is None:
        return _refuse("This browser is not signed up for this event.", 403)
    if not push.enabled():
        return _refuse("This site does not send push notifications (no VAPID key is set).", 409)
    try:
        keys = push.check_subscription(
            request.POST.get("endpoint"), request.POST.get("p256dh"), request.POST.get("auth")
        )
    except push.BadSubscription as exc:
        return _refuse(str(exc), 400)
    with transaction.atomic():
        PushSubscription.objects.update_or_create(
            entrant=me, endpoint=keys.endpoint, defaults={"p256dh": keys.p256dh, "auth": keys.auth}
        )
        keep = me.push_subscriptions.order_by("-created_at", "-pk").values_list("pk", flat=True)[
            :MAX_SUBSCRIPTIONS
        ]
        me.push_subscriptions.exclude(pk__in=list(keep)).delete()
    mark_seen(me)
    return JsonResponse({"ok": True})


@own_post
@require_POST
def push_unsubscribe(request, pk):
    """This browser stops push for the player (its ``endpoint``)."""
    event, me = _me(request, pk)
    if me is None:
        return _refuse("This browser is not signed up for this event.", 403)
    removed = me.push_subscriptions.filter(endpoint=str(request.POST.get("endpoint") or "")).delete()[0]
    return JsonResponse({"ok": True, "removed": removed})


@own_post
@require_POST
def mail_settings(request, pk):
    """The player's page: e-mail my notices to this address (``action=on``), or stop them."""
    event, me = _me(request, pk)
    if me is None:
        return render(
            request,
            "tournaments/message.html",
            {"title": "Not allowed", "message": "This browser is not signed up for this event."},
            status=403,
        )
    if request.POST.get("action") == "off":
        row = NoticeEmail.objects.filter(entrant=me).first()
        if row is not None:
            mailing.stop(row)
        messages.success(request, "No more e-mails of this event's notices.")
        return redirect("tournaments:me", event.pk)
    form = AddressForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Enter an e-mail address such as ada@example.org.")
        return redirect("tournaments:me", event.pk)
    origin = request.build_absolute_uri("/").rstrip("/")
    row = mailing.opt_in(me, form.cleaned_data["address"], origin, request.user)
    if row.confirmed_at:
        messages.success(request, f"Your notices go to {row.address} too.")
    else:
        messages.success(
            request, f"We sent a link to {row.address}: open it to start getting your notices there."
        )
    return redirect("tournaments:me", event.pk)


def _link_page(request, title: str, message: str, status: int = 200, **extra):
    return render(request, "tournaments/notice_mail_link.html", {"title": title, "message": message, **extra},
                  status=status)  # fmt: skip


@own_post
@require_http_methods(["GET", "HEAD", "POST"])
def mail_confirm(request, token):
    """The link of a confirmation mail. GET shows a button (a link checker that opens it confirms
    nothing); its POST starts the mails."""
    try:
        row = mailing.row_for_confirm(token)
    except mailing.BadLink as exc:
        return _link_page(request, "E-mail notices", str(exc), status=400)
    event = row.entrant.event
    if request.method == "POST":
        mailing.confirm(row)
        return _link_page(
            request,
            "E-mail notices",
            f"Done: {row.entrant.name}'s notices of {event.name} go to {row.address}.",
            link=reverse("tournaments:me", args=[event.pk]),
        )
    return _link_page(
        request,
        "E-mail notices",
        f"Send {row.entrant.name}'s notices of {event.name} (table paired, your pick, the clock, a "
        f"result to confirm) to {row.address}?",
        action=request.path,
        button="Yes, e-mail them",
    )


@own_post
@csrf_exempt  # the signed link is the authority; mail programs POST it with no page (RFC 8058)
@require_http_methods(["GET", "HEAD", "POST"])
def mail_stop(request, token):
    """The stop link of every notice mail: works without logging in. GET shows a button; the POST
    (the button, or a mail program's one-click unsubscribe) stops the mails. It only ever removes."""
    try:
        row = mailing.row_for_stop(token)
    except mailing.BadLink as exc:
        return _link_page(request, "Stop e-mails", str(exc), status=400)
    event = row.entrant.event
    if request.method == "POST":
        mailing.stop(row)
        return _link_page(
            request, "Stop e-mails", f"Done: {row.address} gets no more notices of {event.name}."
        )
    return _link_page(
        request,
        "Stop e-mails",
        f"Stop e-mailing {row.entrant.name}'s notices of {event.name} to {row.address}?",
        action=request.path,
        button="Stop these e-mails",
    )
