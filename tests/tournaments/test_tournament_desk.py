"""Less busywork and manual control (issue 27), on PostgreSQL: a list of players imported with a
preview (checked as the sign-up checks names, all or nothing), random picks for everyone left in a
draft, moving a player to another table of a round not started (cost and warnings shown), tables
kept for accessible seats, QR codes of guests' seat links, the event form's folded sections, and the
top 8 and 1v1 brackets. Every refusal changes nothing."""

from __future__ import annotations

import re
import time

import pytest
from django.test import Client

from smashup import draft as kiq
from tests.tournaments import people
from tests.tournaments.people import user
from tournaments import drafting, in_app, services
from tournaments.forms import FORM_SECTIONS, EventForm
from tournaments.models import AuditEntry, Draft, Entrant, Event, Round, Seat, Table
from tournaments.views.common import qr_svg

pytestmark = pytest.mark.django_db


def new_event(players: int = 0, **fields) -> Event:
    return people.new_event(players, **({"name": "Desk"} | fields))


def org_client() -> Client:
    client = Client()
    client.force_login(user("org"))
    return client


def snapshot(event: Event) -> tuple:
    return (
        list(Entrant.objects.filter(event=event).order_by("pk").values()),
        list(Table.objects.filter(round__event=event).order_by("pk").values()),
        list(Seat.objects.filter(round__event=event).order_by("pk").values()),
        list(Draft.objects.filter(table__round__event=event).order_by("pk").values()),
        AuditEntry.objects.filter(event=event).count(),
    )


def play(rnd: Round, vp=lambda seat: 12 - 2 * seat.position) -> None:
    for table in rnd.tables.order_by("number"):
        services.set_result(table, {s.entrant_id: vp(s) for s in table.seats.all()}, by=user("org"))


# ---------------------------------------------------------------------------------- import -------
LIST = "name, e-mail, club\nAda Lovelace, ada@example.org, Analytical\nBob, bob@example.org\n"


def test_a_list_is_previewed_then_imported_through_the_sign_up():
    event = new_event()
    preview = services.preview_import(event, LIST, user("org"))
    assert [(x.line, x.name, x.error) for x in preview.lines] == [(2, "Ada Lovelace", ""), (3, "Bob", "")]
    assert (
        not preview.saved and event.entrants.count() == 0 and not event.audit.filter(action="import").exists()
    )
    result = services.import_players(event, LIST, user("org"))
    assert result.saved and result.added == 2
    ada = event.entrants.get(name="Ada Lovelace")
    assert (ada.email, ada.club, ada.checked_in) == ("ada@example.org", "Analytical", False)
    assert event.audit.filter(action="register").count() == 2
    assert event.audit.get(action="import").message == "Added 2 players from a list."
    checked = services.import_players(event, "Cy, cy@example.org", user("org"), check_in=True)
    assert checked.saved and event.entrants.get(name="Cy").checked_in


def test_a_list_with_one_bad_line_adds_nobody_and_says_what_is_wrong_on_each_line():
    event = new_event()
    services.register(event, "Dee", by=user("org"))
    text = (
        "Ada, ada@example.org\n"
        "dee, dee2@example.org\n"  # the sign-up's rule: names are compared without case
        "Bob, bob.example.org\n"
        "ada, ada2@example.org\n"  # the same name as line 1
        "E\u200bve, eve@example.org\n"
        + "X" * 41 + ", x@example.org\n"
    )  # fmt: skip
    before = snapshot(event)
    result = services.import_players(event, text, user("org"))
    assert not result.saved and result.errors == 5 and snapshot(event) == before
    errors = {line.line: line.error for line in result.lines}
    assert errors[1] == ""
    assert "Someone called dee is already signed up" in errors[2]
    assert errors[3] == "'bob.example.org' is not an e-mail address."
    assert errors[4] == "The same name as line 1."
    assert "invisible" in errors[5]
    assert "at most 40 characters" in errors[6]
    for bad in ("", "\n\n", "x" * 200_001):
        with pytest.raises(services.Invalid):
            services.import_players(event, bad, user("org"))
    with pytest.raises(services.NotAllowed):
        services.import_players(event, LIST, user("stranger"))
    assert snapshot(event) == before


