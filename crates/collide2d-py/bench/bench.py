"""collide2d against pymunk 7 and shapely 2, same inputs, same process.

    python -m venv /tmp/bench-venv && /tmp/bench-venv/bin/pip install ./crates/collide2d-py "pymunk>=7,<8" "shapely>=2,<3"
    /tmp/bench-venv/bin/python crates/collide2d-py/bench/bench.py

Three workloads on one seeded scene of 10,000 static shapes (half circles, half rotated boxes,
in a 1,000 x 1,000 square):

- 4,096 rays (random origins and directions, 100 long): the nearest hit of each;
- 100,000 points: which shapes contain each;
- a 10,000-body scene (circles of radius 1 in a 1,000 x 1,000 square, each step every body
  moves by a small random step) stepped 20 times with begin/end callbacks: pymunk with sensor
  shapes on dynamic bodies and no gravity, so it only detects, against collide2d's
  ``World.set_transforms`` + ``World.update()`` + a loop over the events.

Columns: pymunk's per-call loop (its only interface), shapely 2 vectorised where it has an
equivalent predicate (points: ``STRtree.query(predicate="intersects")``; it has no nearest ray
hit), collide2d's per-call loop, its batch call on one thread (``threads=1``) and on every core
(``threads=None``, the default of ``ray_cast_many``), rays with the grid the world keeps between
batches already built; for rays also the first batch after a change to the world (one collider
moved, untimed), which builds the grid inside the call, on one thread. The two ratio columns
are the one-thread and the every-core batch against pymunk's loop. Each figure is the best of
``REPEATS`` runs (default 3), after untimed calls of at least ``WARM_SECONDS`` (default 0.2)
of the same work. Hit counts are printed beside the times as a check that the libraries answer
the same question (shapely's circles are polygons, so its count differs slightly).
"""

import math
import os
import sys
import time

import numpy as np

import collide2d as c2

try:
    import pymunk
except ImportError:  # pragma: no cover
    pymunk = None
try:
    import shapely
except ImportError:  # pragma: no cover
    shapely = None

SEED = 20261127
N_SHAPES = 10_000
N_RAYS = 4_096
N_POINTS = 100_000
N_BODIES = 10_000
STEPS = 20
SIZE = 1000.0
REPEATS = int(os.environ.get("REPEATS", "3"))
WARM_SECONDS = float(os.environ.get("WARM_SECONDS", "0.2"))


def warm(fn):
    """Untimed calls, at least two and at least ``WARM_SECONDS`` long: the measured calls then
    find the cores at full speed and the caches, the allocator and any thread pool warm, whatever
    ran before (an idle core of a VM takes several milliseconds of work to reach full speed)."""
    start = time.perf_counter()
    calls = 0
    while calls < 2 or time.perf_counter() - start < WARM_SECONDS:
        fn()
        calls += 1


def best(fn):
    warm(fn)
    times = []
    result = None
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return min(times), result


def scene(rng):
    pos = rng.uniform(0, SIZE, (N_SHAPES, 2))
    angle = rng.uniform(-math.pi, math.pi, N_SHAPES)
    size = rng.uniform(1.0, 3.0, N_SHAPES)
    is_circle = np.arange(N_SHAPES) % 2 == 0
    return pos, angle, size, is_circle


def box_corners(p, a, s):
    c, si = math.cos(a), math.sin(a)
    h = s / 2
    return [(p[0] + c * x - si * y, p[1] + si * x + c * y) for x, y in ((-h, -h), (h, -h), (h, h), (-h, h))]


def build_collide2d(pos, angle, size, is_circle):
    world = c2.World()
    shapes = [c2.Circle(s) if circ else c2.Polygon.rect(s, s) for s, circ in zip(size, is_circle)]
    handles = world.insert_many(shapes, pos, angle)
    world.update()
    return world, int(handles[0])


def build_pymunk(pos, angle, size, is_circle):
    space = pymunk.Space()
    static = space.static_body
    shapes = []
    for p, a, s, circ in zip(pos, angle, size, is_circle):
        if circ:
            shape = pymunk.Circle(static, float(s), (float(p[0]), float(p[1])))
        else:
            shape = pymunk.Poly(static, box_corners(p, a, s))
        shapes.append(shape)
    space.add(*shapes)
    space.reindex_static()
    return space


def build_shapely(pos, angle, size, is_circle):
    geoms = []
    for p, a, s, circ in zip(pos, angle, size, is_circle):
        if circ:
            geoms.append(shapely.Point(p).buffer(s))
        else:
            geoms.append(shapely.Polygon(box_corners(p, a, s)))
    return shapely.STRtree(geoms)


def rays_bench(rng, world, space, moved):
    origins = rng.uniform(0, SIZE, (N_RAYS, 2))
    theta = rng.uniform(-math.pi, math.pi, N_RAYS)
    dirs = np.c_[np.cos(theta), np.sin(theta)]
    length = 100.0
    ends = origins + dirs * length
    row = {}
    if space is not None:
        flt = pymunk.ShapeFilter()
        o_list = [tuple(o) for o in origins]
        e_list = [tuple(e) for e in ends]

        def pm():
            return sum(space.segment_query_first(o, e, 0.0, flt) is not None for o, e in zip(o_list, e_list))

        row["pymunk loop"] = best(pm)
    o_list = [tuple(o) for o in origins]
    d_list = [tuple(d) for d in dirs]

    def loop():
        return sum(world.ray_cast(o, d, length) is not None for o, d in zip(o_list, d_list))

    row["collide2d loop"] = best(loop)
    def batch(threads):
        return int(world.ray_cast_many(origins, dirs, length, threads=threads).hit.sum())

    batch(1)  # builds the grid the world keeps
    row["collide2d batch"] = best(lambda: batch(1))
    row["batch, every core"] = best(lambda: batch(None))
    handle, place = moved

    def after_change():
        world.set_transform(handle, place)  # drops the kept grid
        t0 = time.perf_counter()
        found = batch(1)
        return time.perf_counter() - t0, found

    warm(after_change)
    row["batch after a change"] = min((after_change() for _ in range(REPEATS)), key=lambda r: r[0])
    return row


