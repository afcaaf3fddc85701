"""Typing and docs: the stub (`jungle/_jungle.pyi`) and `py.typed` ship, `mypy --strict`
accepts a script written against them, and every public class, method and field of
the extension has a docstring."""

import inspect
import pathlib
import subprocess
import sys

import pytest

import jungle
import jungle.tablebase

HERE = pathlib.Path(__file__).resolve().parent
SCRIPT = HERE / "typing" / "uses_the_stub.py"


def test_the_stub_and_py_typed_ship():
    package = pathlib.Path(jungle.__file__).parent
    assert (package / "py.typed").is_file()
    assert (package / "_jungle.pyi").is_file()


def test_mypy_strict_accepts_a_script_using_the_stub():
    pytest.importorskip("mypy")
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                          "--cache-dir", "/dev/null", str(SCRIPT)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    # And the script runs as typed.
    subprocess.run([sys.executable, str(SCRIPT)], check=True, capture_output=True, timeout=120)


def test_mypy_strict_refuses_a_wrong_use(tmp_path):
    pytest.importorskip("mypy")
    wrong = tmp_path / "wrong.py"
    wrong.write_text("import jungle\nboard = jungle.Board()\nboard.push(42)\nn: str = board.perft(2)\n")
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                          "--cache-dir", "/dev/null", str(wrong)], capture_output=True, text=True)
    assert out.returncode == 1 and "wrong.py:3: error" in out.stdout and "wrong.py:4: error" in out.stdout, out.stdout


def public_names():
    for module in (jungle, jungle.tablebase):
        for name in dir(module):
            obj = getattr(module, name)
            if name.startswith("_") or not getattr(obj, "__module__", "").startswith("jungle"):
                continue
            yield name, obj
            if inspect.isclass(obj):
                for attr, member in vars(obj).items():
                    if not attr.startswith("_"):
                        yield f"{name}.{attr}", member


def test_every_public_class_method_and_field_has_a_docstring():
    undocumented = [name for name, obj in public_names()
                    if not (getattr(obj, "__doc__", None) or "").strip()
                    or (obj.__doc__ or "").startswith("Built-in")]
    assert undocumented == []
