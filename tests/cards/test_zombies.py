"""Every card of the Zombies (Core Set), played through the engine.

Each test builds a position with `Scenario`, plays the card with the testing helpers and checks the
exact effect: the zone every card ends in, the plays counted, the events announced and the log. The
rulings come from the catalog (smashup/cards/catalog/core.yaml, Zombies: AEG's notes) and the
rulebooks (a "may" is optional, anything else is mandatory; discard piles are public; a searched
deck is shuffled and the cards found revealed).

Seat 1 always keeps a card it can play, so that when seat 0's turn ends the game stops at seat 1's
Play Cards decision.
"""
from __future__ import annotations

import smashup.cards  # noqa: F401  (declares the cards in REGISTRY)
from smashup.engine import ACTION, MINION, REGISTRY, Scenario
from smashup.engine.testing import (
    assert_refused,
    base_uid,
    card,
    choose,
    decline,
    find_cards,
    labels,
    play,
    record_events,
)

PLAYERS = [("Zombies", "Robots"), ("Ninjas", "Aliens")]
FILLER = "Ninja Acolyte"  # a card seat 1 holds so the game waits on its turn
DECK = ("Nukebot", "Tech Center", "Warbot", "Hoverbot")  # seat 0's deck, top first
BASES = ("Jungle Oasis", "Factory 436-1337", "The Mothership", "The Great Library")
OASIS, FACTORY, SHIP, LIBRARY = 0, 1, 2, 3


def scenario(bases=BASES, deck=DECK):
    s = Scenario(PLAYERS)
    for name in bases:
        s.base(name)
    s.hand(1, FILLER)
    s.deck(0, *deck)
    s.deck(1, *[FILLER] * 4)
    s.base_deck("Rhodes Plaza Mall")
    return s


def option_cards(game) -> set[int]:
    return {o.card for o in game.pending.options if o.card is not None}


def names(game, cards) -> list[str]:
    return [game.name(c) for c in cards]


def hand_names(game, seat=0) -> list[str]:
    return names(game, game.players[seat].hand)


def discard_names(game, seat=0) -> list[str]:
    return sorted(names(game, game.players[seat].discard))


def log(game) -> list[str]:
    return [t for t, to in game.log_lines if to is None]


def private_log(game, seat) -> list[str]:
    return [t for t, to in game.log_lines if to is not None and seat in to]


def at(game, seat, kind) -> bool:
    return game.pending is not None and (game.pending.seat, game.pending.kind) == (seat, kind)


# ====================================================================== the deck =============


def test_the_zombie_deck_matches_the_catalog():
    expected = {
        "Zombie Lord": (MINION, 5, 1), "Grave Digger": (MINION, 4, 2),
        "Tenacious Z": (MINION, 2, 3), "Walker": (MINION, 2, 4),
        "Grave Robbing": (ACTION, 0, 2), "Lend a Hand": (ACTION, 0, 1),
        "Mall Crawl": (ACTION, 0, 1), "Not Enough Bullets": (ACTION, 0, 1),
        "Outbreak": (ACTION, 0, 1), "Overrun": (ACTION, 0, 1),
        "They Keep Coming": (ACTION, 0, 2), "They're Coming To Get You": (ACTION, 0, 1),
    }
    zombies = REGISTRY.faction("Zombies")
    assert {c.name: (c.kind, c.power, c.copies) for c in zombies.cards} == expected
    assert len(zombies.deck()) == 20
    assert all(c.text for c in zombies.cards)
    assert {c.name for c in zombies.cards if c.attach} == {"Overrun",
                                                           "They're Coming To Get You"}


# ====================================================================== Zombie Lord ==========


def lord_game(discard=("Walker", "Walker", "Zapbot", "Grave Digger", "Grave Robbing")):
    s = scenario()
    s.minion(FACTORY, "Zapbot", owner=0)  # you have a minion there: not eligible
    s.minion(SHIP, "Invader", owner=1)  # only another player's minion: eligible
    s.discard(0, *discard)
    s.hand(0, "Zombie Lord", "Tech Center")
    return s.build()


