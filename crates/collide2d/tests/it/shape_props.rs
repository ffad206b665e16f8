//! Property tests for shape construction and point queries.

use collide2d::shape::{Capsule, Circle, Compound, Polygon, Segment, Shape, WELD_TOLERANCE};
use collide2d::{Transform, Vec2};
use proptest::prelude::*;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn point(range: f32) -> impl Strategy<Value = Vec2> {
    (-range..range, -range..range).prop_map(|(x, y)| Vec2::new(x, y))
}

fn transform() -> impl Strategy<Value = Transform> {
    (point(1000.0), -10.0f32..10.0).prop_map(|(p, angle)| Transform::new(p, angle))
}

/// A cloud of 3..40 points at a random scale 0.01..100.
fn cloud() -> impl Strategy<Value = Vec<Vec2>> {
    (
        prop::collection::vec(point(1.0), 3..40),
        -2.0f32..2.0,
        point(10.0),
    )
        .prop_map(|(points, log_scale, offset)| {
            let scale = 10f32.powf(log_scale);
            points
                .into_iter()
                .map(|p| p * scale + offset * scale)
                .collect()
        })
}

/// Any valid shape, sizes 0.01..100.
fn shape() -> impl Strategy<Value = Shape> {
    let size = (-2.0f32..2.0).prop_map(|e| 10f32.powf(e));
    prop_oneof![
        (size.clone(), point(1.0)).prop_map(|(r, c)| Shape::from(Circle::new(c * r, r).unwrap())),
        (size.clone(), point(1.0), point(1.0), 0.0f32..1.0).prop_filter_map(
            "degenerate capsule",
            |(s, a, b, r)| Capsule::new(a * s, b * s, r * s).ok().map(Shape::from)
        ),
        (size.clone(), point(1.0), point(1.0))
            .prop_filter_map("degenerate segment", |(s, a, b)| Segment::new(a * s, b * s)
                .ok()
                .map(Shape::from)),
        (
            size.clone(),
            prop::collection::vec(point(1.0), 3..12),
            prop::bool::ANY,
            0.0f32..0.5
        )
            .prop_filter_map("degenerate hull", |(s, points, rounded, r)| {
                let scaled: Vec<Vec2> = points.iter().map(|p| *p * s).collect();
                let polygon = Polygon::hull(&scaled).ok()?;
                let radius = if rounded { r * s } else { 0.0 };
                Some(Shape::from(polygon.with_radius(radius).ok()?))
            }),
        (
            size,
            prop::collection::vec((point(2.0), -3.0f32..3.0), 1..4)
        )
            .prop_filter_map("degenerate child", |(s, placements)| {
                let children = placements
                    .into_iter()
                    .map(|(p, angle)| {
                        (
                            Transform::new(p * s, angle),
                            Shape::from(Polygon::rect(s, 0.5 * s).unwrap()),
                        )
                    })
                    .collect();
                Compound::new(children).ok().map(Shape::from)
            }),
    ]
}

fn size_of(shape: &Shape) -> f32 {
    shape
        .aabb(&Transform::IDENTITY)
        .extents()
        .max_element()
        .max(1e-3)
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn hull_contains_every_input_point(points in cloud()) {
        let Ok(hull) = Polygon::hull(&points) else { return Ok(()) };
        let extent = collide2d::Aabb::from_points(&points).unwrap().extents().length();
        let tolerance = 2.0 * WELD_TOLERANCE * extent + 1e-6 * extent;
        for p in &points {
            let outside_by = hull
                .vertices()
                .iter()
                .zip(hull.normals())
                .map(|(v, n)| n.dot(*p - *v))
                .fold(f32::NEG_INFINITY, f32::max);
            prop_assert!(outside_by <= tolerance, "{p:?} outside by {outside_by}");
        }
    }

    #[test]
    fn hull_is_convex_and_counter_clockwise(points in cloud()) {
        let Ok(hull) = Polygon::hull(&points) else { return Ok(()) };
        let v = hull.vertices();
        let n = v.len();
        prop_assert!((3..=64).contains(&n));
        for i in 0..n {
            let e0 = v[(i + 1) % n] - v[i];
            let e1 = v[(i + 2) % n] - v[(i + 1) % n];
            prop_assert!(e0.perp_dot(e1) > 0.0, "vertex {} is not a left turn", (i + 1) % n);
            prop_assert!((hull.normals()[i].length() - 1.0).abs() < 1e-5);
            prop_assert!(hull.normals()[i].dot(e0).abs() < 1e-4 * e0.length());
        }
        prop_assert!(hull.area() > 0.0);
    }

    #[test]
    fn hull_of_a_hull_is_the_same_polygon(points in cloud()) {
        let Ok(hull) = Polygon::hull(&points) else { return Ok(()) };
        let again = Polygon::hull(hull.vertices()).unwrap();
        prop_assert_eq!(&again, &hull);
        // And `new` accepts it unchanged in either winding.
        prop_assert_eq!(&Polygon::new(hull.vertices()).unwrap(), &hull);
        let mut reversed = hull.vertices().to_vec();
        reversed.reverse();
        prop_assert_eq!(Polygon::new(&reversed).unwrap().area(), hull.area());
    }

    #[test]
    fn contains_agrees_with_project_point(shape in shape(), xf in transform(), local in point(1.5)) {
        let world = xf.apply(local * size_of(&shape));
        let projection = shape.project_point(&xf, world);
        prop_assert_eq!(shape.contains(&xf, world), projection.inside);
        prop_assert!(projection.distance.is_finite() && projection.distance >= 0.0);
        prop_assert!(projection.point.is_finite());
    }

    #[test]
    fn projected_point_lies_on_the_surface(shape in shape(), xf in transform(), local in point(1.5)) {
        let size = size_of(&shape);
        let world = xf.apply(local * size);
        let projection = shape.project_point(&xf, world);
        prop_assert!(((projection.point - world).length() - projection.distance).abs() <= 1e-3 * size + 1e-3);
        // The projected point is itself on the boundary: projecting it again goes nowhere.
        let again = shape.project_point(&xf, projection.point);
        prop_assert!(again.distance <= 1e-4 * size + 1e-3 * (xf.p.length() * 1e-4), "re-projection distance {}", again.distance);
    }

    #[test]
    fn containment_moves_with_the_transform(shape in shape(), xf in transform(), extra in transform(), local in point(1.5)) {
        let size = size_of(&shape);
        let world = xf.apply(local * size);
        let projection = shape.project_point(&xf, world);
        // Skip points within rounding distance of the boundary.
        prop_assume!(projection.distance > 1e-3 * size + 1e-3);
        let moved_xf = extra.mul(&xf);
        let moved_point = extra.apply(world);
        prop_assert_eq!(shape.contains(&xf, world), shape.contains(&moved_xf, moved_point));
    }

    #[test]
    fn aabb_bounds_the_shape(shape in shape(), xf in transform(), local in point(1.5)) {
        let size = size_of(&shape);
        let world = xf.apply(local * size);
        let aabb = shape.aabb(&xf);
        prop_assert!(aabb.is_valid());
        if shape.contains(&xf, world) {
            prop_assert!(aabb.expanded(1e-4 * size + 1e-3).contains_point(world));
        }
    }
}