def test_an_import_beyond_the_cap_goes_to_the_waitlist_as_the_preview_says():
    event = new_event(player_cap=2)
    services.register(event, "Zed", by=user("org"))
    text = "A, a@example.org\nB, b@example.org\nC, c@example.org"
    preview = services.preview_import(event, text, user("org"))
    assert [x.wait_rank for x in preview.lines] == [None, 1, 2] and preview.waiting == 2
    result = services.import_players(event, text, user("org"))
    assert [x.wait_rank for x in result.lines] == [None, 1, 2]
    assert [e.name for e in services.waitlist(event)] == ["B", "C"]


def test_the_import_page_previews_an_upload_and_imports_on_confirmation():
    from django.core.files.uploadedfile import SimpleUploadedFile

    event = new_event()
    client = org_client()
    url = f"/tournaments/{event.pk}/entrants/import/"
    assert "Add a list of players" in client.get(url).content.decode()
    upload = SimpleUploadedFile("players.csv", ("\ufeff" + LIST.replace(",", ";")).encode("utf-8"))
    page = client.post(url, {"action": "preview", "file": upload}).content.decode()
    assert "Ready: 2 players" in page and "Add these 2 players" in page and event.entrants.count() == 0
    bad = SimpleUploadedFile("players.csv", "Zoë, z@example.org".encode("latin-1"))
    response = client.post(url, {"action": "preview", "file": bad})
    assert response.status_code == 400 and "not UTF-8" in response.content.decode()
    response = client.post(url, {"action": "import", "text": LIST, "check_in": "1"})
    assert response.status_code == 302 and event.entrants.filter(checked_in=True).count() == 2
    page = client.get(f"/tournaments/{event.pk}/manage/").content.decode()
    assert "Analytical" in page
    # The e-mail addresses are for the organizers only.
    for path in ("", "standings/", "projector/"):
        assert "ada@example.org" not in Client().get(f"/tournaments/{event.pk}/{path}").content.decode()
    assert "ada@example.org" in client.get(f"/tournaments/{event.pk}/export/entrants.csv").content.decode()
    again = client.post(url, {"action": "import", "text": LIST})
    assert again.status_code == 200 and "Nothing was added" in again.content.decode()


# ---------------------------------------------------------------------------------- draft --------
def test_random_picks_for_everyone_left_are_seeded_and_logged():
    event = new_event(8, draft_mode=Event.DraftMode.TABLE)
    rnd = services.generate_round(event, user("org"))
    table = rnd.tables.get(number=1)
    draft = Draft.objects.get(table=table)
    drafting.pick_for_current(draft.pk, user("org"))  # one choice made already
    draft.refresh_from_db()
    expected = drafting.state_of(draft)
    while not kiq.is_done(expected):
        expected = kiq.apply_timeout(expected)
    before = snapshot(event)
    with pytest.raises(services.Conflict, match="in the meantime"):
        drafting.pick_rest_at_random(draft.pk, 0, user("org"))
    with pytest.raises(services.NotAllowed):
        drafting.pick_rest_at_random(draft.pk, 1, user("stranger"))
    assert snapshot(event) == before
    made = drafting.pick_rest_at_random(draft.pk, 1, user("org"))
    draft.refresh_from_db()
    assert draft.status == Draft.Status.DONE and draft.state == expected.to_dict()
    assert draft.version == 1 + len(made) == len(kiq.turn_order(expected))
    seats = {s.entrant_id: s.factions for s in table.seats.all()}
    assert seats == {p: list(f) for p, f in kiq.result(expected).items()}
    entry = event.audit.filter(action="draft").first()
    assert "random choices for everyone left" in entry.message and len(entry.data["random"]) == len(made)
    with pytest.raises(services.Conflict, match="over"):
        drafting.pick_rest_at_random(draft.pk, draft.version, user("org"))


