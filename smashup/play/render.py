"""Turn an engine view into what the templates show, and render the live fragments.

Everything a page or a WebSocket message shows of a game comes from ``game.view(seat)`` (the engine's
leak-free view for that seat, ``None`` for spectators) plus ``game.card_texts()`` (our own ability
text by card name). Every card element carries ``data-card="<id>"`` so that tests can scan what went
over the wire for hidden cards.
"""

from __future__ import annotations

import json
import logging
import re

from django.db.models import Q
from django.template.loader import render_to_string

from bigbase.present import board as big_base_board

from . import tabledisplay
from .ending import describe as describe_ending
from .lru import LRU
from .summaries import scoring_summaries, since_last_turn

logger = logging.getLogger(__name__)

PHASES = {
    "setup": "Setup",
    "start": "Start of turn",
    "play": "Play cards",
    "score": "Score bases",
    "draw": "Draw cards",
    "end": "End of turn",
    "over": "Game over",
}

KIND_HELP = {
    "play": "Play a card on a base, use a talent, or end this phase.",
    "discard": "Choose the cards to discard.",
    "special": "You may use a Special now, or pass.",
    "slot": "Choose the slot your card goes to: tap it on the board, or a button here.",
}


OPTION_WORDS = {"play": "can be played", "discard": "to discard", "special": "can be played now"}


LOG_SHOWN = 60  # the last lines of the log a page shows


def visible_log_count(game, seat, notes=()) -> int:
    """How many log lines `seat` has seen so far (numbers the lines, so that a live log can append
    only the new ones). `notes`: the server's own public lines (see `log_notes`)."""
    return sum(1 for _, to in game.log_lines if to is None or (seat is not None and seat in to)) + len(notes)


def log_notes(row, game) -> list[tuple[int, str]]:
    """The server's own public log lines, as (position in the engine's log, text): a seat that ran
    out of time, a choice taken back. They are not the engine's (the record is the truth and knows
    nothing of clocks or undos); each is placed where its choice was made. Positions past the end of
    the engine log (an undo took the log back) are shown at the end when `game` is the current state
    and left out when it is an earlier one (the replay)."""
    if row is None or getattr(row, "pk", None) is None or not (row.turn_seconds or row.undos):
        return []
    names = {i: p.get("name") or f"Player {i + 1}" for i, p in enumerate(row.config.get("players", []))}
    current = len(game.choices) == row.version
    end = len(game.log_lines)
    notes = []
    rows = row.choices.filter(log_at__isnull=False).filter(
        Q(timed_out=True, undone_at__isnull=True) | Q(undone_at__isnull=False)
    )
    for seat, seq, log_at, undone_at, created_at in rows.values_list(
        "seat", "seq", "log_at", "undone_at", "created_at"
    ):
        name = names.get(seat, f"Seat {seat + 1}")
        if undone_at is not None:
            if log_at > end and not current:
                continue
            notes.append((min(log_at, end), undone_at, f"{name} took back their last choice."))
        elif seq < len(game.choices):
            notes.append((log_at, created_at, f"{name} ran out of time: the bot chose for them."))
    notes.sort(key=lambda n: (n[0], n[1]))
    return [(pos, text) for pos, _, text in notes]


def merged_log(game, seat, notes) -> tuple[list[dict], int]:
    """The last LOG_SHOWN lines `seat` may read, engine lines and notes merged and numbered, and
    the number of lines it may read in all."""
    lines: list[str] = []
    pending = list(notes)
    k = 0
    for i, (text, to) in enumerate(game.log_lines):
        while k < len(pending) and pending[k][0] <= i:
            lines.append(pending[k][1])
            k += 1
        if to is None or (seat is not None and seat in to):
            lines.append(text)
    lines.extend(text for _, text in pending[k:])
    total = len(lines)
    first = max(0, total - LOG_SHOWN)
    return [{"n": first + i + 1, "text": text} for i, text in enumerate(lines[first:])], total


