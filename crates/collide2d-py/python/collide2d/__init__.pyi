"""Type stubs for collide2d (the native module's classes and functions, re-exported).

Arguments, as every call checks them:

- A number (``float`` or ``int``) is never a bool: ``True``/``False`` (or NumPy's ``bool_``)
  where a number, a point, a handle or an array of numbers is wanted raises ArrayTypeError;
  a bool is taken only where the stub says ``bool``.
- A refused value raises InvalidInput whose message names the argument that is wrong
  (``Polygon.rect(nan, 1)``: "width is NaN or infinite ...").
- ``layers`` (and ``collide_only``'s ``others``) is a sequence of layer names and ``exclude``
  a sequence of handles (a list, a tuple, an array): a single string, bytes, a lone handle or
  an item of the wrong type raises ArrayTypeError (write ``layers=["walls"]``).
- ``x in world`` is False for anything that is not a live handle of the world (a string,
  a float, a bool, None), never an exception.

Values: every class here but the exceptions pickles and copies (``copy.copy``,
``copy.deepcopy``) to an equal value, its float32 numbers exact to the bit (a ``RayHits`` copy has arrays of its
own); a forged or corrupt pickle raises InvalidInput. Results (``RayHit``, ``CastHit``,
``Manifold``, ``ContactPoint``, ``Distance``, ``Event``, ``Events``, ``RayHits``,
``MoveResult``) compare by value and do not hash.
"""

from typing import Literal, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from ._errors import (
    ArrayTypeError as ArrayTypeError,
    Collide2dError as Collide2dError,
    InvalidInput as InvalidInput,
    StaleHandle as StaleHandle,
    UnknownLayer as UnknownLayer,
)

__version__: str
NO_HANDLE: int
"""The handle batch results give where there is none (a ray that missed): 2**64 - 1."""
MAX_LAYERS: int
"""The most layers a world has (32)."""

Vec2 = Tuple[float, float]
PointLike = Union[Sequence[float], npt.NDArray[np.floating]]
TransformLike = Union["Transform", Tuple[float, float], Tuple[float, float, float], Sequence[float]]
Points = npt.ArrayLike
"""An (n, 2) float32 or float64 array in any layout and byte order, or a list of n pairs of
numbers (integers are taken as floats; strings, booleans and None are refused); at most 2**24
rows."""
Handle = int
"""A collider handle: generation << 32 | slot index. An integer outside 0..2**64 is no world's
handle: it raises StaleHandle (and is not ``in`` any world). A bool is not a handle
(ArrayTypeError)."""
Aabb = Tuple[float, float, float, float]

class Transform:
    """A placement: rotate by `angle` (radians, counter-clockwise), then move to (x, y)."""

    def __init__(self, x: float = 0.0, y: float = 0.0, angle: float = 0.0) -> None: ...
    @staticmethod
    def from_cos_sin(x: float, y: float, cos: float, sin: float) -> Transform:
        """The transform whose rotation is (cos, sin): kept to the bit when unit length, else
        scaled to unit length; eval(repr(t)) == t for every transform."""
    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def position(self) -> Vec2: ...
    @property
    def angle(self) -> float: ...
    def apply(self, point: PointLike) -> Vec2:
        """Where the local point lands in the world; InvalidInput when it lands beyond float32."""

class Shape:
    """A shape in its own frame; made through a subclass, placed by a Transform."""

    def aabb(self, transform: Optional[TransformLike] = None) -> Aabb:
        """(min_x, min_y, max_x, max_y) of the placed shape."""
    def contains(self, point: PointLike, transform: Optional[TransformLike] = None) -> bool:
        """Whether the point lies in the placed shape (boundary included)."""
    def project_point(self, point: PointLike, transform: Optional[TransformLike] = None) -> Tuple[Vec2, bool]:
        """The closest boundary point and whether `point` is inside; a point beyond ±4e9 on
        either axis (farther than any placed shape reaches) raises InvalidInput."""
    def ray_cast(
        self,
        origin: PointLike,
        direction: PointLike,
        max_distance: Optional[float] = None,
        transform: Optional[TransformLike] = None,
    ) -> Optional[RayHit]:
        """The first hit of the ray on the placed shape, or None; no max_distance: no limit."""
    def contains_points(self, points: Points, transform: Optional[TransformLike] = None) -> npt.NDArray[np.bool_]:
        """Which rows of an (n, 2) array lie in the placed shape; GIL released."""
    @property
    def area(self) -> float: ...
    @property
    def centroid(self) -> Vec2: ...
    @property
    def is_convex(self) -> bool: ...
    def __eq__(self, other: object) -> bool:
        """Equal when the same kind built from the same numbers; shapes hash, pickle and copy."""
    def __hash__(self) -> int: ...

