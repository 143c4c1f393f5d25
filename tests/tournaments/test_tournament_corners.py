"""The last wrong corners of issue 27, on the real PostgreSQL: a semifinal corrected after the final
is seated, a no-show undone after the result, what the pages call the seeded draw and the seat order,
and the confirmations asked before the big steps of a round."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.tournaments import people
from tests.tournaments.people import user
from tournaments import clock, services
from tournaments.models import AuditEntry, Entrant, Event, Round, Seat, Table

pytestmark = pytest.mark.django_db


def new_event(players: int, **fields) -> Event:
    return people.new_event(players, **({"name": "Corners"} | fields))


def play(rnd: Round) -> None:
    for table in rnd.tables.all():
        services.set_result(
            table, {s.entrant_id: 12 - 2 * s.position for s in table.seats.all()}, by=user("org")
        )


def org_client() -> Client:
    c = Client()
    c.force_login(user("org"))
    return c


# ---------------------------------------------------------------------------------- semifinals ---
def seated_final(players: int = 16, **fields):
    event = new_event(players, top_cut=16, **fields)
    play(services.generate_round(event, user("org")))
    semis = services.start_top_cut(event, user("org"))
    play(semis)
    final = services.start_final(event, user("org"))
    return event, semis, final


def final_players(final: Round) -> list[int]:
    return list(Seat.objects.filter(round=final).order_by("position").values_list("entrant_id", flat=True))


def flip(table: Table) -> dict[int, int]:
    """The table's VP turned around: the last seat wins now."""
    return {s.entrant_id: 2 + 2 * s.position for s in table.seats.all()}


def test_correcting_a_semifinal_winner_after_the_final_is_seated_is_refused_then_reseats_on_consent():
    event, semis, final = seated_final()
    table = semis.tables.order_by("number").first()
    old_winner = table.seats.get(position=0).entrant_id
    new_winner = table.seats.order_by("-position").first().entrant_id
    assert old_winner in final_players(final)
    before = (final_players(final), list(Seat.objects.filter(table=table).values_list("vp", flat=True)))
    logged = AuditEntry.objects.filter(event=event).count()
    with pytest.raises(services.AdvancingChanged, match="Confirm to correct it") as refused:
        services.set_result(table, flip(table), by=user("org"))
    assert refused.value.can_reseat
    assert (
        final_players(final),
        list(Seat.objects.filter(table=table).values_list("vp", flat=True)),
    ) == before
    assert AuditEntry.objects.filter(event=event).count() == logged
    # A correction that keeps the winner needs nothing more.
    keep = {s.entrant_id: 13 - 2 * s.position for s in table.seats.all()}
    services.set_result(table, keep, by=user("org"))
    assert final_players(final) == before[0]
    # The page asks first, then re-pairs the final with the organizer's consent.
    org = org_client()
    post = {f"vp_{pk}": str(vp) for pk, vp in flip(table).items()}
    page = org.post(f"/tournaments/{event.pk}/tables/{table.pk}/result/", post)
    assert page.status_code == 409 and "Correct it and pair the final again" in page.content.decode()
    org.post(f"/tournaments/{event.pk}/tables/{table.pk}/result/", {**post, "reseat_final": "1"})
    final = Round.objects.get(event=event, stage=Round.Stage.FINAL)
    assert new_winner in final_players(final) and old_winner not in final_players(final)
    assert "Paired the final again" in AuditEntry.objects.filter(event=event).first().message
    # The final order follows the real winner (before: the real winner ended 5th).
    play(final)
    placed = {p.entrant.pk: p for p in services.final_standings(event)}
    assert placed[new_winner].stage == "final" and placed[old_winner].stage == "semifinal"


def test_a_semifinal_winner_cannot_change_once_the_final_has_started():
    event, semis, final = seated_final()
    clock.start(final.clock, user("org"))
    table = semis.tables.order_by("number").first()
    before = final_players(final)
    for reseat in (False, True):
        with pytest.raises(services.AdvancingChanged, match="has started") as refused:
            services.set_result(table, flip(table), by=user("org"), reseat_final=reseat)
        assert not refused.value.can_reseat
    assert final_players(Round.objects.get(pk=final.pk)) == before
    response = org_client().post(
        f"/tournaments/{event.pk}/tables/{table.pk}/result/",
        {f"vp_{pk}": str(vp) for pk, vp in flip(table).items()},
        follow=True,
    )
    assert "has started" in response.content.decode()


