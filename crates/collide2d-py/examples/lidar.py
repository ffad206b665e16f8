"""A lidar: 720 rays fanned from a robot through a room of static obstacles, cast in one batch.

    python crates/collide2d-py/examples/lidar.py [--out lidar.png]

Prints the scan's figures; with matplotlib installed it also draws the room, the rays and the
hit points to the PNG. Without matplotlib it prints the figures only.
"""

import argparse
import math

import numpy as np

import collide2d as c2


def build_room(rng):
    world = c2.World()
    world.add_layer("walls")
    world.add_layer("obstacles")
    # The room: a closed chain, solid outside (clockwise outline: the solid side is on the right).
    room = [(-20, -12), (-20, 12), (20, 12), (20, -12)]
    world.insert(c2.Chain.closed(room), layer="walls")
    # An L-shaped counter (concave, split into convex pieces) and some furniture.
    world.insert(c2.Compound.from_concave([(0, 0), (8, 0), (8, 2), (2, 2), (2, 6), (0, 6)]), (6, -9), layer="obstacles")
    shapes, positions, angles = [], [], []
    for _ in range(40):
        kind = rng.integers(3)
        if kind == 0:
            shapes.append(c2.Circle(rng.uniform(0.3, 1.0)))
        elif kind == 1:
            shapes.append(c2.Polygon.rect(rng.uniform(0.5, 2.5), rng.uniform(0.5, 2.5), radius=0.05))
        else:
            shapes.append(c2.Polygon.regular(int(rng.integers(3, 8)), rng.uniform(0.5, 1.2)))
        while True:
            p = rng.uniform((-18, -10), (18, 10))
            if np.hypot(*p) > 4:  # keep clear of the robot
                break
        positions.append(p)
        angles.append(rng.uniform(-math.pi, math.pi))
    world.insert_many(shapes, np.array(positions), np.array(angles), layer="obstacles")
    return world


def scan(world, origin, n_rays=720, max_range=30.0):
    theta = np.linspace(-math.pi, math.pi, n_rays, endpoint=False)
    directions = np.c_[np.cos(theta), np.sin(theta)]
    origins = np.repeat(np.asarray(origin, dtype=np.float64)[None, :], n_rays, axis=0)
    return theta, origins, world.ray_cast_many(origins, directions, max_range)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="lidar.png", help="where to write the plot")
    args = parser.parse_args()

    rng = np.random.default_rng(3)
    world = build_room(rng)
    robot = (-2.0, 1.0)
    theta, origins, hits = scan(world, robot)
    walls = sum(1 for h in hits.handle[hits.hit] if world.layer(int(h)) == "walls")
    print(f"{len(world)} colliders, {len(theta)} rays: {int(hits.hit.sum())} hits "
          f"({walls} on the walls), nearest {hits.distance[hits.hit].min():.2f}, "
          f"farthest {hits.distance[hits.hit].max():.2f}")
    assert hits.hit.all(), "a closed room: every ray hits something"

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Circle as CirclePatch, Polygon as PolygonPatch
    except ImportError:
        print("matplotlib is not installed: no plot")
        return

    fig, ax = plt.subplots(figsize=(8, 5), dpi=110)
    for h in world.handles():
        shape, xf = world.shape(int(h)), world.transform(int(h))
        draw(ax, shape, xf, CirclePatch, PolygonPatch)
    for p in hits.point[::4]:
        ax.plot([robot[0], p[0]], [robot[1], p[1]], color="#f0a020", lw=0.4, alpha=0.6)
    ax.scatter(hits.point[:, 0], hits.point[:, 1], s=2, color="#d03020", zorder=3)
    ax.scatter([robot[0]], [robot[1]], s=40, color="#2050c0", zorder=4)
    ax.set_aspect("equal")
    ax.set_xlim(-21, 21)
    ax.set_ylim(-13, 13)
    ax.set_title(f"collide2d: {len(theta)} lidar rays in one ray_cast_many call")
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"wrote {args.out}")


def draw(ax, shape, xf, CirclePatch, PolygonPatch, color="#8090a0"):
    """Draws a placed shape (the kinds this example uses)."""
    if isinstance(shape, c2.Circle):
        ax.add_patch(CirclePatch(xf.apply(shape.center), shape.radius, color=color))
    elif isinstance(shape, c2.Polygon):
        ax.add_patch(PolygonPatch([xf.apply(v) for v in shape.vertices], closed=True, color=color))
    elif isinstance(shape, c2.Compound):
        for child_xf, child in shape.children:
            placed = c2.Transform(*xf.apply(child_xf.position), xf.angle + child_xf.angle)
            draw(ax, child, placed, CirclePatch, PolygonPatch, color)
    elif isinstance(shape, c2.Chain):
        pts = [xf.apply(v) for v in shape.vertices]
        if shape.is_closed:
            pts.append(pts[0])
        ax.plot([p[0] for p in pts], [p[1] for p in pts], color="#303840", lw=2)


if __name__ == "__main__":
    main()
