"""The project's default boards (bigbase/data/boards.yaml) as rows an organizer can edit. The
values are written here, not read from the file, so this migration gives the same rows forever."""

from django.db import migrations

PERIOD_VP = {"1": [4, 3, 2, 1], "2": [5, 4, 3, 1], "3": [6, 5, 3, 2]}


def _occ(effect):
    return {"ability": "on_occupation", "effect": effect}


ONGOING_COUNTER = {"ability": "ongoing", "effect": {"first_minion_counter": True}}

BOARDS = [
    {
        "slug": "default",
        "name": "Default board",
        "data": {
            "rounds_per_period": 3, "periods": 3, "period_vp": PERIOD_VP, "side_bonus_vp": 1,
            "tiebreak_period": 1,
            "sides": [
                {"name": "North", "slots": [_occ({"draw": 1}), _occ({"extra_action": True}),
                                            ONGOING_COUNTER]},
                {"name": "East", "slots": [_occ({"extra_minion": {"max_power": 2, "here": True}}),
                                           _occ({"power_counter": 1}), _occ({"scry": 2})]},
                {"name": "South", "slots": [_occ({"loot": {"draw": 2, "discard": 1}}),
                                            _occ({"move_in": True}), _occ({"draw": 1})]},
                {"name": "West", "slots": [_occ({"extra_minion": {"max_power": 3, "here": False}}),
                                           ONGOING_COUNTER, _occ({"power_counter": 1})]},
            ],
        },
    },
    {
        "slug": "plain",
        "name": "Plain board (no slot abilities)",
        "data": {
            "rounds_per_period": 3, "periods": 3, "period_vp": PERIOD_VP, "side_bonus_vp": 1,
            "tiebreak_period": 1,
            "sides": [{"name": n, "slots": [{}, {}, {}]} for n in ("North", "East", "South", "West")],
        },
    },
]


def load(apps, schema_editor):
    Board = apps.get_model("bigbase", "Board")
    for board in BOARDS:
        Board.objects.update_or_create(
            slug=board["slug"], defaults={"name": board["name"], "data": board["data"]})


def unload(apps, schema_editor):
    apps.get_model("bigbase", "Board").objects.filter(slug__in=[b["slug"] for b in BOARDS]).delete()


class Migration(migrations.Migration):
    dependencies = [("bigbase", "0001_initial")]

    operations = [migrations.RunPython(load, unload)]