def test_zombie_lord_plays_minions_of_power_2_or_less_from_the_discard_pile_one_per_base():
    game = lord_game()
    walkers = find_cards(game, "Walker")
    zapbot = card(game, "Zapbot", "discard")
    ship, library = base_uid(game, "The Mothership"), base_uid(game, "The Great Library")
    play(game, "Zombie Lord", base="Jungle Oasis")
    d = game.pending
    assert (d.seat, d.kind, d.min_count, d.max_count) == (0, "extra", 0, 1)
    # Alike copies once; only the bases where you had no minion, the Lord's own base excluded.
    assert sorted(labels(game)) == [
        "Walker on The Great Library", "Walker on The Mothership",
        "Zapbot on The Great Library", "Zapbot on The Mothership"]
    assert_refused(game, [f"m{walkers[1]}@{ship}"])  # the alike copy is not offered twice
    assert_refused(game, [f"m{card(game, 'Grave Digger')}@{ship}"])  # power 4
    assert_refused(game, [f"m{walkers[0]}@{base_uid(game, 'Factory 436-1337')}"])
    events = record_events(game)
    choose(game, "Walker on The Mothership")
    assert game.loc[walkers[0]] == ("minion", ship)
    # The Walker's own on-play ability resolves at once (it looks at the top of the deck).
    assert at(game, 0, "choice")
    choose(game, "Put Nukebot back")
    # The Mothership is used up; the other eligible base is still offered.
    assert sorted(labels(game)) == ["Walker on The Great Library", "Zapbot on The Great Library"]
    choose(game, "Zapbot on The Great Library")
    assert game.loc[zapbot] == ("minion", library)
    lord = card(game, "Zombie Lord")
    assert [e.card for e in events if e.kind == "minion_played"] == [walkers[0], zapbot, lord]
    plays = [(game.name(p.card), p.base, p.extra) for p in game.turn_state.plays]
    assert plays == [("Zombie Lord", base_uid(game, "Jungle Oasis"), False),
                     ("Walker", ship, True), ("Zapbot", library, True)]
    assert game.loc[walkers[1]] == ("discard", 0)
    assert at(game, 0, "play")  # no eligible base left: nothing more is asked


def test_zombie_lord_may_be_declined_and_stops_when_declined():
    game = lord_game()
    play(game, "Zombie Lord", base="Jungle Oasis")
    decline(game)
    assert discard_names(game) == ["Grave Digger", "Grave Robbing", "Walker", "Walker", "Zapbot"]
    assert at(game, 0, "play")
    assert [game.name(p.card) for p in game.turn_state.plays] == ["Zombie Lord"]


def test_zombie_lord_eligible_bases_are_fixed_when_it_is_played():
    # AEG: the bases are those where you had no minion when the Lord was played. The Zapbot played
    # on The Mothership by the Lord banks an extra minion; none of that changes the Lord's list.
    game = lord_game(discard=("Zapbot", "Walker"))
    play(game, "Zombie Lord", base="Jungle Oasis")
    choose(game, "Zapbot on The Mothership")
    assert sorted(labels(game)) == ["Walker on The Great Library"]
    choose(game, "Walker on The Great Library")
    choose(game, "Discard Nukebot")
    assert at(game, 0, "play")


def test_zombie_lord_with_nothing_to_play_asks_nothing():
    game = lord_game(discard=("Grave Digger", "Grave Robbing"))
    play(game, "Zombie Lord", base="Jungle Oasis")
    assert at(game, 0, "play")


def test_zombie_lord_counts_minions_you_control_not_own():
    s = scenario()
    s.minion(FACTORY, "Invader", owner=1, controller=0)  # yours now: Factory is not eligible
    s.minion(SHIP, "Zapbot", owner=0, controller=1)  # not yours any more: eligible
    s.minion(LIBRARY, "Collector", owner=1)
    s.discard(0, "Walker")
    s.hand(0, "Zombie Lord", "Tech Center")
    game = s.build()
    play(game, "Zombie Lord", base="Jungle Oasis")
    assert sorted(labels(game)) == ["Walker on The Great Library", "Walker on The Mothership"]


# ====================================================================== Grave Digger =========


def digger_game(discard=("Walker", "Walker", "Zapbot", "Grave Robbing")):
    s = scenario()
    s.discard(0, *discard)
    s.hand(0, "Grave Digger", "Tech Center")
    return s.build()


