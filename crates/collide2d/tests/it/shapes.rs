//! Hand-computed cases for shape construction and point queries (seeds 000 and 004).

use collide2d::shape::{Capsule, Circle, Compound, Polygon, Segment, Shape, ShapeError};
use collide2d::{Aabb, Transform, Vec2};
use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn close(a: f32, b: f32, tolerance: f32) -> bool {
    (a - b).abs() <= tolerance
}

/// A case: shape, placement, query point, expected containment.
fn check_contains(shape: &Shape, xf: &Transform, cases: &[(Vec2, bool)]) {
    for &(point, expected) in cases {
        assert_eq!(
            shape.contains(xf, point),
            expected,
            "contains({point:?}) for {shape:?} at {xf:?}"
        );
        assert_eq!(
            shape.project_point(xf, point).inside,
            expected,
            "project_point({point:?}).inside for {shape:?} at {xf:?}"
        );
    }
}

#[test]
fn circle_containment_uses_squared_distance() {
    let circle = Shape::from(Circle::new(v(1.0, 0.0), 2.0).unwrap());
    let xf = Transform::new(v(10.0, 5.0), FRAC_PI_2);
    // Local centre (1, 0) lands at world (10, 6).
    check_contains(
        &circle,
        &xf,
        &[
            (v(10.0, 6.0), true),
            (v(12.0, 6.0), true), // on the boundary
            (v(10.0, 8.0), true), // on the boundary
            (v(12.01, 6.0), false),
            (v(11.5, 7.5), false), // distance √4.5 > 2
            (v(11.4, 7.4), true),  // distance √3.92 < 2
        ],
    );
}

#[test]
fn aabb_containment_counts_edges() {
    let aabb = Aabb::new(v(-1.0, -2.0), v(3.0, 4.0)).unwrap();
    for (point, expected) in [
        (v(0.0, 0.0), true),
        (v(3.0, 4.0), true),
        (v(-1.0, 0.0), true),
        (v(3.0001, 0.0), false),
        (v(0.0, -2.0001), false),
    ] {
        assert_eq!(aabb.contains_point(point), expected, "{point:?}");
    }
    // The same box as a polygon agrees.
    let polygon = Shape::from(aabb.to_polygon().unwrap());
    check_contains(
        &polygon,
        &Transform::IDENTITY,
        &[
            (v(0.0, 0.0), true),
            (v(3.0, 4.0), true),
            (v(3.0001, 0.0), false),
        ],
    );
}

#[test]
fn rotated_polygon_either_winding() {
    let ccw = [v(-1.0, -1.0), v(1.0, -1.0), v(1.0, 1.0), v(-1.0, 1.0)];
    let mut cw = ccw;
    cw.reverse();
    let xf = Transform::new(v(4.0, 0.0), FRAC_PI_4);
    let half_diagonal = 2f32.sqrt();
    for outline in [ccw, cw] {
        let square = Shape::from(Polygon::new(&outline).unwrap());
        check_contains(
            &square,
            &xf,
            &[
                (v(4.0, 0.0), true),
                // The rotated square's corners are on the axes, √2 from its centre.
                (v(4.0, half_diagonal - 1e-4), true),
                (v(4.0 + half_diagonal - 1e-4, 0.0), true),
                (v(4.0, half_diagonal + 1e-4), false),
                (v(5.0, 1.0), false), // an unrotated corner is outside after rotating
                (v(4.7, 0.7), true),  // on the edge x + y = √2 (within rounding)
            ],
        );
    }
}

#[test]
fn points_on_vertices_and_edges_are_inside() {
    let triangle = Polygon::new(&[v(0.0, 0.0), v(4.0, 0.0), v(0.0, 3.0)]).unwrap();
    let shape = Shape::from(triangle);
    check_contains(
        &shape,
        &Transform::IDENTITY,
        &[
            (v(0.0, 0.0), true),
            (v(4.0, 0.0), true),
            (v(0.0, 3.0), true),
            (v(2.0, 0.0), true),
            (v(0.0, 1.5), true),
            (v(2.0, 1.5), true), // on the hypotenuse
            (v(2.0, 1.6), false),
            (v(-0.001, 1.0), false),
        ],
    );
}

