"""Links to the rules and help page where a term appears, and each faction's one-line description.

    {% load help %}
    {% help_link "side-bonus" %}                  a small "?" (its tap area is 44 px) after the term
    {% help_link "side-bonus" "most on a side" %} the words as the link
    {% help_url "periods" %}                       the address only
    {{ "Aliens"|faction_blurb }}                   the faction's line (smashup/cards/factions.yaml)

A help link opens the help in a new tab: a game page stays open and live behind it.
"""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from smashup.catalog import faction_descriptions
from smashup.core.help import term_name

register = template.Library()


@register.simple_tag
def help_url(term: str) -> str:
    term_name(term)  # an unknown term is an error, never a dead link
    return f"{reverse('help')}#{term}"


@register.simple_tag
def help_link(term: str, words: str = "") -> str:
    name = term_name(term)
    url = f"{reverse('help')}#{term}"
    opens = 'target="_blank" rel="noopener"'
    if words:
        return format_html(
            '<a class="help-term" href="{}" {} title="What is {}? (help, in a new tab)">{}</a>',
            url,
            mark_safe(opens),  # noqa: S308 (a constant)
            name,
            words,
        )
    return format_html(
        '<a class="help-link" href="{}" {} aria-label="What is {}? (help, in a new tab)" title="What is {}?">'
        '<span aria-hidden="true">?</span></a>',
        url,
        mark_safe(opens),  # noqa: S308 (a constant)
        name,
        name,
    )


@register.filter
def faction_blurb(name) -> str:
    """The faction's one line ("" for a name that is not a faction)."""
    return faction_descriptions().get(str(name), "")