def test_grave_digger_puts_a_minion_from_the_discard_pile_into_your_hand():
    game = digger_game()
    walkers, zapbot = find_cards(game, "Walker"), card(game, "Zapbot")
    play(game, "Grave Digger", base="Jungle Oasis")
    d = game.pending
    assert (d.kind, d.min_count, d.max_count) == ("cards", 0, 1)
    assert option_cards(game) == {walkers[0], zapbot}  # no action; alike copies once
    assert_refused(game, [f"c{card(game, 'Grave Robbing')}"])
    assert_refused(game, [f"c{walkers[1]}"])
    events = record_events(game)
    choose(game, zapbot)
    assert game.loc[zapbot] == ("hand", 0)
    assert [(e.kind, e.data) for e in events if e.card == zapbot] == [
        ("placed", {"to": "hand", "from": "discard"})]
    assert "Zapbot goes from P0's discard pile into their hand (Grave Digger)." in log(game)


def test_grave_digger_may_take_nothing():
    game = digger_game()
    play(game, "Grave Digger", base="Jungle Oasis")
    decline(game)
    assert discard_names(game) == ["Grave Robbing", "Walker", "Walker", "Zapbot"]
    assert hand_names(game) == ["Tech Center"]


def test_grave_digger_without_a_minion_in_the_discard_pile_asks_nothing():
    game = digger_game(discard=("Grave Robbing",))
    play(game, "Grave Digger", base="Jungle Oasis")
    assert at(game, 0, "play")


# ====================================================================== Walker ===============


def walker_game(deck=DECK, discard=()):
    s = scenario(deck=deck)
    s.discard(0, *discard)
    s.hand(0, "Walker", "Tech Center")
    return s.build()


def test_walker_looks_at_the_top_card_and_may_discard_it():
    game = walker_game()
    nukebot = card(game, "Nukebot")
    play(game, "Walker", base="Jungle Oasis")
    d = game.pending
    assert (d.seat, d.kind, d.min_count) == (0, "choice", 1)
    assert labels(game) == ["Discard Nukebot", "Put Nukebot back on top of your deck"]
    # Only the Walker's controller looked: the others see that a question is open, nothing more.
    assert game.view(1)["pending"] == {"seat": 0, "kind": "choice"}
    assert "You see Nukebot." in private_log(game, 0)
    assert "You see Nukebot." not in private_log(game, 1)
    assert "P0 looks at the top card of their deck." in log(game)
    assert_refused(game, ["o7"])
    events = record_events(game)
    choose(game, "Discard Nukebot")
    assert game.loc[nukebot] == ("discard", 0)
    assert [(e.kind, e.data) for e in events if e.card == nukebot] == [
        ("discarded", {"from": "deck"})]
    assert names(game, game.players[0].deck) == list(DECK[1:])


def test_walker_may_put_the_card_back_on_top():
    game = walker_game()
    play(game, "Walker", base="Jungle Oasis")
    events = record_events(game)
    choose(game, "Put Nukebot back")
    assert names(game, game.players[0].deck) == list(DECK)
    assert [e.kind for e in events] == ["minion_played"]  # the Walker's own: nothing moved


def test_walker_with_an_empty_deck_looks_at_the_shuffled_discard_pile():
    game = walker_game(deck=(), discard=("Nukebot",))
    play(game, "Walker", base="Jungle Oasis")
    assert labels(game) == ["Discard Nukebot", "Put Nukebot back on top of your deck"]
    assert game.players[0].deck == [card(game, "Nukebot")]


def test_walker_with_no_card_to_look_at_asks_nothing():
    game = walker_game(deck=())
    play(game, "Walker", base="Jungle Oasis")
    assert at(game, 0, "play")


# ====================================================================== Grave Robbing ========


def robbing_game(discard=("Walker", "Walker", "Grave Robbing", "Lend a Hand")):
    s = scenario()
    s.discard(0, *discard)
    s.hand(0, "Grave Robbing", "Walker")
    return s.build()


def test_grave_robbing_puts_any_card_from_the_discard_pile_into_your_hand():
    game = robbing_game()
    playing = card(game, "Grave Robbing", "hand")
    other = card(game, "Grave Robbing", "discard")
    walkers = find_cards(game, "Walker", "discard")
    lend = card(game, "Lend a Hand")
    play(game, "Grave Robbing")
    d = game.pending
    assert (d.kind, d.min_count, d.max_count) == ("cards", 1, 1)  # not a "may"
    # An action as well as a minion; the copy already in the pile is offered, the one resolving
    # is not in the pile.
    assert option_cards(game) == {walkers[0], other, lend}
    assert_refused(game, [f"c{walkers[1]}"])
    assert_refused(game, [f"c{playing}"])
    assert_refused(game, [])
    choose(game, lend)
    assert game.loc[lend] == ("hand", 0)
    assert game.loc[playing] == ("discard", 0)
    # Discard piles are public: everyone reads which card was taken (catalog).
    assert "Lend a Hand goes from P0's discard pile into their hand (Grave Robbing)." in log(game)


