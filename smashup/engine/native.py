"""The engine's compiled build: the same Python source, compiled by Cython, loaded only while fresh.

The engine is pure Python and stays so: its modules are the definition, and everything runs
without a compiler. Compiling the unchanged modules with Cython makes games about 1.8x and replays
about 2x faster (the .pxd files beside game, core, plays and effects make their hot classes
extension types), as projects like SQLAlchemy and aiohttp do with theirs, so

    python manage.py compile_engine              # compile into smashup/engine/_native/
    python manage.py compile_engine --optional   # the same; no compiler: keep pure Python
    python manage.py compile_engine --plain      # one compiler pass, not profile-guided
    python manage.py compile_engine --status     # which modules run compiled
    python manage.py compile_engine --clean

Each compiled module is stored with the SHA-256 of the source it was compiled from, and the import
finder below loads it only while the .py file still has that hash: an edited module runs as plain
Python until the next build, never as a stale binary. `SMASHUP_ENGINE=python` turns the build off
for a process (to compare, or to debug with Python tools).

The build is profile-guided (`build`): the C compiler counts which code a training run of games
and pairings (smashup/training.py) goes through, then compiles again knowing it. The same C, the
same games, about 1.2x faster: with a few dozen modules of generated C, the engine was bound by
misses of the processor's instruction cache more than by the instructions it ran.

The engine's modules are compiled, every card module of smashup/cards and the Big Base mode's
rules (bigbase/rules) with them: the card abilities and the Ctx verbs run in every step of a game.
Modules are named in full ("smashup.engine.game", "bigbase.rules.game"). Compiled code must not
tell itself apart from Python: effects.py finds its generator verbs by the generator flag of their
code, which a compiled function carries too (binding=True), and the engine runs an ability's result
to its end when it is any generator, the compiler's own generator type included
(decisions.py `_drives`).
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ENGINE_DIR = Path(__file__).resolve().parent
# The folder holding the smashup and bigbase packages: modules are named in full from it.
ROOT_DIR = ENGINE_DIR.parents[1]
NATIVE_PATH = ("smashup", "engine", "_native")  # where the build lives, under a root
NATIVE_DIR = ROOT_DIR.joinpath(*NATIVE_PATH)
MANIFEST = "manifest.json"
# The engine modules compiled: every one that runs while a game is played (not simulate,
# invariants, testing: tools around it).
ENGINE_MODULES = (
    "core", "registry", "rng", "config", "hooks", "turn_state", "state", "decisions",
    "protections", "restrictions", "powers", "decks", "reactions", "specials", "scoring",
    "options", "plays", "playing", "turns", "views", "digests", "context", "verbs_choose",
    "verbs_piles", "verbs_bases", "verbs_plays", "verbs_board", "effects", "game", "setup", "bots",
)
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def compiled_modules(root: Path = ROOT_DIR) -> tuple[str, ...]:
    """The modules compiled, named in full ("smashup.engine.game", "smashup.cards.aliens",
    "bigbase.rules.game"): the engine's, every card module and every module of the Big Base
    mode's rules (a new one is compiled without upkeep)."""
    def modules_of(package: str) -> list[str]:
        folder = root.joinpath(*package.split("."))
        return [f"{package}.{p.stem}" for p in sorted(folder.glob("*.py")) if p.stem != "__init__"]

    return (tuple(f"smashup.engine.{m}" for m in ENGINE_MODULES)
            + tuple(modules_of("smashup.cards")) + tuple(modules_of("bigbase.rules")))


