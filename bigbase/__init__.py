"""Big Base mode: the board model and its rules (pure Python), plus the Django views for the table.

Keep this file free of Django imports: the rules modules here are imported by the pure engine.
"""