def seated(rnd: Round) -> list[list[int]]:
    """Each table's players of a round, table by table, in seat order."""
    return [
        list(t.seats.order_by("position").values_list("entrant_id", flat=True))
        for t in Round.objects.get(pk=rnd.pk).tables.order_by("number")
    ]


def cut_snapshot(event: Event, table: Table) -> tuple:
    """What a refused correction must leave alone: the table's VP, every cut round's seats, the log."""
    return (
        list(Seat.objects.filter(table=table).order_by("position").values_list("vp", flat=True)),
        list(
            Seat.objects.filter(round__event=event)
            .exclude(round__stage=Round.Stage.SWISS)
            .order_by("round__number", "table__number", "position")
            .values_list("round__number", "table__number", "entrant_id")
        ),
        AuditEntry.objects.filter(event=event).count(),
    )


def test_a_top_8_semifinal_correction_counts_who_goes_through_not_who_won():
    event = new_event(12, top_cut=8, rounds=2)  # two semifinals of 4, their first two to the final
    for _ in range(2):
        play(services.generate_round(event, user("org")))
    semis = services.start_top_cut(event, user("org"))
    play(semis)  # seats 1 and 2 of each table go through
    final = services.start_final(event, user("org"))
    table = semis.tables.get(number=1)
    first, second, third, fourth = seated(semis)[0]
    assert {first, second} <= set(seated(final)[0])
    # The first two change places: the same two go through, so the correction needs nothing more.
    services.set_result(table, {first: 10, second: 12, third: 8, fourth: 6}, by=user("org"))
    assert {first, second} <= set(seated(final)[0])
    # The third overtakes the second: who goes through changes, so it is asked first.
    before = cut_snapshot(event, table)
    third_through = {first: 12, second: 6, third: 10, fourth: 4}
    with pytest.raises(services.AdvancingChanged, match="Confirm to correct it") as refused:
        services.set_result(table, third_through, by=user("org"))
    assert refused.value.can_reseat and refused.value.next_stage == "final"
    names = dict(Entrant.objects.filter(event=event).values_list("pk", "name"))
    assert f"sends {names[third]} through from table 1 of the semifinals instead of {names[second]}" in (
        refused.value.message
    )
    assert cut_snapshot(event, table) == before
    services.set_result(table, third_through, by=user("org"), reseat_final=True)
    final = Round.objects.get(event=event, stage=Round.Stage.FINAL)
    assert third in seated(final)[0] and second not in seated(final)[0] and first in seated(final)[0]
    assert "Paired the final again" in AuditEntry.objects.filter(event=event).first().message
    # Once the final is under way, a change of who went through is refused, consent or not.
    clock.start(final.clock, user("org"))
    before = cut_snapshot(event, table)
    for reseat in (False, True):
        with pytest.raises(services.AdvancingChanged, match="has started") as refused:
            services.set_result(
                table, {first: 12, second: 10, third: 8, fourth: 6}, by=user("org"), reseat_final=reseat
            )
        assert not refused.value.can_reseat
    assert cut_snapshot(event, table) == before


def test_a_one_v_one_quarterfinal_correction_pairs_the_semifinals_again_or_is_refused():
    event = new_event(10, table_size=2, top_cut=8, rounds=3)
    for _ in range(3):
        play(services.generate_round(event, user("org")))
    quarters = services.start_top_cut(event, user("org"))
    assert quarters.stage == Round.Stage.QUARTERFINAL
    play(quarters)  # the better seed wins each quarterfinal
    semis = services.start_final(event, user("org"))
    table = quarters.tables.get(number=1)
    old_winner, new_winner = seated(quarters)[0]
    assert old_winner in sum(seated(semis), []) and new_winner not in sum(seated(semis), [])
    before = cut_snapshot(event, table)
    with pytest.raises(services.AdvancingChanged, match="Confirm to correct it") as refused:
        services.set_result(table, flip(table), by=user("org"))
    assert refused.value.can_reseat and refused.value.next_stage == "semifinals"
    assert "table 1 of the quarterfinals" in refused.value.message
    assert cut_snapshot(event, table) == before
    # The dashboard's correction asks, then pairs the semifinals again with the organizer's consent.
    org = org_client()
    post = {f"vp_{pk}": str(vp) for pk, vp in flip(table).items()}
    page = org.post(f"/tournaments/{event.pk}/tables/{table.pk}/result/", post)
    assert page.status_code == 409 and "Correct it and pair the semifinals again" in page.content.decode()
    assert cut_snapshot(event, table) == before
    org.post(f"/tournaments/{event.pk}/tables/{table.pk}/result/", {**post, "reseat_final": "1"})
    semis = Round.objects.get(event=event, stage=Round.Stage.SEMIFINAL)
    players = sum(seated(semis), [])
    assert new_winner in players and old_winner not in players and len(players) == 4
    assert "Paired the semifinals again" in AuditEntry.objects.filter(event=event).first().message
    # Once a semifinal has a result, the quarterfinals' winners stand as played.
    services.set_result(semis.tables.get(number=1), flip(semis.tables.get(number=1)), by=user("org"))
    other = quarters.tables.get(number=2)
    before = cut_snapshot(event, other)
    with pytest.raises(services.AdvancingChanged, match="the semifinals have started"):
        services.set_result(other, flip(other), by=user("org"), reseat_final=True)
    assert cut_snapshot(event, other) == before


