"""The engine's order of reactions on the game row (engine Game.resolution): every game stored
before the rules' batches of reactions keeps version 1, so its record replays one event at a time as
it was played (and its stored state hashes still match); new games get version 2."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0006_game_secret_seed"),
    ]

    operations = [
        # Added with the old value for the rows that exist, then the default of new games.
        migrations.AddField(
            model_name="game",
            name="resolution",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.AlterField(
            model_name="game",
            name="resolution",
            field=models.PositiveSmallIntegerField(default=2),
        ),
    ]
