"""What a Python caller sees for a wrong argument: a refusal that names the argument that is
wrong, `False` (not an exception) for membership of anything that is not a live handle, the
package's own exception for a single string where a sequence of names or handles is wanted and
for a bool where a number is wanted, and a readable repr for every public class."""

import re

import numpy as np
import pytest

import collide2d as c2

NAN, INF = float("nan"), float("inf")
BEYOND_F32 = 1e300  # finite to Python, infinite as float32
BEYOND_RANGE = 2e9  # a float32, beyond MAX_COORDINATE (1e9)
NOT_FINITE = [NAN, INF, -INF, BEYOND_F32, 10**400]
BAD_COORDINATE = NOT_FINITE + [BEYOND_RANGE, -BEYOND_RANGE]
BAD_SIZE = BAD_COORDINATE + [0.0, -1.0, -1e-3]
BAD_RADIUS = BAD_COORDINATE + [-1.0, -1e-3]
BAD_POINT = [(NAN, 0.0), (0.0, INF), (BEYOND_F32, 0.0), (0.0, -BEYOND_RANGE)]


def refusal(call):
    """The message of the `InvalidInput` that `call()` raises."""
    with pytest.raises(c2.InvalidInput) as caught:
        call()
    return str(caught.value)


def names(message, *words):
    return all(re.search(rf"\b{re.escape(w)}\b", message) for w in words)


def assert_names(call, wrong, others):
    """`call()` is refused with a message led by the name of `wrong` (after the row, in a
    batch) that names none of `others`."""
    message = refusal(call)
    lead = re.sub(r"^row \d+: ", "", message).split()[0].rstrip(":")
    assert lead == wrong, f"{message!r} is not led by {wrong!r}"
    for other in others:
        if len(other) > 1:  # "a", "x": words of any message
            assert not names(message, other), f"{message!r} names {other!r}, which is fine"


# Every constructor of a shape, a transform, a ray or a box, as (name of each argument ->
# a good value) and a call: for every argument and every bad value of its kind, the refusal
# names that argument and no other.
SQUARE = [(0, 0), (1, 0), (1, 1), (0, 1)]
CONSTRUCTORS = [
    ("Circle", {"radius": ("radius", 1.0), "center": ("point", (0.5, 0.5))},
     lambda a: c2.Circle(a["radius"], a["center"])),
    ("Capsule", {"a": ("point", (0, 0)), "b": ("point", (0, 1)), "radius": ("radius", 0.5)},
     lambda a: c2.Capsule(a["a"], a["b"], a["radius"])),
    ("Capsule.vertical", {"height": ("size", 2.0), "radius": ("radius", 0.5)},
     lambda a: c2.Capsule.vertical(a["height"], a["radius"])),
    ("Segment", {"a": ("point", (0, 0)), "b": ("point", (1, 1))},
     lambda a: c2.Segment(a["a"], a["b"])),
    ("Polygon", {"radius": ("radius", 0.1)}, lambda a: c2.Polygon(SQUARE, a["radius"])),
    ("Polygon.hull", {"radius": ("radius", 0.1)}, lambda a: c2.Polygon.hull(SQUARE, a["radius"])),
    ("Polygon.rect", {"width": ("size", 2.0), "height": ("size", 1.0), "radius": ("radius", 0.1)},
     lambda a: c2.Polygon.rect(a["width"], a["height"], a["radius"])),
    ("Polygon.regular", {"circumradius": ("size", 1.0), "radius": ("radius", 0.1)},
     lambda a: c2.Polygon.regular(6, a["circumradius"], a["radius"])),
    ("Polygon.rounded", {"radius": ("radius", 0.1)},
     lambda a: c2.Polygon.rect(1, 1).rounded(a["radius"])),
    ("Transform", {"x": ("coordinate", 1.0), "y": ("coordinate", 2.0), "angle": ("angle", 0.5)},
     lambda a: c2.Transform(a["x"], a["y"], a["angle"])),
    ("Shape.ray_cast", {"origin": ("ray_point", (-2, 0)), "direction": ("direction", (1, 0)),
                        "max_distance": ("distance", 10.0)},
     lambda a: c2.Circle(1).ray_cast(a["origin"], a["direction"], a["max_distance"])),
    ("ray_cast", {"origin": ("ray_point", (-2, 0)), "direction": ("direction", (1, 0)),
                  "max_distance": ("distance", 10.0)},
     lambda a: c2.ray_cast(c2.Circle(1), (0, 0), a["origin"], a["direction"], a["max_distance"])),
    ("World.ray_cast", {"origin": ("ray_point", (-2, 0)), "direction": ("direction", (1, 0)),
                        "max_distance": ("distance", 10.0)},
     lambda a: c2.World().ray_cast(a["origin"], a["direction"], a["max_distance"])),
]
BAD = {
    "radius": BAD_RADIUS,
    "size": BAD_SIZE,
    "coordinate": BAD_COORDINATE,
    "angle": NOT_FINITE,
    "point": BAD_POINT,
    "ray_point": BAD_POINT[:3],  # a query point may lie beyond 1e9 (up to 4e9)
    "direction": [(0.0, 0.0), (NAN, 1.0), (1.0, INF)],
    "distance": [NAN, -1.0, -INF],
}


