"""The engine's compiled build: the same Python source, compiled by Cython, loaded only while fresh.

The engine is pure Python and stays so: its modules are the definition, and everything runs
without a compiler. Compiling the unchanged modules with Cython makes games about 1.8x and replays
about 2x faster (the .pxd files beside game, core, plays and effects make their hot classes
extension types), as projects like SQLAlchemy and aiohttp do with theirs, so

    python manage.py compile_engine              # compile into smashup/engine/_native/
    python manage.py compile_engine --optional   # the same; no compiler: keep pure Python
    python manage.py compile_engine --status     # which modules run compiled
    python manage.py compile_engine --clean

Each compiled module is stored with the SHA-256 of the source it was compiled from, and the import
finder below loads it only while the .py file still has that hash: an edited module runs as plain
Python until the next build, never as a stale binary. `SMASHUP_ENGINE=python` turns the build off
for a process (to compare, or to debug with Python tools).

The engine's modules are compiled, effects.py and every card module of smashup/cards with them: the
card abilities and the Ctx verbs run in every step of a game. Compiled code must not tell itself
apart from Python: effects.py finds its generator verbs by the generator flag of their code, which
a compiled function carries too (binding=True), and the engine runs an ability's result to its end
when it is any generator, the compiler's own generator type included (game.py `_drives`).
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

PACKAGE = "smashup"
ENGINE_DIR = Path(__file__).resolve().parent
ROOT_DIR = ENGINE_DIR.parent  # the smashup package: modules are named relative to it
NATIVE_DIR = ENGINE_DIR / "_native"
MANIFEST = "manifest.json"
# The engine modules compiled: every one that runs while a game is played (not simulate,
# invariants, testing: tools around it).
ENGINE_MODULES = ("core", "plays", "game", "registry", "bots", "rng", "setup", "effects")
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def compiled_modules(root: Path = ROOT_DIR) -> tuple[str, ...]:
    """The modules compiled, named relative to the smashup package ("engine.game",
    "cards.aliens"): the engine's and every card module (a new one is compiled without upkeep)."""
    cards = sorted(p.stem for p in (root / "cards").glob("*.py") if p.stem != "__init__")
    return tuple(f"engine.{m}" for m in ENGINE_MODULES) + tuple(f"cards.{m}" for m in cards)


COMPILED = compiled_modules()


def source_path(module: str, root: Path = ROOT_DIR) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def cimported(module: str, root: Path = ROOT_DIR) -> list[str]:
    """The modules whose compiled types the module's .pxd uses (`from smashup.engine.game cimport
    Game` in effects.pxd: "engine.game")."""
    pxd = source_path(module, root).with_suffix(".pxd")
    if not pxd.is_file():
        return []
    return re.findall(rf"^from {PACKAGE}\.([\w.]+) cimport ", pxd.read_text(), re.MULTILINE)


def source_hash(module: str, root: Path = ROOT_DIR) -> str:
    """The SHA-256 of the module's source, and of its .pxd beside it where it has one (Cython's
    declarations for it: an edited .pxd makes the build stale too), and of the modules that .pxd
    cimports: a build holds their types' layout, so when one of them is edited (and runs as
    Python until the next build) this one must not run compiled against it either."""
    digest = hashlib.sha256(source_path(module, root).read_bytes())
    pxd = source_path(module, root).with_suffix(".pxd")
    if pxd.is_file():
        digest.update(pxd.read_bytes())
    for other in cimported(module, root):
        digest.update(source_hash(other, root).encode())
    return digest.hexdigest()


def disabled() -> bool:
    return os.environ.get("SMASHUP_ENGINE", "").lower() == "python"


def read_manifest(native_dir: Path = NATIVE_DIR) -> dict:
    """{module: {"source": sha256, "file": name of the compiled file}}; empty when not built."""
    try:
        return json.loads((native_dir / MANIFEST).read_text())
    except (OSError, ValueError):
        return {}


def fresh_binary(module: str, root: Path = ROOT_DIR, native_dir: Path | None = None,
                 manifest: dict | None = None) -> Path | None:
    """The compiled file to load for `module` ("engine.game"), or None: not built, built for
    another Python, or built from a source that has changed since."""
    native_dir = native_dir or root / "engine" / "_native"
    entry = (manifest if manifest is not None else read_manifest(native_dir)).get(module)
    if not entry or not entry.get("file", "").endswith(SUFFIX):
        return None
    binary = native_dir / entry["file"]
    if not binary.is_file() or entry.get("source") != source_hash(module, root):
        return None
    return binary


