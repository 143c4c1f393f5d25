"""Big Base positions for tests and rulings checks, built from plain data like `Scenario`.

    s = BigBaseScenario([("Aliens", "Ninjas"), ("Pirates", "Robots")], base="The Homeworld",
                        next_bases=["Tar Pits"])
    s.minion("North", "Invader", owner=1, slot=0)
    s.hand(0, "Collector")
    game = s.build()          # seat 0's Play Cards phase, round 1 of period 1
"""
from __future__ import annotations

from smashup.engine.core import ActionState, ConfigError, MinionState
from smashup.engine.setup import Scenario, _registry, scenario_turn
from smashup.engine.state import PlayerState

from .board import SIDE_NAMES
from .game import BOARD_ZONE, BigBaseGame


class BigBaseScenario(Scenario):
    def __init__(self, factions, base: str, next_bases=(), names=None, seed=0, specials="fast",
                 board: dict | None = None, rng_version=None):
        super().__init__(factions, names, seed, specials, rng_version)
        self.data.update({"mode": "bigbase", "current_base": base, "base_deck": list(next_bases),
                          "sides": {name: [] for name in SIDE_NAMES},
                          "side_actions": {name: [] for name in SIDE_NAMES},
                          "round": 1, "period": 1, "first_player": 0, "tiebreak_rounds": 0})
        if board is not None:
            self.data["board"] = board

    def minion(self, side, name, owner, controller=None, counters=0, attached=(), slot=None):
        """A minion on a side (North, East, South, West), in slot `slot` (default: its
        controller's slot there, else the first free one)."""
        self.data["sides"][side].append({
            "name": name, "owner": owner, "controller": owner if controller is None else controller,
            "counters": counters, "attached": [list(a) for a in attached], "slot": slot})
        return self

    def base_action(self, side, name, owner, controller=None, slot=None):
        self.data["side_actions"][side].append(
            {"name": name, "owner": owner, "controller": owner if controller is None else controller,
             "slot": slot})
        return self

    def round(self, round=1, period=1, first_player=0, tiebreak_rounds=0):
        self.data.update({"round": round, "period": period, "first_player": first_player,
                          "tiebreak_rounds": tiebreak_rounds})
        return self


def build_scenario(data: dict, registry=None, resolution: int | None = None) -> BigBaseGame:
    """Build a Big Base game from scenario data (`BigBaseScenario`) and run it to its first
    decision."""
    registry = _registry(registry)
    config = {
        "mode": "bigbase",
        "players": [{"name": p["name"], "factions": p["factions"], "bot": p.get("bot")}
                    for p in data["players"]],
        "specials": data.get("specials", "fast"),
        "mulligan": False,
    }
    if data.get("board") is not None:
        config["board"] = data["board"]
    game = BigBaseGame(config, data.get("seed", 0), registry, data.get("rng"))
    if resolution is not None:
        game.resolution = resolution
    game.scenario = data
    for seat, pd in enumerate(data["players"]):
        player = PlayerState(seat, game.config["players"][seat]["name"], pd["factions"])
        player.vp = pd.get("vp", 0)
        game.players.append(player)
    for seat, pd in enumerate(data["players"]):
        for zone in ("deck", "hand", "discard"):
            for name in pd.get(zone, []):
                game.new_card(registry.card(name), seat, (zone, seat))
    game.new_card(registry.base(data["current_base"]), None, BOARD_ZONE)
    for name in data.get("base_deck", []):
        game.new_card(registry.base(name), None, ("base_deck",))
    for name in data.get("base_discard", []):
        game.new_card(registry.base(name), None, ("base_discard",))
    game.make_sides()
    for slot, side in zip(game.bases, SIDE_NAMES, strict=True):
        for md in data["sides"].get(side, []):
            _take_slot(game, slot.uid, md["controller"], md.get("slot"))
            m = game.new_card(registry.card(md["name"]), md["owner"], ("hand", md["owner"]))
            game.move_card(m, ("minion", slot.uid))
            game.minion_state[m] = MinionState(md["controller"], md.get("counters", 0),
                                               entered=game.enter_play())
            for ad in md.get("attached", []):
                owner = ad[1]
                a = game.new_card(registry.card(ad[0]), owner, ("hand", owner))
                game.move_card(a, ("attached", m))
                game.action_state[a] = ActionState(ad[2] if len(ad) > 2 else owner, "minion", m)
        for ad in data["side_actions"].get(side, []):
            _take_slot(game, slot.uid, ad["controller"], ad.get("slot"))
            a = game.new_card(registry.card(ad["name"]), ad["owner"], ("hand", ad["owner"]))
            game.move_card(a, ("base_action", slot.uid))
            game.action_state[a] = ActionState(ad["controller"], "base", slot.uid)
    game.round = data.get("round", 1)
    game.period = data.get("period", 1)
    game.first_player = data.get("first_player", 0)
    game.tiebreak_rounds = data.get("tiebreak_rounds", 0)
    return game.start(game._rounds(scenario_turn(game, data)))


def _take_slot(game: BigBaseGame, uid: int, seat: int, wanted: int | None) -> None:
    holders = game.holders[uid]
    if seat in holders:
        if wanted is not None and holders.index(seat) != wanted:
            raise ConfigError(f"seat {seat} already holds another slot of {game.side_name(uid)}")
        return
    index = wanted if wanted is not None else holders.index(None)
    if holders[index] is not None:
        raise ConfigError(f"{game.side_name(uid)} slot {index + 1} holds seat {holders[index]}")
    holders[index] = seat