def test_the_draft_page_offers_random_picks_for_everyone_left_to_organizers():
    event = new_event(4, draft_mode=Event.DraftMode.TABLE)
    rnd = services.generate_round(event, user("org"))
    table = rnd.tables.get()
    url = f"/tournaments/{event.pk}/tables/{table.pk}/draft/"
    client = org_client()
    assert "Random picks for everyone left" in client.get(url).content.decode()
    assert "Random picks for everyone left" not in Client().get(url).content.decode()
    response = client.post(f"{url}random-rest/", {"version": "0"}, follow=True)
    assert "The draft is done" in response.content.decode()
    assert Draft.objects.get(table=table).status == Draft.Status.DONE


# ---------------------------------------------------------------------------------- moves --------
def paired_round_two(players: int = 10) -> tuple[Event, Round]:
    event = new_event(players)
    play(services.generate_round(event, user("org")))
    return event, services.generate_round(event, user("org"))


def test_a_player_moves_to_a_table_with_room_and_the_tables_follow():
    event, rnd = paired_round_two()  # 10 players: 4 + 3 + 3
    full = next(t for t in rnd.tables.all() if t.seats.count() == 4)
    short = next(t for t in rnd.tables.all() if t.seats.count() == 3)
    mover = full.seats.get(position=0).entrant
    check = services.check_move(rnd, mover.pk, short.pk)
    assert [t.number for t in check.after] == sorted([full.number, short.number])
    warnings = services.move_player(rnd, mover.pk, short.pk, user("org"))
    assert warnings == list(check.warnings)
    assert list(full.seats.order_by("position").values_list("position", flat=True)) == [0, 1, 2]
    assert short.seats.order_by("position").last().entrant == mover and short.seats.count() == 4
    entry = event.audit.get(action="move")
    assert entry.message.startswith(
        f"Round 2: moved {mover.name} from table {full.number} to table {short.number}"
    )
    # The tables' explanations follow their new players.
    for table, report in zip(sorted([full, short], key=lambda t: t.number), check.after, strict=True):
        table.refresh_from_db()
        assert table.report == services.named_report(report, {})


def test_moves_that_cannot_be_are_refused_and_change_nothing():
    event, rnd = paired_round_two()
    tables = list(rnd.tables.order_by("number"))
    full = next(t for t in tables if t.seats.count() == 4)
    short = next(t for t in tables if t.seats.count() == 3)
    before = snapshot(event)
    cases = [
        (short.seats.first().entrant_id, full.pk, "full"),
        (full.seats.first().entrant_id, full.pk, "already sits"),
        (full.seats.first().entrant_id, 0, "Choose a table"),
        (0, short.pk, "Choose a player"),
        (999999, short.pk, "Choose a player"),
        (full.seats.first().entrant_id, 999999, "not in round 2"),
    ]
    for who, where, error in cases:
        with pytest.raises(services.TournamentError, match=error):
            services.move_player(rnd, who, where, user("org"))
    with pytest.raises(services.NotAllowed):
        services.move_player(rnd, full.seats.first().entrant_id, short.pk, user("stranger"))
    assert snapshot(event) == before
    services.set_result(short, {s.entrant_id: 5 for s in short.seats.all()}, by=user("org"))
    before = snapshot(event)
    with pytest.raises(services.Conflict, match="reported a result"):
        services.move_player(rnd, full.seats.first().entrant_id, tables[-1].pk, user("org"))
    assert snapshot(event) == before