class Circle(Shape):
    def __init__(self, radius: float, center: Optional[PointLike] = None) -> None: ...
    @property
    def radius(self) -> float: ...
    @property
    def center(self) -> Vec2: ...

class Capsule(Shape):
    def __init__(self, a: PointLike, b: PointLike, radius: float) -> None: ...
    @staticmethod
    def vertical(height: float, radius: float) -> Capsule: ...
    @property
    def radius(self) -> float: ...
    @property
    def points(self) -> Tuple[Vec2, Vec2]: ...

class Segment(Shape):
    def __init__(self, a: PointLike, b: PointLike) -> None: ...
    @property
    def points(self) -> Tuple[Vec2, Vec2]: ...

class Polygon(Shape):
    def __init__(self, outline: Points, radius: float = 0.0) -> None: ...
    @staticmethod
    def hull(points: Points, radius: float = 0.0) -> Polygon: ...
    @staticmethod
    def rect(width: float, height: float, radius: float = 0.0) -> Polygon: ...
    @staticmethod
    def regular(sides: int, circumradius: float, radius: float = 0.0) -> Polygon: ...
    def rounded(self, radius: float) -> Polygon: ...
    @property
    def vertices(self) -> list[Vec2]: ...
    @property
    def radius(self) -> float: ...

class Compound(Shape):
    def __init__(self, children: Sequence[Tuple[TransformLike, Shape]]) -> None: ...
    @staticmethod
    def from_concave(outline: Points) -> Compound: ...
    @property
    def children(self) -> list[Tuple[Transform, Shape]]: ...

class Chain(Shape):
    @staticmethod
    def open(points: Points) -> Chain: ...
    @staticmethod
    def closed(points: Points) -> Chain: ...
    @property
    def vertices(self) -> list[Vec2]: ...
    @property
    def is_closed(self) -> bool: ...

class ContactPoint:
    """One contact point: the point midway between the surfaces and the depth along the
    normal."""

    point: Vec2
    penetration: float

class Manifold:
    """A contact: unit normal from A to B and up to two points; falsy when empty. Equal when
    the normal and the points in use (with the shape features that made them) are."""

    @property
    def normal(self) -> Vec2: ...
    @property
    def points(self) -> list[ContactPoint]: ...
    @property
    def penetration(self) -> float: ...
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...

class Distance:
    distance: float
    point_a: Vec2
    point_b: Vec2
    normal: Vec2

class RayHit:
    distance: float
    point: Vec2
    normal: Vec2
    handle: Optional[Handle]

class CastHit:
    fraction: float
    point: Vec2
    normal: Vec2
    handle: Optional[Handle]

def collide(a: Shape, transform_a: TransformLike, b: Shape, transform_b: TransformLike) -> Manifold: ...
def overlaps(a: Shape, transform_a: TransformLike, b: Shape, transform_b: TransformLike) -> bool: ...
def distance(a: Shape, transform_a: TransformLike, b: Shape, transform_b: TransformLike) -> Distance: ...
def shape_cast(
    a: Shape,
    transform_a: TransformLike,
    motion_a: PointLike,
    b: Shape,
    transform_b: TransformLike,
    motion_b: Optional[PointLike] = None,
) -> Optional[CastHit]:
    """When `a` moving by `motion_a` first touches `b` moving by `motion_b`; None if never.
    A motion ending beyond ±1e9 raises InvalidInput."""
def ray_cast(
    shape: Shape, transform: TransformLike, origin: PointLike, direction: PointLike, max_distance: Optional[float] = None
) -> Optional[RayHit]: ...

class Event:
    kind: Literal["begin", "end", "stay"]
    a: Handle
    b: Handle
    sensor: bool
    user_data: Tuple[int, int]
    manifold: Optional[Manifold]
    reason: Optional[Literal["separated", "removed", "disabled", "filtered", "sensor_changed"]]
    time_of_impact: Optional[float]
    """For a begin found by a continuous collider's sweep: when it first touched, as a
    fraction of the step in [0, 1]; else None."""

