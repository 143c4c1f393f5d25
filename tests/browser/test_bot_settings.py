"""The bots' level, pace and thinking time, and the hint button, in a real browser (issue 25), on a
phone (390x844) and a laptop (1366x768). The server processes run the real expert bot (Hard, and the
hints); bots play at half a second a move at the normal pace, so the pace the page is given can be
read."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .test_tournament_event import _in_db_thread

STACK_OPTIONS = {"bot_delay": 0.5}
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 768}}
WAIT_MS = 60_000
CHOICE = "#decision form.choice-form"


def table_settings(url: str) -> dict:
    """The table settings stored for the game at `url` (what the server made of the form)."""
    from smashup.play.models import Game

    return Game.objects.get(public_id=url.rstrip("/").rsplit("/", 1)[-1]).config["table"]


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_lobby_sets_each_bots_level_and_the_bots_pace(stack, browser, screenshots, viewport):
    context = browser.new_context(viewport=VIEWPORTS[viewport])
    page = context.new_page()
    page.goto(stack.base_url + "/play/")
    page.locator("#id_your_name").fill("Ada")
    page.locator("#id_seat0_kind").select_option("person")
    level = page.locator("#id_seat1_level")
    page.locator("#id_seat1_kind").select_option("person")
    expect(level).to_be_hidden()  # a person seat has no bot level
    page.locator("#id_seat1_kind").select_option("bot")
    expect(level).to_be_visible()
    expect(level.locator("option")).to_have_text(["Easy", "Normal", "Hard"])
    expect(level).to_have_value("normal")
    level.select_option("hard")
    page.locator("#id_seat2_kind").select_option("bot")
    page.locator("#id_seat2_level").select_option("easy")
    pace = page.locator("#id_pace")
    expect(pace).to_have_value("normal")
    pace.select_option("slow")
    think = page.locator("#id_think")
    expect(think).to_have_value("1")
    expect(think.locator("option")).to_have_text(["0.3 s", "0.5 s", "1 s", "2 s", "3 s", "5 s"])
    think.select_option("0.5")
    expect(page.locator("#id_hints")).to_be_checked()
    page.locator("#bots-and-hints").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"bots-lobby-settings-{viewport}.png"))
    page.get_by_role("button", name="Set up the table").click()
    page.wait_for_url("**/play/g/**")
    # The screen holds each move as long as the server spaces the bots' moves: 2 x 0.5 s.
    expect(page.locator(".play")).to_have_attribute("data-pace-ms", "1000")
    expect(page.locator("#ws-state")).to_have_attribute("data-state", "open")
    settings = _in_db_thread(table_settings, page.url)
    assert settings == {"pace": "slow", "hints": True, "bots": {"1": "expert", "2": "easy"}, "think": 0.5}
    context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=list(VIEWPORTS))
def test_play_against_bots_with_a_level_from_the_home_page(stack, browser, viewport):
    context = browser.new_context(viewport=VIEWPORTS[viewport])
    page = context.new_page()
    page.goto(stack.base_url + "/")
    level = page.get_by_label("Bots' level")
    expect(level).to_have_value("normal")
    expect(level.locator("option")).to_have_text(["Easy", "Normal", "Hard"])
    level.select_option("easy")
    page.get_by_role("button", name="Play against bots").click()
    page.wait_for_url("**/play/g/**")
    expect(page.locator(".play")).to_have_attribute("data-pace-ms", "500")  # the normal pace
    assert _in_db_thread(table_settings, page.url)["bots"] == {"1": "easy", "2": "easy"}
    context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=list(VIEWPORTS))
def test_the_hint_button_answers_my_decision_and_goes_when_it_is_answered(
    stack, browser, screenshots, viewport
):
    context = browser.new_context(viewport=VIEWPORTS[viewport])
    page = context.new_page()
    page.goto(stack.base_url + "/play/")
    page.locator("#id_your_name").fill("Ada")
    page.locator("#id_seat0_kind").select_option("person")
    page.locator("#id_seat1_kind").select_option("bot")
    page.locator("#id_pace").select_option("instant")
    page.get_by_role("button", name="Set up the table").click()
    page.wait_for_url("**/play/g/**")
    expect(page.locator("#ws-state")).to_have_attribute("data-state", "open")
    button = page.get_by_role("button", name="Hint")
    answer = page.locator("#hint")
    expect(button).to_be_enabled(timeout=WAIT_MS)  # my decision is open
    button.click()
    expect(answer).to_have_attribute("data-state", "ready", timeout=WAIT_MS)
    expect(answer).to_contain_text("Hint:")
    expect(answer).to_be_visible()
    suggested = answer.get_attribute("data-options").split()
    if not suggested:
        # An optional decision (Mushroom Kingdom's move at the start of a turn, say) may best be
        # declined: the hint says so, and only where the page offers declining.
        expect(answer).to_contain_text("Choose none")
        expect(page.locator("#decision button[name=decline]")).to_have_count(1)
    page.screenshot(path=str(screenshots / f"hint-{viewport}.png"))
    # Answer the decision: the hint was about that one, so it goes.
    version = page.locator("#play-status").get_attribute("data-version")
    show_all = page.locator("#decision [data-show-all]")
    if show_all.is_visible():
        show_all.click()
    page.locator(f"{CHOICE} button[name=options]:visible").first.click()
    expect(page.locator("#play-status")).not_to_have_attribute("data-version", version, timeout=WAIT_MS)
    expect(answer).to_be_hidden()
    context.close()


def test_no_hint_button_at_a_table_set_up_without_hints(stack, browser):
    context = browser.new_context(viewport=VIEWPORTS["phone"])
    page = context.new_page()
    page.goto(stack.base_url + "/play/")
    page.locator("#id_your_name").fill("Ada")
    page.locator("#id_seat0_kind").select_option("person")
    page.locator("#id_seat1_kind").select_option("bot")
    page.locator("#id_hints").uncheck()
    page.get_by_role("button", name="Set up the table").click()
    page.wait_for_url("**/play/g/**")
    expect(page.locator("#ws-state")).to_have_attribute("data-state", "open")
    expect(page.locator("#decision")).to_be_visible()
    expect(page.get_by_role("button", name="Hint")).to_have_count(0)
    context.close()
