"""A hint for a player: what to choose now and why, in one line, from what that player may see.

    advice = expert_advice(game, seat, rng, budget)   # the expert's search (when it exists)
    advice = advise(game.view(seat), intent=game.pending.intent)   # the quick advice from the view
    advice.options, advice.why   # ["m27@3"], "Ninja Acolyte on The Central Brain: ..."

**The expert's hint** (`expert_advice`): the expert bot's search (smashup/engine/expert.py) run for
the asking seat, which plays only on games re-dealt from that seat's view (`Game.determinize`), so
a hint never reads a card the seat cannot see (tests/test_advice.py gives it two games that look
the same from the seat and differ in the hidden cards: the same hint). Its reason says what the
answer gained in the search's games over the next two turns, and the base it aims at (the base it
plays on or targets, else where the VP it won came from). That expected VP gain is the change of
the seat's score in the search's evaluation (`expert.scores`: its VP and what the board then
promises it, a base's VP weighed by how near it is to scoring).

**The quick advice** (`advise`), for when the expert is not installed: its only input is the seat's
own view (``Game.view(seat)``: the board, the seat's hand, its open decision with its options, the
public piles) and the decision's declared intent (what the card says it does to what is chosen:
"harm" or "help", public like the prompt). It never sees another hand, a deck's order or the seed,
so it cannot tell a player anything they could not know (issue 25; the test builds two games that
differ only in hidden cards and gets the same advice).

It weighs a minion as the heuristic bot does (the VP of its place on a base, in full once the base
reaches its breakpoint, else by how close it is, minus half the best rival's), but from the view's
numbers alone: the heuristic bot also tries Specials out on a copy of the whole game, which reads
hidden cards, so it cannot give hints.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Advice:
    options: list  # the option ids to choose ([] to choose none)
    why: str  # one line, for the player


def expert_advice(game, seat: int, rng, budget) -> Advice | None:
    """The expert's answer to `seat`'s open decision and why (see the module's docstring), or None
    when the decision is not that seat's. `budget` (smashup.botregistry.Budget) bounds the search;
    its cancel check may raise Cancelled."""
    from smashup.engine.expert import search

    pending = game.pending
    if pending is None or pending.seat != seat:
        return None
    result = search(game, seat, rng, budget)
    return Advice(list(result.choice), _expert_why(game.view(seat), result))


def _expert_why(view: dict, result) -> str:
    pending = view["pending"]
    options = {o["id"]: o for o in pending["options"]}
    chosen = [options[i] for i in result.choice if i in options]
    what = ", ".join(o["label"] for o in chosen) if chosen else "Choose none"
    if result.forced:
        return f"{what}: the only choice you have."
    bases = {b["uid"]: b.get("name") for b in view.get("bases", [])}
    aim = next((bases.get(o.get("base")) for o in chosen if o.get("base") in bases), None)
    if aim is None:
        board = {m["id"]: b["uid"] for b in view.get("bases", []) for m in b.get("minions", [])}
        aim = next((bases.get(board.get(o.get("card"))) for o in chosen if o.get("card") in board), None)
    best = result.best
    if aim is None and best is not None:
        aim = best.base
    gain = best.score_gain if best is not None else 0.0
    aims = f", aiming at {aim}" if aim else ""
    return (
        f"{what}: expected {gain:+.1f} VP over the next two turns (VP won and VP the board then "
        f"promises){aims}; the best of {len(result.lines)} answers tried in {result.iterations} games "
        "dealt from what you can see."
    )


def advise(view: dict, intent: str | None = None) -> Advice | None:
    """The advice for the decision open in `view` (a seat's view), or None when it is not that
    seat's decision."""
    pending = view.get("pending")
    seat = view.get("seat")
    if not pending or seat is None or pending.get("seat") != seat or not pending.get("options"):
        return None
    board = _Board(view)
    kind = pending.get("kind")
    if kind in ("play", "extra"):
        return _play(board, pending)
    if kind == "discard":
        return _discard(board, pending)
    if kind == "special":
        return _special(board, pending)
    if kind == "confirm":
        return _confirm(board, pending)
    if kind == "order":
        first = pending["options"][0]
        return Advice([first["id"]], f"{first['label']} first: the order changes little here.")
    return _target(board, pending, intent)


class _Board:
    """The numbers of a view that the advice weighs."""

    def __init__(self, view: dict):
        self.seat = view["seat"]
        self.big_base = view.get("mode") == "bigbase"
        self.bases = {b["uid"]: b for b in view.get("bases", [])}
        self.hand = {c["id"]: c for c in view.get("hand") or []}
        self.players = {p["seat"]: p for p in view.get("players", [])}
        self.minions = {m["id"]: (m, uid) for uid, b in self.bases.items() for m in b.get("minions", [])}

    def powers(self, uid) -> dict[int, int]:
        return {int(s): p for s, p in self.bases[uid].get("power_by_seat", {}).items()}

    def vp_for(self, uid, seat, powers) -> float:
        mine = powers.get(seat, 0)
        if mine <= 0:
            return 0.0
        place = len({p for s, p in powers.items() if s != seat and p > mine})
        vp = self.bases[uid].get("vp") or []
        return float(vp[place]) if place < len(vp) else 0.0

    def stake(self, uid, seat, powers, total) -> float:
        breakpoint = max(self.bases[uid].get("breakpoint") or 1, 1)
        near = 1.0 if total >= breakpoint else (total / breakpoint) ** 2
        rival = max((self.vp_for(uid, s, powers) for s in powers if s != seat), default=0.0)
        return near * (self.vp_for(uid, seat, powers) - 0.5 * rival)

    def gain(self, uid, power, for_seat=None) -> float:
        """What `power` more on `for_seat`'s side of base `uid` is worth to this seat."""
        owner = self.seat if for_seat is None else for_seat
        powers = self.powers(uid)
        total = self.bases[uid].get("total_power", 0)
        before = self.stake(uid, self.seat, powers, total)
        powers[owner] = powers.get(owner, 0) + power
        return self.stake(uid, self.seat, powers, total + power) - before

    def first_there(self, uid, extra: int = 0) -> bool:
        powers = self.powers(uid)
        mine = powers.get(self.seat, 0) + extra
        return mine > 0 and all(p < mine for s, p in powers.items() if s != self.seat)

    def ready(self, uid) -> bool:
        base = self.bases[uid]
        return base.get("total_power", 0) >= (base.get("breakpoint") or 0)


def _card(board: _Board, option: dict) -> dict | None:
    cid = option.get("card")
    if cid is None:
        return None
    if cid in board.hand:
        return board.hand[cid]
    if cid in board.minions:
        return board.minions[cid][0]
    return None


def _minion_play(board: _Board, card: dict, uid) -> tuple[float, str]:
    base = board.bases[uid]
    power = card.get("power") or 0
    name, where = card.get("name", "this minion"), base.get("name", "that base")
    if board.big_base:
        takes_lead = board.first_there(uid, power) and not board.first_there(uid)
        value = 2.0 + power / 10 + (1.0 if takes_lead else 0.2)
        if takes_lead:
            return value, f"{name} on {where}: it puts you first on that side, for the side's bonus."
        return value, f"{name} on {where}: every point of power on the board counts when the period scores."
    gain = board.gain(uid, power)
    value = 2.0 + power / 10 + 3 * gain
    total = base.get("total_power", 0) + power
    breakpoint = base.get("breakpoint") or 0
    if total >= breakpoint and board.first_there(uid, power):
        vp = board.vp_for(
            uid, board.seat, {**board.powers(uid), board.seat: board.powers(uid).get(board.seat, 0) + power}
        )
        return (
            value,
            f"{name} on {where}: it makes the base score ({total}/{breakpoint}) with you first, {vp:g} VP.",
        )
    if board.first_there(uid, power) and not board.first_there(uid):
        return value, f"{name} on {where}: it puts you first there ({total}/{breakpoint} power)."
    if gain > 0:
        return value, f"{name} on {where}: your best place for its {power} power ({total}/{breakpoint})."
    return value, f"{name} on {where}: the base where it costs you least."


def _play(board: _Board, pending: dict) -> Advice:
    best, best_value, best_why = None, None, ""
    for option in pending["options"]:
        card = _card(board, option)
        oid = option["id"]
        if oid == "end":
            value, why = 0.0, "Nothing in your hand helps now: end the Play Cards phase."
        elif card is not None and card.get("type") == "minion" and option.get("base") in board.bases:
            value, why = _minion_play(board, card, option["base"])
        elif card is not None and card.get("type") == "action":
            value, why = 1.5, f"{option['label']}: an action you can play now."
        elif oid.startswith("t"):
            value, why = 0.5, f"{option['label']}: a talent costs you no card."
        else:
            value, why = 1.0, f"{option['label']}."
        if best_value is None or value > best_value:
            best, best_value, best_why = oid, value, why
    return Advice([best], best_why)


def _card_worth(card: dict | None) -> float:
    if card is None:
        return 0.0
    return float(card.get("power") or 0) if card.get("type") == "minion" else 2.5


def _discard(board: _Board, pending: dict) -> Advice:
    options = sorted(pending["options"], key=lambda o: _card_worth(_card(board, o)))
    count = max(pending.get("min", 1), 1)
    chosen = options[:count]
    names = ", ".join(o["label"] for o in chosen)
    return Advice([o["id"] for o in chosen], f"Discard {names}: the cards you need least.")


def _scoring_base(board: _Board):
    return next((uid for uid in board.bases if board.ready(uid)), None)


def _special(board: _Board, pending: dict) -> Advice:
    usable = [o for o in pending["options"] if o["id"] != "pass"]
    uid = _scoring_base(board)
    if usable and (uid is None or not board.first_there(uid)):
        where = board.bases[uid].get("name") if uid is not None else None
        reason = (
            f"you are not first on {where} yet" if where else "nothing is about to score that it could spoil"
        )
        return Advice([usable[0]["id"]], f"{usable[0]['label']}: {reason}.")
    if any(o["id"] == "pass" for o in pending["options"]):
        return Advice(["pass"], "Pass: you already lead where it counts; keep the card.")
    return Advice([usable[0]["id"]], f"{usable[0]['label']}.")


def _confirm(board: _Board, pending: dict) -> Advice:
    ids = [o["id"] for o in pending["options"]]
    if "yes" in ids and "no" in ids and "ulligan" in pending.get("prompt", ""):
        no_minion = not any(c.get("type") == "minion" for c in board.hand.values())
        if no_minion:
            return Advice(["yes"], "Yes: a hand without a minion is worth drawing again.")
        return Advice(["no"], "No: your hand has a minion to play.")
    if "yes" in ids:
        return Advice(["yes"], "Yes: the ability works for you.")
    return Advice([ids[0]], f"{pending['options'][0]['label']}.")


def _target(board: _Board, pending: dict, intent: str | None) -> Advice:
    """A card, minion, base or player to choose: aimed by the decision's intent ("harm": another
    player's strongest, "help": your own), the way the heuristic bot aims."""
    scored = []
    for option in pending["options"]:
        value, what = _aim(board, option, intent)
        scored.append((value, option, what))
    scored.sort(key=lambda item: item[0], reverse=True)
    if pending.get("min", 1) == 0 and scored[0][0] <= 0:
        return Advice([], "Choose none: no option helps you.")
    count = max(pending.get("min", 1), 1)
    chosen = scored[:count]
    names = ", ".join(o["label"] for _, o, _ in chosen)
    return Advice([o["id"] for _, o, _ in chosen], f"{names}: {chosen[0][2]}.")


def _aimed(intent, own: bool, worth: float) -> float:
    if intent is None:
        return worth
    wanted = own if intent == "help" else not own
    return worth if wanted else -worth / 10


def _aim(board: _Board, option: dict, intent: str | None) -> tuple[float, str]:
    oid = option["id"]
    cid = option.get("card")
    if cid is not None and cid in board.minions:
        minion, uid = board.minions[cid]
        controller = minion.get("controller")
        power = minion.get("power") or 0
        matters = max(0.0, -board.gain(uid, -power, for_seat=controller)) if controller is not None else 0.0
        worth = 1 + power / 2 + 3 * matters
        own = controller == board.seat
        what = "your own strongest minion where it counts" if own else "the rival minion that matters most"
        return _aimed(intent, own, worth), what
    if cid is not None:
        card = _card(board, option) or {}
        worth = 1 + _card_worth(card if card else None)
        own = card.get("owner", board.seat) == board.seat
        return _aimed(intent, own, worth), "the card that matters most"
    if oid.startswith("p") and oid[1:].isdigit():
        other = int(oid[1:])
        vp = (board.players.get(other) or {}).get("vp", 0)
        what = "yourself" if other == board.seat else "the player closest to winning"
        return _aimed(intent or "harm", other == board.seat, 1 + vp), what
    uid = option.get("base")
    if uid in board.bases:
        powers = board.powers(uid)
        mine = powers.get(board.seat, 0)
        others = board.bases[uid].get("total_power", 0) - mine
        near = board.bases[uid].get("total_power", 0) / max(board.bases[uid].get("breakpoint") or 1, 1)
        if intent == "harm":
            return 1 + others - 2 * mine + near, "where your rivals have the most and you the least"
        return 1 + mine + near, "where you are strongest and nearest to scoring"
    return 1.0, "a reasonable choice"