class Events:
    """One update's begins and ends; equal when their events are, in order."""

    @property
    def began(self) -> list[Event]: ...
    @property
    def ended(self) -> list[Event]: ...
    @property
    def began_pairs(self) -> npt.NDArray[np.uint64]:
        """(k, 2) uint64 handle pairs, a < b."""
    @property
    def ended_pairs(self) -> npt.NDArray[np.uint64]: ...

class RayHits:
    """Many rays' answers, one row per ray; its repr counts them: ``RayHits(rays=3, hits=2)``.
    Equal when the five arrays hold the same rows."""

    hit: npt.NDArray[np.bool_]
    distance: npt.NDArray[np.float32]
    point: npt.NDArray[np.float32]
    normal: npt.NDArray[np.float32]
    handle: npt.NDArray[np.uint64]

class MoveResult:
    moved: Vec2
    hits: list[Tuple[Handle, Vec2, Vec2]]
    on_floor: bool
    on_ceiling: bool
    on_wall: bool
    floor_normal: Optional[Vec2]
    floor_collider: Optional[Handle]
    recovery: Vec2
    step: float
    snap: float
    absorbed: Vec2

class World:
    """Colliders behind integer handles, named layers, events, queries and batch calls.

    A world serves one call at a time: a call from another thread while one runs (a batch
    releases the GIL) raises RuntimeError ("Already borrowed") and changes nothing."""

    def __init__(self) -> None: ...
    def __len__(self) -> int: ...
    def __contains__(self, handle: object) -> bool:
        """Whether `handle` is a live collider of this world; False for anything else (a
        removed handle, another integer, a string, a float, a bool, None)."""
    def add_layer(self, name: str) -> int: ...
    @property
    def layer_names(self) -> list[str]: ...
    def set_layers_collide(self, a: str, b: str, collide: bool) -> None: ...
    def layers_collide(self, a: str, b: str) -> bool: ...
    def collide_only(self, layer: str, others: Sequence[str]) -> None: ...
    def insert(
        self,
        shape: Shape,
        transform: Optional[TransformLike] = None,
        *,
        offset: Optional[TransformLike] = None,
        layer: Optional[str] = None,
        sensor: bool = False,
        enabled: bool = True,
        user_data: int = 0,
        continuous: bool = False,
        one_way: Optional[Tuple[PointLike, float]] = None,
        groups: Optional[Tuple[int, int]] = None,
    ) -> Handle: ...
    def insert_many(
        self,
        shape: Union[Shape, Sequence[Shape]],
        positions: Points,
        angles: Optional[npt.ArrayLike] = None,
        *,
        layer: Optional[str] = None,
        sensor: bool = False,
        enabled: bool = True,
        user_data: Union[int, npt.ArrayLike, None] = None,
        continuous: bool = False,
    ) -> npt.NDArray[np.uint64]: ...
    def remove(self, handle: Handle) -> None: ...
    def remove_many(self, handles: npt.ArrayLike) -> None:
        """All or nothing; a stale handle, or one named twice, raises StaleHandle. GIL released."""
    def handles(self) -> npt.NDArray[np.uint64]: ...
    def transform(self, handle: Handle) -> Transform: ...
    def shape(self, handle: Handle) -> Shape: ...
    def aabb(self, handle: Handle) -> Aabb: ...
    def user_data(self, handle: Handle) -> int: ...
    def layer(self, handle: Handle) -> str: ...
    def is_sensor(self, handle: Handle) -> bool: ...
    def is_enabled(self, handle: Handle) -> bool: ...
    def set_transform(self, handle: Handle, transform: TransformLike) -> None: ...
    def set_transforms(self, handles: npt.ArrayLike, positions: Points, angles: Optional[npt.ArrayLike] = None) -> None:
        """All or nothing; a handle named twice ends at its last row."""
    def set_sensor(self, handle: Handle, sensor: bool) -> None: ...
    def set_enabled(self, handle: Handle, enabled: bool) -> None: ...
    def set_user_data(self, handle: Handle, user_data: int) -> None: ...
    def set_layer(self, handle: Handle, layer: str) -> None: ...
    def set_groups(self, handle: Handle, category: int, mask: int) -> None: ...
    def groups(self, handle: Handle) -> Tuple[int, int]: ...
    def set_offset(self, handle: Handle, offset: TransformLike) -> None: ...
    def set_shape(self, handle: Handle, shape: Shape) -> None: ...
    def update(self) -> Events: ...
    def events(self) -> Events: ...
    def contacts(self) -> list[Tuple[Handle, Handle, Optional[Manifold]]]: ...
    def contact_pairs(self) -> npt.NDArray[np.uint64]: ...
    def contacts_of(self, handle: Handle) -> list[Tuple[Handle, Handle, Optional[Manifold]]]: ...
    def is_touching(self, handle: Handle) -> bool: ...
    def overlap_point(
        self, point: PointLike, *, layers: Optional[Sequence[str]] = None, sensors: bool = False, exclude: Optional[Sequence[Handle]] = None
    ) -> list[Handle]: ...
    def overlap_aabb(
        self, min: PointLike, max: PointLike, *, layers: Optional[Sequence[str]] = None, sensors: bool = False, exclude: Optional[Sequence[Handle]] = None
    ) -> list[Handle]: ...
    def overlap_shape(
        self, shape: Shape, transform: Optional[TransformLike] = None, *, layers: Optional[Sequence[str]] = None, sensors: bool = False, exclude: Optional[Sequence[Handle]] = None
    ) -> list[Handle]: ...
    def ray_cast(
        self, origin: PointLike, direction: PointLike, max_distance: Optional[float] = None, *, layers: Optional[Sequence[str]] = None, sensors: bool = False, exclude: Optional[Sequence[Handle]] = None
    ) -> Optional[RayHit]: ...
    def shape_cast(
        self, shape: Shape, transform: TransformLike, motion: PointLike, *, layers: Optional[Sequence[str]] = None, sensors: bool = False, exclude: Optional[Sequence[Handle]] = None
    ) -> Optional[CastHit]:
        """The first collider `shape` moving by `motion` hits; a motion ending beyond ±1e9
        raises InvalidInput."""
    def move_and_slide(
        self,
        handle: Handle,
        delta: PointLike,
        *,
        size: Optional[float] = None,
        up: Optional[PointLike] = None,
        max_slope: Optional[float] = None,
        skin: Optional[float] = None,
        max_iterations: Optional[int] = None,
        step_height: Optional[float] = None,
        snap_distance: Optional[float] = None,
        stop_on_slope: Optional[bool] = None,
        max_recovery: Optional[float] = None,
        layers: Optional[Sequence[str]] = None,
        sensors: bool = False,
        exclude: Optional[Sequence[Handle]] = None,
    ) -> MoveResult: ...
    def overlap_points(
        self,
        points: Points,
        *,
        layers: Optional[Sequence[str]] = None,
        sensors: bool = False,
        exclude: Optional[Sequence[Handle]] = None,
        threads: Optional[int] = 1,
    ) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.uint64]]: ...
    def overlap_aabbs(
        self,
        mins: Points,
        maxs: Points,
        *,
        layers: Optional[Sequence[str]] = None,
        sensors: bool = False,
        exclude: Optional[Sequence[Handle]] = None,
        threads: Optional[int] = 1,
    ) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.uint64]]: ...
    def ray_cast_many(
        self,
        origins: Points,
        directions: Points,
        max_distance: Union[float, npt.ArrayLike, None] = None,
        *,
        layers: Optional[Sequence[str]] = None,
        sensors: bool = False,
        exclude: Optional[Sequence[Handle]] = None,
        threads: Optional[int] = None,
    ) -> RayHits:
        """One ray a row, the nearest hit of each, as ``ray_cast`` on each row would answer.

        ``threads``: ``None`` (default) for one thread a core, ``1`` for the calling thread
        only, ``n`` for ``n`` threads (at most one a core); batches under 512 rows run on one.
        The world keeps the grid the batch reads until a collider is added, removed, moved or
        changed: the first batch after a change also builds it.
        """
    def insert_tile_map(
        self, tiles: npt.ArrayLike, cell_size: float, origin: Optional[PointLike] = None, *, rectangles: bool = False
    ) -> int: ...
    def set_tile(self, map: int, x: int, y: int, solid: bool) -> None: ...
    def tile_map_handles(self, map: int) -> npt.NDArray[np.uint64]: ...
    def snapshot(self) -> bytes:
        """The world's state as bytes (colliders, layers, contacts, the ends the next update
        reports); a restored or unpickled world's ``events()`` is empty until its next update."""
    @staticmethod
    def restore(data: bytes) -> World:
        """The world ``snapshot()`` saved; InvalidInput for bytes that are not one."""