# Each faction's colour and emblem, drawn by the project (static/css/play.css, `.fac-<key>`): the
# emblem is a shape from the SVG sprite in play/_emblems.html. Factions not listed get a colour from
# their name and the plain disc.
FACTION_STYLES = {
    "Aliens": "disc", "Dinosaurs": "claw", "Ninjas": "star", "Pirates": "anchor",
    "Robots": "gear", "Tricksters": "moon", "Wizards": "spark", "Zombies": "hand",
    "Rock Stars": "note", "Teddy Bears": "paw", "Tornados": "funnel",
    "Sharks": "fin", "Mythic Greeks": "column", "Dragons": "flame", "Explorers": "hat",
    "Grannies": "teacup", "Superheroes": "bolt",
}  # fmt: skip


def faction_key(name: str | None) -> str:
    return "".join(ch for ch in (name or "").lower() if ch.isalnum())


def faction_style(name: str | None) -> dict | None:
    if not name:
        return None
    hue = sum(ord(ch) * (i + 1) for i, ch in enumerate(name)) % 360  # for a faction without a style
    return {"key": faction_key(name), "emblem": FACTION_STYLES.get(name, "disc"), "hue": hue}


def power_parts(game, cid: int) -> list[dict]:
    """Why a minion in play has the power it has: its printed power, its power counters and each
    modifier in force with the card it comes from (or "this turn" for a lasting effect). The same
    sources as `Game.power` reads, read only; a test checks that the parts add up to it."""
    from smashup.engine.effects import Ctx

    defn = game.defs[cid]
    state = game.minion_state.get(cid)
    parts = [{"label": "printed", "amount": defn.power}]
    if state is None:
        return parts
    if state.counters:
        parts.append({"label": "power counters", "amount": state.counters})
    for source in game.modifier_sources:
        sdef = game.defs[source]
        zone = game.loc[source]
        if zone[0] == "base":
            if not game.base_active(game.slot(zone[1])):
                continue
            delta = sdef.power_modifier(Ctx(game, source, game.current, zone[1]), cid)
        else:
            if not game.ability_active(source):
                continue
            ctrl = game.controller(source)
            delta = sdef.power_modifier(Ctx(game, source, ctrl), cid)
            if delta and not game.affects(source, ctrl, cid):
                continue
        if delta:
            parts.append({"label": sdef.name, "amount": delta})
    for eff in game.lasting:
        if eff.kind == "power" and eff.target == cid and game.lasting_active(eff):
            known = eff.source is not None and 0 <= eff.source < len(game.defs)
            label = game.defs[eff.source].name if known else "an effect"
            parts.append({"label": label, "amount": eff.amount})
    return parts


def breakdown_text(parts: list[dict]) -> str:
    """ "3 printed + 1 power counters − 2 Base name": the parts of a power, for people."""
    text = ""
    for i, part in enumerate(parts):
        amount = part["amount"]
        if i == 0:
            text = f"{amount} {part['label']}"
        else:
            text += f" {'−' if amount < 0 else '+'} {abs(amount)} {part['label']}"
    return text


def _card(card: dict, texts: dict, names: dict) -> dict:
    data = dict(card)
    data["text"] = texts.get(card.get("name"), "")
    data["style"] = faction_style(card.get("faction"))
    if "controller" in card:
        data["controller_name"] = names.get(card["controller"], "")
    if "owner" in card:
        data["owner_name"] = names.get(card["owner"], "")
    if card.get("type") == "minion":
        data["boosted"] = card.get("power", 0) - card.get("printed", 0)
    return data


def breakpoint_parts(game, uid: int) -> list[dict]:
    """Why a base has the breakpoint it has: its printed breakpoint, the starting value a card in
    play sets instead (Turn Up to 11), each modifier of a card in play and each lasting change
    (Rampage). The same sources as `Game.breakpoint` reads, read only; a test checks that the
    parts add up to it."""
    slot = game.slot(uid)
    printed = game.base_def(slot).breakpoint
    parts = [{"label": "printed", "amount": printed}]
    start = game.starting_breakpoint(slot) if game.breakpoint_sources else printed
    if start != printed:
        setter = next(
            game.defs[s].name
            for s in game.breakpoint_sources
            if game.defs[s].starting_breakpoint is not None
            and game.defs[s].starting_breakpoint(game.card_ctx(s), uid) == start
        )
        parts.append({"label": f"{setter} (starts at {start})", "amount": start - printed})
    for source in game.breakpoint_sources:
        sdef = game.defs[source]
        if sdef.breakpoint_modifier is not None:
            delta = sdef.breakpoint_modifier(game.card_ctx(source), uid)
            if delta:
                parts.append({"label": sdef.name, "amount": delta})
    for eff in game.lasting:
        if eff.kind == "breakpoint" and eff.target == slot.card and game.lasting_active(eff):
            known = eff.source is not None and 0 <= eff.source < len(game.defs)
            label = game.defs[eff.source].name if known else "an effect"
            parts.append({"label": label, "amount": eff.amount})
    return parts


