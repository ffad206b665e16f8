//! Python bindings for collide2d: the shapes, the pair queries and the collision `World`, with
//! batch queries on NumPy arrays that run with the GIL released.
//!
//! The Python package is `collide2d` (this crate is its native part, `collide2d._collide2d`;
//! `python/collide2d/` holds the pure-Python part: the exception classes, the re-exports and
//! the type stubs). Handles cross into Python as plain integers
//! ([`ColliderHandle::to_bits`](collide2d::world::ColliderHandle::to_bits)), so that arrays
//! of them are ordinary `uint64` arrays.
#![warn(missing_docs)]
#![deny(unsafe_code)]

use pyo3::prelude::*;

mod arrays;
mod convert;
mod errors;
mod parallel;
mod queries;
mod results;
mod shapes;
mod values;
mod world;

/// The native module `collide2d._collide2d`, re-exported by the `collide2d` package.
#[pymodule]
fn _collide2d(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<convert::PyTransform>()?;
    m.add_class::<shapes::PyShape>()?;
    m.add_class::<shapes::PyCircle>()?;
    m.add_class::<shapes::PyCapsule>()?;
    m.add_class::<shapes::PySegment>()?;
    m.add_class::<shapes::PyPolygon>()?;
    m.add_class::<shapes::PyCompound>()?;
    m.add_class::<shapes::PyChain>()?;
    m.add_class::<queries::PyManifold>()?;
    m.add_class::<queries::PyContactPoint>()?;
    m.add_class::<queries::PyDistance>()?;
    m.add_class::<queries::PyRayHit>()?;
    m.add_class::<queries::PyCastHit>()?;
    m.add_class::<world::PyWorld>()?;
    m.add_class::<results::PyEvent>()?;
    m.add_class::<results::PyEvents>()?;
    m.add_class::<results::PyRayHits>()?;
    m.add_class::<results::PyMoveResult>()?;
    m.add_function(wrap_pyfunction!(queries::collide, m)?)?;
    m.add_function(wrap_pyfunction!(queries::overlaps, m)?)?;
    m.add_function(wrap_pyfunction!(queries::distance, m)?)?;
    m.add_function(wrap_pyfunction!(queries::shape_cast, m)?)?;
    m.add_function(wrap_pyfunction!(queries::ray_cast, m)?)?;
    m.add("NO_HANDLE", world::NO_HANDLE)?;
    m.add("MAX_LAYERS", collide2d::world::MAX_LAYERS)?;
    Ok(())
}
