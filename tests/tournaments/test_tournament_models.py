"""Tournament models and services on PostgreSQL: events, registration, check-in, drops, late entries,
rounds paired with tournaments.pairing, results (report, confirm, dispute, organizer corrections),
standings, the audit log, the draft, top cut and swaps."""

from __future__ import annotations

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError, RestrictedError
from django.utils import timezone

from tests.tournaments.people import new_event, user
from tournaments import clock, drafting, services
from tournaments import draft as kiq
from tournaments.models import AuditEntry, Bye, Draft, Entrant, Event, Round, RoundClock, Seat, Table
from tournaments.pairing import PastRound, Player, pair_round
from tournaments.standings import Game as PlayedGame
from tournaments.standings import compute_standings

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------- helpers ------
def names(entrants) -> list[str]:
    return [e.name for e in entrants]


def play_round(rnd: Round, organizer, seed: int = 0) -> None:
    """The organizer enters a result at every table: VP by seat, so results vary with the seating."""
    for table in rnd.tables.all():
        seats = list(table.seats.order_by("position"))
        services.set_result(
            table, {s.entrant_id: (s.position * 3 + seed + s.entrant_id) % 16 for s in seats}, by=organizer
        )


def seats_of(rnd: Round) -> list[list[int]]:
    return [
        list(t.seats.order_by("position").values_list("entrant_id", flat=True))
        for t in rnd.tables.order_by("number")
    ]


# ---------------------------------------------------------------------------------- events -------
def test_create_event_with_defaults_and_audit():
    org = user("org")
    event = services.create_event(
        org, name="Spring Cup", date=datetime.date(2026, 4, 1), place="The Game Shop"
    )
    assert event.organizer == org and event.status == Event.Status.REGISTRATION
    assert (
        event.table_size == 4 and event.scoring == "normalised" and event.faction_pool == list(kiq.FACTIONS)
    )
    assert event.tiebreakers == ["vp_share", "sos", "firsts"] and event.warnings_seconds == [600]
    assert event.version == 1 and event.audit.get().action == "create"
    assert services.can_manage(org, event) and not services.can_manage(user("x"), event)


def test_event_settings_are_checked():
    with pytest.raises(services.Invalid, match="pool"):
        new_event(faction_pool=["Aliens", "Ninjas", "Pirates"], draft_mode=Event.DraftMode.TABLE)
    with pytest.raises(services.Invalid, match="Tie-breakers"):
        new_event(tiebreakers=["sos", "sos"])
    event = new_event()
    services.update_event(event, event.organizer, round_minutes=45, place="Hall B")
    event.refresh_from_db()
    assert event.round_minutes == 45 and event.audit.filter(action="settings").count() == 1


def test_the_minimum_pool_per_player_is_an_event_setting_the_drafts_follow():
    org = user("org")
    # 13 factions, tables of 4: 3 per player fit (12), with a ban each they would not (13 - 4 < 12).
    pool = list(kiq.FACTIONS)[:13]
    event = new_event(
        players=4, draft_mode=Event.DraftMode.TABLE, faction_pool=pool, min_factions_per_player=3
    )
    assert Event.objects.get(pk=event.pk).min_factions_per_player == 3
    assert new_event(name="Usual").min_factions_per_player == 2  # the rulebook's default
    before = (Event.objects.count(), AuditEntry.objects.count())
    for bad in ({"min_factions_per_player": 1}, {"min_factions_per_player": 9}, {"bans_per_player": 1}):
        with pytest.raises(services.Invalid, match="pool"):
            services.update_event(event, org, **bad)
    with pytest.raises(services.Invalid, match="pool"):
        new_event(
            name="Too many", faction_pool=pool, draft_mode=Event.DraftMode.EVENT, min_factions_per_player=4
        )
    assert (Event.objects.count(), AuditEntry.objects.count()) == before  # nothing changed
    event.refresh_from_db()
    assert event.min_factions_per_player == 3 and event.bans_per_player == 0
    # Both table drafts (every round) and per-event drafts get the event's rule.
    rnd = services.generate_round(event, by=org)
    assert drafting.state_of(rnd.tables.get().draft).min_per_player == 3
    services.unpair_round(event, org)
    services.update_event(event, org, min_factions_per_player=2, bans_per_player=1)
    entry = event.audit.filter(action="settings").first()
    assert (
        "minimum factions per player" in entry.message and entry.data["after"]["min_factions_per_player"] == 2
    )
    services.update_event(event, org, draft_mode=Event.DraftMode.EVENT)
    state = drafting.state_of(services.generate_round(event, by=org).tables.get().draft)
    assert state.min_per_player == 2 and state.bans_per_player == 1


