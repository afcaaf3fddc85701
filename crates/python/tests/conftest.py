"""Shared fixtures of the Python package's tests."""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def repo_root():
    return ROOT


@pytest.fixture(scope="session")
def engine_binary():
    """The native engine (`JUNGLE_ENGINE`, else target/release/jungle). Under CI it
    must be there; elsewhere its tests are skipped without it."""
    path = pathlib.Path(os.environ.get("JUNGLE_ENGINE", ROOT / "target" / "release" / "jungle"))
    if not path.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"no engine binary at {path} (build it with cargo build --release)")
        pytest.skip(f"no engine binary at {path}")
    return str(path)