@pytest.mark.parametrize("name,arguments,call", CONSTRUCTORS, ids=[c[0] for c in CONSTRUCTORS])
def test_a_refusal_names_the_wrong_argument(name, arguments, call):
    good = {arg: value for arg, (_, value) in arguments.items()}
    call(good)  # the good values are accepted
    for arg, (kind, _) in arguments.items():
        for bad in BAD[kind]:
            others = [other for other in arguments if other != arg]
            assert_names(lambda: call({**good, arg: bad}), arg, others)


def test_a_refusal_names_the_wrong_argument_randomized(rng):
    """Random good values elsewhere, one bad argument: the message names that one."""
    for _ in range(200):
        width, height = rng.uniform(0.01, 100, 2)
        radius = rng.uniform(0, 5)
        arg = rng.choice(["width", "height", "radius"])
        kind = "radius" if arg == "radius" else "size"
        bad = BAD[kind][rng.integers(len(BAD[kind]))]
        args = {"width": width, "height": height, "radius": radius, arg: bad}
        assert_names(lambda: c2.Polygon.rect(**args), arg, {"width", "height", "radius"} - {arg})
        x, y, angle = rng.uniform(-1e6, 1e6, 3)
        arg = rng.choice(["x", "y", "angle"])
        kind = "angle" if arg == "angle" else "coordinate"
        bad = BAD[kind][rng.integers(len(BAD[kind]))]
        args = {"x": x, "y": y, "angle": angle, arg: bad}
        assert_names(lambda: c2.Transform(**args), arg, {"x", "y", "angle"} - {arg})


def test_the_exact_example_rect_with_a_bad_width():
    message = refusal(lambda: c2.Polygon.rect(NAN, 1.0))
    assert "width" in message and "radius" not in message
    message = refusal(lambda: c2.Polygon.rect(1.0, -2.0))
    assert "height" in message and "radius" not in message


def test_a_refusal_of_a_relation_or_a_count_names_its_arguments():
    message = refusal(lambda: c2.Capsule.vertical(1.0, 0.6))
    assert names(message, "height", "radius")
    for sides in (0, 2, 10**6):
        assert_names(lambda: c2.Polygon.regular(sides, 1.0), "sides", ["circumradius", "radius"])
    assert names(refusal(lambda: c2.Polygon([(0, 0), (1, 0), (2, 0)])), "outline")
    assert names(refusal(lambda: c2.Polygon.hull([(0, 0), (1, 1)])), "points")
    assert names(refusal(lambda: c2.Chain.open([(0, 0)])), "points")
    assert names(refusal(lambda: c2.Chain.closed([(0, 0), (1, 0)])), "points")
    assert names(refusal(lambda: c2.Compound([])), "children")
    assert names(refusal(lambda: c2.Compound.from_concave([(0, 0), (1, 0), (2, 0)])), "outline")