def test_the_dashboard_previews_a_move_and_makes_it_after_a_confirmation():
    event, rnd = paired_round_two()
    full = next(t for t in rnd.tables.all() if t.seats.count() == 4)
    short = next(t for t in rnd.tables.all() if t.seats.count() == 3)
    mover = full.seats.get(position=1).entrant_id
    client = org_client()
    page = client.get(f"/tournaments/{event.pk}/manage/").content.decode()
    url = f"/tournaments/{event.pk}/rounds/2/move/"
    assert "Move a player to another table" in page and f'hx-get="{url}?form=1"' in page
    form = client.get(url, {"form": "1"}, HTTP_HX_REQUEST="true").content.decode()
    assert 'data-confirm="Move this player' in form and "<html" not in form
    assert f'<option value="{short.pk}">Table {short.number} (3 players)</option>' in form
    assert f'<option value="{full.pk}">' not in form  # a full table takes nobody
    assert "<html" in client.get(url, {"form": "1"}).content.decode()  # without JavaScript: a page
    preview = client.get(url, {"entrant": mover, "table": short.pk}).content.decode()
    assert "than now:" in preview
    assert client.get(url, {"entrant": "²", "table": short.pk}).status_code == 400
    client.post(url, {"entrant": mover, "table": short.pk})
    assert Seat.objects.get(round=rnd, entrant_id=mover).table == short


# ---------------------------------------------------------------------------------- kept tables --
def test_a_kept_table_keeps_its_number_at_every_pairing():
    event = new_event(12)
    ada = event.entrants.get(name="P07")
    services.set_fixed_table(ada, 2, user("org"))
    for _ in range(3):
        rnd = services.generate_round(event, user("org"))
        assert Seat.objects.get(round=rnd, entrant=ada).table.number == 2
        assert sorted(rnd.tables.values_list("number", flat=True)) == [1, 2, 3]
        play(rnd)
    services.set_fixed_table(ada, 9, user("org"))  # beyond the round's tables: the room's table 9
    rnd = services.generate_round(event, user("org"))
    assert Seat.objects.get(round=rnd, entrant=ada).table.number == 9
    assert sorted(rnd.tables.values_list("number", flat=True)) == [1, 2, 9]
    assert services.published_draw(event.rounds_set.get(number=1))["matches"]  # round 1 still checks out


def test_keeping_a_table_renumbers_the_round_not_yet_started():
    event = new_event(8)
    play(services.generate_round(event, user("org")))
    rnd = services.generate_round(event, user("org"))
    ada = Seat.objects.get(round=rnd, table__number=1, position=0).entrant
    other = set(rnd.tables.get(number=2).seats.values_list("entrant_id", flat=True))
    services.set_fixed_table(ada, 2, user("org"))
    assert Seat.objects.get(round=rnd, entrant=ada).table.number == 2
    assert set(rnd.tables.get(number=1).seats.values_list("entrant_id", flat=True)) == other
    message = event.audit.filter(action="fixed_table").first().message
    assert "in round 2 their table 1 is now table 2; table 2 became table 1" in message
    services.set_fixed_table(ada, 5, user("org"))  # the room's table 5: the round has tables 1 and 5
    assert sorted(rnd.tables.values_list("number", flat=True)) == [1, 5]
    # A swap after that says the room's numbers and updates the right tables' explanations.
    a = rnd.tables.get(number=1).seats.first().entrant_id
    b = rnd.tables.get(number=5).seats.exclude(entrant=ada).first().entrant_id
    check = services.check_swap(rnd, a, b)
    assert sorted(t.number for t in check.after) == [1, 5]
    assert all(w.startswith(("Table 1:", "Table 5:")) for w in check.warnings)
    services.swap_players(rnd, a, b, user("org"))
    for report in check.pairing.tables:
        number = [1, 5][report.number - 1]
        assert rnd.tables.get(number=number).report == services.named_report(report, {})


def test_bad_kept_tables_are_refused_and_change_nothing():
    event = new_event(8)
    ada, bob = event.entrants.get(name="P01"), event.entrants.get(name="P02")
    services.set_fixed_table(ada, 1, user("org"))
    before = snapshot(event)
    for who, number, error in (
        (bob, 1, "kept for P01"),
        (ada, 1, "keeps table 1 already"),
        (bob, 0, "1 to 999"),
        (bob, 1000, "1 to 999"),
        (bob, "3", "1 to 999"),
        (bob, None, "keeps no table"),
    ):
        with pytest.raises(services.TournamentError, match=error):
            services.set_fixed_table(who, number, user("org"))
    with pytest.raises(services.NotAllowed):
        services.set_fixed_table(bob, 3, user("stranger"))
    assert snapshot(event) == before
    client = org_client()
    response = client.post(
        f"/tournaments/{event.pk}/fixed-table/", {"entrant": bob.pk, "table": "x"}, follow=True
    )
    assert response.status_code == 200 and snapshot(event) == before
    client.post(f"/tournaments/{event.pk}/fixed-table/", {"entrant": ada.pk, "table": ""})
    assert Entrant.objects.get(pk=ada.pk).fixed_table is None