#[test]
fn polygon_normals_are_outward_and_unit() {
    let square = Polygon::rect(2.0, 4.0).unwrap();
    assert_eq!(
        square.vertices(),
        &[v(-1.0, -2.0), v(1.0, -2.0), v(1.0, 2.0), v(-1.0, 2.0)]
    );
    assert_eq!(
        square.normals(),
        &[v(0.0, -1.0), v(1.0, 0.0), v(0.0, 1.0), v(-1.0, 0.0)]
    );
    assert_eq!(square.area(), 8.0);
    assert_eq!(square.centroid(), Vec2::ZERO);
}

#[test]
fn rounded_rect_area_and_corners() {
    let rounded = Polygon::rounded_rect(4.0, 2.0, 0.5).unwrap();
    assert_eq!(rounded.radius(), 0.5);
    // Core 3 × 1 + perimeter 8 × 0.5 + π 0.25.
    assert!(close(rounded.area(), 3.0 + 4.0 + PI * 0.25, 1e-5));
    let shape = Shape::from(rounded);
    let corner = v(1.5, 0.5) + Vec2::splat(0.5 / 2f32.sqrt());
    check_contains(
        &shape,
        &Transform::IDENTITY,
        &[
            (v(2.0, 0.0), true),
            (v(0.0, 1.0), true),
            (corner * 0.9999, true),
            (corner * 1.0001, false),
            (v(2.0, 1.0), false), // the sharp corner is cut away
        ],
    );
    let projection = shape.project_point(&Transform::IDENTITY, v(3.0, 2.0));
    assert!(!projection.inside);
    assert!((projection.point - corner).length() < 1e-5);
    assert!(close(
        projection.distance,
        (v(3.0, 2.0) - v(1.5, 0.5)).length() - 0.5,
        1e-5
    ));
}

#[test]
fn rounded_polygon_centroid_is_symmetric() {
    let centred = Polygon::regular(6, 1.0).unwrap().with_radius(0.3).unwrap();
    assert!(centred.centroid().length() < 1e-5);
    // An asymmetric triangle: the rounded centroid sits between the core centroid and the
    // centre of the inflated bounding region, and matches a fine grid integration.
    let triangle = Polygon::new(&[v(0.0, 0.0), v(3.0, 0.0), v(0.0, 1.0)])
        .unwrap()
        .with_radius(0.5)
        .unwrap();
    let shape = Shape::from(triangle.clone());
    let (mut sum, mut count) = (Vec2::ZERO, 0.0f64);
    let step = 0.01;
    let mut y = -0.6;
    while y < 1.6 {
        let mut x = -0.6;
        while x < 3.6 {
            if shape.contains(&Transform::IDENTITY, v(x, y)) {
                sum += v(x, y);
                count += 1.0;
            }
            x += step;
        }
        y += step;
    }
    let sampled = sum / count as f32;
    assert!(
        (sampled - triangle.centroid()).length() < 0.01,
        "{sampled:?} vs {:?}",
        triangle.centroid()
    );
    assert!(close((count * 1e-4) as f32, triangle.area(), 0.02));
}

#[test]
fn capsule_and_segment_queries() {
    let capsule = Shape::from(Capsule::new(v(-1.0, 0.0), v(1.0, 0.0), 0.5).unwrap());
    check_contains(
        &capsule,
        &Transform::new(v(0.0, 0.0), FRAC_PI_2),
        &[
            (v(0.0, 1.5), true),
            (v(0.0, -1.5), true),
            (v(0.5, 0.0), true),
            (v(0.51, 0.0), false),
            (v(0.0, 1.51), false),
        ],
    );
    let segment = Shape::from(Segment::new(v(0.0, 0.0), v(2.0, 0.0)).unwrap());
    check_contains(
        &segment,
        &Transform::IDENTITY,
        &[
            (v(0.0, 0.0), true),
            (v(2.0, 0.0), true),
            (v(1.0, 0.1), false),
        ],
    );
    let projection = segment.project_point(&Transform::IDENTITY, v(3.0, 4.0));
    assert_eq!(projection.point, v(2.0, 0.0));
    assert!(close(projection.distance, 17f32.sqrt(), 1e-6));
    assert_eq!(segment.area(), 0.0);
}