def _in_event_loop() -> bool:
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def game_notes(row, page: bool) -> dict:
    """What other apps say about this game for its page (signals.game_notes): "ended" (why it was
    ended, when they ended it) and "parts" (fragments above the board, with `page`). A receiver that
    fails is logged and left out: the game page never fails for another app."""
    from django.utils.safestring import mark_safe

    from .signals import game_notes as notes_signal

    out: dict = {"ended": "", "parts": []}
    if _in_event_loop():
        return out  # a socket's fast path renders without the database: the next full render asks
    for receiver, answer in notes_signal.send_robust(sender=type(row), game=row, page=page):
        if isinstance(answer, Exception):
            logger.error("game_notes receiver %r failed for game %s", receiver, row.pk, exc_info=answer)
            continue
        if not answer:
            continue
        out["ended"] = out["ended"] or answer.get("ended", "")
        if page and answer.get("html"):
            out["parts"].append(mark_safe(answer["html"]))  # noqa: S308 (rendered by the receiver's template)
    return out


def board_context(row, game, seat: int | None) -> dict:
    """The template context of a game page (and of every live fragment) for `seat`."""
    view = game.view(seat)
    texts = game.card_texts()
    names = {p["seat"]: p["name"] for p in view["players"]}
    pending = view["pending"]
    mine = pending if pending is not None and "options" in pending else None
    option_cards = {o["card"] for o in (mine or {}).get("options", []) if "card" in o}
    # A base is highlighted when the question is about bases ("which base?"), not for every play.
    option_bases = {o["base"] for o in (mine or {}).get("options", []) if "base" in o and "card" not in o}

    players = []
    for p in view["players"]:
        players.append(
            {
                **p,
                "is_me": p["seat"] == seat,
                # Nobody has a turn once the game is over.
                "is_current": pending is not None and p["seat"] == view["current"],
                "is_deciding": pending is not None and pending.get("seat") == p["seat"],
                "discard": [_card(c, texts, names) for c in p["discard"]],
                "faction_list": [{"name": f, "style": faction_style(f)} for f in p.get("factions") or []],
            }
        )

    base_names = {}
    bases = []
    for b in view["bases"]:
        base_names[b["uid"]] = b["name"]
        powers = [
            {
                "seat": s,
                "name": names.get(s, ""),
                "power": b["power_by_seat"].get(str(s), 0),
                "is_me": s == seat,
            }
            for s in sorted(names)
        ]
        minions = []
        for m in b["minions"]:
            card = _card(m, texts, names)
            card["attached"] = [_card(a, texts, names) for a in m["attached"]]
            card["is_mine"] = m.get("controller") == seat
            card["is_option"] = m["id"] in option_cards
            card["breakdown"] = breakdown_text(power_parts(game, m["id"]))
            card["has_parts"] = card["breakdown"] != f"{card.get('printed')} printed"
            minions.append(card)
        bases.append(
            {
                "uid": b["uid"],
                "id": b["id"],
                "name": b["name"],
                "text": texts.get(b["name"], ""),
                "breakpoint": b["breakpoint"],
                # Raised or lowered from the printed value, and why (the title of the number).
                "breakpoint_change": b["breakpoint"] - game.base_def(game.slot(b["uid"])).breakpoint,
                "breakpoint_why": breakdown_text(breakpoint_parts(game, b["uid"])),
                "vp": b["vp"],
                "active": b["active"],
                "total": b["total_power"],
                "ready": b["total_power"] >= b["breakpoint"],
                "powers": powers,
                "minions": minions,
                "columns": base_columns(minions, powers, seat),
                "actions": [_card(a, texts, names) for a in b["actions"]],
                "is_option": b["uid"] in option_bases,
            }
        )

    # What a card that the open decision offers is for: "can be played" only when playing is the
    # question (a discard decision offers the same cards to throw away).
    option_word = OPTION_WORDS.get((mine or {}).get("kind"), "can be chosen")
    hand = None
    if view["hand"] is not None:
        hand = []
        for c in view["hand"]:
            card = _card(c, texts, names)
            card["is_option"] = c["id"] in option_cards
            hand.append(card)

    decision = None
    if mine is not None:
        decision = _decision(mine, view, texts, names, base_names)
        _alike_in_hand(decision, hand or [])

    if row is not None and (row.turn_seconds or row.undos):
        log, log_total = merged_log(game, seat, log_notes(row, game))
    else:
        log_total = visible_log_count(game, seat)
        first = log_total - len(view["log"]) + 1
        log = [{"n": first + i, "text": text} for i, text in enumerate(view["log"])]

    deciding = pending.get("seat") if pending is not None else None
    active = pending is not None and view["winner"] is None
    return {
        # Why a game ended before its end, when another app ended it (game_notes; asked only then).
        "stopped_note": game_notes(row, page=False)["ended"] if row is not None and row.stopped_at else "",
        "big_base": big_base_board(view, bases, names, mine),
        "game": row,
        "seat": seat,
        "me": names.get(seat) if seat is not None else None,
        "is_spectator": seat is None,
        "version": row.version,
        "status": row.status,
        "turn": view["turn"],
        "current": view["current"],
        "current_name": names.get(view["current"], ""),
        "phase": view["phase"],
        "phase_label": PHASES.get(view["phase"], view["phase"].title()),
        "deciding": deciding,
        "deciding_name": names.get(deciding, "") if deciding is not None else "",
        "deciding_is_bot": any(p["seat"] == deciding and p.get("bot") for p in players),
        "deciding_kind": pending.get("kind") if pending is not None else "",
        "winner": view["winner"],
        "winner_name": names.get(view["winner"]) if view["winner"] is not None else None,
        "players": players,
        "final_places": final_places(view["players"], seat) if pending is None else [],
        "bases": bases,
        "base_deck_count": view["base_deck_count"],
        "base_discard": [_card(c, texts, names) for c in view["base_discard"]],
        "hand": hand,
        "option_word": option_word,
        "decision": decision,
        "log": log,
        "log_total": log_total,
        "can_undo": _can_undo(row, game, seat),
        "undo_note": _undo_note(row, game, seat),  # why there is no Undo button (play/_undo.html)
        "timer": _timer(row, game, deciding, names),
        "ending": describe_ending(view, names),  # time called / base limit (play/_time_called.html)
        "since": since_last_turn(game, seat, view["current"], names) if active else None,
        "scorings": scoring_summaries(game, view, seat, names, texts),
    }