def test_grave_robbing_with_an_empty_discard_pile_does_nothing():
    game = robbing_game(discard=())
    play(game, "Grave Robbing")
    assert at(game, 0, "play")
    assert discard_names(game) == ["Grave Robbing"]


# ====================================================================== Lend a Hand ==========


def lend_game(discard=("Walker", "Walker", "Zapbot", "Grave Robbing")):
    s = scenario()
    s.discard(0, *discard)
    s.hand(0, "Lend a Hand", "Walker")
    return s.build()


def test_lend_a_hand_shuffles_the_chosen_cards_into_the_deck():
    game = lend_game()
    walkers, zapbot = find_cards(game, "Walker", "discard"), card(game, "Zapbot")
    lend = card(game, "Lend a Hand")
    play(game, "Lend a Hand")
    d = game.pending
    assert (d.kind, d.min_count, d.max_count) == ("cards", 0, 1)
    assert option_cards(game) == {walkers[0], zapbot, card(game, "Grave Robbing")}
    assert lend not in option_cards(game)  # AEG: not itself
    assert_refused(game, [f"c{walkers[1]}"])
    choose(game, walkers[0])
    assert "1 chosen so far" in game.pending.prompt
    choose(game, walkers[1])
    choose(game, zapbot)
    events = record_events(game)
    decline(game)
    assert sorted(names(game, game.players[0].deck)) == sorted(
        list(DECK) + ["Walker", "Walker", "Zapbot"])
    assert [(e.kind, e.data["shuffled"]) for e in events if e.card in (*walkers, zapbot)] == [
        ("placed", True)] * 3
    assert discard_names(game) == ["Grave Robbing", "Lend a Hand"]
    assert "P0 shuffles their deck." in log(game)


def test_lend_a_hand_may_shuffle_nothing():
    game = lend_game()
    deck = list(game.players[0].deck)
    play(game, "Lend a Hand")
    decline(game)
    assert game.players[0].deck == deck  # not even shuffled
    assert discard_names(game) == ["Grave Robbing", "Lend a Hand", "Walker", "Walker", "Zapbot"]


def test_lend_a_hand_may_take_every_card():
    game = lend_game(discard=("Walker",))
    play(game, "Lend a Hand")
    choose(game, card(game, "Walker", "discard"))
    assert at(game, 0, "play")  # the pile is empty: nothing more to ask
    assert discard_names(game) == ["Lend a Hand"]


# ====================================================================== Mall Crawl ===========


def crawl_game(deck=("Walker", "Nukebot", "Walker", "Walker", "Tech Center"), discard=()):
    s = scenario(deck=deck)
    s.discard(0, *discard)
    s.hand(0, "Mall Crawl", "Walker")
    return s.build()


def test_mall_crawl_discards_cards_of_one_name_from_the_deck_and_shuffles():
    game = crawl_game()
    walkers = find_cards(game, "Walker", "deck")
    play(game, "Mall Crawl")
    d = game.pending
    assert (d.kind, d.min_count, d.max_count) == ("cards", 0, 1)
    assert sorted(labels(game)) == ["Nukebot", "Tech Center", "Walker"]  # one option per name
    assert sorted(d.reveal) == sorted(game.players[0].deck)  # the searcher sees the deck
    assert_refused(game, [f"c{walkers[1]}"])
    choose(game, "Walker")
    assert labels(game) == ["3 Walker cards", "2 Walker cards", "1 Walker card"]
    events = record_events(game)
    choose(game, "2 Walker cards")
    assert names(game, game.players[0].discard) == ["Walker", "Walker", "Mall Crawl"]
    assert sorted(names(game, game.players[0].deck)) == ["Nukebot", "Tech Center", "Walker"]
    assert [e.data["from"] for e in events if e.kind == "discarded"] == ["deck", "deck"]
    assert "P0 reveals Walker, Walker." in log(game)
    assert "P0 shuffles their deck." in log(game)


