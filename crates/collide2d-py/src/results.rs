//! What the world's calls return: events, ray batches, character moves.

use collide2d::world::{CollisionEvent, EndReason, TimeOfImpact};
use collide2d::Vec2;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

use crate::arrays;
use crate::queries::{ManifoldParts, PyManifold};
use crate::values;

/// One surface a character move touched: `(handle, point, normal)`.
type MoveHitRow = (u64, (f32, f32), (f32, f32));

/// What a pickled `Event` holds: `(kind, a, b, sensor, user_data, manifold, time_of_impact,
/// reason)`, the manifold as `Manifold`'s parts and the reason as the library's name of it
/// (`"Separated"`).
type EventParts = (
    &'static str,
    u64,
    u64,
    bool,
    (u64, u64),
    Option<ManifoldParts>,
    Option<f32>,
    Option<String>,
);

/// What a pickled `MoveResult` holds: its fields in the order of the class.
type MoveParts = (
    (f32, f32),
    Vec<MoveHitRow>,
    bool,
    bool,
    bool,
    Option<(f32, f32)>,
    Option<u64>,
    (f32, f32),
    f32,
    f32,
    (f32, f32),
);

/// One begin or end of contact between colliders `a < b`.
#[pyclass(module = "collide2d", name = "Event", frozen, eq)]
pub struct PyEvent {
    /// `"begin"` or `"end"`.
    #[pyo3(get)]
    pub kind: &'static str,
    /// The collider with the smaller handle.
    #[pyo3(get)]
    pub a: u64,
    /// The other collider.
    #[pyo3(get)]
    pub b: u64,
    /// Whether it is a sensor pair.
    #[pyo3(get)]
    pub sensor: bool,
    /// `a`'s and `b`'s user data when the event was written.
    #[pyo3(get)]
    pub user_data: (u64, u64),
    /// The contact (normal from `a` to `b`) for a solid pair's begin, else `None`.
    #[pyo3(get)]
    pub manifold: Option<PyManifold>,
    /// Why an end happened (`"separated"`, `"removed"`, `"disabled"`, `"filtered"`,
    /// `"sensor_changed"`); `None` for a begin.
    #[pyo3(get)]
    pub reason: Option<&'static str>,
    /// When a continuous collider's sweep first touched, as a fraction of the step in
    /// `[0, 1]`, for a begin found by a sweep; else `None`.
    #[pyo3(get)]
    pub time_of_impact: Option<f32>,
    /// The library's event, which pickles carry.
    pub source: CollisionEvent,
}

/// Events are equal when what Python sees of them is (the library's event is what it came
/// from, and its manifold's unused storage is no part of the value).
impl PartialEq for PyEvent {
    fn eq(&self, other: &Self) -> bool {
        (self.kind, self.a, self.b, self.sensor, self.user_data)
            == (other.kind, other.a, other.b, other.sensor, other.user_data)
            && self.manifold == other.manifold
            && self.reason == other.reason
            && self.time_of_impact.map(f32::to_bits) == other.time_of_impact.map(f32::to_bits)
    }
}

impl PyEvent {
    /// The event as it travels in a pickle.
    fn parts(&self) -> PyResult<EventParts> {
        let reason = match self.source {
            CollisionEvent::End { reason, .. } => Some(reason_name(reason)?),
            _ => None,
        };
        Ok((
            self.kind,
            self.a,
            self.b,
            self.sensor,
            self.user_data,
            self.manifold.as_ref().map(PyManifold::parts),
            self.time_of_impact,
            reason,
        ))
    }

