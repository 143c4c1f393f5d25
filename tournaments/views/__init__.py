"""Pages of tournaments. Thin: parse the request, call `services` (and `clock`, `drafting`), render.

One module a part of the site: `events` (the list, a new event, its settings), `public` (what anyone
may open: an event, sign-up, check-in, standings, rounds, the projector), `player` (a player's own
page, results and draft pick), `organizer` (the dashboard and its actions), `desk` (importing
players, the judge's desk, manual table control), `data` (exports and the JSON API), `records`
(profiles, ratings, faction statistics and series across events), `notices` (a player's Web Push and
e-mail settings); `common` holds what they share.

Who may do what: every page that changes an event goes through `common.organizer_only` (not logged
in: redirect to the login page; logged in but not an organizer of this event: 403), except what a
player does for themselves (sign up, drop, report / confirm / dispute their own table's result, their
own draft pick), which the services check against the entrant of this user or browser session.
"""