def test_a_placement_given_as_numbers_is_named_by_its_argument():
    """A transform given as `(x, y, angle)` is refused under the argument's own name."""
    world = c2.World()
    a, b = c2.Circle(1), c2.Circle(1)
    calls = {
        "transform": [lambda t: world.insert(a, t), lambda t: a.aabb(t),
                      lambda t: a.contains((0, 0), t), lambda t: world.overlap_shape(a, t),
                      lambda t: c2.ray_cast(a, t, (0, 0), (1, 0))],
        "offset": [lambda t: world.insert(a, offset=t)],
        "transform_a": [lambda t: c2.collide(a, t, b, (0, 0)), lambda t: c2.distance(a, t, b, (0, 0))],
        "transform_b": [lambda t: c2.overlaps(a, (0, 0), b, t)],
        "children": [lambda t: c2.Compound([(t, a)])],
    }
    for name, group in calls.items():
        for call in group:
            for bad in [(NAN, 0), (0, BEYOND_RANGE), (0, 0, INF), (BEYOND_F32, 0, 0)]:
                message = refusal(lambda: call(bad))
                assert message.startswith(f"{name}: "), message
            with pytest.raises(c2.ArrayTypeError, match=f"^{name} must be"):
                call("x")
    h = world.insert(a, (0, 0))
    message = refusal(lambda: world.set_transform(h, (0, NAN)))
    assert message.startswith("transform: y "), message


def test_a_one_way_refusal_names_direction_or_margin():
    world = c2.World()
    for one_way, wrong in [(((0, 0), 0.1), "direction"), (((0, 1), NAN), "margin"),
                           (((0, 1), -1.0), "margin"), (((0, 1), INF), "margin")]:
        message = refusal(lambda: world.insert(c2.Circle(1), one_way=one_way))
        assert names(message, "one_way", wrong), message
        other = {"direction", "margin"} - {wrong}
        assert not names(message, other.pop()), message


def test_an_inverted_box_names_min_and_max():
    world = c2.World()
    world.insert(c2.Circle(1), (0, 0))
    for min_, max_, axis in [((1, 0), (0, 1), "x"), ((0, 2), (1, 1), "y")]:
        message = refusal(lambda: world.overlap_aabb(min_, max_))
        assert names(message, "min", "max", axis), message
    mins = np.array([[0, 0], [0, 3]], dtype=np.float64)
    maxs = np.array([[1, 1], [1, 1]], dtype=np.float64)
    message = refusal(lambda: world.overlap_aabbs(mins, maxs))
    assert names(message, "row", "1", "mins", "maxs", "y"), message


def test_a_batch_ray_refusal_names_max_distance():
    world = c2.World()
    origins = np.zeros((3, 2))
    directions = np.ones((3, 2))
    for bad in (NAN, -1.0):
        message = refusal(lambda: world.ray_cast_many(origins, directions, np.array([1.0, bad, 1.0])))
        assert names(message, "row", "1", "max_distance"), message
        assert not names(message, "origin") and not names(message, "direction"), message


# ---- membership ----


def test_membership_of_anything_but_a_live_handle_is_false():
    world = c2.World()
    live = world.insert(c2.Circle(1), (0, 0))
    removed = world.insert(c2.Circle(1), (5, 0))
    world.remove(removed)
    assert live in world and np.uint64(live) in world and np.int64(live) in world
    for other in ["x", "", b"x", 1.5, float(live), None, True, False, np.True_, (live,), [live],
                  {live}, object(), removed, -1, 2**64, 10**400, c2.Circle(1), np.array([live])]:
        assert (other in world) is False, other
        assert (other not in world) is True, other


