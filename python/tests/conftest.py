"""Shared fixtures: the command-line binaries the answers are compared with,
and the shared data beside the checkout (tests that need what is missing
are skipped with the reason)."""

import json
import os
import pathlib
import shutil
import signal
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
SHARED = pathlib.Path(os.environ.get("OXELLO_SHARED", REPO.parent / "shared"))


def _binary(name, variable):
    """The binary `name`: $OXELLO_BIN_DIR or the variable's path, else the
    newest build of this checkout's target folder."""
    if os.environ.get(variable):
        return pathlib.Path(os.environ[variable])
    folders = [os.environ.get("OXELLO_BIN_DIR")] + [
        REPO / "target" / profile for profile in ("test-release", "release", "debug")
    ]
    found = [pathlib.Path(f) / name for f in folders if f and (pathlib.Path(f) / name).is_file()]
    if found:
        return max(found, key=lambda p: p.stat().st_mtime)
    on_path = shutil.which(name)
    return pathlib.Path(on_path) if on_path else None


@pytest.fixture
def sigint_raises():
    """Ctrl-C raises KeyboardInterrupt during the test, as in a terminal. A
    shell without job control starts its background commands with SIGINT
    ignored, and Python then leaves it ignored: `_thread.interrupt_main`
    does nothing."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.fixture(scope="session")
def oxello_bin():
    path = _binary("oxello", "OXELLO_BIN")
    if path is None:
        pytest.skip("no oxello binary: build it (cargo build --profile test-release) or set OXELLO_BIN")
    return str(path)


@pytest.fixture(scope="session")
def pbrain_bin():
    path = _binary("pbrain-oxello", "PBRAIN_OXELLO_BIN")
    if path is None:
        pytest.skip("no pbrain-oxello binary: build it or set PBRAIN_OXELLO_BIN")
    return str(path)


@pytest.fixture(scope="session")
def run_cli(oxello_bin):
    """Runs the oxello command line; returns its standard output."""

    def run(*args, check=True):
        done = subprocess.run(
            [oxello_bin, *map(str, args)], capture_output=True, text=True, timeout=600
        )
        if check and done.returncode != 0:
            raise AssertionError(f"oxello {' '.join(map(str, args))}: {done.stderr}")
        return done.stdout

    return run


@pytest.fixture(scope="session")
def cli_json(run_cli):
    def run(*args):
        return [json.loads(line) for line in run_cli(*args).splitlines() if line.startswith("{")]

    return run


@pytest.fixture(scope="session")
def shared():
    if not SHARED.is_dir():
        pytest.skip(f"the shared data is not beside the checkout ({SHARED})")
    return SHARED