COMPILED = compiled_modules()
# Built with the engine, served by the same finder, but no part of a game (status and engine_build
# leave them out; tournaments/pairing/__init__.py imports the engine first, which installs the
# finder): the tournament pairing's search (issue 27), its tabu step of a small event written for
# the compiler (kernel.py, typed by kernel.pxd; numpy's step where it runs as Python), the local
# search, the proof of the fewest repeats, the table costs and the count of the history (context:
# at 4,096 players a tenth of a round) as they are (the same source).
OTHER_MODULES = (
    "tournaments.pairing.kernel", "tournaments.pairing.local", "tournaments.pairing.grouping",
    "tournaments.pairing.arrays", "tournaments.pairing.bounds",
    "tournaments.pairing.cost", "tournaments.pairing.context",
)
BUILT = COMPILED + OTHER_MODULES


def source_path(module: str, root: Path = ROOT_DIR) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def cimported(module: str, root: Path = ROOT_DIR) -> list[str]:
    """The modules of this tree whose compiled types or functions the module's .pxd uses (`from
    smashup.engine.state cimport GameState` in powers.pxd: "smashup.engine.state")."""
    pxd = source_path(module, root).with_suffix(".pxd")
    if not pxd.is_file():
        return []
    found = re.findall(r"^from ([\w.]+) cimport ", pxd.read_text(), re.MULTILINE)
    return [m for m in dict.fromkeys(found) if source_path(m, root).is_file()]


def source_hash(module: str, root: Path = ROOT_DIR, memo: dict | None = None) -> str:
    """The SHA-256 of the module's source, and of its .pxd beside it where it has one (Cython's
    declarations for it: an edited .pxd makes the build stale too), and of the modules that .pxd
    cimports: a build holds their types' layout, so when one of them is edited (and runs as
    Python until the next build) this one must not run compiled against it either. `memo`
    keeps each module's hash for one look at the sources (the finder's: a rule module's types
    are cimported by a dozen others, and hashing them again each time was most of an import)."""
    if memo is not None and module in memo:
        return memo[module]
    digest = hashlib.sha256(source_path(module, root).read_bytes())
    pxd = source_path(module, root).with_suffix(".pxd")
    if pxd.is_file():
        digest.update(pxd.read_bytes())
    for other in cimported(module, root):
        digest.update(source_hash(other, root, memo).encode())
    found = digest.hexdigest()
    if memo is not None:
        memo[module] = found
    return found


def disabled() -> bool:
    return os.environ.get("SMASHUP_ENGINE", "").lower() == "python"


def read_manifest(native_dir: Path = NATIVE_DIR) -> dict:
    """{module: {"source": sha256, "file": name of the compiled file}}; empty when not built."""
    try:
        return json.loads((native_dir / MANIFEST).read_text())
    except (OSError, ValueError):
        return {}


def fresh_binary(module: str, root: Path = ROOT_DIR, native_dir: Path | None = None,
                 manifest: dict | None = None, memo: dict | None = None) -> Path | None:
    """The compiled file to load for `module` ("smashup.engine.game"), or None: not built, built for
    another Python, or built from a source that has changed since (`memo`: see `source_hash`)."""
    native_dir = native_dir or root.joinpath(*NATIVE_PATH)
    entry = (manifest if manifest is not None else read_manifest(native_dir)).get(module)
    if not entry or not entry.get("file", "").endswith(SUFFIX):
        return None
    binary = native_dir / entry["file"]
    if not binary.is_file() or entry.get("source") != source_hash(module, root, memo):
        return None
    return binary


class CompiledFinder:
    """A meta path finder that serves a built module ("smashup.engine.game", "smashup.cards.aliens",
    "bigbase.rules.game") from its fresh compiled file. Anything else, or a stale or missing
    build, falls through to the ordinary .py import."""

    def __init__(self, root: Path = ROOT_DIR):
        self.root = root
        self.native_dir = root.joinpath(*NATIVE_PATH)
        self.manifest = read_manifest(self.native_dir)
        self.memo: dict[str, str] = {}  # module -> its source hash, read once (`source_hash`)

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.manifest:
            return None
        binary = fresh_binary(fullname, self.root, self.native_dir, self.manifest, self.memo)
        if binary is None:
            return None
        return importlib.util.spec_from_file_location(fullname, binary)


