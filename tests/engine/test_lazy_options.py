"""A replay lists the main decision's options only when they are read (`Game.lazy_options`,
`game._MainOptions`): each recorded choice is looked up alone. The lookup must answer exactly as
the full list does, for every option and for every forged id, or a replay would accept what
live play refuses (or the reverse)."""
from __future__ import annotations

import random

import pytest

import smashup.cards  # noqa: F401
from smashup.engine import EngineError, IllegalChoice, new_game, replay
from smashup.engine.bots import random_choice
from smashup.engine.game import _CardOptions, _MainOptions
from smashup.engine.plays import PlayFinder
from smashup.engine.registry import REGISTRY
from smashup.engine.simulate import game_config
from smashup.engine.testing import assert_refused


def _without_alike(option):
    # `alike` only says which copy is shown; the lookup gives the option itself.
    return (option.id, option.label, option.card, option.base, option.value, option.play)


def _forged_ids(game, seat, rng) -> list[str]:
    """Ids a forged record might hold: each card in the seat's hand and discard pile, and some
    others, with each prefix, base and kind of play; and a few that name no card."""
    uids = [s.uid for s in game.bases] + [max(s.uid for s in game.bases) + 1]
    player = game.players[seat]
    cards = set(player.hand) | set(player.discard) | set(game.talented)
    cards |= set(rng.sample(range(len(game.defs)), 8))
    ids = ["end", "pass", "x", "m", "m-1", f"m{len(game.defs)}@{uids[0]}", "a99999"]
    for cid in sorted(cards):
        ids += [f"a{cid}", f"t{cid}", f"c{cid}", f"a{cid}:1"]
        ids += [f"m{cid}@{uid}" for uid in uids] + [f"m{cid}@{uid}:1" for uid in uids]
    return ids


def _random_games(count: int, seed: int):
    rng = random.Random(seed)
    factions = sorted(REGISTRY.factions)
    for i in range(count):
        players = rng.choice([2, 3, 4])
        config = game_config(random.Random(seed * 100 + i), players, factions, "random")
        yield new_game(config, seed * 100 + i), random.Random(i)


@pytest.mark.parametrize("seed", [1])
def test_the_lookup_answers_as_the_full_list(seed):
    checked = 0
    for game, rng in _random_games(3, seed):
        while game.pending is not None and len(game.choices) < 300:
            d = game.pending
            if d.kind == "play":
                full = {o.id: o for o in d.options}
                lazy = _MainOptions(game, d.seat, PlayFinder(game, d.seat))
                for option_id in _forged_ids(game, d.seat, rng):
                    found = lazy.find(option_id)
                    if option_id in full:
                        assert found is not None, option_id
                        assert _without_alike(found) == _without_alike(full[option_id])
                    else:
                        assert found is None, option_id
                assert [_without_alike(o) for o in lazy.options()] == [
                    _without_alike(o) for o in d.options]
                checked += 1
            elif d.kind == "discard" and d.source is None:  # the hand limit
                full = {o.id: o for o in d.options}
                lazy = _CardOptions(game, "c", game.players[d.seat].hand)
                for option_id in [*_forged_ids(game, d.seat, rng), "c07", "c7:1", "c7@1"]:
                    found = lazy.find(option_id)
                    assert (found if found is None else _without_alike(found)) == (
                        _without_alike(full[option_id]) if option_id in full else None)
            game.apply(d.seat, d.id, random_choice(game, rng))
    assert checked > 100


def test_a_replayed_main_decision_lists_the_options_of_live_play():
    for game, rng in _random_games(2, 3):
        while game.pending is not None and len(game.choices) < 200:
            d = game.pending
            game.apply(d.seat, d.id, random_choice(game, rng))
            if game.pending is not None and game.pending.kind == "play" and rng.random() < 0.2:
                again = replay(game.record())
                assert again.pending == game.pending
                assert again.digest() == game.digest()


def test_a_forged_main_choice_is_refused_in_a_replay_as_in_live_play():
    game, rng = next(_random_games(1, 4))
    refused = 0
    while game.pending is not None and len(game.choices) < 200:
        d = game.pending
        if d.kind == "play":
            ids = {o.id for o in d.options}
            for forged in (i for i in _forged_ids(game, d.seat, rng) if i not in ids):
                if refused % 151 == 0:  # a sample: each one replays the game so far
                    record = game.record()
                    record["choices"].append([d.seat, d.id, [forged]])
                    with pytest.raises(IllegalChoice, match="is not an option of"):
                        replay(record)
                    assert_refused(game, [forged])
                refused += 1
        game.apply(d.seat, d.id, random_choice(game, rng))
    assert refused > 500


def test_an_answered_lazy_decision_cannot_list_its_options():
    game, rng = next(_random_games(1, 5))
    while game.pending is None or game.pending.kind != "play" or not game.choices:
        d = game.pending
        game.apply(d.seat, d.id, random_choice(game, rng))
    again = replay(game.record())
    d = again.pending  # asked during the replay: its options are not listed yet
    again.apply(d.seat, d.id, ["end"])  # looked up alone
    # The board has moved on: listing them now would list another question's.
    with pytest.raises(EngineError, match="answered before its options were listed"):
        d.options  # noqa: B018


def test_the_count_and_each_index_answer_as_the_full_list():
    """Live play counts the main decision's options and the random bot picks one by index
    (`_MainOptions.count`, `id_at`): the same count and the same id at every index as the
    listed options, whatever the plays (rows made or not, restrictions, discard piles,
    talents), so a bot's uniform pick is unchanged."""
    checked = 0
    for game, rng in _random_games(4, 6):
        while game.pending is not None and len(game.choices) < 400:
            d = game.pending
            if d.kind == "play":
                listed = [o.id for o in _MainOptions(game, d.seat, PlayFinder(game, d.seat)).options()]
                counted = _MainOptions(game, d.seat, PlayFinder(game, d.seat))
                assert counted.count() == len(listed)
                for i in rng.sample(range(len(listed)), min(len(listed), 6)):
                    picked = _MainOptions(game, d.seat, PlayFinder(game, d.seat))
                    assert picked.id_at(i) == listed[i]
                    # The option looked up by that id is the list's (but for its alike mark).
                    full = d.options[i]
                    assert _without_alike(picked.find(listed[i])) == _without_alike(full)
                with pytest.raises(IndexError):
                    counted.id_at(len(listed))
                checked += 1
            game.apply(d.seat, d.id, random_choice(game, rng))
    assert checked > 200


def test_a_bot_picks_the_same_whether_or_not_the_options_were_listed():
    """The random bot's pick by index (`Decision.option_id`) and its pick from the listed
    options (a view or the digest read them first) are the same choices."""
    unlisted = None
    for listed in (False, True):
        plays = []
        for game, rng in _random_games(2, 7):
            while game.pending is not None and len(game.choices) < 300:
                d = game.pending
                if listed:
                    d.options  # noqa: B018
                game.apply(d.seat, d.id, random_choice(game, rng))
            plays.append((game.record()["choices"], game.digest()))
        if listed:
            assert plays == unlisted
        unlisted = plays