class CompiledFinder:
    """A meta path finder that serves a built module of the smashup package ("smashup.engine.game",
    "smashup.cards.aliens") from its fresh compiled file. Anything else, or a stale or missing
    build, falls through to the ordinary .py import."""

    def __init__(self, root: Path = ROOT_DIR):
        self.root = root
        self.native_dir = root / "engine" / "_native"
        self.manifest = read_manifest(self.native_dir)

    def find_spec(self, fullname, path=None, target=None):
        package, _, module = fullname.partition(".")
        if package != PACKAGE or module not in self.manifest:
            return None
        binary = fresh_binary(module, self.root, self.native_dir, self.manifest)
        if binary is None:
            return None
        return importlib.util.spec_from_file_location(fullname, binary)


def install() -> None:
    """Put the finder first on sys.meta_path (smashup/engine/__init__.py calls this before it
    imports anything of the engine)."""
    if disabled() or any(isinstance(f, CompiledFinder) for f in sys.meta_path):
        return
    finder = CompiledFinder()
    if finder.manifest:
        sys.meta_path.insert(0, finder)


def status() -> dict[str, str]:
    """How each module of COMPILED runs in this process: "compiled" or "python"."""
    found = {}
    for module in COMPILED:
        loaded = sys.modules.get(f"{PACKAGE}.{module}")
        origin = getattr(loaded, "__file__", "") or ""
        found[module] = "compiled" if origin.endswith(SUFFIX) else "python"
    return found


def engine_build() -> str:
    """"compiled" when every module of COMPILED runs compiled, "python" when none does, else
    "mixed" (a stale module: rebuild). For the bench's figures."""
    kinds = set(status().values())
    return kinds.pop() if len(kinds) == 1 else "mixed"


def build(jobs: int | None = None) -> list[str]:
    """Compile every module of COMPILED into NATIVE_DIR; returns their names. Raises on a missing
    Cython or compiler (the caller says what to do)."""
    from Cython.Build import cythonize  # a build tool: imported only to build
    from setuptools import Distribution, Extension

    hashes = {m: source_hash(m) for m in COMPILED}
    with tempfile.TemporaryDirectory(prefix="smashup-native-") as tmp:
        work = Path(tmp)
        # Copies, so that no .c file or build folder is left in the source tree.
        (work / PACKAGE).mkdir()
        (work / PACKAGE / "__init__.py").write_text("")
        for module in COMPILED:
            copy = source_path(module, work / PACKAGE)
            copy.parent.mkdir(exist_ok=True)
            (copy.parent / "__init__.py").touch()
            shutil.copyfile(source_path(module), copy)
            if source_path(module).with_suffix(".pxd").is_file():
                shutil.copyfile(source_path(module).with_suffix(".pxd"), copy.with_suffix(".pxd"))
        # No debug symbols: a third of the build time, and nobody steps through generated C.
        extensions = [Extension(f"{PACKAGE}.{m}", [str(source_path(m, work / PACKAGE))],
                                extra_compile_args=["-g0"]) for m in COMPILED]
        compiled = cythonize(extensions, quiet=True, nthreads=jobs or os.cpu_count() or 1,
                             # Annotations stay hints, as in Python: typed arguments would
                             # raise TypeError where the engine raises its own clear errors.
                             compiler_directives={"language_level": 3, "binding": True,
                                                  "annotation_typing": False})
        dist = Distribution({"ext_modules": compiled})
        dist.script_args = ["build_ext", "--build-lib", str(work / "lib"),
                            "--build-temp", str(work / "tmp"), "--parallel", str(jobs or os.cpu_count() or 1)]
        dist.parse_command_line()
        dist.run_commands()
        # The folder anew: no binary of a module no longer compiled (or of another Python) is left.
        shutil.rmtree(NATIVE_DIR, ignore_errors=True)
        NATIVE_DIR.mkdir()
        manifest = {}
        for module in COMPILED:
            name = f"{module}{SUFFIX}"  # "cards.aliens.cpython-311-x86_64-linux-gnu.so"
            built = source_path(module, work / "lib" / PACKAGE).with_suffix(SUFFIX)
            shutil.copyfile(built, NATIVE_DIR / name)
            manifest[module] = {"source": hashes[module], "file": name}
    (NATIVE_DIR / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return list(COMPILED)


def clean() -> None:
    shutil.rmtree(NATIVE_DIR, ignore_errors=True)