# ---- sequences of names and of handles ----


def query_calls(world, hero):
    """Every call taking `layers` and `exclude`, as a function of those keywords."""
    points = np.zeros((2, 2))
    return {
        "overlap_point": lambda **kw: world.overlap_point((0, 0), **kw),
        "overlap_aabb": lambda **kw: world.overlap_aabb((0, 0), (1, 1), **kw),
        "overlap_shape": lambda **kw: world.overlap_shape(c2.Circle(1), (0, 0), **kw),
        "ray_cast": lambda **kw: world.ray_cast((0, 5), (0, -1), **kw),
        "shape_cast": lambda **kw: world.shape_cast(c2.Circle(0.2), (0, 5), (0, -10), **kw),
        "move_and_slide": lambda **kw: world.move_and_slide(hero, (0.1, 0), **kw),
        "overlap_points": lambda **kw: world.overlap_points(points, **kw),
        "overlap_aabbs": lambda **kw: world.overlap_aabbs(points, points + 1, **kw),
        "ray_cast_many": lambda **kw: world.ray_cast_many(points, points + 1, **kw),
    }


def layered_world():
    world = c2.World()
    world.add_layer("walls")
    world.add_layer("props")
    wall = world.insert(c2.Polygon.rect(10, 1), (0, -1), layer="walls")
    hero = world.insert(c2.Circle(0.5), (0, 1))
    world.update()
    return world, wall, hero


def test_a_single_string_for_names_or_handles_is_the_packages_type_error():
    world, wall, hero = layered_world()
    for name, call in query_calls(world, hero).items():
        call(layers=["walls"], exclude=[wall])  # the sequence forms work
        call(layers=("walls", "props"), exclude=np.array([wall], dtype=np.uint64))
        for keyword, bad in [("layers", "walls"), ("layers", "w"), ("layers", b"walls"),
                             ("layers", 3), ("layers", ["walls", 3]), ("layers", [None]),
                             ("exclude", "ab"), ("exclude", wall), ("exclude", 1.5),
                             ("exclude", ["a"]), ("exclude", [1.5]), ("exclude", [True])]:
            with pytest.raises(c2.ArrayTypeError) as caught:
                call(**{keyword: bad})
            message = str(caught.value)
            assert "sequence" in message, (name, keyword, bad, message)
    with pytest.raises(c2.ArrayTypeError, match="single string"):
        world.overlap_point((0, 0), layers="walls")
    with pytest.raises(c2.ArrayTypeError, match="single string"):
        world.collide_only("walls", "props")
    world.collide_only("walls", ["props"])
    assert world.layers_collide("walls", "props") and not world.layers_collide("walls", "walls")


# ---- bools are not numbers ----


