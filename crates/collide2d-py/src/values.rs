//! Pickles and copies of the result values: each one travels as a tuple of plain Python
//! values (floats, integers, strings, tuples) from which its class's `_from_parts` rebuilds
//! it, checked as a value the library could have given; anything else is a forged or corrupt
//! pickle and raises `InvalidInput`.
//!
//! Numbers travel as Python floats, which hold every float32 exactly, so a copy equals the
//! original to the bit; a float that is not a float32 (no result holds one) is refused.

use collide2d::Vec2;
use pyo3::prelude::*;

use crate::errors;

/// The most a unit normal's length may differ from 1 (float32 rounding of a normalised
/// vector is far smaller).
const UNIT_TOLERANCE: f32 = 1e-3;

/// What `_from_parts` of class `class` was given, as the types it holds, or `InvalidInput`
/// ("not a valid ClassName: ...") when the parts have another shape.
pub fn parts<'py, T>(py: Python<'py>, class: &str, parts: &Bound<'py, PyAny>) -> PyResult<T>
where
    T: for<'a> FromPyObject<'a, 'py>,
{
    parts
        .extract::<T>()
        .map_err(|_| errors::invalid(py, format!("not a valid {class}: {}", shown(parts))))
}

/// A short text of `obj` for a message.
fn shown(obj: &Bound<'_, PyAny>) -> String {
    let text = obj
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string());
    if text.chars().count() > 80 {
        let cut: String = text.chars().take(77).collect();
        format!("{cut}...")
    } else {
        text
    }
}

/// The refusal of a pickle of `class` for `why`.
pub fn forged(py: Python<'_>, class: &str, why: impl std::fmt::Display) -> PyErr {
    errors::invalid(py, format!("not a valid {class}: {why}"))
}

/// `value` as the finite float32 it holds exactly; else `InvalidInput` naming `what`.
pub fn number(py: Python<'_>, class: &str, what: &str, value: f64) -> PyResult<f32> {
    let narrowed = value as f32;
    if !narrowed.is_finite() || f64::from(narrowed) != value {
        return Err(forged(
            py,
            class,
            format!("{what} {value} is not a finite float32"),
        ));
    }
    Ok(narrowed)
}

/// A point of finite float32 coordinates.
pub fn point(py: Python<'_>, class: &str, what: &str, (x, y): (f64, f64)) -> PyResult<Vec2> {
    Ok(Vec2::new(
        number(py, class, what, x)?,
        number(py, class, what, y)?,
    ))
}

/// A unit vector (to float32 rounding), or zero when `zero_allowed`.
pub fn normal(
    py: Python<'_>,
    class: &str,
    what: &str,
    xy: (f64, f64),
    zero_allowed: bool,
) -> PyResult<Vec2> {
    let v = point(py, class, what, xy)?;
    if zero_allowed && v == Vec2::ZERO {
        return Ok(v);
    }
    let length = v.x.hypot(v.y);
    if (length - 1.0).abs() > UNIT_TOLERANCE {
        return Err(forged(
            py,
            class,
            format!("{what} ({}, {}) is not of unit length", v.x, v.y),
        ));
    }
    Ok(v)
}

/// A number that is not negative.
pub fn non_negative(py: Python<'_>, class: &str, what: &str, value: f64) -> PyResult<f32> {
    let value = number(py, class, what, value)?;
    if value < 0.0 {
        return Err(forged(py, class, format!("{what} {value} is negative")));
    }
    Ok(value)
}