# ---------------------------------------------------------------------------------- no-shows -----
def test_a_no_show_can_be_undone_after_the_tables_result_is_confirmed():
    event = new_event(4)
    rnd = services.generate_round(event, user("org"))
    table = rnd.tables.get()
    seats = list(table.seats.order_by("position"))
    services.mark_no_show(table, seats[3].entrant_id, user("org"))
    services.set_result(table, {s.entrant_id: [9, 7, 5, 0][s.position] for s in seats}, by=user("org"))
    table.refresh_from_db()
    assert table.is_confirmed and Entrant.objects.get(pk=seats[3].entrant_id).dropped
    page = org_client().get(f"/tournaments/{event.pk}/rounds/1/results/").content.decode()
    assert "P0" in page and "was not a no-show" in page
    org_client().post(
        f"/tournaments/{event.pk}/tables/{table.pk}/no-show/undo/", {"entrant": seats[3].entrant_id}
    )
    seat = Seat.objects.get(pk=seats[3].pk)
    assert not seat.no_show and seat.vp == 0 and seat.confirmed
    assert not Entrant.objects.get(pk=seats[3].entrant_id).dropped
    table.refresh_from_db()
    assert table.is_confirmed
    row = {r.entrant.pk: r for r in services.standings(event)}[seats[3].entrant_id]
    assert row.points == 1.0 and row.games == 1  # last at the table, now as a player who came
    assert (
        "their 0 VP stand until the result is corrected"
        in AuditEntry.objects.filter(event=event).first().message
    )


# ---------------------------------------------------------------------------------- pages --------
def test_the_seeded_draw_reads_as_by_lot_and_seats_are_not_numbered_like_placings(client):
    event = new_event(8)
    rnd = services.generate_round(event, user("org"))
    for table in rnd.tables.all():  # every player ties: the order is settled by lot
        services.set_result(table, {s.entrant_id: 5 for s in table.seats.all()}, by=user("org"))
    html = client.get(f"/tournaments/{event.pk}/standings/").content.decode()
    assert ">by lot</abbr>" in html and ">draw</abbr>" not in html
    pages = {
        "projector/": client.get(f"/tournaments/{event.pk}/projector/").content.decode()
    }  # between rounds
    services.generate_round(event, user("org"))
    for page in ("projector/", "", "round/2/"):
        html = pages.get(page) or client.get(f"/tournaments/{event.pk}/{page}").content.decode()
        tables = re.findall(r'<article class="t-table[^"]*" id="table-\d+">.*?</article>', html, re.S)
        assert tables, page
        for table in tables:
            assert '<ol class="t-seats"' not in table and '<ul class="t-seats"' in table
            assert table.count("plays first") == 1


def test_the_big_steps_of_a_round_ask_first():
    event = new_event(16, top_cut=16)
    org = org_client()
    rnd = services.generate_round(event, user("org"))
    clock.start(rnd.clock, user("org"))
    html = org.get(f"/tournaments/{event.pk}/manage/").content.decode()
    assert re.search(r"clock/call/\"[^>]*data-confirm=\"Call time at every table now", html)
    play(rnd)
    html = org.get(f"/tournaments/{event.pk}/manage/").content.decode()
    assert re.search(r"rounds/top-cut/\"[^>]*data-confirm=\"Start the top 16\?", html)
    play(services.start_top_cut(event, user("org")))
    html = org.get(f"/tournaments/{event.pk}/manage/").content.decode()
    assert re.search(r"rounds/final/\"[^>]*data-confirm=\"Pair the final", html)