@pytest.mark.parametrize(
    "players, size, rounds",
    [(4, 4, 2), (8, 4, 3), (16, 4, 3), (17, 4, 4), (64, 4, 4), (65, 4, 5), (8, 2, 3), (9, 2, 4)],
)
def test_suggested_rounds(players, size, rounds):
    assert services.suggested_rounds(players, size) == rounds


def test_co_organizers_manage_too():
    event = new_event()
    co = user("co")
    assert not services.can_manage(co, event)
    services.add_co_organizer(event, "CO", by=event.organizer)
    assert services.can_manage(co, event)
    with pytest.raises(services.Conflict):
        services.add_co_organizer(event, "co", by=event.organizer)
    with pytest.raises(services.Invalid):
        services.add_co_organizer(event, "nobody", by=event.organizer)
    services.remove_co_organizer(event, co.pk, by=event.organizer)
    assert not services.can_manage(co, event)


# ---------------------------------------------------------------------------------- entrants -----
def test_registration_self_and_by_organizer():
    event = new_event()
    ada_user = user("ada")
    ada = services.register(event, user=ada_user)
    assert ada.name == "ada" and not ada.checked_in and ada.user == ada_user
    bob = services.register(event, "Bob", by=event.organizer)
    assert bob.checked_in and bob.user is None  # added at the desk: checked in
    with pytest.raises(services.Conflict, match="already signed up"):
        services.register(event, "Other", user=ada_user)
    with pytest.raises(services.Conflict, match="Someone called BOB"):
        services.register(event, "BOB")
    with pytest.raises(services.Invalid):
        services.register(event, "   ")
    services.update_event(event, event.organizer, registration_open=False)
    with pytest.raises(services.Conflict, match="closed"):
        services.register(event, "Cy")
    services.register(event, "Cy", by=event.organizer)  # organizers still add players
    assert event.entrants.count() == 3
    assert AuditEntry.objects.filter(event=event, action="register").count() == 3