    /// The event `parts` describe; `InvalidInput` unless the library could have written it.
    fn from_parts(py: Python<'_>, parts: &Bound<'_, PyAny>) -> PyResult<PyEvent> {
        const CLASS: &str = "Event";
        type Parts<'py> = (
            String,
            u64,
            u64,
            bool,
            (u64, u64),
            Option<Bound<'py, PyAny>>,
            Option<f64>,
            Option<String>,
        );
        let (kind, a, b, sensor, user_data, manifold, time, reason): Parts =
            values::parts(py, CLASS, parts)?;
        let forged = |why: &str| values::forged(py, CLASS, why);
        if a >= b {
            return Err(forged("its handles are not in order (a < b)"));
        }
        let (a, b) = (
            collide2d::world::ColliderHandle::from_bits(a),
            collide2d::world::ColliderHandle::from_bits(b),
        );
        let manifold = match manifold {
            Some(parts) => Some(PyManifold::from_parts(py, &parts)?.manifold),
            None => None,
        };
        let time_of_impact = match time {
            Some(t) => {
                let t = values::non_negative(py, CLASS, "time_of_impact", t)?;
                if t > 1.0 {
                    return Err(forged("time_of_impact is beyond 1"));
                }
                Some(TimeOfImpact::new(t))
            }
            None => None,
        };
        let user_data = [user_data.0, user_data.1];
        let event = match kind.as_str() {
            "begin" | "stay" if reason.is_some() => return Err(forged("only an end has a reason")),
            "begin" | "stay" if sensor != manifold.is_none() => {
                return Err(forged(
                    "a sensor pair has no manifold, a solid pair has one",
                ))
            }
            "begin" => CollisionEvent::Begin {
                a,
                b,
                manifold,
                time_of_impact,
                user_data,
            },
            "stay" if time_of_impact.is_some() || user_data != [0, 0] => {
                return Err(forged("a stay has no time of impact or user data"))
            }
            "stay" => CollisionEvent::Stay { a, b, manifold },
            "end" if manifold.is_some() || time_of_impact.is_some() => {
                return Err(forged("an end has no manifold or time of impact"))
            }
            "end" => {
                let name = reason.ok_or_else(|| forged("an end has a reason"))?;
                let reason = serde_json::from_value(serde_json::Value::String(name.clone()))
                    .map_err(|_| forged(&format!("{name:?} is not a reason an end has")))?;
                CollisionEvent::End {
                    a,
                    b,
                    reason,
                    sensor,
                    user_data,
                }
            }
            other => return Err(forged(&format!("kind {other:?} is not begin, stay or end"))),
        };
        Ok(event_py(&event))
    }
}

/// The library's name of an end reason (`"Separated"`), as a pickle carries it.
fn reason_name(reason: EndReason) -> PyResult<String> {
    match serde_json::to_value(reason) {
        Ok(serde_json::Value::String(name)) => Ok(name),
        _ => Err(pyo3::exceptions::PyRuntimeError::new_err(
            "an end reason has no name",
        )),
    }
}

#[pymethods]
impl PyEvent {
    /// Pickles and copies travel as `(kind, a, b, sensor, user_data, manifold,
    /// time_of_impact, reason)`.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (EventParts,))> {
        let rebuild = py.get_type::<Self>().getattr("_from_parts")?.unbind();
        Ok((rebuild, (self.parts()?,)))
    }

    /// The event a pickle holds; `InvalidInput` for anything else.
    #[staticmethod]
    fn _from_parts(py: Python<'_>, parts: &Bound<'_, PyAny>) -> PyResult<PyEvent> {
        PyEvent::from_parts(py, parts)
    }

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
            time_of_impact,
        } => PyEvent {
            kind: "begin",
            a: a.to_bits(),
            b: b.to_bits(),
            sensor: manifold.is_none(),
            user_data: (user_data[0], user_data[1]),
            manifold: manifold.map(|manifold| PyManifold { manifold }),
            reason: None,
            time_of_impact: time_of_impact.map(TimeOfImpact::get),
            source: *event,
        },
        CollisionEvent::Stay { a, b, manifold } => PyEvent {
            kind: "stay",
            a: a.to_bits(),
            b: b.to_bits(),
            sensor: manifold.is_none(),
            user_data: (0, 0),
            manifold: manifold.map(|manifold| PyManifold { manifold }),
            reason: None,
            time_of_impact: None,
            source: *event,
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
            time_of_impact: None,
            source: *event,
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
#[pyclass(module = "collide2d", name = "Events", frozen, eq)]
pub struct PyEvents {
    /// The `Begin` events.
    pub began: Vec<CollisionEvent>,
    /// The `End` events.
    pub ended: Vec<CollisionEvent>,
}

/// Events are equal when their events are, in order.
impl PartialEq for PyEvents {
    fn eq(&self, other: &Self) -> bool {
        let same = |a: &[CollisionEvent], b: &[CollisionEvent]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| event_py(x) == event_py(y))
        };
        same(&self.began, &other.began) && same(&self.ended, &other.ended)
    }
}