#[test]
fn aabbs_are_tight_and_include_radius() {
    let xf = Transform::new(v(1.0, 2.0), FRAC_PI_2);
    let box_shape = Shape::from(Polygon::rect(4.0, 2.0).unwrap());
    let aabb = box_shape.aabb(&xf);
    assert!((aabb.min - v(0.0, 0.0)).length() < 1e-6, "{aabb:?}");
    assert!((aabb.max - v(2.0, 4.0)).length() < 1e-6, "{aabb:?}");
    let rounded = Shape::from(Polygon::rounded_rect(4.0, 2.0, 0.5).unwrap());
    let aabb = rounded.aabb(&Transform::IDENTITY);
    assert_eq!((aabb.min, aabb.max), (v(-2.0, -1.0), v(2.0, 1.0)));
    let capsule = Shape::from(Capsule::new(v(0.0, 0.0), v(3.0, 4.0), 1.0).unwrap());
    let aabb = capsule.aabb(&Transform::IDENTITY);
    assert_eq!((aabb.min, aabb.max), (v(-1.0, -1.0), v(4.0, 5.0)));
}

#[test]
fn hull_of_cloud_in_any_order() {
    let cloud = [
        v(0.5, 0.5),
        v(1.0, 1.0),
        v(0.0, 0.0),
        v(0.0, 1.0),
        v(1.0, 0.0),
        v(0.25, 0.75),
        v(0.5, 0.0), // on an edge: dropped as collinear
    ];
    let hull = Polygon::hull(&cloud).unwrap();
    assert_eq!(
        hull.vertices(),
        &[v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)]
    );
}

#[test]
fn new_rejects_non_convex_and_star_outlines() {
    let dart = [v(0.0, 0.0), v(2.0, 1.0), v(0.0, 2.0), v(0.5, 1.0)];
    assert!(matches!(
        Polygon::new(&dart),
        Err(ShapeError::NotConvex { .. })
    ));
    // A pentagram turns left at every vertex but winds twice.
    let star: Vec<Vec2> = (0..5)
        .map(|i| {
            let angle = (i * 2) as f32 * std::f32::consts::TAU / 5.0;
            v(angle.cos(), angle.sin())
        })
        .collect();
    assert!(matches!(
        Polygon::new(&star),
        Err(ShapeError::NotConvex { .. })
    ));
    // Collinear points along an edge and a repeated closing point are fine.
    let with_extras = [
        v(0.0, 0.0),
        v(1.0, 0.0),
        v(2.0, 0.0),
        v(2.0, 2.0),
        v(0.0, 2.0),
        v(0.0, 0.0),
    ];
    assert_eq!(Polygon::new(&with_extras).unwrap().vertices().len(), 4);
}

#[test]
fn constructor_errors_name_the_cause() {
    assert_eq!(
        Circle::with_radius(-1.0),
        Err(ShapeError::NegativeRadius { radius: -1.0 })
    );
    assert_eq!(
        Circle::with_radius(f32::INFINITY),
        Err(ShapeError::NonFinite)
    );
    assert_eq!(
        Circle::new(v(1e30, 0.0), 1.0),
        Err(ShapeError::OutOfRange { value: 1e30 })
    );
    assert_eq!(
        Segment::new(v(1.0, 1.0), v(1.0, 1.0)),
        Err(ShapeError::DegenerateSegment)
    );
    assert_eq!(
        Capsule::new(v(1.0, 1.0), v(1.0, 1.0), 0.0),
        Err(ShapeError::DegenerateSegment)
    );
    assert!(Capsule::new(v(1.0, 1.0), v(1.0, 1.0), 0.5).is_ok());
    assert_eq!(
        Polygon::rect(0.0, 1.0),
        Err(ShapeError::NonPositiveSize { size: 0.0 })
    );
    assert_eq!(
        Polygon::rounded_rect(1.0, 1.0, 0.5),
        Err(ShapeError::NonPositiveSize { size: 0.0 })
    );
    assert_eq!(
        Polygon::regular(2, 1.0),
        Err(ShapeError::TooFewPoints { distinct: 2 })
    );
    assert_eq!(
        Polygon::regular(65, 1.0),
        Err(ShapeError::TooManyVertices { count: 65 })
    );
    assert_eq!(
        Polygon::hull(&[v(0.0, 0.0), v(1.0, 1.0), v(2.0, 2.0)]),
        Err(ShapeError::Collinear)
    );
    assert_eq!(Compound::new(vec![]), Err(ShapeError::EmptyCompound));
    let inner = Compound::new(vec![(
        Transform::IDENTITY,
        Shape::from(Circle::with_radius(1.0).unwrap()),
    )])
    .unwrap();
    assert_eq!(
        Compound::new(vec![(Transform::IDENTITY, Shape::from(inner))]),
        Err(ShapeError::NestedCompound)
    );
    // Messages are sentences a user understands.
    assert_eq!(
        ShapeError::NegativeRadius { radius: -2.0 }.to_string(),
        "radius -2 is negative"
    );
}