def install() -> None:
    """Put the finder first on sys.meta_path (smashup/engine/__init__.py calls this before it
    imports anything of the engine; bigbase/rules/__init__.py imports the engine first)."""
    if disabled() or any(isinstance(f, CompiledFinder) for f in sys.meta_path):
        return
    finder = CompiledFinder()
    if finder.manifest:
        sys.meta_path.insert(0, finder)


def status(modules: tuple[str, ...] = COMPILED) -> dict[str, str]:
    """How each module (default: the engine's, COMPILED) runs in this process: "compiled" or "python"."""
    found = {}
    for module in modules:
        loaded = sys.modules.get(module)
        origin = getattr(loaded, "__file__", "") or ""
        found[module] = "compiled" if origin.endswith(SUFFIX) else "python"
    return found


def engine_build() -> str:
    """"compiled" when every module of COMPILED runs compiled, "python" when none does, else
    "mixed" (a stale module: rebuild). For the bench's figures."""
    kinds = set(status().values())
    return kinds.pop() if len(kinds) == 1 else "mixed"


def build_state(modules: tuple[str, ...] = BUILT, root: Path = ROOT_DIR,
                native_dir: Path | None = None) -> str:
    """What a new process would load, without importing anything: "compiled" when every module
    has a fresh compiled file, "none" when none has, "stale" otherwise (some sources changed
    since the last build). `SMASHUP_ENGINE=python` is not looked at: see `disabled`."""
    manifest = read_manifest(native_dir or root.joinpath(*NATIVE_PATH))
    memo: dict[str, str] = {}
    fresh = [fresh_binary(m, root, native_dir, manifest, memo) is not None for m in modules]
    return "compiled" if all(fresh) else "none" if not any(fresh) else "stale"


def build_notice(state: str, turned_off: bool) -> str | None:
    """What `manage.py start` tells the person starting the site about the compiled build, or
    None when there is nothing to say (built and fresh, or turned off on purpose)."""
    if turned_off or state == "compiled":
        return None
    if state == "stale":
        return ("Some engine modules changed since `python manage.py compile_engine` last ran; "
                "they run as plain Python until it runs again.")
    return ("The rules engine and the tournament pairing run as plain Python: `python manage.py "
            "compile_engine` (a few minutes, needs a C compiler) makes bots, hints, replays and "
            "pairing about twice as fast.")


TRAINING = "from smashup.training import train; train()"


