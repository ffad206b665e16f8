//! Arbitrary bit patterns fed to every constructor: errors are fine, panics and NaN are not.

use collide2d::shape::{Capsule, Circle, Compound, Polygon, Segment, Shape};
use collide2d::{Aabb, Transform, Vec2};
use proptest::prelude::*;

/// Any f32 at all: NaN, ±inf, subnormals, ±1e30 and everything between, weighted towards the
/// special values.
fn any_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<u32>().prop_map(f32::from_bits),
        prop::sample::select(vec![
            0.0,
            -0.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MIN_POSITIVE,
            1e-40,
            -1e-40,
            1e30,
            -1e30,
            f32::MAX,
            f32::MIN,
            1.0,
            -1.0,
        ]),
        -10.0f32..10.0,
    ]
}

fn any_point() -> impl Strategy<Value = Vec2> {
    (any_f32(), any_f32()).prop_map(|(x, y)| Vec2::new(x, y))
}

/// Checks that a built shape gives finite answers to every query.
fn assert_finite(shape: &Shape) {
    let aabb = shape.aabb(&Transform::IDENTITY);
    assert!(aabb.min.is_finite() && aabb.max.is_finite(), "{shape:?}");
    assert!(shape.area().is_finite() && shape.area() >= 0.0, "{shape:?}");
    assert!(shape.centroid().is_finite(), "{shape:?}");
    let projection = shape.project_point(&Transform::IDENTITY, Vec2::new(0.25, -0.5));
    assert!(
        projection.point.is_finite() && projection.distance.is_finite(),
        "{shape:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn no_constructor_panics_or_builds_non_finite_shapes(
        a in any_point(), b in any_point(), c in any_f32(), d in any_f32(),
        cloud in prop::collection::vec(any_point(), 0..12),
        count in 0usize..80,
    ) {
        let mut built: Vec<Shape> = Vec::new();
        built.extend(Circle::new(a, c).ok().map(Shape::from));
        built.extend(Capsule::new(a, b, c).ok().map(Shape::from));
        built.extend(Capsule::vertical(c, d).ok().map(Shape::from));
        built.extend(Segment::new(a, b).ok().map(Shape::from));
        built.extend(Polygon::hull(&cloud).ok().map(Shape::from));
        built.extend(Polygon::new(&cloud).ok().map(Shape::from));
        built.extend(Polygon::rect(c, d).ok().map(Shape::from));
        built.extend(Polygon::box_at(a, b, c).ok().map(Shape::from));
        built.extend(Polygon::rounded_rect(c, d, a.x).ok().map(Shape::from));
        built.extend(Polygon::regular(count, c).ok().map(Shape::from));
        built.extend(Polygon::rect(1.0, 1.0).unwrap().with_radius(c).ok().map(Shape::from));
        built.extend(Compound::from_concave(&cloud).ok().map(Shape::from));
        let child = Shape::from(Polygon::rect(1.0, 2.0).unwrap());
        let placement = Transform { p: a, q: collide2d::Rot { c, s: d } };
        built.extend(Compound::new(vec![(placement, child.clone())]).ok().map(Shape::from));
        if let Ok(aabb) = Aabb::new(a, b) {
            prop_assert!(aabb.is_valid());
            if let Ok(polygon) = aabb.to_polygon() {
                built.push(Shape::from(polygon));
            }
        }
        built.extend(child.scaled(a).ok());
        for shape in &built {
            assert_finite(shape);
            built_scaled_is_finite(shape, b);
        }
    }
}

fn built_scaled_is_finite(shape: &Shape, scale: Vec2) {
    if let Ok(scaled) = shape.scaled(scale) {
        assert_finite(&scaled);
    }
}