TURN_LINE = re.compile(r"^Turn (\d+)\b")  # Big Base: "Turn 7 (round 1 of period 3): Ada."


def replay_outline(row, final, seat: int | None) -> dict:
    """What the replay page shows of the whole game at once: the step at which each turn starts (to
    jump to it) and the whole log `seat` may read (None: the public lines), each line with its turn.
    `final`: the engine game at the end of the record. Only for a finished game (see views.replay)."""
    starts: dict[int, int] = {}
    turn_at: list[tuple[int, int]] = []  # (position in the engine log, turn number)
    for position, (text, _) in enumerate(final.log_lines):
        found = TURN_LINE.match(text)
        if found:
            turn_at.append((position, int(found.group(1))))
    log_ats = list(row.choices.in_record().order_by("seq").values_list("seq", "log_at"))
    k = 0
    # A turn starts at the first choice made after its "Turn N" line: `log_at` counts the lines before
    # the choice, so a line at position `log_at` came with the choice (a Big Base turn often begins
    # with nothing else logged).
    for seq, log_at in log_ats:
        while k < len(turn_at) and log_at is not None and turn_at[k][0] < log_at:
            starts.setdefault(turn_at[k][1], seq)
            k += 1
    lines = []
    turn = 0
    for text, to in final.log_lines:
        found = TURN_LINE.match(text)
        if found:
            turn = int(found.group(1))
        if to is None or (seat is not None and seat in to):
            lines.append({"turn": turn, "text": text})
    return {"turn_starts": sorted(starts.items()), "whole_log": lines}


