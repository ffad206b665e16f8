"""collide2d: 2D collision detection for Python, with NumPy batch queries.

Shapes (``Circle``, ``Capsule``, ``Segment``, ``Polygon``, ``Compound``, ``Chain``) are placed
by a ``Transform``; the pair queries (``collide``, ``overlaps``, ``distance``, ``shape_cast``,
``ray_cast``) answer questions about two placed shapes; a ``World`` keeps colliders behind
integer handles with named layers, sensors and user data, and ``World.update()`` returns the
step's begin/end ``Events``. The batch calls (``World.set_transforms``, ``overlap_points``,
``overlap_aabbs``, ``ray_cast_many``, ``contact_pairs``, ``Events.began_pairs``) take and give
NumPy arrays and release the GIL while they run. The library computes in float32: float64
input is converted once, results are float32 arrays.

Errors are ``Collide2dError`` subclasses carrying the library's message: ``InvalidInput``
(a ``ValueError``), ``ArrayTypeError`` (a ``TypeError``), ``StaleHandle`` and
``UnknownLayer`` (``KeyError``\\ s).
"""

from ._errors import (
    ArrayTypeError,
    Collide2dError,
    InvalidInput,
    StaleHandle,
    UnknownLayer,
)
from ._collide2d import (
    MAX_LAYERS,
    NO_HANDLE,
    Capsule,
    CastHit,
    Chain,
    Circle,
    Compound,
    ContactPoint,
    Distance,
    Event,
    Events,
    Manifold,
    MoveResult,
    Polygon,
    RayHit,
    RayHits,
    Segment,
    Shape,
    Transform,
    World,
    collide,
    distance,
    overlaps,
    ray_cast,
    shape_cast,
)

__version__ = "0.2.0"

__all__ = [
    "ArrayTypeError",
    "Capsule",
    "CastHit",
    "Chain",
    "Circle",
    "Collide2dError",
    "Compound",
    "ContactPoint",
    "Distance",
    "Event",
    "Events",
    "InvalidInput",
    "MAX_LAYERS",
    "Manifold",
    "MoveResult",
    "NO_HANDLE",
    "Polygon",
    "RayHit",
    "RayHits",
    "Segment",
    "Shape",
    "StaleHandle",
    "Transform",
    "UnknownLayer",
    "World",
    "collide",
    "distance",
    "overlaps",
    "ray_cast",
    "shape_cast",
]
