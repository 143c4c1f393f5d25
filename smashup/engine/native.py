"""The engine's compiled build: the same Python source, compiled by Cython, loaded only while fresh.

The engine is pure Python and stays so: its modules are the definition, and everything runs
without a compiler. Compiling the unchanged modules with Cython makes games and replays about 1.3x
faster, as projects like SQLAlchemy and aiohttp do with theirs, so

    python manage.py compile_engine              # compile into smashup/engine/_native/
    python manage.py compile_engine --optional   # the same; no compiler: keep pure Python
    python manage.py compile_engine --status     # which modules run compiled
    python manage.py compile_engine --clean

Each compiled module is stored with the SHA-256 of the source it was compiled from, and the import
finder below loads it only while the .py file still has that hash: an edited module runs as plain
Python until the next build, never as a stale binary. `SMASHUP_ENGINE=python` turns the build off
for a process (to compare, or to debug with Python tools).

Only modules whose behaviour does not depend on being Python bytecode are compiled: not effects.py,
whose guardrail finds the Ctx verbs by their generator code flag (`inspect.isgeneratorfunction`,
which a compiled function does not carry), nor the card modules, whose abilities the engine checks
to be Python generators (`types.GeneratorType`).
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

PACKAGE = "smashup.engine"
ENGINE_DIR = Path(__file__).resolve().parent
NATIVE_DIR = ENGINE_DIR / "_native"
MANIFEST = "manifest.json"
# The modules compiled: the engine's hot paths (see the module docstring for what is left out).
COMPILED = ("core", "plays", "game", "registry", "bots", "rng", "setup")
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def source_hash(module: str, engine_dir: Path = ENGINE_DIR) -> str:
    return hashlib.sha256((engine_dir / f"{module}.py").read_bytes()).hexdigest()


def disabled() -> bool:
    return os.environ.get("SMASHUP_ENGINE", "").lower() == "python"


def read_manifest(native_dir: Path = NATIVE_DIR) -> dict:
    """{module: {"source": sha256, "file": name of the compiled file}}; empty when not built."""
    try:
        return json.loads((native_dir / MANIFEST).read_text())
    except (OSError, ValueError):
        return {}


def fresh_binary(module: str, engine_dir: Path = ENGINE_DIR, native_dir: Path | None = None,
                 manifest: dict | None = None) -> Path | None:
    """The compiled file to load for `module`, or None: not built, built for another Python, or
    built from a source that has changed since."""
    native_dir = native_dir or engine_dir / "_native"
    entry = (manifest if manifest is not None else read_manifest(native_dir)).get(module)
    if not entry or not entry.get("file", "").endswith(SUFFIX):
        return None
    binary = native_dir / entry["file"]
    if not binary.is_file() or entry.get("source") != source_hash(module, engine_dir):
        return None
    return binary


class CompiledFinder:
    """A meta path finder that serves `smashup.engine.<module>` from its fresh compiled file.
    Anything else, or a stale or missing build, falls through to the ordinary .py import."""

    def __init__(self, engine_dir: Path = ENGINE_DIR):
        self.engine_dir = engine_dir
        self.native_dir = engine_dir / "_native"
        self.manifest = read_manifest(self.native_dir)

    def find_spec(self, fullname, path=None, target=None):
        package, _, module = fullname.rpartition(".")
        if package != PACKAGE or module not in self.manifest:
            return None
        binary = fresh_binary(module, self.engine_dir, self.native_dir, self.manifest)
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

    sources = {m: ENGINE_DIR / f"{m}.py" for m in COMPILED}
    hashes = {m: source_hash(m) for m in COMPILED}
    with tempfile.TemporaryDirectory(prefix="smashup-native-") as tmp:
        work = Path(tmp)
        # Copies, so that no .c file or build folder is left in the source tree.
        package_dir = work / "smashup" / "engine"
        package_dir.mkdir(parents=True)
        (work / "smashup" / "__init__.py").write_text("")
        (package_dir / "__init__.py").write_text("")
        for src in sources.values():
            shutil.copyfile(src, package_dir / src.name)
        # No debug symbols: a third of the build time, and nobody steps through generated C.
        extensions = [Extension(f"{PACKAGE}.{m}", [str(package_dir / f"{m}.py")],
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
        NATIVE_DIR.mkdir(exist_ok=True)
        manifest = {}
        for module in COMPILED:
            name = f"{module}{SUFFIX}"
            shutil.copyfile(work / "lib" / "smashup" / "engine" / name, NATIVE_DIR / name)
            manifest[module] = {"source": hashes[module], "file": name}
    (NATIVE_DIR / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return list(COMPILED)


def clean() -> None:
    shutil.rmtree(NATIVE_DIR, ignore_errors=True)
