"""What a game page says about how the game ends early: time called, the base limit, a tie playing
on, a shared win. Plain data from the engine's ``view()["ending"]`` (see ``Game.call_time`` for the
ruling); ``templates/play/_time_called.html`` shows it."""

from __future__ import annotations


def describe(view: dict, names: dict) -> dict | None:
    """None when the game ends the ordinary way; else a headline and a sentence for people."""
    ending = view.get("ending") or {}
    if not ending.get("time_called") and not ending.get("reason"):
        return None
    if ending.get("time_called"):
        headline = "Time has been called."
    else:
        headline = f"{ending['bases_scored']} bases have scored."
    shared = ending.get("shared_winners") or []
    if view.get("phase") == "over":
        if shared:
            top = max(p["vp"] for p in view["players"])
            who = " and ".join(names.get(s, f"Seat {s + 1}") for s in shared)
            detail = f"The tie was not broken: {who} share the win with {top} VP."
        else:
            detail = "The game ended on the VP: the most VP won."
    elif ending.get("play_on_until") is not None:
        detail = (
            "The lead is tied: play goes on until a scored base breaks the tie, at most until the "
            f"end of turn {ending['play_on_until']}."
        )
    else:
        detail = f"Turn {ending['final_turn']} is the last; then the player with the most VP wins."
    return {
        "headline": headline,
        "detail": detail,
        "time_called": bool(ending.get("time_called")),
        "shared_winners": shared,
    }