def test_mall_crawl_a_single_copy_needs_no_count():
    game = crawl_game()
    play(game, "Mall Crawl")
    choose(game, "Nukebot")
    assert at(game, 0, "play")
    assert names(game, game.players[0].discard) == ["Nukebot", "Mall Crawl"]


def test_mall_crawl_may_find_nothing_and_still_shuffles():
    game = crawl_game()
    play(game, "Mall Crawl")
    decline(game)
    assert names(game, game.players[0].discard) == ["Mall Crawl"]
    assert len(game.players[0].deck) == 5
    assert "P0 shuffles their deck." in log(game)


def test_mall_crawl_with_an_empty_deck_searches_the_shuffled_discard_pile():
    game = crawl_game(deck=(), discard=("Walker", "Nukebot"))
    play(game, "Mall Crawl")
    assert sorted(labels(game)) == ["Nukebot", "Walker"]
    choose(game, "Walker")
    assert names(game, game.players[0].discard) == ["Walker", "Mall Crawl"]
    assert names(game, game.players[0].deck) == ["Nukebot"]


# ====================================================================== Not Enough Bullets ===


def bullets_game(discard=("Walker", "Walker", "Walker", "Zapbot", "Grave Robbing")):
    s = scenario()
    s.discard(0, *discard)
    s.hand(0, "Not Enough Bullets", "Warbot")
    return s.build()


def test_not_enough_bullets_puts_minions_of_one_name_into_your_hand():
    game = bullets_game()
    walkers = find_cards(game, "Walker")
    play(game, "Not Enough Bullets")
    d = game.pending
    assert (d.kind, d.min_count, d.max_count) == ("cards", 0, 1)
    assert sorted(labels(game)) == ["Walker", "Zapbot"]  # minions only, one option per name
    assert_refused(game, [f"c{card(game, 'Grave Robbing')}"])
    choose(game, "Walker")
    assert_refused(game, ["o9"])
    events = record_events(game)
    choose(game, "3 Walker cards")
    assert sorted(hand_names(game)) == ["Walker", "Walker", "Walker", "Warbot"]
    assert [e.kind for e in events if e.card in walkers] == ["placed"] * 3
    assert discard_names(game) == ["Grave Robbing", "Not Enough Bullets", "Zapbot"]


def test_not_enough_bullets_may_take_fewer_copies_or_none():
    game = bullets_game()
    play(game, "Not Enough Bullets")
    choose(game, "Walker")
    choose(game, "1 Walker card")
    assert sorted(hand_names(game)) == ["Walker", "Warbot"]
    game = bullets_game()
    play(game, "Not Enough Bullets")
    decline(game)
    assert hand_names(game) == ["Warbot"]
    assert discard_names(game) == ["Grave Robbing", "Not Enough Bullets", "Walker", "Walker",
                                   "Walker", "Zapbot"]


def discard_plays(game) -> list[str]:
    return sorted(o.label for o in game.pending.options if "from your discard pile" in o.label)


# ====================================================================== Tenacious Z ==========


def tenacious_game(discard=("Tenacious Z", "Tenacious Z", "Walker"), minions_played=0):
    s = scenario()
    s.discard(0, *discard)
    s.hand(0, "Warbot", "Tech Center")
    s.turn(minions_played=minions_played)
    return s.build()


def test_tenacious_z_is_played_from_the_discard_pile_as_an_extra_minion():
    game = tenacious_game(minions_played=1)  # the free minion is used: this is an extra
    zs = find_cards(game, "Tenacious Z")
    oasis = base_uid(game, "Jungle Oasis")
    # One option per base for the alike copies; the Walker has no such ability.
    assert discard_plays(game) == [
        f"Play Tenacious Z from your discard pile on {b}" for b in sorted(BASES)]
    assert_refused(game, [f"m{zs[1]}@{oasis}"])
    assert_refused(game, [f"m{card(game, 'Walker')}@{oasis}"])
    events = record_events(game)
    choose(game, f"m{zs[0]}@{oasis}")
    assert game.loc[zs[0]] == ("minion", oasis)
    assert [e.kind for e in events if e.card == zs[0]] == ["minion_played"]
    record = game.turn_state.plays[-1]
    assert (record.extra, record.special, record.via) == (True, True, zs[0])
    # Once per turn across every copy: the other copy is no longer offered.
    assert discard_plays(game) == []
    assert "P0 plays Tenacious Z from their discard pile." in log(game)