def build(jobs: int | None = None, profile_guided: bool = True, modules: tuple[str, ...] = BUILT,
          root: Path = ROOT_DIR, training: str = TRAINING) -> str:
    """Compile `modules` (default: the engine's and OTHER_MODULES) into the root's _native folder
    and say how ("profile-guided", or "plain" and why). Raises on a missing Cython or compiler
    (the caller says what to do).

    Profile-guided (the default): the C is compiled once with the compiler counting which code
    runs, `training` (Python source) runs in a fresh process on that build, and the C is compiled
    again with the counts, so that the code that runs is laid out together and the rest apart.
    The generated C is the same, and so are the games. Measured (issue 23): the engine had as many
    instruction-cache misses as the build before it with a third fewer instructions, and random
    games ran 1.16-1.22x faster profile-guided. A compiler that cannot do it (clang wants its
    profiles merged by another tool) gets the plain build, which `compile_engine` reports."""
    from Cython.Build import cythonize  # a build tool: imported only to build
    from setuptools import Distribution, Extension

    native_dir = root.joinpath(*NATIVE_PATH)
    hashes = {m: source_hash(m, root) for m in modules}
    with tempfile.TemporaryDirectory(prefix="smashup-native-") as tmp:
        work = Path(tmp)
        _copy_sources(modules, root, work)
        compiled = cythonize([Extension(m, [str(source_path(m, work))]) for m in modules],
                             quiet=True, nthreads=jobs or os.cpu_count() or 1,
                             # Annotations stay hints, as in Python: typed arguments would
                             # raise TypeError where the engine raises its own clear errors.
                             compiler_directives={"language_level": 3, "binding": True,
                                                  "annotation_typing": False})

        def compile_with(flags: list[str], link_flags: list[str]) -> None:
            for extension in compiled:
                # No debug symbols: a third of the build time, and nobody steps through generated C.
                # Calls into libpython through its table, not a stub each (no-plt), and a module's
                # own functions inlined as it sees fit (nobody replaces them): 1-2% (issue 23).
                extension.extra_compile_args = ["-g0", "-fno-plt", "-fno-semantic-interposition",
                                                *flags]
                extension.extra_link_args = link_flags
            dist = Distribution({"ext_modules": compiled})
            dist.script_args = ["build_ext", "--force", "--build-lib", str(work / "lib"),
                                "--build-temp", str(work / "tmp"),
                                "--parallel", str(jobs or os.cpu_count() or 1)]
            dist.parse_command_line()
            dist.run_commands()
            _install(modules, work / "lib", native_dir, hashes)

        if not profile_guided:
            compile_with([], [])
            return "plain"
        profiles = work / "profiles"
        try:
            compile_with([f"-fprofile-generate={profiles}"], [f"-fprofile-generate={profiles}"])
            _run_training(training, root)
            # Code the training never ran is compiled as without counts (partial training), not
            # as code that never runs; a module it never loaded has no counts at all.
            compile_with([f"-fprofile-use={profiles}", "-fprofile-partial-training",
                          "-Wno-missing-profile"], [])
        except Exception as error:  # noqa: BLE001  (any compiler's refusal: the plain build still works)
            compile_with([], [])
            return f"plain (the profile-guided build failed: {type(error).__name__}: {error})"
    return "profile-guided"


def _copy_sources(modules: tuple[str, ...], root: Path, work: Path) -> None:
    """Copies, so that no .c file or build folder is left in the source tree."""
    for module in modules:
        copy = source_path(module, work)
        copy.parent.mkdir(parents=True, exist_ok=True)
        for package in copy.relative_to(work).parents[:-1]:  # each package, not the root
            (work / package / "__init__.py").touch()
        shutil.copyfile(source_path(module, root), copy)
        if source_path(module, root).with_suffix(".pxd").is_file():
            shutil.copyfile(source_path(module, root).with_suffix(".pxd"), copy.with_suffix(".pxd"))


def _install(modules: tuple[str, ...], lib: Path, native_dir: Path, hashes: dict[str, str]) -> None:
    """The built binaries into the native folder, with their manifest."""
    # The folder anew: no binary of a module no longer compiled (or of another Python) is left.
    shutil.rmtree(native_dir, ignore_errors=True)
    native_dir.mkdir(parents=True)
    manifest = {}
    for module in modules:
        name = f"{module}{SUFFIX}"  # "smashup.cards.aliens.cpython-311-x86_64-linux-gnu.so"
        shutil.copyfile(source_path(module, lib).with_suffix(SUFFIX), native_dir / name)
        manifest[module] = {"source": hashes[module], "file": name}
    (native_dir / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


def _run_training(training: str, root: Path) -> None:
    """The training in a fresh process, from the root, on the counting build just installed (a
    running process keeps the modules it has loaded)."""
    env = {k: v for k, v in os.environ.items() if k != "SMASHUP_ENGINE"}
    ran = subprocess.run([sys.executable, "-c", training], cwd=root, env=env, capture_output=True,
                         text=True)
    if ran.returncode:
        raise RuntimeError(f"the training run stopped ({ran.returncode}): "
                           f"{ran.stderr.strip()[-600:] or ran.stdout.strip()[-600:]}")


def clean() -> None:
    shutil.rmtree(NATIVE_DIR, ignore_errors=True)