def test_names_and_users_are_unique_per_event_in_the_database():
    event = new_event(players=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Entrant.objects.create(event=event, name="p01")


def test_check_in_drop_reinstate_need_an_organizer():
    event = new_event()
    ada = services.register(event, "Ada")
    stranger = user("stranger")
    with pytest.raises(services.NotAllowed):
        services.check_in(ada, by=stranger)
    services.check_in(ada, by=event.organizer)
    ada.refresh_from_db()
    assert ada.checked_in and ada.checked_in_at is not None
    with pytest.raises(services.NotAllowed):
        services.drop(ada, by=stranger)
    services.drop(ada, by=ada)  # a player may drop themselves
    ada.refresh_from_db()
    assert ada.dropped and ada.dropped_after == 0
    with pytest.raises(services.NotAllowed):
        services.reinstate(ada, by=ada)
    services.reinstate(ada, by=event.organizer)
    ada.refresh_from_db()
    assert not ada.dropped and ada.dropped_after is None


# ---------------------------------------------------------------------------------- rounds -------
def test_round_one_is_seeded_random_and_reproducible():
    event = new_event(players=10)
    org = event.organizer
    rnd = services.generate_round(event, by=org)
    assert rnd.number == 1 and rnd.method == "random" and rnd.status == Round.Status.PAIRED
    assert [t.seats.count() for t in rnd.tables.order_by("number")] == [4, 3, 3]
    assert RoundClock.objects.get(round=rnd).remaining == 50 * 60
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    # The same event seed and round give the same tables, straight from the pure pairing.
    players = [Player(e.pk) for e in services.active_entrants(event)]
    expected = pair_round(players, [], 1, event.seed, services.pairing_options(event)).seats()
    assert seats_of(rnd) == expected
    assert rnd.tables.first().report["lines"][0].startswith("repeats")
    assert event.audit.filter(action="pair").count() == 1


def test_only_checked_in_players_are_paired_and_the_next_round_waits_for_results():
    event = new_event(players=8)
    late = services.register(event, "Zed")  # signed up, not checked in
    org = event.organizer
    rnd = services.generate_round(event, by=org)
    assert late.pk not in {pk for t in seats_of(rnd) for pk in t}
    with pytest.raises(services.Conflict, match="not finished: 2 tables still need"):
        services.generate_round(event, by=org)
    play_round(rnd, org)
    rnd.refresh_from_db()
    assert rnd.is_finished
    services.check_in(late, by=org)
    rnd2 = services.generate_round(event, by=org)
    assert late.pk in {pk for t in seats_of(rnd2) for pk in t} and rnd2.method == "exact"


def test_a_drop_keeps_the_current_table_and_leaves_from_the_next_round():
    event = new_event(players=8)
    org = event.organizer
    rnd = services.generate_round(event, by=org)
    leaver = rnd.tables.first().seats.first().entrant
    services.drop(leaver, by=org)
    leaver.refresh_from_db()
    assert leaver.dropped_after == 1
    assert Seat.objects.filter(round=rnd, entrant=leaver).exists()  # round 1 is not rewritten
    play_round(rnd, org)
    rnd2 = services.generate_round(event, by=org)
    assert leaver.pk not in {pk for t in seats_of(rnd2) for pk in t}
    assert sorted(t.seats.count() for t in rnd2.tables.all()) == [3, 4]
    rows = {r.entrant.pk: r for r in services.standings(event)}
    assert rows[leaver.pk].dropped and rows[leaver.pk].games == 1  # still in the standings, flagged


def test_late_entry_joins_the_next_round_or_a_short_table_now():
    event = new_event(players=7)  # 4 + 3
    org = event.organizer
    rnd = services.generate_round(event, by=org)
    full, short = rnd.tables.order_by("number")
    late = services.register(event, "Late", by=org)
    assert late.late_round == 1 and late.checked_in
    with pytest.raises(services.Conflict, match="full"):
        services.seat_late(late, full, by=org)
    seat = services.seat_late(late, short, by=org)
    assert seat.position == 3 and short.seats.count() == 4
    with pytest.raises(services.Conflict, match="already plays"):
        services.seat_late(late, short, by=org)
    later = services.register(event, "Later", by=org)  # waits for round 2
    play_round(rnd, org)
    rnd2 = services.generate_round(event, by=org)
    everyone = {pk for t in seats_of(rnd2) for pk in t}
    assert {late.pk, later.pk} <= everyone
    rows = {r.entrant.name: r for r in services.standings(event)}
    assert rows["Late"].games == 1 and rows["Later"].games == 0


def test_a_late_entrant_seated_at_a_short_table_updates_its_cost_explanation():
    event = new_event(players=11)  # 4 + 4 + 3
    org = event.organizer
    play_round(services.generate_round(event, by=org), org)
    rnd = services.generate_round(event, by=org)
    short = next(t for t in rnd.tables.all() if t.seats.count() == 3)
    before = short.report
    assert before["short"] is True
    late = services.register(event, "Late", by=org)
    services.seat_late(late, short, by=org)
    short.refresh_from_db()
    assert short.report != before and short.report["short"] is False
    # The same explanation as the round's tables get when explained afresh (as after a swap).
    numbers = list(rnd.tables.order_by("number").values_list("number", flat=True))
    fresh = services.named_pairing(rnd)[0].tables[numbers.index(short.number)]
    assert short.report == services.named_report(fresh, {})
    spread = next(line for line in short.report["lines"] if line.startswith("spread:"))
    assert spread.count(" / ") == 3  # four players' points, the late entrant's 0 among them


def test_history_stays_consistent_whatever_order_things_happen_in():
    """Drops, late entries, reinstatements and corrections never rewrite an earlier round's tables."""
    event = new_event(players=9)
    org = event.organizer
    r1 = services.generate_round(event, by=org)
    before = seats_of(r1)
    a, b = services.active_entrants(event)[:2]
    services.drop(a, by=org)
    services.register(event, "Newcomer", by=org)
    play_round(r1, org)
    services.reinstate(a, by=org)
    services.drop(b, by=org)
    r2 = services.generate_round(event, by=org)
    table = r1.tables.first()
    services.set_result(table, {pk: 1 for pk in table.seats.values_list("entrant_id", flat=True)}, by=org)
    assert seats_of(r1) == before
    assert services.history(event, 2) == [PastRound(tables=before, byes=[])]
    active = {pk for t in seats_of(r2) for pk in t}
    assert a.pk in active and b.pk not in active and len(active) == 9
    # Corrections to round 1 after round 2 was paired change the standings, not round 2.
    assert r1.is_finished or Round.objects.get(pk=r1.pk).is_finished


def test_unpair_a_round_before_it_starts():
    event = new_event(players=6)
    org = event.organizer
    rnd = services.generate_round(event, by=org)
    assert services.unpair_round(event, by=org) == 1
    event.refresh_from_db()
    assert not event.rounds_set.exists() and event.status == Event.Status.REGISTRATION
    rnd = services.generate_round(event, by=org)
    table = rnd.tables.first()
    services.set_result(table, {pk: 3 for pk in table.seats.values_list("entrant_id", flat=True)}, by=org)
    with pytest.raises(services.Conflict, match="can no longer"):
        services.unpair_round(event, by=org)


def test_byes_in_a_one_v_one_event():
    event = new_event(players=5, table_size=2)
    rnd = services.generate_round(event, by=event.organizer)
    assert rnd.tables.count() == 2 and Bye.objects.filter(round=rnd).count() == 1
    play_round(rnd, event.organizer)
    rows = {r.entrant.pk: r for r in services.standings(event)}
    bye = Bye.objects.get(round=rnd).entrant_id
    assert rows[bye].byes == 1 and rows[bye].points == 2.5


# ---------------------------------------------------------------------------------- results ------
def _two_tables():
    event = new_event(players=8)
    rnd = services.generate_round(event, by=event.organizer)
    return event, rnd, rnd.tables.order_by("number").first()


def test_report_then_everyone_confirms():
    event, rnd, table = _two_tables()
    seats = list(table.seats.select_related("entrant"))
    reporter, *others = [s.entrant for s in seats]
    vp = {s.entrant_id: 15 - 3 * i for i, s in enumerate(seats)}
    services.report_result(table, reporter, vp)
    table.refresh_from_db()
    assert table.state == Table.State.REPORTED and table.result_version == 1 and table.reported_by == reporter
    for other in others[:-1]:
        services.confirm_result(table, other, 1)
    table.refresh_from_db()
    assert table.state == Table.State.REPORTED
    with pytest.raises(services.Conflict, match="changed"):
        services.confirm_result(table, others[-1], 0)
    services.confirm_result(table, others[-1], 1)
    table.refresh_from_db()
    assert table.state == Table.State.CONFIRMED
    assert services.points_of(table, event) == {
        s.entrant_id: p for s, p in zip(seats, [4, 3, 2, 1], strict=True)
    }
    rnd.refresh_from_db()
    assert not rnd.is_finished  # the other table is still playing
    with pytest.raises(services.Conflict, match="confirmed"):
        services.report_result(table, reporter, vp)


def test_only_players_of_the_table_report_and_vp_are_checked():
    event, rnd, table = _two_tables()
    other_table = rnd.tables.exclude(pk=table.pk).get()
    outsider = other_table.seats.first().entrant
    ids = list(table.seats.values_list("entrant_id", flat=True))
    with pytest.raises(services.NotAllowed):
        services.report_result(table, outsider, dict.fromkeys(ids, 5))
    player = table.seats.first().entrant
    with pytest.raises(services.Invalid):
        services.report_result(table, player, dict.fromkeys(ids[:-1], 5))
    with pytest.raises(services.Invalid):
        services.report_result(table, player, {**dict.fromkeys(ids, 5), ids[0]: -1})
    with pytest.raises(services.Invalid):
        services.report_result(table, player, {**dict.fromkeys(ids, 5), ids[0]: "x"})
    table.refresh_from_db()
    assert table.state == Table.State.OPEN and not table.seats.filter(vp__isnull=False).exists()


def test_a_dispute_goes_to_the_organizer_who_settles_and_corrects_with_the_audit_log():
    event, rnd, table = _two_tables()
    a, b, *_ = [s.entrant for s in table.seats.all()]
    ids = list(table.seats.values_list("entrant_id", flat=True))
    services.report_result(table, a, dict(zip(ids, [15, 10, 8, 2], strict=True)))
    services.dispute_result(table, b, "I had 12")
    table.refresh_from_db()
    assert table.state == Table.State.DISPUTED and "I had 12" in table.dispute_note
    with pytest.raises(services.Conflict, match="disputed"):
        services.report_result(table, a, dict(zip(ids, [15, 10, 8, 2], strict=True)))
    with pytest.raises(services.NotAllowed):
        services.set_result(table, dict(zip(ids, [15, 12, 8, 2], strict=True)), by=a.user or user("a"))
    services.set_result(table, dict(zip(ids, [15, 12, 8, 2], strict=True)), by=event.organizer)
    table.refresh_from_db()
    assert table.state == Table.State.CONFIRMED and table.decided_by == event.organizer
    services.set_result(table, dict(zip(ids, [15, 12, 9, 2], strict=True)), by=event.organizer)
    messages = list(
        event.audit.filter(action__in=["report", "dispute", "result"]).values_list("message", flat=True)
    )
    assert any("corrected the result from" in m for m in messages)
    assert any("settled the dispute" in m for m in messages)
    assert any("disputed the result (I had 12)" in m for m in messages)


def test_the_audit_log_is_append_only():
    event = new_event()
    entry = event.audit.first()
    entry.message = "rewritten"
    with pytest.raises(ValueError):
        entry.save()


# ---------------------------------------------------------------------------------- standings ----
def test_standings_match_the_pure_module_with_the_events_options():
    event = new_event(players=9, scoring="4321", tiebreakers=["vp", "firsts"])
    org = event.organizer
    for seed in range(2):
        rnd = services.generate_round(event, by=org)
        play_round(rnd, org, seed)
    games = []
    for table in Table.objects.filter(round__event=event):
        games.append(PlayedGame(table.round.number, {s.entrant_id: s.vp for s in table.seats.all()}))
    pks = [e.pk for e in event.entrants.all()]
    expected = compute_standings(pks, games, options=services.standings_options(event))
    rows = services.standings(event)
    assert [r.entrant.pk for r in rows] == [s.player for s in expected]
    assert [r.points for r in rows] == [s.points for s in expected]
    assert rows[0].tiebreaks == expected[0].tiebreaks and rows[0].rank == 1


def test_unconfirmed_results_do_not_count():
    event, rnd, table = _two_tables()
    ids = list(table.seats.values_list("entrant_id", flat=True))
    services.report_result(table, table.seats.first().entrant, dict.fromkeys(ids, 4))
    assert all(r.points == 0 for r in services.standings(event))


# ---------------------------------------------------------------------------------- draft --------
def test_event_draft_at_round_one_tables_and_the_pair_is_kept():
    event = new_event(players=4, draft_mode=Event.DraftMode.EVENT)
    org = event.organizer
    rnd = services.generate_round(event, by=org)
    table = rnd.tables.get()
    draft = table.draft
    state = drafting.state_of(draft)
    assert state.players == tuple(table.seats.order_by("position").values_list("entrant_id", flat=True))
    entrants = {e.pk: e for e in event.entrants.all()}
    # Someone else than the picker is refused, and a stale version too.
    picker = kiq.current_picker(state)
    other = next(pk for pk in entrants if pk != picker)
    with pytest.raises(services.NotAllowed):
        drafting.choose(draft.pk, "Aliens", 0, entrant=entrants[other])
    with pytest.raises(services.Conflict):
        drafting.choose(draft.pk, "Aliens", 5, entrant=entrants[picker])
    version = 0
    while True:
        draft.refresh_from_db()
        state = drafting.state_of(draft)
        if kiq.is_done(state):
            break
        faction = kiq.legal_picks(state)[0]
        drafting.choose(draft.pk, faction, version, entrant=entrants[kiq.current_picker(state)])
        version += 1
    assert draft.status == Draft.Status.DONE and version == 8
    for seat in table.seats.select_related("entrant"):
        assert len(seat.factions) == 2 and seat.entrant.factions == seat.factions
    play_round(rnd, org)
    rnd2 = services.generate_round(event, by=org)
    assert not Draft.objects.filter(table__round=rnd2).exists()
    assert all(len(s.factions) == 2 for s in Seat.objects.filter(round=rnd2))


# Round 1's tables drafted separately: A B C D at one, E F G H at the other, each table eight
# different factions, so each faction is held once at each table (tests/tournaments/test_pairing.py
# has the same case without a database).
CLASH_FACTIONS = {
    "A": ["Aliens", "Ninjas"], "B": ["Pirates", "Robots"], "C": ["Wizards", "Zombies"],
    "D": ["Dinosaurs", "Tricksters"], "E": ["Aliens", "Pirates"], "F": ["Ninjas", "Robots"],
    "G": ["Wizards", "Dinosaurs"], "H": ["Zombies", "Tricksters"],
}  # fmt: skip


@pytest.mark.parametrize("mode", [Event.DraftMode.EVENT, Event.DraftMode.NONE])
def test_a_per_event_draft_keeps_holders_of_a_faction_apart_later(mode):
    event = new_event(players=8, draft_mode=mode)
    org = event.organizer
    for e in event.entrants.all():  # a pair each, so round 1 needs no draft
        services.set_factions(e, ["Sharks", "Tornados"], org)
    r1 = services.generate_round(event, by=org)
    first, second = seats_of(r1)
    letter = dict(zip([*first, *second], "ABCDEFGH", strict=True))
    for pk, name in letter.items():
        services.set_factions(pk, CLASH_FACTIONS[name], org)
    for table in r1.tables.all():  # A and E win, B and F second, ...
        services.set_result(table, {s.entrant_id: 12 - 4 * s.position for s in table.seats.all()}, by=org)
    r2 = services.generate_round(event, by=org)
    tables = sorted("".join(sorted(letter[pk] for pk in t)) for t in seats_of(r2))
    reports = [t.report for t in r2.tables.order_by("number")]
    if mode == Event.DraftMode.EVENT:
        assert services.pairing_options(event).faction_copies == 1
        assert tables == ["ABGH", "CDEF"]  # as few repeats as the best spread, and no clash
        assert all(r["clashes"] == [] for r in reports)
        # Swapping B and E puts A and E (Aliens) together: the warning names them.
        a, b, e = (next(pk for pk, n in letter.items() if n == x) for x in "ABE")
        names_of = dict(event.entrants.values_list("pk", "name"))
        warning = next(w for w in services.check_swap(r2, b, e).warnings if "Aliens" in w)
        assert warning.endswith("both hold Aliens (1 copy per table)")
        assert names_of[a] in warning and names_of[e] in warning
        services.swap_players(r2, b, e, by=org)
        clashed = [t.report for t in r2.tables.order_by("number") if t.report["clashes"]]
        assert len(clashed) == 2 and any(line.startswith("faction clash:") for line in clashed[0]["lines"])
    else:
        # Players bring their own factions: nothing to keep apart, the spread decides.
        assert services.pairing_options(event).faction_copies is None
        assert tables == ["ABEF", "CDGH"]


def test_the_seat_before_the_first_player_picks_first_at_every_table_draft():
    """First pick and first turn are separate advantages (issue 14): the pairing balances the first
    seat (who plays first) over the players, and each table's draft starts with the last seat, the
    one before the first player clockwise; in round 1, later rounds, after a swap or a late entrant."""
    event = new_event(players=11, draft_mode=Event.DraftMode.TABLE)
    org = event.organizer

    def firsts(rnd):
        out = []
        for table in rnd.tables.order_by("number"):
            state = drafting.state_of(Draft.objects.get(table=table))
            seats = list(table.seats.order_by("position").values_list("entrant_id", flat=True))
            out.append((state.first, state.first_by, kiq.current_picker(state), seats[-1], seats[0]))
        return out

    r1 = services.generate_round(event, by=org)
    for first, by, picker, last_seat, first_seat in firsts(r1):
        assert first == picker == last_seat and by == "given" and first != first_seat
    for table in r1.tables.all():
        draft = Draft.objects.get(table=table)
        while draft.status == Draft.Status.OPEN:
            drafting.pick_for_current(draft.pk, org)
            draft.refresh_from_db()
    play_round(r1, org)
    r2 = services.generate_round(event, by=org)
    assert all(first == last_seat for first, _, _, last_seat, _ in firsts(r2))
    # A swap of two last seats restarts both drafts with the new last seats.
    (*_, a), (*_, b), _ = seats_of(r2)
    services.swap_players(r2, a, b, by=org)
    assert [first for first, *_ in firsts(r2)][:2] == [b, a]
    # A late entrant takes the last seat of a short table: the seat before the first player.
    late = services.register(event, "Late", by=org)
    short = next(t for t in r2.tables.all() if t.seats.count() < 4)
    services.seat_late(late, short, by=org)
    assert all(first == last_seat for first, _, _, last_seat, _ in firsts(r2))
    assert drafting.state_of(Draft.objects.get(table=short)).first == late.pk


def test_organizer_picks_for_a_player_and_the_timer_takes_a_random_pick(settings):
    event = new_event(players=3, draft_mode=Event.DraftMode.TABLE, pick_seconds=30)
    org = event.organizer
    rnd = services.generate_round(event, by=org)
    draft = rnd.tables.get().draft
    assert draft.deadline is None  # the timer runs from the start of the round (see the next test)
    clock.start(rnd.clock, org)
    draft.refresh_from_db()
    assert draft.deadline is not None
    drafting.pick_for_current(draft.pk, org)
    draft.refresh_from_db()
    assert draft.version == 1 and draft.deadline is not None
    assert not drafting.timeout(draft.pk, 1)  # its deadline is ahead
    Draft.objects.filter(pk=draft.pk).update(deadline=draft.deadline - datetime.timedelta(seconds=31))
    assert not drafting.timeout(draft.pk, 0)  # a stale task
    assert drafting.timeout(draft.pk, 1)
    assert not drafting.timeout(draft.pk, 1)  # the same task twice: once
    draft.refresh_from_db()
    state = drafting.state_of(draft)
    assert draft.version == 2 and state.picks[-1].auto
    with pytest.raises(services.NotAllowed):
        drafting.pick_for_current(draft.pk, user("stranger"))


@pytest.mark.parametrize("mode", [Event.DraftMode.TABLE, Event.DraftMode.EVENT])
def test_the_pick_timer_runs_from_the_start_of_the_round(
    monkeypatch, django_capture_on_commit_callbacks, mode
):
    scheduled = []
    monkeypatch.setattr(drafting, "schedule_timeout", lambda *args: scheduled.append(args))
    monkeypatch.setattr(clock, "schedule", lambda *args: None)
    event = new_event(players=7, draft_mode=mode, pick_seconds=40)
    org = event.organizer
    with django_capture_on_commit_callbacks(execute=True):
        rnd = services.generate_round(event, by=org)
    drafts = list(Draft.objects.filter(table__round=rnd).order_by("table__number"))
    assert len(drafts) == 2
    # Paired, not started: players are still finding their tables; no timer runs.
    assert all(d.deadline is None for d in drafts) and scheduled == []
    started = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        clock.start(rnd.clock, org)
    drafts = list(Draft.objects.filter(table__round=rnd).order_by("table__number"))
    for draft in drafts:
        assert draft.version == 0
        assert 39 <= (draft.deadline - started).total_seconds() <= 41
    # One timeout task per draft, for version 0 and its deadline, only once the round is committed.
    assert sorted(scheduled) == sorted((d.pk, 0, d.deadline) for d in drafts)
    # The first picker who lets it run out gets the default pick, as anyone later would.
    draft = drafts[0]
    first = drafting.state_of(draft).first
    assert not drafting.timeout(draft.pk, 0)  # not yet
    Draft.objects.filter(pk=draft.pk).update(deadline=timezone.now() - datetime.timedelta(seconds=1))
    assert drafting.timeout(draft.pk, 0) and not drafting.timeout(draft.pk, 0)
    draft.refresh_from_db()
    pick = drafting.state_of(draft).picks[0]
    assert pick.player == first and pick.auto and draft.version == 1


def test_without_a_pick_timer_a_draft_has_no_deadline(monkeypatch, django_capture_on_commit_callbacks):
    scheduled = []
    monkeypatch.setattr(drafting, "schedule_timeout", lambda *args: scheduled.append(args))
    event = new_event(players=4, draft_mode=Event.DraftMode.TABLE)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = services.generate_round(event, by=event.organizer)
    assert rnd.tables.get().draft.deadline is None and scheduled == []


# ---------------------------------------------------------------------------------- top cut ------
def test_top_cut_of_four_after_the_swiss_rounds():
    event = new_event(players=8, top_cut=4)
    org = event.organizer
    for _ in range(2):
        play_round(services.generate_round(event, by=org), org)
    ranked = [r.entrant.pk for r in services.standings(event)]
    final = services.start_top_cut(event, by=org)
    assert final.stage == Round.Stage.FINAL and seats_of(final) == [ranked[:4]]
    with pytest.raises(services.Conflict, match="top cut"):
        services.generate_round(event, by=org)
    play_round(final, org)
    services.finish_event(event, by=org)
    event.refresh_from_db()
    assert event.is_finished


def test_a_one_v_one_top_four_plays_semifinals_of_two_then_a_final_of_two():
    event = new_event(players=8, table_size=2, top_cut=4)
    org = event.organizer
    for _ in range(3):
        play_round(services.generate_round(event, by=org), org)
    ranked = [r.entrant.pk for r in services.standings(event)]
    semis = services.start_top_cut(event, by=org)
    assert semis.stage == Round.Stage.SEMIFINAL
    assert seats_of(semis) == [[ranked[0], ranked[3]], [ranked[1], ranked[2]]]
    for table in semis.tables.all():  # the worse seed wins each semifinal
        services.set_result(table, {s.entrant_id: 5 + s.position for s in table.seats.all()}, by=org)
    final = services.start_final(event, by=org)
    assert final.stage == Round.Stage.FINAL and seats_of(final) == [[ranked[2], ranked[3]]]
    # A top 9 is for tables of 3: a 1v1 bracket is a top 4, 8 or 16 (refused in the settings).
    with pytest.raises(services.Invalid, match="1v1 event's top cut is a top 4, 8 or 16"):
        services.update_event(event, org, top_cut=9)
    with pytest.raises(services.Invalid, match="1v1"):
        new_event(name="Big 1v1", table_size=2, top_cut=3)


def test_top_sixteen_semifinals_then_the_final():
    event = new_event(players=16, top_cut=16)
    org = event.organizer
    play_round(services.generate_round(event, by=org), org)
    ranked = [r.entrant.pk for r in services.standings(event)]
    semis = services.start_top_cut(event, by=org)
    assert semis.stage == Round.Stage.SEMIFINAL
    assert seats_of(semis)[0] == [ranked[0], ranked[7], ranked[8], ranked[15]]
    for table in semis.tables.all():
        seats = list(table.seats.order_by("position"))
        services.set_result(table, {s.entrant_id: 10 + s.position for s in seats}, by=org)  # last seed wins
    final = services.start_final(event, by=org)
    assert seats_of(final) == [[ranked[12], ranked[13], ranked[14], ranked[15]]]


# ---------------------------------------------------------------------------------- swaps --------
def test_swap_with_warnings_and_the_audit_log():
    event = new_event(players=8)
    org = event.organizer
    r1 = services.generate_round(event, by=org)
    play_round(r1, org)
    r2 = services.generate_round(event, by=org)
    (a, *_), (b, *_) = seats_of(r2)
    # A swap that puts former table-mates together again warns about it.
    r1_tables = seats_of(r1)
    check = services.check_swap(r2, a, b)
    assert check.pairing.method == "manual" and isinstance(check.delta, float)
    warnings = services.swap_players(r2, a, b, by=org)
    assert warnings == list(check.warnings)
    after = seats_of(r2)
    assert after[0][0] == b and after[1][0] == a
    assert r1_tables == seats_of(r1)
    entry = event.audit.filter(action="swap").get()
    assert "swapped" in entry.message and entry.data["a"] == a
    with pytest.raises(services.NotAllowed):
        services.swap_players(r2, a, b, by=user("stranger"))
    table = r2.tables.first()
    services.set_result(table, {pk: 1 for pk in table.seats.values_list("entrant_id", flat=True)}, by=org)
    with pytest.raises(services.Conflict):
        services.swap_players(r2, a, b, by=org)


def test_an_event_with_results_is_not_deleted_one_without_goes_whole_and_a_seated_player_stays():
    event = new_event(players=5, table_size=2)
    rnd = services.generate_round(event, by=event.organizer)
    seated = Seat.objects.filter(round=rnd).first().entrant
    with pytest.raises(RestrictedError), transaction.atomic():  # not on its own
        seated.delete()
    play_round(rnd, event.organizer)
    with pytest.raises(ProtectedError), transaction.atomic():  # archived instead (issue 28)
        event.delete()
    assert Seat.objects.filter(round=rnd).count() == 4 and Bye.objects.filter(round=rnd).exists()
    unplayed = new_event(players=5, table_size=2)
    services.generate_round(unplayed, by=unplayed.organizer)  # paired, no result yet
    Event.objects.get(pk=unplayed.pk).delete()
    assert not Entrant.objects.filter(event_id=unplayed.pk).exists()
    assert not Seat.objects.filter(round__event_id=unplayed.pk).exists()
    assert Entrant.objects.filter(event=event).count() == 5


def test_a_round_1_bye_and_a_late_entrant_draft_in_round_2_without_clashing_at_their_table():
    """A per-event draft: round 1's tables draft; the player with a bye and a late entrant have no
    pair at round 2, so they draft at their round-2 table from the pool less what their table-mates
    hold (issue 14), and keep that pair."""
    event = new_event(players=5, draft_mode=Event.DraftMode.EVENT, layout="byes", faction_copies=1)
    org = event.organizer
    r1 = services.generate_round(event, by=org)
    assert r1.byes.count() == 1
    bye = r1.byes.get().entrant
    for table in r1.tables.all():
        draft = Draft.objects.get(table=table)
        while draft.status == Draft.Status.OPEN:
            drafting.pick_for_current(draft.pk, org)
            draft.refresh_from_db()
    play_round(r1, org)
    late = services.register(event, "Late", by=org)
    r2 = services.generate_round(event, by=org)
    drafts = list(Draft.objects.filter(table__round=r2))
    drafting_players = {p for d in drafts for p in drafting.state_of(d).players}
    assert drafting_players == {bye.pk, late.pk}
    for draft in drafts:
        held = [
            f for s in draft.table.seats.all() if s.entrant_id not in drafting_players for f in s.factions
        ]
        pool = dict(drafting.state_of(draft).pool)
        assert held and not set(held) & set(pool)  # nothing a table-mate holds is offered
        while draft.status == Draft.Status.OPEN:
            drafting.pick_for_current(draft.pk, org)
            draft.refresh_from_db()
    for seat in Seat.objects.filter(round=r2).select_related("entrant"):
        assert len(seat.factions) == 2 and seat.entrant.factions == seat.factions
    factions = [f for s in Seat.objects.filter(round=r2) for f in s.factions]
    by_table = {}
    for s in Seat.objects.filter(round=r2):
        by_table.setdefault(s.table_id, []).extend(s.factions)
    assert all(len(fs) == len(set(fs)) for fs in by_table.values()) and factions