def test_tenacious_z_keeps_the_normal_minion_play():
    game = tenacious_game()
    choose(game, f"m{find_cards(game, 'Tenacious Z')[0]}@{base_uid(game, 'The Mothership')}")
    play(game, "Warbot", base="Jungle Oasis")  # the free minion is still there
    warbot = find_cards(game, "Warbot")[-1]  # the deck holds another Warbot
    assert game.loc[warbot] == ("minion", base_uid(game, "Jungle Oasis"))


def test_tenacious_z_is_usable_only_in_your_play_cards_phase():
    # Seat 1's turn: seat 0's Tenacious Z is not offered to seat 1, and seat 1 has none.
    s = scenario()
    s.discard(0, "Tenacious Z")
    s.hand(1, "Ninja Acolyte")
    s.turn(current=1)
    game = s.build()
    assert at(game, 1, "play")
    assert discard_plays(game) == []


def test_tenacious_z_played_another_way_does_not_use_up_its_ability():
    # They Keep Coming is another card's ability: a copy played through it leaves the Special.
    s = scenario()
    s.discard(0, "Tenacious Z", "Tenacious Z")
    s.hand(0, "They Keep Coming", "Warbot")
    s.turn(minions_played=1)
    game = s.build()
    play(game, "They Keep Coming")
    zs = find_cards(game, "Tenacious Z")
    choose(game, f"m{zs[0]}@{base_uid(game, 'Jungle Oasis')}")
    assert game.turn_state.plays[-1].via is None  # the grant's play
    assert len(discard_plays(game)) == len(BASES)  # the other copy by its own ability


def test_tenacious_z_played_with_they_keep_coming_gives_the_grant_back_when_another_needs_it():
    # Grant matching (Game.legal_plays): the Z took They Keep Coming's play (as the engine
    # always did), but it could have used its own ability; the Walker in the pile still may
    # come back with They Keep Coming, and the Z's record then names its own ability.
    s = scenario()
    s.discard(0, "Tenacious Z", "Walker")
    s.hand(0, "They Keep Coming", "Warbot")
    s.turn(minions_played=1)
    game = s.build()
    play(game, "They Keep Coming")
    z = card(game, "Tenacious Z")
    choose(game, f"m{z}@{base_uid(game, 'Jungle Oasis')}")
    assert game.turn_state.plays[-1].via is None
    assert discard_plays(game) == [f"Play Walker from your discard pile on {b}"
                                   for b in sorted(BASES)]
    walker = card(game, "Walker")
    choose(game, f"m{walker}@{base_uid(game, 'The Mothership')}")
    assert game.loc[walker] == ("minion", base_uid(game, "The Mothership"))
    z_record = next(p for p in game.turn_state.plays if p.card == z)
    assert (z_record.via, z_record.special, z_record.extra) == (z, True, True)


# ====================================================================== They Keep Coming =====


def keep_coming_game(discard=("Walker", "Grave Digger", "Grave Robbing")):
    s = scenario()
    s.discard(0, *discard)
    s.hand(0, "They Keep Coming", "Zombie Lord")
    s.turn(minions_played=1)
    return s.build()


def test_they_keep_coming_grants_an_extra_minion_from_the_discard_pile_only():
    game = keep_coming_game()
    play(game, "They Keep Coming")
    assert "P0 may play an extra minion from their discard pile (They Keep Coming)." in log(game)
    # Minions of the discard pile, any power; not the Zombie Lord in hand.
    labels_now = discard_plays(game)
    assert "Play Walker from your discard pile on Jungle Oasis" in labels_now
    assert "Play Grave Digger from your discard pile on The Mothership" in labels_now
    assert len(labels_now) == 2 * len(BASES)
    lord = card(game, "Zombie Lord")
    assert_refused(game, [f"m{lord}@{base_uid(game, 'Jungle Oasis')}"])
    digger = card(game, "Grave Digger")
    choose(game, f"m{digger}@{base_uid(game, 'The Mothership')}")
    assert game.loc[digger] == ("minion", base_uid(game, "The Mothership"))
    assert game.turn_state.plays[-1].extra
    decline(game)  # the Digger's own "may"
    assert discard_plays(game) == []  # the extra is used