def points_bench(rng, world, space, tree):
    points = rng.uniform(0, SIZE, (N_POINTS, 2))
    row = {}
    if space is not None:
        flt = pymunk.ShapeFilter()
        p_list = [tuple(p) for p in points]

        def pm():
            # Distance <= 0: the point is inside (boundary included), as collide2d counts it.
            return sum(
                sum(1 for q in space.point_query(p, 0.0, flt) if q.distance <= 0.0) for p in p_list
            )

        row["pymunk loop"] = best(pm)
    if tree is not None:
        pts = shapely.points(points)
        row["shapely vectorised"] = best(lambda: int(tree.query(pts, predicate="intersects").shape[1]))
    p_list = [tuple(p) for p in points]
    row["collide2d loop"] = best(lambda: sum(len(world.overlap_point(p)) for p in p_list))
    row["collide2d batch"] = best(lambda: int(world.overlap_points(points)[1].size))
    row["batch, every core"] = best(lambda: int(world.overlap_points(points, threads=None)[1].size))
    return row


def walk(rng):
    start = rng.uniform(0, SIZE, (N_BODIES, 2))
    steps = rng.uniform(-0.5, 0.5, (STEPS, N_BODIES, 2))
    return start, np.cumsum(steps, axis=0) + start


def update_bench(rng):
    start, path = walk(rng)
    row = {}
    if pymunk is not None:

        def pm():
            space = pymunk.Space()
            space.gravity = (0, 0)
            counts = [0, 0]

            def begin(arbiter, space, data):
                counts[0] += 1

            def separate(arbiter, space, data):
                counts[1] += 1

            space.on_collision(1, 1, begin=begin, separate=separate)
            bodies = []
            for p in start:
                body = pymunk.Body(1.0, 1.0)
                body.position = (float(p[0]), float(p[1]))
                shape = pymunk.Circle(body, 1.0)
                shape.sensor = True
                shape.collision_type = 1
                space.add(body, shape)
                bodies.append(body)
            space.step(1 / 60)
            counts[:] = [0, 0]
            t0 = time.perf_counter()
            for step in path:
                for body, p in zip(bodies, step.tolist()):
                    body.position = p
                space.step(1 / 60)
            return time.perf_counter() - t0, tuple(counts)

        warm(pm)
        row["pymunk loop"] = min((pm() for _ in range(REPEATS)), key=lambda r: r[0])

    def ours():
        world = c2.World()
        handles = world.insert_many(c2.Circle(1.0), start, sensor=True)
        world.update()
        counts = [0, 0]

        def begin(event):
            counts[0] += 1

        def end(event):
            counts[1] += 1

        t0 = time.perf_counter()
        for step in path:
            world.set_transforms(handles, step)
            events = world.update()
            for e in events.began:
                begin(e)
            for e in events.ended:
                end(e)
        return time.perf_counter() - t0, tuple(counts)

    warm(ours)
    row["collide2d batch"] = min((ours() for _ in range(REPEATS)), key=lambda r: r[0])
    return row


def fmt(t):
    return f"{t * 1e3:,.2f} ms" if t < 0.01 else f"{t * 1e3:,.1f} ms"


def main():
    rng = np.random.default_rng(SEED)
    pos, angle, size, is_circle = scene(rng)
    world, first = build_collide2d(pos, angle, size, is_circle)
    moved = (first, c2.Transform(float(pos[0, 0]), float(pos[0, 1]), float(angle[0])))
    space = build_pymunk(pos, angle, size, is_circle) if pymunk else None
    tree = build_shapely(pos, angle, size, is_circle) if shapely else None
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, "
          f"pymunk {pymunk.version if pymunk else '-'}, shapely {shapely.__version__ if shapely else '-'}, "
          f"collide2d {c2.__version__}; best of {REPEATS}; load {os.getloadavg()[0]:.2f}")
    rows = [
        (f"{N_RAYS:,} rays vs {N_SHAPES:,} static shapes", rays_bench(rng, world, space, moved)),
        (f"{N_POINTS:,} point queries vs {N_SHAPES:,} shapes", points_bench(rng, world, space, tree)),
        (f"{N_BODIES:,} sensor bodies, {STEPS} steps with begin/end callbacks", update_bench(rng)),
    ]
    cols = ["pymunk loop", "shapely vectorised", "collide2d loop", "collide2d batch", "batch, every core", "batch after a change"]
    print("| workload | " + " | ".join(cols) + " | batch vs pymunk | every core vs pymunk |")
    print("|---|" + "---:|" * (len(cols) + 2))
    for name, row in rows:
        cells = []
        for col in cols:
            if col in row:
                t, answer = row[col]
                cells.append(f"{fmt(t)} ({answer})" if not isinstance(answer, tuple) else f"{fmt(t)} {answer}")
            else:
                cells.append("—")
        ratios = []
        for col in ("collide2d batch", "batch, every core"):
            if "pymunk loop" in row and col in row:
                ratios.append(f"{row['pymunk loop'][0] / row[col][0]:.1f}×")
            else:
                ratios.append("—")
        print(f"| {name} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")


if __name__ == "__main__":
    main()
