//! Plain `f64` vector arithmetic for the exact references the tests compare against.

/// A point or vector in `f64`.
pub type P = [f64; 2];

/// `a - b`.
pub fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1]]
}

/// The dot product.
pub fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

/// The 2D cross product (the `z` of the 3D one).
pub fn cross(a: P, b: P) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

/// The length.
pub fn length(a: P) -> f64 {
    dot(a, a).sqrt()
}
