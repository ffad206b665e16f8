"""Agents with vision sensors: 800 wandering agents, each seeing others within 2.5 units,
stepped 200 times with batch moves and begin/end events.

    python crates/collide2d-py/examples/agents.py [--out agents.png]

Each agent is two colliders with its index as user data: a body (layer "agents") and a sensor
disc (layer "vision", which collides with "agents" only). Every step moves all of them with one
``set_transforms`` call; ``update()`` returns the sightings that began and ended as arrays. With
matplotlib installed the last step and the sightings over time are drawn to the PNG.
"""

import argparse

import numpy as np

import collide2d as c2

N = 800
STEPS = 200
ARENA = 100.0
VISION = 2.5


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="agents.png", help="where to write the plot")
    args = parser.parse_args()

    rng = np.random.default_rng(5)
    world = c2.World()
    world.add_layer("agents")
    world.add_layer("vision")
    world.collide_only("vision", ["agents"])

    pos = rng.uniform(0, ARENA, (N, 2))
    heading = rng.uniform(-np.pi, np.pi, N)
    index = np.arange(N, dtype=np.uint64)
    bodies = world.insert_many(c2.Circle(0.4), pos, heading, layer="agents", user_data=index)
    eyes = world.insert_many(c2.Circle(VISION), pos, layer="vision", sensor=True, user_data=index)
    handles = np.concatenate([bodies, eyes])
    owner = np.concatenate([index, index])
    order = np.argsort(handles)

    def agent_of(h):
        return owner[order[np.searchsorted(handles, h, sorter=order)]]

    seen_over_time, began_total, ended_total = [], 0, 0
    for _ in range(STEPS):
        heading += rng.normal(0, 0.3, N)
        pos += 0.3 * np.c_[np.cos(heading), np.sin(heading)]
        # Bounce off the arena's sides.
        out = (pos < 0) | (pos > ARENA)
        heading = np.where(out[:, 0], np.pi - heading, heading)
        heading = np.where(out[:, 1], -heading, heading)
        pos = np.clip(pos, 0, ARENA)
        world.set_transforms(handles, np.vstack([pos, pos]), np.concatenate([heading, heading]))
        events = world.update()
        began_total += len(events.began_pairs)
        ended_total += len(events.ended_pairs)
        pairs = world.contact_pairs()
        a, b = agent_of(pairs[:, 0]), agent_of(pairs[:, 1])
        # An agent's own body in its own vision is not a sighting; i seeing j and j seeing i
        # (or their bodies touching) count once.
        seen_over_time.append(len(np.unique(np.c_[np.minimum(a, b), np.maximum(a, b)][a != b], axis=0)))

    print(f"{N} agents, {STEPS} steps: {began_total} contacts began and {ended_total} ended; "
          f"{seen_over_time[-1]} pairs of agents in sight at the last step "
          f"(mean {np.mean(seen_over_time):.0f})")
    assert began_total > 0 and ended_total > 0

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot")
        return

    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 5), dpi=100, gridspec_kw={"width_ratios": [1.1, 1]})
    seeing = np.zeros(N, dtype=bool)
    pairs = world.contact_pairs()
    a, b = agent_of(pairs[:, 0]), agent_of(pairs[:, 1])
    keep = a != b
    for i, j in zip(a[keep], b[keep]):
        ax.plot([pos[i, 0], pos[j, 0]], [pos[i, 1], pos[j, 1]], color="#f0a020", lw=0.6)
        seeing[i] = seeing[j] = True
    ax.scatter(pos[~seeing, 0], pos[~seeing, 1], s=3, color="#8090a0", label="alone")
    ax.scatter(pos[seeing, 0], pos[seeing, 1], s=5, color="#d03020", label="seeing or seen")
    ax.set_aspect("equal")
    ax.set_xlim(0, ARENA)
    ax.set_ylim(0, ARENA)
    ax.set_title(f"{N} agents, vision radius {VISION}: last step")
    ax.legend(loc="upper right", fontsize=8)
    ax2.plot(seen_over_time, color="#2050c0")
    ax2.set_xlabel("step")
    ax2.set_ylabel("pairs of agents in sight of each other")
    ax2.set_title("from World.contact_pairs() each step")
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
