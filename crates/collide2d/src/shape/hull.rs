//! Convex hulls of point clouds (Andrew's monotone chain).

use crate::math::Vec2;
use crate::shape::error::{check_point, ShapeError};
use crate::shape::MAX_POLYGON_VERTICES;

/// Relative tolerance for welding and collinearity in polygon construction.
///
/// Points closer than `WELD_TOLERANCE ×` (diagonal of the input's bounding box) are merged, and a
/// vertex closer than that to the line through its neighbours is dropped.
pub const WELD_TOLERANCE: f32 = 1.0e-5;

/// Orientation of `c` relative to the directed line `a → b`, in f64: positive when `c` is on
/// the left.
#[inline]
pub(crate) fn orient(a: Vec2, b: Vec2, c: Vec2) -> f64 {
    let (ax, ay) = (a.x as f64, a.y as f64);
    ((b.x as f64 - ax) * (c.y as f64 - ay)) - ((b.y as f64 - ay) * (c.x as f64 - ax))
}

/// Whether `b` turns strictly left on the way `a → b → c`, by more than `tolerance` (a distance
/// of `b` from the line `a → c`).
#[inline]
pub(crate) fn turns_left(a: Vec2, b: Vec2, c: Vec2, tolerance: f64) -> bool {
    // orient(a, c, b) < 0 means b is right of a→c, i.e. the path a→b→c turns left.
    let base = (c - a).as_dvec2().length();
    -orient(a, c, b) > tolerance * base
}

/// The absolute weld distance for a point set: [`WELD_TOLERANCE`] times its bounding diagonal.
pub(crate) fn weld_distance(points: &[Vec2]) -> f64 {
    let mut min = glam::DVec2::splat(f64::INFINITY);
    let mut max = glam::DVec2::splat(f64::NEG_INFINITY);
    for p in points {
        min = min.min(p.as_dvec2());
        max = max.max(p.as_dvec2());
    }
    WELD_TOLERANCE as f64 * (max - min).length()
}

/// The convex hull of `points` in counter-clockwise order, welded and without collinear vertices.
///
/// 1. Validate every point; compute the weld distance from the bounding box.
/// 2. Sort lexicographically and weld points closer than the weld distance.
/// 3. Build the lower and upper chains, popping any vertex that does not turn left by more
///    than the weld distance.
/// 4. Remove collinear vertices left at the chain joins; check the count.
///
/// Reference: A. M. Andrew, "Another efficient algorithm for convex hulls in two dimensions",
/// Information Processing Letters 9(5), 1979.
pub(crate) fn convex_hull(points: &[Vec2]) -> Result<Vec<Vec2>, ShapeError> {
    // 1. Validation.
    for p in points {
        check_point(*p)?;
    }
    let tolerance = weld_distance(points);

    // 2. Sort and weld.
    let mut sorted: Vec<Vec2> = points.to_vec();
    sorted.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    let mut distinct: Vec<Vec2> = Vec::with_capacity(sorted.len());
    for p in sorted {
        let near = distinct
            .iter()
            .rev()
            .take_while(|q| (p.x - q.x) as f64 <= tolerance);
        let mut welded = false;
        for q in near {
            if (p - *q).as_dvec2().length() <= tolerance {
                welded = true;
                break;
            }
        }
        if !welded {
            distinct.push(p);
        }
    }
    if distinct.len() < 3 {
        return Err(ShapeError::TooFewPoints {
            distinct: distinct.len(),
        });
    }

    // 3. Monotone chains.
    let mut hull: Vec<Vec2> = Vec::with_capacity(distinct.len() + 1);
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &Vec2>> = if pass == 0 {
            Box::new(distinct.iter())
        } else {
            Box::new(distinct.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2
                && !turns_left(hull[hull.len() - 2], hull[hull.len() - 1], p, tolerance)
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop(); // the last point of each chain starts the other
    }

    // 4. Clean the joins.
    let hull = remove_collinear(hull, tolerance);
    if hull.len() < 3 {
        return Err(ShapeError::Collinear);
    }
    if hull.len() > MAX_POLYGON_VERTICES {
        return Err(ShapeError::TooManyVertices { count: hull.len() });
    }
    Ok(hull)
}

/// Removes vertices of a closed CCW loop that do not turn left by more than `tolerance`.
pub(crate) fn remove_collinear(mut loop_points: Vec<Vec2>, tolerance: f64) -> Vec<Vec2> {
    let mut changed = true;
    while changed && loop_points.len() >= 3 {
        changed = false;
        let n = loop_points.len();
        for i in 0..n {
            let prev = loop_points[(i + n - 1) % n];
            let next = loop_points[(i + 1) % n];
            if !turns_left(prev, loop_points[i], next, tolerance) {
                loop_points.remove(i);
                changed = true;
                break;
            }
        }
    }
    loop_points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_with_interior_and_edge_points() {
        let points = [
            Vec2::new(0.0, 0.0),
            Vec2::new(0.5, 0.5),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.5, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, 1.0),
            Vec2::new(0.0, 0.5),
        ];
        let hull = convex_hull(&points).unwrap();
        assert_eq!(
            hull,
            vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(1.0, 0.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(0.0, 1.0)
            ]
        );
    }

    #[test]
    fn near_duplicates_are_welded() {
        let points = [
            Vec2::new(0.0, 0.0),
            Vec2::new(1e-7, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, 1.0),
        ];
        assert_eq!(convex_hull(&points).unwrap().len(), 3);
    }

    #[test]
    fn degenerate_inputs_are_errors() {
        assert_eq!(
            convex_hull(&[Vec2::ZERO, Vec2::ONE]),
            Err(ShapeError::TooFewPoints { distinct: 2 })
        );
        assert_eq!(
            convex_hull(&[Vec2::ZERO, Vec2::ONE, Vec2::splat(2.0), Vec2::splat(3.0)]),
            Err(ShapeError::Collinear)
        );
        assert_eq!(
            convex_hull(&[Vec2::ZERO, Vec2::ONE, Vec2::new(f32::NAN, 0.0)]),
            Err(ShapeError::NonFinite)
        );
        assert_eq!(
            convex_hull(&[]),
            Err(ShapeError::TooFewPoints { distinct: 0 })
        );
    }

    #[test]
    fn too_many_hull_vertices() {
        let points: Vec<Vec2> = (0..65)
            .map(|i| {
                let angle = i as f32 / 65.0 * std::f32::consts::TAU;
                Vec2::new(angle.cos(), angle.sin())
            })
            .collect();
        assert_eq!(
            convex_hull(&points),
            Err(ShapeError::TooManyVertices { count: 65 })
        );
    }
}
