"""The heuristic bot aims harmful choices at other players: an action in play to destroy
(Disenchant) is another player's, a player to choose (Mark of Sleep) is not itself."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from smashup.engine import Decision, Option, Scenario
from smashup.engine.bots import heuristic_choice, names_a_faction
from smashup.engine.testing import base_uid, card

from .support import ALIENS_NINJAS, PIRATES_ROBOTS


def test_the_heuristic_bot_destroys_another_players_action_and_chooses_another_player():
    s = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS])
    dojo = s.base("Ninja Dojo")
    s.base_action(dojo, "Infiltrate", owner=0)
    s.base_action(dojo, "Infiltrate", owner=1)
    s.hand(0, "Invader")
    game = s.build()
    mine, theirs = [c for c, d in enumerate(game.defs) if d.name == "Infiltrate"]
    assert game.action_state[mine].controller == 0 and card(game, "Invader") is not None
    options = [Option(f"a{mine}", "mine", card=mine), Option(f"a{theirs}", "theirs", card=theirs)]
    game.pending = Decision("dx", 0, "actions", "Destroy which action?", options, intent="harm")
    for seed in range(5):
        assert heuristic_choice(game, random.Random(seed)) == [f"a{theirs}"]
    # The same question declared helpful (an action to keep) goes the other way.
    game.pending = Decision("dz", 0, "actions", "Keep which action?", options, intent="help")
    for seed in range(5):
        assert heuristic_choice(game, random.Random(seed)) == [f"a{mine}"]
    game.pending = Decision("dy", 0, "player", "Who?", [Option("p0", "P0"), Option("p1", "P1")],
                            intent="harm")
    for seed in range(5):
        assert heuristic_choice(game, random.Random(seed)) == ["p1"]


# ------------------------------------------------------------------ every Core card's aim -----
# Every Core card whose choice may be aimed at either side: the side the heuristic bot must pick
# ("theirs": another player's minion, action, player or faction; "mine": its own). The bot reads
# the intent the decision declares, never the card's name.
AIM = {
    # Aliens
    "Supreme Overlord": "theirs", "Collector": "theirs", "Abduction": "theirs",
    "Beam Up": "theirs", "Disintegrator": "theirs", "Invasion": "theirs",
    # Ninjas
    "Ninja Master": "theirs", "Tiger Assassin": "theirs", "Seeing Stars": "theirs",
    "Assassination": "theirs", "Poison": "theirs", "Infiltrate": "theirs",
    # Pirates
    "Saucy Wench": "theirs", "Cannon": "theirs", "Broadside": "theirs", "Sea Dogs": "theirs",
    # Dinosaurs
    "Laseratops": "theirs", "Natural Selection": "theirs", "Survival of the Fittest": "theirs",
    "Augmentation": "mine", "Upgrade": "mine", "Tooth and Claw... and Guns": "mine",
    # Robots
    "Microbot Guard": "theirs",
    # Tricksters
    "Gnome": "theirs", "Disenchant": "theirs", "Mark of Sleep": "theirs",
    "Block the Path": "theirs",
}
# Core cards with no choice that may go either way, and why (a new card must be put in one
# table or the other: the test over the registry below fails until it is).
ONE_SIDED = {
    # no choice of a card, player or faction
    "Invader": "", "Scout": "", "Jammed Signal": "base only", "Terraforming": "bases only",
    "Crop Circles": "a base", "Shinobi": "", "Hidden Ninja": "", "Ninja Acolyte": "",
    "King Rex": "", "Armor Stego": "", "War Raptor": "", "Howl": "", "Rampage": "own minions",
    "Wildlife Preserve": "a base", "Nukebot": "", "Warbot": "", "Hoverbot": "a base",
    "Zapbot": "", "Microbot Alpha": "", "Microbot Archive": "", "Microbot Fixer": "",
    "Microbot Reclaimer": "own discard pile", "Tech Center": "a base", "Leprechaun": "",
    "Brownie": "", "Gremlin": "", "Enshrouding Mist": "a base", "Flame Trap": "a base",
    "Hideout": "a base", "Pay the Piper": "the player's own hand",
    "Take the Shinies": "", "Archmage": "", "Chronomage": "", "Enchantress": "",
    "Neophyte": "own deck", "Mass Enchantment": "plays", "Mystic Studies": "",
    "Portal": "own deck", "Sacrifice": "own minions", "Scry": "own deck", "Summon": "",
    "Time Loop": "", "Winds of Change": "", "Zombie Lord": "own discard pile",
    "Grave Digger": "own discard pile", "Tenacious Z": "", "Walker": "own deck",
    "Grave Robbing": "own discard pile", "Lend a Hand": "own discard pile",
    "Mall Crawl": "own deck", "Not Enough Bullets": "own discard pile", "Outbreak": "",
    "Overrun": "a base", "They Keep Coming": "", "They're Coming To Get You": "a base",
    "Probe": "other players", "Disguise": "own minions", "Smoke Bomb": "own minions",
    "Way of Deception": "own minions", "Buccaneer": "a base", "First Mate": "a base",
    "Pirate King": "", "Dinghy": "own minions", "Full Sail": "own minions",
    "Powderkeg": "own minions", "Shanghai": "other players' minions", "Swashbuckling": "",
}


def test_every_core_card_is_in_one_aim_table():
    import smashup.cards  # noqa: F401
    from smashup.engine import REGISTRY

    core = {name for name, d in REGISTRY.cards.items() if d.set == "core"}
    assert not set(AIM) & set(ONE_SIDED)
    assert core == set(AIM) | set(ONE_SIDED)


def _aim_board(name):
    """Seat 0 holds `name` on its turn; on the first base each side has two minions of power 2
    or 3 (every "power N or less" filter lets them through), the second holds an action of each
    side; seat 1's factions are the ones a harmful faction should name."""
    import smashup.cards  # noqa: F401
    from smashup.engine import REGISTRY

    faction = REGISTRY.cards[name].faction
    mine = (faction, "Wizards" if faction != "Wizards" else "Robots")
    theirs = tuple(f for f in ("Aliens", "Ninjas", "Pirates", "Zombies") if f not in mine)[:2]
    s = Scenario([mine, theirs])
    oasis = s.base("Jungle Oasis")
    mall = s.base("Rhodes Plaza Mall")
    s.base("Factory 436-1337")
    for owner in (0, 1):
        s.minion(oasis, "Enchantress", owner=owner)
        s.minion(oasis, "Neophyte", owner=owner)
        s.minion(oasis, "Hoverbot", owner=owner)
        s.base_action(mall, "Infiltrate", owner=owner)
    s.hand(0, name, "Mystic Studies")
    s.hand(1, "Mystic Studies", "Summon")
    s.deck(0, "Summon", "Summon")
    s.deck(1, "Summon", "Summon")
    return s.build()