#[pymethods]
impl PyEvents {
    /// Pickles and copies travel as `(began, ended)`, two lists of `Event`.
    #[allow(clippy::type_complexity)]
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, ((Vec<PyEvent>, Vec<PyEvent>),))> {
        let rebuild = py.get_type::<Self>().getattr("_from_parts")?.unbind();
        Ok((rebuild, ((self.began(), self.ended()),)))
    }

    /// The events a pickle holds; `InvalidInput` for anything else (a begin among the ends,
    /// or the other way round, too).
    #[staticmethod]
    fn _from_parts(py: Python<'_>, parts: &Bound<'_, PyAny>) -> PyResult<PyEvents> {
        const CLASS: &str = "Events";
        let (began, ended): (Vec<Bound<'_, PyAny>>, Vec<Bound<'_, PyAny>>) =
            values::parts(py, CLASS, parts)?;
        let events = |list: Vec<Bound<'_, PyAny>>, kind: &str| -> PyResult<Vec<CollisionEvent>> {
            list.iter()
                .map(|item| match item.cast::<PyEvent>() {
                    Ok(event) if event.get().kind == kind => Ok(event.get().source),
                    _ => Err(values::forged(
                        py,
                        CLASS,
                        format!("{} is not an Event of kind {kind:?}", item),
                    )),
                })
                .collect()
        };
        Ok(PyEvents {
            began: events(began, "begin")?,
            ended: events(ended, "end")?,
        })
    }

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
    /// Pickles and copies travel as the five arrays, `(hit, distance, point, normal,
    /// handle)`; the copy has arrays of its own.
    #[allow(clippy::type_complexity)]
    fn __reduce__(
        &self,
        py: Python<'_>,
    ) -> PyResult<(
        Py<PyAny>,
        ((
            Py<PyArray1<bool>>,
            Py<PyArray1<f32>>,
            Py<PyArray2<f32>>,
            Py<PyArray2<f32>>,
            Py<PyArray1<u64>>,
        ),),
    )> {
        let rebuild = py.get_type::<Self>().getattr("_from_parts")?.unbind();
        Ok((
            rebuild,
            ((
                self.hit.clone_ref(py),
                self.distance.clone_ref(py),
                self.point.clone_ref(py),
                self.normal.clone_ref(py),
                self.handle.clone_ref(py),
            ),),
        ))
    }

    /// The answers a pickle holds, in new arrays; `InvalidInput` unless the parts are five
    /// arrays of the dtypes and shapes of a `RayHits` (bool `(n,)`, float32 `(n,)`, float32
    /// `(n, 2)` twice, uint64 `(n,)`). Their values are the caller's to change, so they are
    /// taken as they are.
    #[staticmethod]
    fn _from_parts(py: Python<'_>, parts: &Bound<'_, PyAny>) -> PyResult<PyRayHits> {
        const CLASS: &str = "RayHits";
        #[allow(clippy::type_complexity)]
        let (hit, distance, point, normal, handle): (
            Bound<'_, PyArray1<bool>>,
            Bound<'_, PyArray1<f32>>,
            Bound<'_, PyArray2<f32>>,
            Bound<'_, PyArray2<f32>>,
            Bound<'_, PyArray1<u64>>,
        ) = values::parts(py, CLASS, parts)?;
        let n = hit.len();
        let rows_ok = [distance.len(), handle.len()].iter().all(|&m| m == n)
            && [point.shape(), normal.shape()].iter().all(|s| s == &[n, 2]);
        if !rows_ok {
            return Err(values::forged(
                py,
                CLASS,
                "its arrays do not have one row per ray",
            ));
        }
        let unreadable = |_| values::forged(py, CLASS, "an array is not readable");
        let hit = hit
            .try_readonly()
            .map_err(unreadable)?
            .as_array()
            .to_owned();
        let distance = distance
            .try_readonly()
            .map_err(unreadable)?
            .as_array()
            .to_owned();
        let point = point
            .try_readonly()
            .map_err(unreadable)?
            .as_array()
            .to_owned();
        let normal = normal
            .try_readonly()
            .map_err(unreadable)?
            .as_array()
            .to_owned();
        let handle = handle
            .try_readonly()
            .map_err(unreadable)?
            .as_array()
            .to_owned();
        Ok(PyRayHits {
            hit: PyArray1::from_owned_array(py, hit).unbind(),
            distance: PyArray1::from_owned_array(py, distance).unbind(),
            point: PyArray2::from_owned_array(py, point).unbind(),
            normal: PyArray2::from_owned_array(py, normal).unbind(),
            handle: PyArray1::from_owned_array(py, handle).unbind(),
        })
    }

    /// Equal when the five arrays hold the same rows (compared as numbers: a NaN written into
    /// one is equal to nothing).
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        let Ok(other) = other.cast::<PyRayHits>() else {
            return py.NotImplemented();
        };
        let other = other.get();
        fn same<T: numpy::Element + PartialEq, D: numpy::ndarray::Dimension>(
            py: Python<'_>,
            a: &Py<numpy::PyArray<T, D>>,
            b: &Py<numpy::PyArray<T, D>>,
        ) -> bool {
            match (a.bind(py).try_readonly(), b.bind(py).try_readonly()) {
                (Ok(a), Ok(b)) => a.as_array() == b.as_array(),
                _ => false,
            }
        }
        let equal = same(py, &self.hit, &other.hit)
            && same(py, &self.distance, &other.distance)
            && same(py, &self.point, &other.point)
            && same(py, &self.normal, &other.normal)
            && same(py, &self.handle, &other.handle);
        pyo3::types::PyBool::new(py, equal)
            .to_owned()
            .into_any()
            .unbind()
    }

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
    /// Pickles and copies travel as the fields, in the order of the class.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (MoveParts,))> {
        let rebuild = py.get_type::<Self>().getattr("_from_parts")?.unbind();
        let parts = (
            self.moved,
            self.hits.clone(),
            self.on_floor,
            self.on_ceiling,
            self.on_wall,
            self.floor_normal,
            self.floor_collider,
            self.recovery,
            self.step,
            self.snap,
            self.absorbed,
        );
        Ok((rebuild, (parts,)))
    }

    /// The move result a pickle holds; `InvalidInput` for anything else (finite numbers,
    /// unit normals, a floor normal and collider exactly when on a floor).
    #[staticmethod]
    fn _from_parts(py: Python<'_>, parts: &Bound<'_, PyAny>) -> PyResult<PyMoveResult> {
        const CLASS: &str = "MoveResult";
        type P = (f64, f64);
        #[allow(clippy::type_complexity)]
        let (
            moved,
            hits,
            on_floor,
            on_ceiling,
            on_wall,
            floor_normal,
            floor_collider,
            recovery,
            step,
            snap,
            absorbed,
        ): (
            P,
            Vec<(u64, P, P)>,
            bool,
            bool,
            bool,
            Option<P>,
            Option<u64>,
            P,
            f64,
            f64,
            P,
        ) = values::parts(py, CLASS, parts)?;
        let v = |what: &str, xy: P| values::point(py, CLASS, what, xy).map(crate::convert::pair);
        let hits = hits
            .into_iter()
            .map(|(handle, point, normal)| {
                Ok((
                    handle,
                    v("hit point", point)?,
                    crate::convert::pair(values::normal(py, CLASS, "hit normal", normal, false)?),
                ))
            })
            .collect::<PyResult<Vec<MoveHitRow>>>()?;
        if on_floor != floor_normal.is_some() || on_floor != floor_collider.is_some() {
            return Err(values::forged(
                py,
                CLASS,
                "a floor normal and collider are there exactly when on a floor",
            ));
        }
        let floor_normal = match floor_normal {
            Some(n) => Some(values::normal(py, CLASS, "floor normal", n, false)?),
            None => None,
        };
        Ok(PyMoveResult {
            moved: v("moved", moved)?,
            hits,
            on_floor,
            on_ceiling,
            on_wall,
            floor_normal: floor_normal.map(|n: Vec2| (n.x, n.y)),
            floor_collider,
            recovery: v("recovery", recovery)?,
            step: values::non_negative(py, CLASS, "step", step)?,
            snap: values::non_negative(py, CLASS, "snap", snap)?,
            absorbed: v("absorbed", absorbed)?,
        })
    }

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
