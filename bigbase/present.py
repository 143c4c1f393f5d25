"""What the pages show of a Big Base game: the board as four sides around the base card, each
slot with its ability, the cards in it and whose they are, power per side and per player, the
round and period tracks, the First Player token, VP.

Plain functions over plain data (no Django): the inputs are the engine's view for one seat
(`game.view(seat)`, never holding a hidden card) and the base entries `smashup.play.render` made of
it (cards with their texts and names). Shared by the table display, the phones' compact board, the
hot seat page, the spectators' page and the replay.
"""
from __future__ import annotations

# Where each side is drawn around the base card (the board as seen from above).
PLACES = {"North": "top", "East": "right", "South": "bottom", "West": "left"}


def short_names(names: dict) -> dict:
    """Each player's name as the board's slots show it: the first word, when no other player's name
    starts with the same one ("Alexandra" for "Alexandra Featherstonehaugh"), else the whole name.
    The players' list shows the whole names; the board, drawn in large type, has less room."""
    first = {seat: (name.split() or [""])[0] for seat, name in names.items()}
    return {seat: first[seat] if first[seat] and list(first.values()).count(first[seat]) == 1 else name
            for seat, name in names.items()}


def board(view: dict, bases: list[dict], names: dict, pending: dict | None) -> dict | None:
    """The board for the templates, or None for a standard game. `bases`: render's base entries
    (one per side, in board order); `pending`: the decision of the seat this page is for (None
    when it has none), whose slot and side options make the slots and sides tappable."""
    big = view.get("big_base")
    if big is None:
        return None
    slot_options = {}  # (side uid, slot index) -> option id, when the question is "which slot?"
    if pending is not None and pending.get("kind") == "slot":
        for option in pending["options"]:
            if option.get("base") is not None and option["id"].startswith("o"):
                slot_options[(option["base"], int(option["id"][1:]))] = option["id"]
    short = short_names(names)
    sides = []
    for base, side in zip(bases, big["sides"], strict=True):
        uid = side["uid"]
        powers = {p["seat"]: p["power"] for p in base["powers"]}
        best = max(powers.values(), default=0)
        leaders = [s for s, p in powers.items() if p == best and best > 0]
        slots = []
        for slot in side["slots"]:
            holder = slot["holder"]
            minions = [m for m in base["minions"] if holder is not None and m.get("controller") == holder]
            actions = [a for a in base["actions"] if holder is not None and a.get("controller") == holder]
            slots.append({
                "index": slot["index"],
                "number": slot["index"] + 1,
                "ability": slot["ability"],
                # An "on occupation" ability has done its work for the player holding the slot; it
                # matters again once the slot is free (the display shows it smaller meanwhile).
                "spent": holder is not None and (slot["ability"] or "").startswith("On occupation"),
                "virtual": slot["index"] >= 3,  # the 4th slot of a 4-player game has no ability
                "holder": holder,
                "holder_name": names.get(holder, "") if holder is not None else "",
                "holder_short": short.get(holder, "") if holder is not None else "",
                "minions": minions,
                "actions": actions,
                "power": powers.get(holder, 0) if holder is not None else 0,
                "option": slot_options.get((uid, slot["index"])),
            })
        sides.append({
            "uid": uid,
            "id": base["id"],
            "name": side["name"],
            "place": PLACES.get(side["name"], "top"),
            "total": base["total"],
            "powers": [p for p in base["powers"] if p["power"]],
            "leaders": [short.get(s, "") for s in leaders],
            "slots": slots,
            "is_option": base["is_option"],
        })
    players = []
    for p in view["players"]:
        players.append({
            "seat": p["seat"],
            "name": p["name"],
            "vp": p["vp"],
            "power": big["power_by_seat"].get(str(p["seat"]), 0),
            "hand_count": p["hand_count"],
            "first": p["seat"] == big["first_player"],
            "is_current": p["seat"] == view["current"] and view.get("pending") is not None,
        })
    last = big.get("last_scoring")
    scoring = None
    if last is not None:
        scoring = {
            "period": last["period"],
            "tiebreak_round": last.get("tiebreak_round", 0),
            "rows": sorted(
                ({"seat": int(s), "name": names.get(int(s), ""), "place": last["places"].get(s),
                  "power": power, "vp": last["vp"].get(s, 0), "bonus": last["side_bonus"].get(s, 0)}
                 for s, power in last["powers"].items()),
                key=lambda r: (r["place"] or 9, r["name"])),
        }
    return {
        "board_name": big["board"]["name"],
        "current_base": big["current_base"],
        "next_base": big["next_base"],
        "round": big["round"],
        "rounds": list(range(1, big["rounds_per_period"] + 1)),
        "period": big["period"],
        "periods": list(range(1, big["periods"] + 1)),
        "tiebreak_round": big["tiebreak_round"],
        "first_player": big["first_player"],
        "first_player_name": names.get(big["first_player"], ""),
        "vp_table": big["vp_table"],
        "side_bonus_vp": big["side_bonus_vp"],
        "sides": sides,
        "by_place": {s["place"]: s for s in sides},
        "players": players,
        "last_scoring": scoring,
    }