def test_a_bool_where_a_number_is_wanted_is_refused():
    world, wall, hero = layered_world()
    for true in (True, False, np.True_, np.False_):
        calls = [
            lambda: c2.Transform(true),
            lambda: c2.Transform(0, 0, true),
            lambda: c2.Circle(true),
            lambda: c2.Circle(1, (true, 0)),
            lambda: c2.Capsule((0, 0), (0, 1), true),
            lambda: c2.Capsule.vertical(2, true),
            lambda: c2.Segment((0, true), (1, 1)),
            lambda: c2.Polygon.rect(true, 1),
            lambda: c2.Polygon.rect(1, 1, true),
            lambda: c2.Polygon.regular(true, 1),
            lambda: c2.Polygon.regular(6, true),
            lambda: c2.Polygon([(0, 0), (1, 0), (true, 1)]),
            lambda: c2.Circle(1).contains((true, 0)),
            lambda: c2.Circle(1).aabb((0, 0, true)),
            lambda: c2.Circle(1).ray_cast((-2, 0), (1, 0), true),
            lambda: world.insert(c2.Circle(1), (true, 0)),
            lambda: world.insert(c2.Circle(1), user_data=true),
            lambda: world.insert(c2.Circle(1), groups=(true, 1)),
            lambda: world.insert_many(c2.Circle(1), np.zeros((2, 2)), angles=true),
            lambda: world.insert_many(c2.Circle(1), np.zeros((2, 2)), angles=[0.0, true]),
            lambda: world.insert_many(c2.Circle(1), [[0.0, 0.0], [true, 0.0]]),
            lambda: world.set_transforms([hero], np.zeros((1, 2)), angles=true),
            lambda: world.set_transforms([hero], np.zeros((1, 2)), angles=[true]),
            lambda: world.set_transforms([true], np.zeros((1, 2))),
            lambda: world.set_user_data(hero, true),
            lambda: world.set_groups(hero, 1, true),
            lambda: world.transform(true),
            lambda: world.remove(true),
            lambda: world.ray_cast((0, 5), (0, -1), true),
            lambda: world.ray_cast_many(np.zeros((2, 2)), np.ones((2, 2)), true),
            lambda: world.overlap_points(np.zeros((2, 2)), threads=true),
            lambda: world.move_and_slide(hero, (0.1, 0), size=true),
            lambda: world.move_and_slide(hero, (0.1, 0), max_iterations=true),
            lambda: world.insert_tile_map(np.ones((2, 2), dtype=bool), true),
        ]
        for i, call in enumerate(calls):
            with pytest.raises(c2.ArrayTypeError):
                call()
    assert world.is_touching(hero) in (True, False)  # nothing above changed the world


def test_a_bool_where_a_bool_is_wanted_is_still_taken():
    world, _, hero = layered_world()
    world.set_sensor(hero, True)
    assert world.is_sensor(hero)
    world.move_and_slide(hero, (0.1, 0), stop_on_slope=True)
    world.insert_tile_map(np.array([[True, False]]), 1.0, rectangles=True)


# ---- reprs ----


def one_of_each_class():
    world, wall, hero = layered_world()
    a, b = c2.Circle(1), c2.Polygon.rect(1, 1)
    manifold = c2.collide(a, (0, 0), b, (1, 0))
    events = world.update()
    world.insert(c2.Circle(1), (0, 0.2))
    events = world.update()
    return {
        "Transform": c2.Transform(1, 2, 0.5),
        "Shape": a,
        "Circle": a,
        "Capsule": c2.Capsule.vertical(2, 0.5),
        "Segment": c2.Segment((0, 0), (1, 0)),
        "Polygon": b,
        "Compound": c2.Compound([((0, 0), a), ((3, 0), b)]),
        "Chain": c2.Chain.open([(0, 0), (1, 0)]),
        "Manifold": manifold,
        "ContactPoint": manifold.points[0],
        "Distance": c2.distance(a, (0, 0), b, (5, 0)),
        "RayHit": c2.ray_cast(a, (0, 0), (-3, 0), (1, 0)),
        "CastHit": c2.shape_cast(a, (0, 0), (10, 0), b, (5, 0)),
        "Event": events.began[0],
        "Events": events,
        "RayHits": world.ray_cast_many(np.array([[0.0, 5.0]]), np.array([[0.0, -1.0]])),
        "MoveResult": world.move_and_slide(hero, (0.1, 0)),
        "World": world,
    }


def test_every_public_class_has_a_readable_repr():
    instances = one_of_each_class()
    public = {name for name in c2.__all__
              if isinstance(getattr(c2, name), type)
              and not issubclass(getattr(c2, name), BaseException)}
    assert public == set(instances), public ^ set(instances)
    for name, instance in instances.items():
        assert isinstance(instance, getattr(c2, name))
        text = repr(instance)
        assert not text.startswith("<"), (name, text)
        assert " object at 0x" not in text, (name, text)
    hits = instances["RayHits"]
    assert repr(hits) == "RayHits(rays=1, hits=1)"