# ---------------------------------------------------------------------------------- QR codes -----
DESK_URLS = ["tables/{table}/seats/0/qr.svg"]  # organizers only: tested here (the permission sweep lists it)


@pytest.mark.django_db(transaction=True)
def test_a_guests_seat_link_has_a_qr_code_for_the_organizers_only(monkeypatch):
    from django.core import signing

    from tests.tournaments.test_tournament_in_app import Scene

    # A seat link is signed with the second it was made (signing.dumps): the page's link and the
    # QR code's, made apart, differ when a second ticks between them; one second for the test.
    stamp = signing.b62_encode(int(time.time()))
    monkeypatch.setattr(signing.TimestampSigner, "timestamp", lambda self: stamp)
    s = Scene()
    game = in_app.start_table(s.table, s.org)
    org = s.client("org")
    page = org.get(f"/tournaments/{s.event.pk}/manage/").content.decode()
    link = re.search(r'value="(http://testserver/play/s/[^"]+/)"', page).group(1)
    qr_url = re.search(r'src="(/tournaments/\d+/tables/\d+/seats/\d+/qr\.svg)"', page).group(1)
    response = org.get(qr_url)
    assert response.status_code == 200 and response["Content-Type"].startswith("image/svg+xml")
    assert "no-store" in response["Cache-Control"]
    guest = game.seats.get(user__isnull=True)
    name = s.table.seats.get(position=guest.index).entrant.name
    assert response.content.decode() == qr_svg(link, f"QR code of the seat link of {name}")
    for who in ("stranger", "player"):
        assert s.client(who).get(qr_url).status_code == 403
    assert "/login" in s.client("anonymous").get(qr_url)["Location"]
    account_seat = qr_url.rsplit("/seats/", 1)[0] + f"/seats/{1 - guest.index}/qr.svg"
    assert org.get(account_seat).status_code == 404  # the player with an account has no link
    Client().post(link.replace("http://testserver", ""))  # the guest takes the seat
    assert org.get(qr_url).status_code == 404


# ---------------------------------------------------------------------------------- the form -----
def test_the_event_form_is_in_short_sections_and_loses_no_field(client):
    form = EventForm()
    placed = [name for _, main, more, _ in FORM_SECTIONS for name in (*main, *more)]
    assert sorted(placed) == sorted(form.fields) and len(placed) == len(set(placed))
    client.force_login(user("org"))
    page = client.get("/tournaments/new/").content.decode()
    for name in form.fields:
        assert f'name="{name}"' in page, name
    assert page.count('<details class="t-more-settings"') == 5 and 't-more-settings" open' not in page
    # A folded field with an error opens its section.
    data = {"name": "X", "date": "2026-05-01", "table_size": "4", "top_cut": "0", "round_minutes": "50",
            "warnings": "soon", "draft_mode": "none", "scoring": "normalised", "layout": "even",
            "mode": "standard", "end_rule": "x", "faction_copies": "1", "bans_per_player": "0"}  # fmt: skip
    page = client.post("/tournaments/new/", data).content.decode()
    assert "Whole minutes" in page and page.count('t-more-settings" open') == 1
    # The settings of an event open the sections where something differs from a new event's.
    event = new_event(2, layout=Event.Layout.BYES)
    page = client.get(f"/tournaments/{event.pk}/edit/").content.decode()
    opened = re.findall(r'<legend>([^<]+)</legend>\s*(?:.(?!</fieldset>))*?t-more-settings" open', page, re.S)
    assert opened == ["Format"]