def final_places(view_players: list[dict], seat: int | None) -> list[dict]:
    """The players by final VP, most first; tied players share the better place (1, 2, 2, 4)."""
    ordered = sorted(view_players, key=lambda p: (-p["vp"], p["seat"]))
    places = []
    for index, p in enumerate(ordered):
        tied_above = index > 0 and ordered[index - 1]["vp"] == p["vp"]
        place = places[-1]["place"] if tied_above else index + 1
        places.append({"place": place, "name": p["name"], "vp": p["vp"], "is_me": p["seat"] == seat})
    return places


def _can_undo(row, game, seat) -> bool:
    from .undoing import may_undo

    # Only on the current state (not a replay step) and for the seat that made the last choice.
    return (
        row is not None
        and getattr(row, "pk", None) is not None
        and len(game.choices) == row.version
        and may_undo(row, seat)
    )


def _undo_note(row, game, seat) -> dict | None:
    from .undoing import undo_note

    return undo_note(row, game, seat)


def _timer(row, game, deciding, names) -> dict | None:
    """The turn timer of the open decision: who, and the seconds left when this was rendered (the
    page counts down from there; `#play-status` carries them as data-remaining)."""
    from . import timers

    if row is None or getattr(row, "pk", None) is None or len(game.choices) != row.version:
        return None
    left = timers.remaining(row)
    if left is None or deciding is None:
        return None
    return {
        "seconds": row.turn_seconds,
        "remaining": round(left, 1),
        "seat": deciding,
        "name": names.get(deciding, ""),
    }


