//! The library's errors as the Python exceptions defined in `collide2d/_errors.py`.

use collide2d::world::WorldError;
use pyo3::prelude::*;

/// An instance of the exception class `name` of `collide2d._errors`, carrying `message`.
pub fn raise(py: Python<'_>, name: &str, message: impl Into<String>) -> PyErr {
    let message = message.into();
    let made = py
        .import("collide2d._errors")
        .and_then(|module| module.getattr(name))
        .and_then(|class| class.call1((message.clone(),)));
    match made {
        Ok(instance) => PyErr::from_value(instance),
        // The package's own module is missing (a broken install): still a clear error.
        Err(_) => pyo3::exceptions::PyValueError::new_err(message),
    }
}

/// `InvalidInput` (a `ValueError`): a value the library refuses.
pub fn invalid(py: Python<'_>, message: impl Into<String>) -> PyErr {
    raise(py, "InvalidInput", message)
}

/// `ArrayTypeError` (a `TypeError`): an array of the wrong dtype, or not an array at all.
pub fn array_type(py: Python<'_>, message: impl Into<String>) -> PyErr {
    raise(py, "ArrayTypeError", message)
}

/// A world error as the matching exception: `StaleHandle` for a stale handle, `UnknownLayer`
/// for a layer name the world does not have, `InvalidInput` for the rest.
pub fn world(py: Python<'_>, error: WorldError) -> PyErr {
    let message = error.to_string();
    match error {
        WorldError::StaleHandle(_) => raise(py, "StaleHandle", message),
        WorldError::UnknownLayer(_) | WorldError::InvalidLayer(_) => {
            raise(py, "UnknownLayer", message)
        }
        _ => invalid(py, message),
    }
}

/// A world error with the row of a batch it came from.
pub fn world_at(py: Python<'_>, row: usize, error: WorldError) -> PyErr {
    let prefixed = format!("row {row}: {error}");
    match error {
        WorldError::StaleHandle(_) => raise(py, "StaleHandle", prefixed),
        _ => invalid(py, prefixed),
    }
}

/// A shape constructor's refusal.
pub fn shape(py: Python<'_>, error: collide2d::ShapeError) -> PyErr {
    invalid(py, error.to_string())
}

/// A shape constructor's refusal of the argument `name` (an outline, a list of points or of
/// children), the message led by that name.
pub fn shape_arg(py: Python<'_>, name: &str, error: collide2d::ShapeError) -> PyErr {
    invalid(py, format!("{name}: {error}"))
}