# ---------------------------------------------------------------------------------- cuts ---------
def test_a_top_8_sends_the_first_two_of_each_semifinal_to_the_final():
    event = new_event(12, top_cut=8, rounds=2)
    for _ in range(2):
        play(services.generate_round(event, user("org")))
    ranked = [r.entrant.pk for r in services.standings(event)]
    semis = services.start_top_cut(event, user("org"))
    assert semis.stage == Round.Stage.SEMIFINAL
    seats = [
        list(t.seats.order_by("position").values_list("entrant_id", flat=True))
        for t in semis.tables.order_by("number")
    ]
    assert seats == [[ranked[i] for i in (0, 3, 4, 7)], [ranked[i] for i in (1, 2, 5, 6)]]
    play(semis, vp=lambda seat: seat.position)  # the last two seats of each table go through
    assert services.next_stage_name(semis) == "final"
    final = services.start_final(event, user("org"))
    assert final.stage == Round.Stage.FINAL
    finalists = list(final.tables.get().seats.order_by("position").values_list("entrant_id", flat=True))
    assert finalists == [ranked[i] for i in (4, 5, 6, 7)]  # seated by their Swiss seed
    play(final, vp=lambda seat: seat.position)
    services.finish_event(event, user("org"))
    placed = services.final_standings(event)
    assert [p.entrant.pk for p in placed[:4]] == [ranked[i] for i in (7, 6, 5, 4)]
    assert [p.stage for p in placed[:9]] == ["final"] * 4 + ["semifinal"] * 4 + ["swiss"]


def test_a_one_v_one_top_8_is_a_bracket_of_three_stages():
    event = new_event(10, table_size=2, top_cut=8, rounds=3)
    for _ in range(3):
        play(services.generate_round(event, user("org")))
    ranked = [r.entrant.pk for r in services.standings(event)]
    quarters = services.start_top_cut(event, user("org"))
    assert quarters.stage == Round.Stage.QUARTERFINAL and quarters.label == "Quarterfinal"
    pairs = [
        list(t.seats.order_by("position").values_list("entrant_id", flat=True))
        for t in quarters.tables.order_by("number")
    ]
    assert pairs == [
        [ranked[0], ranked[7]],
        [ranked[1], ranked[6]],
        [ranked[2], ranked[5]],
        [ranked[3], ranked[4]],
    ]
    client = org_client()
    play(quarters, vp=lambda seat: seat.position)  # the worse seed wins every quarterfinal
    assert "Pair the semifinals" in client.get(f"/tournaments/{event.pk}/manage/").content.decode()
    semis = services.start_final(event, user("org"))
    assert semis.stage == Round.Stage.SEMIFINAL and semis.tables.count() == 2
    pairs = [
        list(t.seats.order_by("position").values_list("entrant_id", flat=True))
        for t in semis.tables.order_by("number")
    ]
    assert pairs == [[ranked[4], ranked[7]], [ranked[5], ranked[6]]]  # re-seeded, best against worst
    play(semis)
    final = services.start_final(event, user("org"))
    assert list(final.tables.get().seats.values_list("entrant_id", flat=True)) == [ranked[4], ranked[5]]
    play(final)
    services.finish_event(event, user("org"))
    placed = services.final_standings(event)
    assert [p.stage for p in placed[:9]] == ["final"] * 2 + ["semifinal"] * 2 + ["quarterfinal"] * 4 + [
        "swiss"
    ]
    assert "the quarterfinals" in client.get(f"/tournaments/{event.pk}/standings/").content.decode()
    with pytest.raises(services.Conflict, match="follows the semifinals"):
        services.start_final(event, user("org"))


def test_a_player_who_dropped_does_not_go_through():
    event = new_event(10, table_size=2, top_cut=4, rounds=3)
    for _ in range(3):
        play(services.generate_round(event, user("org")))
    semis = services.start_top_cut(event, user("org"))
    play(semis)  # the better seed wins each semifinal
    winner = semis.tables.get(number=1).seats.get(position=0).entrant
    services.give_penalty(event, winner.pk, "disqualification", user("org"))
    final = services.start_final(event, user("org"))
    assert winner.pk not in final.tables.get().seats.values_list("entrant_id", flat=True)