def _decision(pending: dict, view: dict, texts: dict, names: dict, base_names: dict) -> dict:
    cards = {}
    for c in view["hand"] or []:
        cards[c["id"]] = c
    for b in view["bases"]:
        cards[b["id"]] = {"id": b["id"], "name": b["name"], "type": "base"}
        for m in b["minions"]:
            cards[m["id"]] = m
            for a in m["attached"]:
                cards[a["id"]] = a
        for a in b["actions"]:
            cards[a["id"]] = a
    for p in view["players"]:
        for c in p["discard"]:
            cards[c["id"]] = c
    for c in view["base_discard"]:
        cards[c["id"]] = c
    for c in pending.get("reveal") or []:
        cards[c["id"]] = c

    # Options about the same card with a base each ("Play Shinobi on X / on Y") become one group: the
    # card, then a button per base. Everything else is a group of its own.
    groups: list[dict] = []
    by_card: dict[int, dict] = {}
    for o in pending["options"]:
        option = {
            "id": o["id"],
            "label": o["label"],
            "card": o.get("card"),
            "base": o.get("base"),
            "short": o["label"],
        }
        card_id = o.get("card")
        if card_id is not None and o.get("base") is not None and pending["max"] == 1:
            group = by_card.get(card_id)
            if group is None:
                card = cards.get(card_id, {"id": card_id, "name": o["label"]})
                group = {
                    "card": _card(card, texts, names),
                    "title": card.get("name", o["label"]),
                    "options": [],
                }
                by_card[card_id] = group
                groups.append(group)
            option["short"] = base_names.get(o["base"], o["label"])
            group["options"].append(option)
        else:
            card = cards.get(card_id) if card_id is not None else None
            groups.append(
                {"card": _card(card, texts, names) if card else None, "title": "", "options": [option]}
            )
    # Identical options are shown once: two copies of a card in hand offer the same plays, two alike
    # minions on one base the same target ("Ninja Acolyte (2, Bot 4) on The Homeworld" three times).
    # Either will do, so the first one's option is sent; the page maps a tap on any of the cards to it
    # (`cards`, the template's data-cards). A choice of several keeps each card (they count), marked.
    where = {}
    for b in view["bases"]:
        for m in b["minions"]:
            where[m["id"]] = b["uid"]
            for a in m["attached"]:
                where[a["id"]] = b["uid"]
        for a in b["actions"]:
            where[a["id"]] = b["uid"]
    hand_ids = {c["id"] for c in view["hand"] or []}
    merged: list[dict] = []
    seen: dict[tuple, dict] = {}
    for group in groups:
        group["copies"] = 1
        card = group["card"]
        group["cards"] = [card["id"]] if card is not None else []
        place = None
        if card is not None:
            place = "hand" if card["id"] in hand_ids else where.get(card["id"])
        key = (
            card["name"] if card is not None else "",
            card.get("power") if card is not None else None,
            card.get("controller") if card is not None else None,
            place,
            tuple((o["base"], o["label"]) for o in group["options"]),
        )
        if key in seen:
            first = seen[key]
            if pending["max"] == 1:
                first["copies"] += 1
                first["cards"].extend(group["cards"])
                continue
            group["copies"] = first["copies"] = 1
            for o in group["options"]:
                nth = sum(1 for g in merged if g.get("key") == key) + 1
                o["label"] = f"{o['label']} (copy {nth})"
        else:
            seen[key] = group
        group["key"] = key
        merged.append(group)
    for group in merged:
        group.pop("key", None)
        for o in group["options"]:
            o["cards"] = " ".join(str(c) for c in group["cards"]) if o["card"] is not None else ""
    groups = merged
    for group in groups:  # a lone option keeps its full label
        if group["card"] is not None and len(group["options"]) == 1:
            group["options"][0]["short"] = group["options"][0]["label"]

    # Tap-first (play/_decision.html): the main decision with cards in hand to play leads with "tap
    # a card, then where it goes"; the options about no card (end the phase) stay in view, the rest
    # is the full list, one tap away.
    tappable = any(o.get("card") in hand_ids for o in pending["options"])
    tap_first = pending["kind"] == "play" and tappable and pending["max"] == 1
    for group in groups:
        group["quick"] = tap_first and group["card"] is None
    source = cards.get(pending["source"]) if pending.get("source") is not None else None
    return {
        "id": pending["id"],
        "kind": pending["kind"],
        "prompt": pending["prompt"],
        "help": KIND_HELP.get(pending["kind"], ""),
        "min": pending["min"],
        "max": pending["max"],
        "multi": pending["max"] > 1,
        "tappable": tappable,
        "tap_first": tap_first,
        "listed": sum(len(g["options"]) for g in groups if not g["quick"]),
        "may_decline": pending["may_decline"],
        "groups": groups,
        "options": pending["options"],
        "source": _card(source, texts, names) if source else None,
        "reveal": [_card(c, texts, names) for c in pending.get("reveal") or []],
    }


# ---------------------------------------------------------------------------- what to sum up ----


def _alike_in_hand(decision: dict, hand: list[dict]) -> None:
    """Copies of one card in hand are offered once: the engine lists the plays of the first copy
    only (`Option.alike`), and `_decision` merges what it lists. Any copy can be tapped: each
    copy of a card the decision offers from the hand is marked playable and named by the first
    one's options (their data-cards), whose choice plays either."""
    offered = {c for group in decision["groups"] for c in group["cards"]}
    if decision["max"] == 1:
        by_name: dict[str, list] = {}
        for card in hand:
            by_name.setdefault(card["name"], []).append(card["id"])
        listed = set(offered)
        for group in decision["groups"]:
            card = group["card"]
            if card is None or card["id"] not in by_name.get(card["name"], ()):
                continue
            copies = [c for c in by_name[card["name"]] if c not in listed]
            if copies:
                group["cards"].extend(copies)
                group["copies"] += len(copies)
                offered.update(copies)
                for o in group["options"]:
                    o["cards"] = " ".join(str(c) for c in group["cards"])
    for card in hand:
        card["is_option"] = card["is_option"] or card["id"] in offered


