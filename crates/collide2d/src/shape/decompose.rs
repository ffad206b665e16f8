//! Placeholder until the decomposition lands.
use crate::math::Vec2;
use crate::shape::ShapeError;
pub(crate) fn decompose_simple_polygon(outline: &[Vec2]) -> Result<Vec<Vec<Vec2>>, ShapeError> {
    Ok(vec![outline.to_vec()])
}