def _side(game, decision, option):
    if option.card is not None and option.card in game.minion_state:
        return "mine" if game.minion_state[option.card].controller == 0 else "theirs"
    if option.card is not None and option.card in game.action_state:
        return "mine" if game.action_state[option.card].controller == 0 else "theirs"
    if names_a_faction(game, decision):
        return "mine" if option.value in game.players[0].factions else "theirs"
    if option.id[:1] == "p" and option.id[1:].isdigit():
        return "mine" if option.id == "p0" else "theirs"
    return None


@pytest.mark.parametrize("name", sorted(AIM))
def test_the_heuristic_bot_aims_each_core_card_at_the_right_side(name):
    game = _aim_board(name)
    cid = card(game, name, "hand")
    d = game.pending
    plays = [o for o in d.options if o.card == cid]
    oasis = base_uid(game, "Jungle Oasis")
    play = next((o for o in plays if o.base in (None, oasis)), None)
    assert play is not None, f"{name} cannot be played: {[o.label for o in d.options]}"
    game.apply(0, d.id, [play.id])
    rng = random.Random(7)
    mall = base_uid(game, "Rhodes Plaza Mall")
    checked = 0
    for _ in range(40):
        d = game.pending
        if d is None or (d.kind == "play" and d.seat == 0) or d.seat != 0:
            break
        if d.option(f"b{mall}") is not None and all(o.base is not None for o in d.options):
            # Where an action goes is not a side: on the base with both sides' actions.
            game.apply(0, d.id, [f"b{mall}"])
            continue
        choice = heuristic_choice(game, rng)
        sides = {_side(game, d, o) for o in d.options}
        if d.source is not None and sides >= {"mine", "theirs"}:
            assert d.intent is not None, f"{name}: {d.prompt!r} declares no intent"
            picked = {_side(game, d, d.option(i)) for i in choice}
            want = AIM[name]
            assert picked <= {want}, f"{name}: {d.prompt!r} aimed at {picked}"
            checked += 1
        elif d.source is not None and d.min_count == 0 and sides == {
                "mine" if AIM[name] == "theirs" else "theirs"}:
            assert choice == [], f"{name}: {d.prompt!r} is declined when only the wrong side is left"
        game.apply(0, d.id, choice)
    assert checked, f"{name}: no choice between both sides was met"


def test_bots_py_names_no_card():
    """The bots read intents from decisions, never lists of card or base names."""
    import smashup.cards  # noqa: F401
    from smashup.engine import REGISTRY

    # The source file, not inspect.getsource: a compiled engine (native.py) has no Python source.
    source = (Path(__file__).resolve().parents[2] / "smashup" / "engine" / "bots.py").read_text()
    names = set(REGISTRY.cards) | set(REGISTRY.bases) | set(REGISTRY.factions)
    found = sorted(n for n in names if n in source)
    assert found == []


def test_an_intent_outside_the_vocabulary_is_refused():
    from smashup.engine import ConfigError, EngineError, Faction
    from smashup.engine.registry import Registry

    testers = Faction("Intent Testers", set="testset", registry=Registry())
    with pytest.raises(ConfigError):
        testers.action("Kind Words", attach="minion", intent="kind")
    with pytest.raises(ConfigError):
        testers.action("Loose Words", intent="help")  # no host: nothing to aim
    assert testers.action("Salve", attach="minion", intent="help").card.intent == "help"
    game = Scenario([ALIENS_NINJAS, PIRATES_ROBOTS]).hand(0, "Invader").build()
    before = game.digest()
    asking = game.ask(0, "player", "Who?", [Option("p0", "P0"), Option("p1", "P1")],
                      intent="kind")
    with pytest.raises(EngineError, match="intent"):
        next(asking)
    assert game.digest() == before