def base_columns(minions: list[dict], powers: list[dict], seat: int | None) -> list[dict]:
    """A base's minions as at a real table: a column per player who has minions there (or power:
    an action on the base), the viewer's first, then the others in seat order from the viewer's
    left. Each column: who, their power here, their minions."""
    by_seat: dict[int, list] = {}
    for m in minions:
        by_seat.setdefault(m.get("controller"), []).append(m)
    power = {p["seat"]: p for p in powers}
    seats = sorted(set(by_seat) | {s for s, p in power.items() if p["power"]}, key=lambda s: (s is None, s))
    if seat in seats:
        at = seats.index(seat)
        seats = seats[at:] + seats[:at]
    columns = []
    for s in seats:
        p = power.get(s, {})
        columns.append(
            {
                "seat": s,
                "name": p.get("name", ""),
                "power": p.get("power", 0),
                "is_me": s == seat and seat is not None,
                "minions": by_seat.get(s, []),
            }
        )
    return columns


# ---------------------------------------------------------------------------------- fragments ----
def render_live(context: dict, *, log_after: int | None = None) -> str:
    """The htmx out-of-band fragments of one update, for one connection's seat.

    `log_after`: the number of the last log line this connection already shows; only later lines are
    appended to the live log (None: replace the whole log, as on connect)."""
    ctx = dict(context)
    ctx["oob"] = True
    if log_after is not None:
        ctx["log_append"] = [line for line in context["log"] if line["n"] > log_after]
    else:
        ctx["log_append"] = None
    return render_to_string("play/_live.html", ctx)


def render_error(message: str, code: str) -> str:
    return render_to_string("play/_error.html", {"message": message, "code": code, "oob": True})


def render_live_state(state: str) -> str:
    """Whether this page's live updates get through ("live") or not ("reconnecting": Redis is down,
    the page is kept up to date from the database every second or so; smashup.core.catchup)."""
    return render_to_string("play/_live_state.html", {"state": state, "oob": True})


def render_table_ping(n: int, status: str) -> str:
    """What a table page's socket gets on each change: a tiny fragment; the page then asks for its
    seats panel again (which answers 204 when nothing it shows changed)."""
    return render_to_string("play/_table_ping.html", {"n": n, "status": status, "oob": True})


# The public part of a game's view (`Game.public_view`) as JSON text, per (game pk, undos, version),
# shared by every connection of this process: after a choice each seat and each spectator sends its
# own view, and the public part, most of it, is the same for all of them.
public_views = LRU(256)


def view_json(key: tuple, game, seat: int | None) -> str:
    """`json.dumps(game.view(seat))`, exactly, with the public part from `public_views`. `key`:
    (game pk, undos, version) of the state `game` is in. The two parts never share a key (the
    engine's `view` is the public dict updated with the private one)."""
    public = public_views.get(key)
    if public is None:
        public = json.dumps(game.public_view())
        public_views.put(key, public)
    private = json.dumps(game.private_view(seat))
    if public == "{}":
        return private
    if private == "{}":
        return public
    return public[:-1] + ", " + private[1:]


# ---------------------------------------------------------------------------------- shared table -
def display_context(row, game, context: dict | None = None) -> dict:
    """The table display's context: what a spectator sees (`view(None)`, no hand), for the screen in
    the middle of the table (bigbase/display.html): the Big Base board, or a standard game's bases,
    with the display's own parts (`tabledisplay`: the last moves, the players with their factions,
    the last scoring). `context`: `board_context(row, game, None)` if the caller made it already."""
    context = dict(context) if context is not None else board_context(row, game, None)
    context["display"] = True
    context.update(tabledisplay.extend(context, [text for text, to in game.log_lines if to is None]))
    return context


def render_display(context: dict) -> str:
    """The table display's live fragments (status with the timer, the last moves, the board, the
    players); `context`: `display_context`'s."""
    ctx = dict(context, oob=True, display=True)
    return render_to_string("bigbase/_display_live.html", ctx)


def hot_seat_context(context: dict, held) -> dict:
    """The privacy screen of a hot seat device (one device passed around): whose turn it is to take
    the device, and whether this device plays that seat (else it waits for a bot or another device).
    Built from a spectator's context: nothing private."""
    deciding = context["deciding"]
    return {
        "seat": deciding,
        "name": context["deciding_name"],
        "ours": deciding is not None and deciding in held,
        "over": context["status"] == "finished",
    }


def render_hot_seat(context: dict, held) -> str:
    ctx = dict(context, oob=True, hot=hot_seat_context(context, held))
    return render_to_string("bigbase/_hotseat_live.html", ctx)
