//! What the world's calls return: events, ray batches, character moves.

use collide2d::world::{CollisionEvent, EndReason};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

use crate::arrays;
use crate::queries::PyManifold;

/// One surface a character move touched: `(handle, point, normal)`.
type MoveHitRow = (u64, (f32, f32), (f32, f32));

/// One begin or end of contact between colliders `a < b`.
#[pyclass(module = "collide2d", name = "Event", frozen, eq, get_all)]
#[derive(PartialEq)]
pub struct PyEvent {
    /// `"begin"` or `"end"`.
    pub kind: &'static str,
    /// The collider with the smaller handle.
    pub a: u64,
    /// The other collider.
    pub b: u64,
    /// Whether it is a sensor pair.
    pub sensor: bool,
    /// `a`'s and `b`'s user data when the event was written.
    pub user_data: (u64, u64),
    /// The contact (normal from `a` to `b`) for a solid pair's begin, else `None`.
    pub manifold: Option<PyManifold>,
    /// Why an end happened (`"separated"`, `"removed"`, `"disabled"`, `"filtered"`,
    /// `"sensor_changed"`); `None` for a begin.
    pub reason: Option<&'static str>,
}

#[pymethods]
impl PyEvent {
    fn __repr__(&self) -> String {
        format!(
            "Event(kind={:?}, a={}, b={}, sensor={})",
            self.kind,
            self.a,
            self.b,
            python_bool(self.sensor)
        )
    }
}

/// A bool as Python writes it.
fn python_bool(value: bool) -> &'static str {
    if value {
        "True"
    } else {
        "False"
    }
}

pub fn event_py(event: &CollisionEvent) -> PyEvent {
    match *event {
        CollisionEvent::Begin {
            a,
            b,
            manifold,
            user_data,
            ..
        } => PyEvent {
            kind: "begin",
            a: a.to_bits(),
            b: b.to_bits(),
            sensor: manifold.is_none(),
            user_data: (user_data[0], user_data[1]),
            manifold: manifold.map(|manifold| PyManifold { manifold }),
            reason: None,
        },
        CollisionEvent::Stay { a, b, manifold } => PyEvent {
            kind: "stay",
            a: a.to_bits(),
            b: b.to_bits(),
            sensor: manifold.is_none(),
            user_data: (0, 0),
            manifold: manifold.map(|manifold| PyManifold { manifold }),
            reason: None,
        },
        CollisionEvent::End {
            a,
            b,
            reason,
            sensor,
            user_data,
        } => PyEvent {
            kind: "end",
            a: a.to_bits(),
            b: b.to_bits(),
            sensor,
            user_data: (user_data[0], user_data[1]),
            manifold: None,
            reason: Some(match reason {
                EndReason::Separated => "separated",
                EndReason::Removed => "removed",
                EndReason::Disabled => "disabled",
                EndReason::Filtered => "filtered",
                EndReason::SensorChanged => "sensor_changed",
                #[allow(unreachable_patterns)]
                _ => "other",
            }),
        },
    }
}

/// The begin and end events of one `World.update()`, in handle-pair order: as lists of
/// `Event` (`began`, `ended`) or as `(k, 2)` uint64 arrays of handle pairs (`began_pairs`,
/// `ended_pairs`).
#[pyclass(module = "collide2d", name = "Events", frozen)]
pub struct PyEvents {
    /// The `Begin` events.
    pub began: Vec<CollisionEvent>,
    /// The `End` events.
    pub ended: Vec<CollisionEvent>,
}

#[pymethods]
impl PyEvents {
    /// The contacts that began, as `Event`s.
    #[getter]
    fn began(&self) -> Vec<PyEvent> {
        self.began.iter().map(event_py).collect()
    }

    /// The contacts that ended, as `Event`s.
    #[getter]
    fn ended(&self) -> Vec<PyEvent> {
        self.ended.iter().map(event_py).collect()
    }

    /// The pairs that began touching, a new `(k, 2)` uint64 array with `a < b` in each row.
    #[getter]
    fn began_pairs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u64>>> {
        arrays::pairs_out(py, self.began.iter().map(|e| e.pair()))
    }

    /// The pairs that stopped touching, a new `(k, 2)` uint64 array.
    #[getter]
    fn ended_pairs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u64>>> {
        arrays::pairs_out(py, self.ended.iter().map(|e| e.pair()))
    }

    fn __repr__(&self) -> String {
        format!(
            "Events(began={}, ended={})",
            self.began.len(),
            self.ended.len()
        )
    }
}

/// Many rays' answers, one row per ray: `hit` (bool), `distance` (float32; `inf` for a
/// miss), `point` and `normal` (`(n, 2)` float32; zero for a miss) and `handle` (uint64;
/// `NO_HANDLE` for a miss).
#[pyclass(module = "collide2d", name = "RayHits", frozen, get_all)]
pub struct PyRayHits {
    /// Whether each ray hit something.
    pub hit: Py<PyArray1<bool>>,
    /// Distance along each (normalised) ray.
    pub distance: Py<PyArray1<f32>>,
    /// Hit points.
    pub point: Py<PyArray2<f32>>,
    /// Unit surface normals.
    pub normal: Py<PyArray2<f32>>,
    /// The colliders hit.
    pub handle: Py<PyArray1<u64>>,
}

#[pymethods]
impl PyRayHits {
    fn __repr__(&self, py: Python<'_>) -> String {
        let hit = self.hit.bind(py);
        // The arrays are the caller's to change; one borrowed elsewhere just goes uncounted.
        let hits = hit.try_readonly().ok().map_or_else(
            || "?".to_string(),
            |flags| flags.as_array().iter().filter(|&&h| h).count().to_string(),
        );
        format!("RayHits(rays={}, hits={hits})", hit.len())
    }
}

/// A character move's outcome (see `World.move_and_slide`).
#[pyclass(module = "collide2d", name = "MoveResult", frozen, eq, get_all)]
#[derive(PartialEq)]
pub struct PyMoveResult {
    /// How far the collider actually moved.
    pub moved: (f32, f32),
    /// Every surface touched: `(handle, point, normal)`.
    pub hits: Vec<MoveHitRow>,
    /// Whether it stands on a floor after the move.
    pub on_floor: bool,
    /// Whether it touched a ceiling.
    pub on_ceiling: bool,
    /// Whether it touched a wall.
    pub on_wall: bool,
    /// The floor's normal, when on a floor.
    pub floor_normal: Option<(f32, f32)>,
    /// The floor's collider, when on a floor.
    pub floor_collider: Option<u64>,
    /// The push out of overlapping geometry made before moving.
    pub recovery: (f32, f32),
    /// How high it stepped up.
    pub step: f32,
    /// How far it was snapped down onto the floor.
    pub snap: f32,
    /// The request's downward part that walkable floor absorbed (`stop_on_slope`).
    pub absorbed: (f32, f32),
}

#[pymethods]
impl PyMoveResult {
    fn __repr__(&self) -> String {
        format!(
            "MoveResult(moved={:?}, on_floor={}, on_wall={}, on_ceiling={})",
            self.moved,
            python_bool(self.on_floor),
            python_bool(self.on_wall),
            python_bool(self.on_ceiling)
        )
    }
}