#[test]
fn scaling_rules() {
    let square = Shape::from(Polygon::rect(2.0, 2.0).unwrap());
    let wide = square.scaled(v(3.0, 1.0)).unwrap();
    assert!(close(wide.area(), 12.0, 1e-5));
    // Mirroring keeps a counter-clockwise polygon.
    let mirrored = square.scaled(v(-1.0, 1.0)).unwrap();
    assert!(close(mirrored.area(), 4.0, 1e-6));
    let circle = Shape::from(Circle::with_radius(1.0).unwrap());
    assert_eq!(circle.scaled(v(2.0, 3.0)), Err(ShapeError::NonUniformScale));
    assert!(close(
        circle.scaled(v(-2.0, 2.0)).unwrap().area(),
        4.0 * PI,
        1e-4
    ));
    let rounded = Shape::from(Polygon::rounded_rect(2.0, 2.0, 0.5).unwrap());
    assert_eq!(
        rounded.scaled(v(2.0, 1.0)),
        Err(ShapeError::NonUniformScale)
    );
    assert_eq!(
        square.scaled(v(0.0, 1.0)),
        Err(ShapeError::NonPositiveSize { size: 0.0 })
    );
    // A rotated child of a compound is baked before a non-uniform scale.
    let compound = Shape::from(
        Compound::new(vec![(
            Transform::new(v(1.0, 0.0), FRAC_PI_2),
            Shape::from(Polygon::rect(2.0, 1.0).unwrap()),
        )])
        .unwrap(),
    );
    let stretched = compound.scaled(v(2.0, 1.0)).unwrap();
    let aabb = stretched.aabb(&Transform::IDENTITY);
    assert!((aabb.min - v(1.0, -1.0)).length() < 1e-5, "{aabb:?}");
    assert!((aabb.max - v(3.0, 1.0)).length() < 1e-5, "{aabb:?}");
}

#[test]
fn compound_projection_ignores_internal_seams() {
    // Two unit squares side by side make a 2 × 1 rectangle with a seam at x = 1.
    let left = Polygon::box_at(v(0.5, 0.5), v(0.5, 0.5), 0.0).unwrap();
    let right = Polygon::box_at(v(1.5, 0.5), v(0.5, 0.5), 0.0).unwrap();
    let compound = Shape::from(
        Compound::new(vec![
            (Transform::IDENTITY, Shape::from(left)),
            (Transform::IDENTITY, Shape::from(right)),
        ])
        .unwrap(),
    );
    // Just left of the seam the nearest outer boundary is the top or bottom, 0.4 away.
    let projection = compound.project_point(&Transform::IDENTITY, v(0.95, 0.4));
    assert!(projection.inside);
    assert!(close(projection.distance, 0.4, 1e-6), "{projection:?}");
    assert!((projection.point - v(0.95, 0.0)).length() < 1e-6);
    let outside = compound.project_point(&Transform::IDENTITY, v(1.0, 2.0));
    assert!(!outside.inside && close(outside.distance, 1.0, 1e-6));
    assert!(close(compound.area(), 2.0, 1e-6));
    assert!((compound.centroid() - v(1.0, 0.5)).length() < 1e-6);
}

#[test]
fn concave_l_shape_decomposes() {
    let outline = [
        v(0.0, 0.0),
        v(2.0, 0.0),
        v(2.0, 1.0),
        v(1.0, 1.0),
        v(1.0, 2.0),
        v(0.0, 2.0),
    ];
    let compound = Compound::from_concave(&outline).unwrap();
    assert_eq!(compound.children().len(), 2);
    let shape = Shape::from(compound);
    check_contains(
        &shape,
        &Transform::new(v(0.0, 0.0), PI),
        &[
            (v(-0.5, -1.5), true),
            (v(-1.5, -0.5), true),
            (v(-1.5, -1.5), false), // the notch
            (v(-1.0, -1.0), true),  // the reflex corner
        ],
    );
}