def test_they_keep_coming_with_no_minion_in_the_pile_grants_an_unusable_play():
    game = keep_coming_game(discard=("Grave Robbing",))
    play(game, "They Keep Coming")
    # Nothing to play from the pile, and the Zombie Lord in hand may not use it.
    assert not at(game, 0, "play") or discard_plays(game) == []


# ====================================================================== They're Coming To Get You


def coming_game(discard=("Walker", "Grave Digger"), minions_played=0,
                hand=("Zapbot", "Tech Center")):
    s = scenario()
    s.base_action(SHIP, "They're Coming To Get You", owner=0)
    s.discard(0, *discard)
    s.hand(0, *hand)
    s.turn(minions_played=minions_played)
    return s.build()


def test_theyre_coming_to_get_you_lets_the_normal_play_come_from_the_discard_pile():
    game = coming_game()
    ship = base_uid(game, "The Mothership")
    # Only onto its own base, any minion of the pile.
    assert discard_plays(game) == ["Play Grave Digger from your discard pile on The Mothership",
                                   "Play Walker from your discard pile on The Mothership"]
    walker = card(game, "Walker")
    assert_refused(game, [f"m{walker}@{base_uid(game, 'Jungle Oasis')}"])
    choose(game, f"m{walker}@{ship}")
    choose(game, "Put Nukebot back")
    assert game.loc[walker] == ("minion", ship)
    record = game.turn_state.plays[-1]
    assert (record.extra, record.via) == (False, card(game, "They're Coming To Get You"))
    # It used the turn's minion play: the Zapbot in hand can no longer be played.
    assert minion_plays(game) == []


def test_theyre_coming_to_get_you_is_once_per_turn():
    s = scenario()
    s.base_action(SHIP, "They're Coming To Get You", owner=0)
    s.discard(0, "Walker", "Grave Digger")
    s.hand(0, "Abduction", "Zapbot")
    s.minion(FACTORY, "Invader", owner=1)
    game = s.build()
    ship = base_uid(game, "The Mothership")
    choose(game, f"m{card(game, 'Walker')}@{ship}")
    choose(game, "Put Nukebot back")
    play(game, "Abduction")
    choose(game, card(game, "Invader"))  # a general extra minion: from hand only now
    assert discard_plays(game) == []


def test_theyre_coming_to_get_you_uses_a_general_extra_and_respects_its_limit():
    # The Zapbot's extra (power 2 or less) is a general play: the Walker may come from the pile
    # with it, the Grave Digger (power 4) may not.
    game = coming_game(hand=("Zapbot", "Tech Center"))
    play(game, "Zapbot", base="Jungle Oasis")
    assert discard_plays(game) == ["Play Walker from your discard pile on The Mothership"]


def test_theyre_coming_to_get_you_never_uses_a_play_tied_to_one_card():
    # AEG ruling (catalog): a play given for one card (Tenacious Z's own play from the pile) is not
    # a minion play the base's card can redirect. With the turn's minion play spent, the Tenacious Z
    # may still come back by its own ability (onto any base), but no other minion of the pile may
    # take its play onto The Mothership.
    game = coming_game(discard=("Tenacious Z", "Walker"), minions_played=1)
    walker = card(game, "Walker")
    assert discard_plays(game) == [
        f"Play Tenacious Z from your discard pile on {name}" for name in sorted(BASES)]
    assert_refused(game, [f"m{walker}@{base_uid(game, 'The Mothership')}"])


def test_theyre_coming_to_get_you_of_another_player_does_nothing_for_you():
    s = scenario()
    s.base_action(SHIP, "They're Coming To Get You", owner=1)
    s.discard(0, "Walker")
    s.hand(0, "Zapbot")
    game = s.build()
    assert discard_plays(game) == []


# ====================================================================== Outbreak =============


def outbreak_game():
    s = scenario()
    s.minion(OASIS, "Walker", owner=0)
    s.minion(FACTORY, "Invader", owner=1)
    s.minion(SHIP, "Zapbot", owner=1, controller=0)
    s.hand(0, "Outbreak", "Warbot", "Grave Digger")
    s.turn(minions_played=1)
    return s.build()


def minion_plays(game) -> list[str]:
    return sorted(o.label for o in game.pending.options if o.id.startswith("m"))


