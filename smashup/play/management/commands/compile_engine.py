"""`manage.py compile_engine`: compile the engine's hot modules with Cython (smashup/engine/native.py).

Optional: the engine is pure Python and runs the same without it, about 1.3x slower."""
from django.core.management.base import BaseCommand, CommandError

from smashup.engine import native


class Command(BaseCommand):
    help = "Compile the engine's hot modules with Cython (optional; the same source, faster)."

    def add_arguments(self, parser):
        parser.add_argument("--optional", action="store_true",
                            help="without Cython or a C compiler, say so and keep pure Python")
        parser.add_argument("--status", action="store_true", help="which modules run compiled")
        parser.add_argument("--clean", action="store_true", help="remove the compiled build")
        parser.add_argument("--jobs", type=int, default=None, help="compiler processes")
        parser.add_argument("--plain", action="store_true",
                            help="compile once, without the profile-guided second pass (faster to "
                                 "build, games about 1.2x slower)")

    def handle(self, *args, **opts):
        if opts["status"]:
            import bigbase.rules  # noqa: F401  (every module of native.COMPILED imported)
            import smashup.cards  # noqa: F401
            import smashup.engine.bots  # noqa: F401
            import tournaments.pairing.kernel  # noqa: F401  (native.OTHER_MODULES)

            for module, kind in native.status(native.BUILT).items():
                self.stdout.write(f"{module:28s} {kind}")
            return
        if opts["clean"]:
            native.clean()
            self.stdout.write("Removed the compiled engine: it runs as pure Python.")
            return
        try:
            how = native.build(opts["jobs"], profile_guided=not opts["plain"])
        except Exception as error:  # noqa: BLE001  (no Cython or no compiler: both optional)
            if not opts["optional"]:
                raise CommandError(f"could not compile the engine: {type(error).__name__}: {error}. "
                                   "Install Cython and a C compiler, or use --optional.") from error
            self.stdout.write(f"Kept the pure-Python engine (no compiled build: "
                              f"{type(error).__name__}: {error}).")
            return
        self.stdout.write(f"Compiled {', '.join(native.BUILT)} into {native.NATIVE_DIR} ({how}); "
                          "restart running processes to use them.")
