"""The package's surface: everything documented and in the type stubs."""

import inspect
import pathlib

import collide2d as c2

STUB = (pathlib.Path(c2.__file__).parent / "__init__.pyi").read_text()


def public_members(obj):
    return [m for m in dir(obj) if not m.startswith("_")]


def test_every_public_name_has_a_docstring():
    missing = []
    for name in c2.__all__:
        obj = getattr(c2, name)
        if isinstance(obj, (int, str)):
            continue
        if not (obj.__doc__ or "").strip():
            missing.append(name)
        if inspect.isclass(obj) and obj.__module__ != "collide2d._errors":
            for member in public_members(obj):
                if not (getattr(obj, member).__doc__ or "").strip():
                    missing.append(f"{name}.{member}")
    assert missing == []


def test_every_public_name_is_in_the_stubs():
    missing = []
    for name in c2.__all__:
        if name not in STUB:
            missing.append(name)
        obj = getattr(c2, name)
        if inspect.isclass(obj) and obj.__module__ != "collide2d._errors":
            for member in public_members(obj):
                if f"def {member}(" not in STUB and f"    {member}:" not in STUB:
                    missing.append(f"{name}.{member}")
    assert missing == []


def test_exception_hierarchy():
    assert issubclass(c2.InvalidInput, ValueError) and issubclass(c2.InvalidInput, c2.Collide2dError)
    assert issubclass(c2.ArrayTypeError, TypeError) and issubclass(c2.ArrayTypeError, c2.Collide2dError)
    assert issubclass(c2.StaleHandle, KeyError) and issubclass(c2.StaleHandle, c2.Collide2dError)
    assert issubclass(c2.UnknownLayer, KeyError) and issubclass(c2.UnknownLayer, c2.Collide2dError)
    assert c2.NO_HANDLE == 2**64 - 1 and c2.MAX_LAYERS == 32