def test_outbreak_grants_an_extra_minion_on_a_base_where_you_have_no_minion():
    game = outbreak_game()
    play(game, "Outbreak")
    # Factory (another player's minion only) and the Library; not Oasis, not the Mothership
    # (a minion you control).
    assert minion_plays(game) == [
        "Play Grave Digger on Factory 436-1337", "Play Grave Digger on The Great Library",
        "Play Warbot on Factory 436-1337", "Play Warbot on The Great Library"]
    warbot = card(game, "Warbot", "hand")
    assert_refused(game, [f"m{warbot}@{base_uid(game, 'Jungle Oasis')}"])
    events = record_events(game)
    play(game, "Warbot", base="The Great Library")
    assert game.loc[warbot] == ("minion", base_uid(game, "The Great Library"))
    assert [e.card for e in events if e.kind == "minion_played"] == [warbot]
    assert not at(game, 0, "play")  # the extra is used: nothing left to play


def test_outbreak_condition_is_checked_when_the_minion_is_played():
    # With the free minion still there, the free one goes to the Library first: the Outbreak
    # extra then has only the Factory left (checked at play time, not when Outbreak resolved).
    s = scenario()
    s.minion(OASIS, "Walker", owner=0)
    s.hand(0, "Outbreak", "Warbot", "Grave Digger")
    game = s.build()
    play(game, "Outbreak")
    play(game, "Warbot", base="The Great Library")  # the most restrictive grant: Outbreak's
    assert minion_plays(game) == [
        "Play Grave Digger on Factory 436-1337", "Play Grave Digger on Jungle Oasis",
        "Play Grave Digger on The Great Library", "Play Grave Digger on The Mothership"]
    play(game, "Grave Digger", base="Jungle Oasis")  # the free play goes anywhere
    assert game.loc[card(game, "Grave Digger")][0] == "minion"


# ====================================================================== Overrun ==============


def overrun_game():
    s = scenario()
    s.hand(0, "Overrun", "Walker")
    s.hand(1, "Ninja Master")
    return s.build()


def test_overrun_keeps_other_players_from_playing_minions_on_its_base_until_your_next_turn():
    game = overrun_game()
    oasis = base_uid(game, "Jungle Oasis")
    play(game, "Overrun")
    choose(game, oasis)
    overrun = card(game, "Overrun")
    assert game.loc[overrun] == ("base_action", oasis)
    # You still may.
    assert "Play Walker on Jungle Oasis" in minion_plays(game)
    play(game, "Walker", base="The Mothership")
    choose(game, "Put Nukebot back")
    assert at(game, 1, "play")
    plays = minion_plays(game)
    assert not any("Jungle Oasis" in p for p in plays)
    assert "Play Ninja Master on The Mothership" in plays
    assert_refused(game, [f"m{card(game, 'Ninja Master')}@{oasis}"])
    play(game, "Ninja Master", base="The Mothership")
    if game.pending.kind == "target":
        decline(game)
    # Seat 1 ends its turn; at the start of seat 0's next turn Overrun is destroyed.
    while game.pending is not None and game.pending.seat == 1:
        if game.pending.kind == "play":
            choose(game, "end")
        else:
            decline(game)
    assert game.loc[overrun] == ("discard", 0)


def test_overrun_stops_an_extra_play_of_another_player_too():
    s = scenario()
    s.base_action(OASIS, "Overrun", owner=1)
    s.hand(0, "Walker", "Zapbot")
    game = s.build()
    assert not any("Jungle Oasis" in p for p in minion_plays(game))
    play(game, "Zapbot", base="The Mothership")
    assert not any("Jungle Oasis" in p for p in minion_plays(game))


def test_overrun_stops_another_players_shinobi_but_not_a_move():
    # Seat 0 ends its turn with Jungle Oasis (12) ready to score: seat 1's Shinobi may not be
    # played there (a play), while Overrun's controller's own minions are untouched.
    s = scenario()
    s.base_action(OASIS, "Overrun", owner=0)
    s.minion(OASIS, "Zombie Lord", owner=0)
    s.minion(OASIS, "Grave Digger", owner=0)
    s.minion(OASIS, "Walker", owner=0)
    s.minion(OASIS, "Walker", owner=0)
    s.hand(1, "Shinobi")
    s.hand(0, "Tech Center")
    game = s.build()
    choose(game, "end")
    # No Special window question for seat 1: its only Special would be a forbidden play.
    assert not (game.pending and game.pending.kind == "special" and game.pending.seat == 1)
    assert game.loc[card(game, "Shinobi")][0] == "hand"
