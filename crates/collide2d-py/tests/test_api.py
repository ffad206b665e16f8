"""The package's surface: everything documented and in the type stubs."""

import ast
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


def stub_classes():
    tree = ast.parse(STUB)
    return {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}


def stub_members(classes, name):
    """A stub class's members with their kinds ("property" for properties and annotated
    attributes, else "method"), its stub base classes' included."""
    node = classes[name]
    members = {}
    for base in node.bases:
        if isinstance(base, ast.Name) and base.id in classes:
            members.update(stub_members(classes, base.id))
    for item in node.body:
        if isinstance(item, ast.FunctionDef):
            is_property = any(isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list)
            members[item.name] = ("property" if is_property else "method", item)
        elif isinstance(item, ast.AnnAssign):
            members[item.target.id] = ("property", item)
    return members


def test_stub_members_defaults_and_kinds_match_the_module():
    """Every public member of every class is in its stub (or a stub base class) as the same
    kind (a property is not stubbed as a method, nor the reverse), every stubbed member
    exists, every stubbed call has a signature at run time, and each default the module shows
    is the stub's."""
    classes = stub_classes()
    differences = []
    for name, node in classes.items():
        cls = getattr(c2, name)
        members = stub_members(classes, name)
        for member in public_members(cls):
            runtime = inspect.getattr_static(cls, member)
            kind = "method" if callable(runtime) or isinstance(runtime, (staticmethod, classmethod)) else "property"
            if member not in members:
                differences.append((name, member, "not in the stub"))
            elif members[member][0] != kind:
                differences.append((name, member, f"a {kind}, stubbed as a {members[member][0]}"))
        for member, (kind, item) in members.items():
            if member.startswith("__") and member != "__init__":
                continue
            if member != "__init__" and not hasattr(cls, member):
                differences.append((name, member, "stubbed, not in the module"))
                continue
            if kind != "method" or (member != "__init__" and not callable(getattr(cls, member))):
                continue  # a property, or a property stubbed as a method (reported above)
            signature = inspect.signature(cls if member == "__init__" else getattr(cls, member))
            arguments = item.args
            positional = arguments.posonlyargs + arguments.args
            stub_defaults = dict(zip([a.arg for a in positional][len(positional) - len(arguments.defaults):], arguments.defaults))
            stub_defaults.update({a.arg: d for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults) if d is not None})
            for parameter in signature.parameters.values():
                if parameter.name in ("self", "cls") or parameter.default is Ellipsis:
                    continue  # Ellipsis: the module does not show this default
                stub = stub_defaults.get(parameter.name)
                stub_value = inspect.Parameter.empty if stub is None else ast.literal_eval(stub)
                if stub_value != parameter.default or type(stub_value) is not type(parameter.default):
                    differences.append((name, member, parameter.name, stub_value, parameter.default))
    assert differences == []
