//! Hand-computed contact manifolds for every pair family, in both argument orders.

use collide2d::query::{Feature, FeatureId, Manifold};
use collide2d::shape::{Capsule, Circle, Compound, Polygon, Segment, Shape};
use collide2d::{collide, collide_speculative, overlaps, Aabb, AabbManifold, Transform, Vec2};
use std::f32::consts::{FRAC_PI_4, SQRT_2};

/// What a case expects: `None` for apart, else the normal (A → B) and the points with their
/// penetrations (order-free). An empty point list only checks the count and the deepest value.
struct Expect {
    normal: Vec2,
    points: Vec<(Vec2, f32)>,
    count: usize,
    deepest: f32,
}

fn expect(normal: Vec2, points: &[(Vec2, f32)]) -> Option<Expect> {
    let deepest = points.iter().map(|p| p.1).fold(f32::NEG_INFINITY, f32::max);
    Some(Expect {
        normal,
        points: points.to_vec(),
        count: points.len(),
        deepest,
    })
}

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn at(x: f32, y: f32) -> Transform {
    Transform::new(v(x, y), 0.0)
}

fn circle(r: f32) -> Shape {
    Shape::from(Circle::with_radius(r).unwrap())
}

fn capsule(a: Vec2, b: Vec2, r: f32) -> Shape {
    Shape::from(Capsule::new(a, b, r).unwrap())
}

fn segment(a: Vec2, b: Vec2) -> Shape {
    Shape::from(Segment::new(a, b).unwrap())
}

fn rect(w: f32, h: f32) -> Shape {
    Shape::from(Polygon::rect(w, h).unwrap())
}

fn rounded(w: f32, h: f32, r: f32) -> Shape {
    Shape::from(Polygon::rounded_rect(w, h, r).unwrap())
}

/// Checks one case in both argument orders, plus `overlaps` and `contacts` consistency.
fn check(
    name: &str,
    a: &Shape,
    xf_a: Transform,
    b: &Shape,
    xf_b: Transform,
    expected: Option<Expect>,
) {
    let tolerance =
        2e-4 * (1.0 + xf_a.p.abs().max_element().max(xf_b.p.abs().max_element()) * 1e-3);
    let forward = collide(a, &xf_a, b, &xf_b);
    let backward = collide(b, &xf_b, a, &xf_a);
    assert_eq!(
        overlaps(a, &xf_a, b, &xf_b),
        !forward.is_empty(),
        "{name}: overlaps disagrees"
    );
    assert_eq!(
        overlaps(b, &xf_b, a, &xf_a),
        !backward.is_empty(),
        "{name}: overlaps (swapped) disagrees"
    );
    assert_eq!(
        collide_speculative(a, &xf_a, b, &xf_b, 0.0),
        forward,
        "{name}: collide_speculative(0) != collide"
    );
    for (order, manifold, sign) in [("A,B", &forward, 1.0f32), ("B,A", &backward, -1.0)] {
        match &expected {
            None => assert!(
                manifold.is_empty(),
                "{name} ({order}): expected apart, got {manifold:?}"
            ),
            Some(e) => {
                assert_eq!(
                    manifold.count, e.count,
                    "{name} ({order}): count in {manifold:?}"
                );
                assert!(
                    (manifold.normal - sign * e.normal).length() < 1e-4,
                    "{name} ({order}): normal {:?}, expected {:?}",
                    manifold.normal,
                    sign * e.normal
                );
                assert!(
                    (manifold.normal.length() - 1.0).abs() < 1e-5,
                    "{name}: normal not unit"
                );
                assert!(
                    (manifold.max_penetration() - e.deepest).abs() < tolerance,
                    "{name} ({order}): deepest {} expected {}",
                    manifold.max_penetration(),
                    e.deepest
                );
                for (point, penetration) in &e.points {
                    assert!(
                        manifold.points().iter().any(|p| (p.point - *point).length() < tolerance
                            && (p.penetration - penetration).abs() < tolerance),
                        "{name} ({order}): no point near {point:?} pen {penetration} in {manifold:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn circle_circle_cases() {
    let c1 = circle(1.0);
    check(
        "overlapping",
        &c1,
        at(0.0, 0.0),
        &c1,
        at(1.5, 0.0),
        expect(Vec2::X, &[(v(0.75, 0.0), 0.5)]),
    );
    check(
        "touching",
        &c1,
        at(0.0, 0.0),
        &c1,
        at(0.0, 2.0),
        expect(Vec2::Y, &[(v(0.0, 1.0), 0.0)]),
    );
    check("apart", &c1, at(0.0, 0.0), &c1, at(2.001, 0.0), None);
    let coincident = collide(&c1, &at(3.0, 4.0), &circle(0.5), &at(3.0, 4.0));
    assert_eq!(coincident.count, 1);
    assert!((coincident.normal.length() - 1.0).abs() < 1e-6);
    assert!((coincident.points[0].penetration - 1.5).abs() < 1e-6);
    check(
        "far from origin",
        &c1,
        at(1e6, -1e6),
        &c1,
        at(1e6 + 1.5, -1e6),
        expect(Vec2::X, &[(v(1e6 + 0.75, -1e6), 0.5)]),
    );
}

#[test]
fn circle_capsule_and_segment_cases() {
    let pill = capsule(v(-1.0, 0.0), v(1.0, 0.0), 0.25);
    let ball = circle(0.5);
    check(
        "side",
        &ball,
        at(0.0, 0.6),
        &pill,
        at(0.0, 0.0),
        expect(-Vec2::Y, &[(v(0.0, 0.175), 0.15)]),
    );
    check(
        "end cap",
        &ball,
        at(1.5, 0.0),
        &pill,
        at(0.0, 0.0),
        expect(-Vec2::X, &[(v(1.125, 0.0), 0.25)]),
    );
    check("apart", &ball, at(0.0, 0.76), &pill, at(0.0, 0.0), None);
    let m = collide(&ball, &at(0.5, 0.0), &pill, &at(0.0, 0.0));
    assert_eq!(m.count, 1, "centre on the core");
    assert!(
        (m.points[0].penetration - 0.75).abs() < 1e-6 && (m.normal.length() - 1.0).abs() < 1e-6
    );
    assert_eq!(
        m.points[0].id,
        FeatureId {
            a: Feature::Vertex(0),
            b: Feature::Edge(0)
        }
    );

    let line = segment(v(-1.0, 0.0), v(1.0, 0.0));
    check(
        "segment side",
        &circle(1.0),
        at(0.0, 0.5),
        &line,
        at(0.0, 0.0),
        expect(-Vec2::Y, &[(v(0.0, -0.25), 0.5)]),
    );
    check(
        "segment end",
        &circle(1.0),
        at(2.0, 0.0),
        &line,
        at(0.0, 0.0),
        expect(-Vec2::X, &[(v(1.0, 0.0), 0.0)]),
    );
    check(
        "segment apart",
        &circle(1.0),
        at(0.0, 1.01),
        &line,
        at(0.0, 0.0),
        None,
    );
}

#[test]
fn circle_polygon_cases() {
    let square = rect(2.0, 2.0);
    let ball = circle(0.5);
    check(
        "face",
        &ball,
        at(0.0, 1.4),
        &square,
        at(0.0, 0.0),
        expect(-Vec2::Y, &[(v(0.0, 0.95), 0.1)]),
    );
    check(
        "corner touching",
        &ball,
        at(1.3, 1.4),
        &square,
        at(0.0, 0.0),
        expect(v(-0.6, -0.8), &[(v(1.0, 1.0), 0.0)]),
    );
    check(
        "corner apart",
        &ball,
        at(1.31, 1.41),
        &square,
        at(0.0, 0.0),
        None,
    );
    check(
        "centre inside",
        &ball,
        at(0.0, 0.8),
        &square,
        at(0.0, 0.0),
        expect(-Vec2::Y, &[(v(0.0, 0.65), 0.7)]),
    );
    let m = collide(&ball, &at(0.0, 0.0), &square, &at(0.0, 0.0));
    assert_eq!(m.count, 1, "coincident centres");
    assert!((m.points[0].penetration - 1.5).abs() < 1e-6 && (m.normal.length() - 1.0).abs() < 1e-6);
    let id = collide(&ball, &at(0.0, 1.4), &square, &at(0.0, 0.0)).points[0].id;
    assert_eq!(
        id,
        FeatureId {
            a: Feature::Vertex(0),
            b: Feature::Edge(2)
        }
    );

    let soft = rounded(2.0, 2.0, 0.25);
    check(
        "rounded corner",
        &ball,
        at(1.05, 1.15),
        &soft,
        at(0.0, 0.0),
        expect(v(-0.6, -0.8), &[(v(0.825, 0.85), 0.25)]),
    );
    check(
        "rounded corner apart",
        &ball,
        at(1.35, 1.55),
        &soft,
        at(0.0, 0.0),
        None,
    );
    check(
        "rounded face",
        &ball,
        at(0.0, 1.4),
        &soft,
        at(0.0, 0.0),
        expect(-Vec2::Y, &[(v(0.0, 0.95), 0.1)]),
    );
    check(
        "rotated far away",
        &ball,
        Transform::new(v(-1e6, 5e5), 1.0),
        &square,
        Transform::new(v(-1e6 - 1.4, 5e5), 0.0),
        expect(-Vec2::X, &[(v(-1e6 - 0.45, 5e5), 0.1)]),
    );
}

#[test]
fn capsule_capsule_cases() {
    let pill = capsule(v(-1.0, 0.0), v(1.0, 0.0), 0.5);
    check(
        "parallel, two points",
        &pill,
        at(0.0, 0.0),
        &pill,
        at(0.5, 0.8),
        expect(Vec2::Y, &[(v(-0.5, 0.4), 0.2), (v(1.0, 0.4), 0.2)]),
    );
    check(
        "end to end",
        &pill,
        at(0.0, 0.0),
        &pill,
        at(2.5, 0.0),
        expect(Vec2::X, &[(v(1.25, 0.0), 0.5)]),
    );
    check("apart", &pill, at(0.0, 0.0), &pill, at(0.0, 1.001), None);
    let upright = capsule(v(0.0, -1.0), v(0.0, 1.0), 0.5);
    // Crossing cores: both axes tie (depth 2), A's axis wins in either order.
    let m = collide(&pill, &at(0.0, 0.0), &upright, &at(0.0, 0.0));
    assert!(
        (m.max_penetration() - 2.0).abs() < 1e-6 && (m.normal.abs() - Vec2::Y).length() < 1e-6,
        "{m:?}"
    );
    let m = collide(&pill, &at(0.0, 0.0), &upright, &at(0.2, 0.0));
    assert!(
        (m.max_penetration() - 1.8).abs() < 1e-6 && (m.normal - Vec2::X).length() < 1e-6,
        "{m:?}"
    );
    check(
        "T, one point",
        &pill,
        at(0.0, 0.0),
        &upright,
        at(0.0, 1.9),
        expect(Vec2::Y, &[(v(0.0, 0.45), 0.1)]),
    );
    check(
        "capsule on segment",
        &pill,
        at(0.0, 0.4),
        &segment(v(-3.0, 0.0), v(3.0, 0.0)),
        at(0.0, 0.0),
        expect(-Vec2::Y, &[(v(-1.0, -0.05), 0.1), (v(1.0, -0.05), 0.1)]),
    );
    let line = segment(v(-1.0, 0.0), v(1.0, 0.0));
    check(
        "segments crossing",
        &line,
        at(0.0, 0.0),
        &segment(v(0.0, -0.5), v(0.0, 1.0)),
        at(0.0, 0.0),
        expect(Vec2::Y, &[(v(0.0, -0.25), 0.5)]),
    );
    check(
        "segments apart",
        &line,
        at(0.0, 0.0),
        &segment(v(1.1, 0.0), v(3.0, 0.0)),
        at(0.0, 0.0),
        None,
    );
    let m = collide(
        &line,
        &at(0.0, 0.0),
        &segment(v(1.0, 0.0), v(3.0, 0.0)),
        &at(0.0, 0.0),
    );
    assert!(
        m.count == 1
            && m.points[0].penetration == 0.0
            && (m.points[0].point - v(1.0, 0.0)).length() < 1e-6,
        "segments end to end: {m:?}"
    );
}

#[test]
fn polygon_polygon_cases() {
    let square = rect(2.0, 2.0);
    check(
        "parallel faces, two points",
        &square,
        at(0.0, 0.0),
        &square,
        at(0.5, 1.8),
        expect(Vec2::Y, &[(v(-0.5, 0.9), 0.2), (v(1.0, 0.9), 0.2)]),
    );
    check(
        "touching",
        &square,
        at(0.0, 0.0),
        &square,
        at(0.5, 2.0),
        expect(Vec2::Y, &[(v(-0.5, 1.0), 0.0), (v(1.0, 1.0), 0.0)]),
    );
    check(
        "apart",
        &square,
        at(0.0, 0.0),
        &square,
        at(0.5, 2.001),
        None,
    );
    let diamond_height = SQRT_2;
    check(
        "vertex on face, one point",
        &square,
        at(0.0, 0.0),
        &square,
        Transform::new(v(0.0, 1.0 + diamond_height - 0.1), FRAC_PI_4),
        expect(Vec2::Y, &[(v(0.0, 0.95), 0.1)]),
    );
    // Coincident centres: every axis ties, so A's first axis wins in either order.
    for (a, b) in [(&square, &square), (&square, &rect(1.0, 1.0))] {
        let m = collide(a, &at(5.0, 5.0), b, &at(5.0, 5.0));
        assert!(
            m.count >= 1 && (m.normal.length() - 1.0).abs() < 1e-6,
            "{m:?}"
        );
        let expected = if b == &square { 2.0 } else { 1.5 };
        assert!((m.max_penetration() - expected).abs() < 1e-6, "{m:?}");
    }
    check(
        "contained",
        &square,
        at(0.0, 0.0),
        &rect(0.5, 0.5),
        at(0.3, 0.0),
        expect(Vec2::X, &[(v(0.525, -0.25), 0.95), (v(0.525, 0.25), 0.95)]),
    );
    let soft = rounded(2.0, 2.0, 0.5);
    let diagonal = Vec2::ONE.normalize();
    check(
        "rounded corners, one point along the core line",
        &soft,
        at(0.0, 0.0),
        &soft,
        at(1.6, 1.6),
        expect(diagonal, &[(v(0.8, 0.8), 1.0 - 0.6 * SQRT_2)]),
    );
    check(
        "rounded corners apart (boxes overlap)",
        &soft,
        at(0.0, 0.0),
        &soft,
        at(1.8, 1.8),
        None,
    );
    check(
        "rounded faces",
        &soft,
        at(0.0, 0.0),
        &soft,
        at(0.0, 1.9),
        expect(Vec2::Y, &[(v(-0.5, 0.95), 0.1), (v(0.5, 0.95), 0.1)]),
    );
    check(
        "far from origin, rotated",
        &square,
        Transform::new(v(1e6, 1e6), FRAC_PI_4),
        &square,
        Transform::new(
            v(1e6, 1e6) + Transform::new(Vec2::ZERO, FRAC_PI_4).rotate(v(0.5, 1.8)),
            FRAC_PI_4,
        ),
        expect(
            Transform::new(Vec2::ZERO, FRAC_PI_4).rotate(Vec2::Y),
            &[
                (
                    Transform::new(v(1e6, 1e6), FRAC_PI_4).apply(v(-0.5, 0.9)),
                    0.2,
                ),
                (
                    Transform::new(v(1e6, 1e6), FRAC_PI_4).apply(v(1.0, 0.9)),
                    0.2,
                ),
            ],
        ),
    );
    // Feature ids: B's two bottom corners on A's top edge.
    let m = collide(&square, &at(0.0, 0.0), &square, &at(0.0, 1.8));
    let mut ids: Vec<FeatureId> = m.points().iter().map(|p| p.id).collect();
    ids.sort();
    assert_eq!(
        ids,
        vec![
            FeatureId {
                a: Feature::Edge(2),
                b: Feature::Vertex(0)
            },
            FeatureId {
                a: Feature::Edge(2),
                b: Feature::Vertex(1)
            }
        ]
    );
}

#[test]
fn capsule_and_segment_against_polygon_cases() {
    let pill = capsule(v(-1.0, 0.0), v(1.0, 0.0), 0.5);
    check(
        "capsule resting on a box",
        &pill,
        at(0.0, 0.0),
        &rect(4.0, 1.0),
        at(0.0, -0.9),
        expect(-Vec2::Y, &[(v(-1.0, -0.45), 0.1), (v(1.0, -0.45), 0.1)]),
    );
    check(
        "capsule end on a box corner",
        &capsule(v(0.0, 0.0), v(0.0, 2.0), 0.5),
        at(1.3, 1.4),
        &rect(2.0, 2.0),
        at(0.0, 0.0),
        expect(v(-0.6, -0.8), &[(v(1.0, 1.0), 0.0)]),
    );
    check(
        "capsule apart",
        &pill,
        at(0.0, 0.0),
        &rect(4.0, 1.0),
        at(0.0, -1.01),
        None,
    );
    check(
        "segment across a box",
        &segment(v(-1.0, 0.0), v(1.0, 0.0)),
        at(0.0, 0.0),
        &rect(1.0, 1.0),
        at(0.0, 0.4),
        expect(Vec2::Y, &[(v(-0.5, -0.05), 0.1), (v(0.5, -0.05), 0.1)]),
    );
    check(
        "segment corner on rounded box corner",
        &segment(v(0.0, 0.0), v(1.6, -1.2)),
        at(0.74, 0.82),
        &rounded(2.0, 2.0, 0.5),
        at(0.0, 0.0),
        expect(v(-0.6, -0.8), &[(v(0.77, 0.86), 0.1)]),
    );
}

#[test]
fn compound_cases() {
    // An L: a 2×1 bar at the bottom and a 1×1 block on its left end.
    let bar = Shape::from(Polygon::box_at(v(1.0, 0.5), v(1.0, 0.5), 0.0).unwrap());
    let block = Shape::from(Polygon::box_at(v(0.5, 1.5), v(0.5, 0.5), 0.0).unwrap());
    let l_shape = Shape::from(
        Compound::new(vec![
            (Transform::IDENTITY, bar),
            (Transform::IDENTITY, block),
        ])
        .unwrap(),
    );
    let ball = circle(0.5);
    check(
        "circle on the L's step",
        &ball,
        at(1.5, 1.4),
        &l_shape,
        at(0.0, 0.0),
        expect(-Vec2::Y, &[(v(1.5, 0.95), 0.1)]),
    );
    check(
        "circle in the L's notch, apart",
        &ball,
        at(1.6, 1.6),
        &l_shape,
        at(0.0, 0.0),
        None,
    );
    let m = collide(&l_shape, &at(0.0, 0.0), &ball, &at(1.5, 1.4));
    let children = match &l_shape {
        Shape::Compound(c) => c.children().len(),
        _ => unreachable!(),
    };
    assert!((m.child_a as usize) < children && m.child_b == 0);

    // Two children touched: the deepest wins; collide_all lists both.
    let wide = rect(3.0, 0.4);
    let mut all = Vec::new();
    collide2d::collide_all(&wide, &at(1.0, 2.1), &l_shape, &at(0.0, 0.0), 0.0, &mut all);
    assert_eq!(
        all.len(),
        1,
        "only the upright block reaches y = 1.9: {all:?}"
    );
    collide2d::collide_all(&wide, &at(1.0, 1.1), &l_shape, &at(0.0, 0.0), 0.0, &mut all);
    assert!(all.len() >= 2, "{all:?}");
    let two = Shape::from(
        Compound::new(vec![
            (at(-2.0, 0.0), circle(1.0)),
            (at(2.0, 0.0), circle(1.0)),
        ])
        .unwrap(),
    );
    let deepest = collide(
        &two,
        &at(0.0, 0.0),
        &rect(10.0, 1.0),
        &Transform::new(v(0.0, -1.2), -0.1),
    );
    assert_eq!(
        deepest.child_a, 0,
        "the left circle dips deeper into the tilted bar"
    );
    let swapped = collide(
        &rect(10.0, 1.0),
        &Transform::new(v(0.0, -1.2), -0.1),
        &two,
        &at(0.0, 0.0),
    );
    assert_eq!((swapped.child_a, swapped.child_b), (0, 0));
    assert!((swapped.normal + deepest.normal).length() < 1e-6);
    // Compound against compound.
    let cc = collide(&two, &at(0.0, 0.0), &two, &at(5.5, 0.0));
    assert_eq!((cc.child_a, cc.child_b), (1, 0));
    assert!((cc.points[0].penetration - 0.5).abs() < 1e-5);
    check(
        "compound pair far away",
        &two,
        at(-1e6, 1e6),
        &two,
        at(-1e6 + 5.5, 1e6),
        expect(Vec2::X, &[(v(-1e6 + 2.75, 1e6), 0.5)]),
    );
}

#[test]
fn speculative_contacts_report_negative_penetration() {
    let square = rect(2.0, 2.0);
    let m = collide_speculative(&square, &at(0.0, 0.0), &square, &at(0.0, 2.05), 0.1);
    assert_eq!(m.count, 2);
    assert!(m
        .points()
        .iter()
        .all(|p| (p.penetration + 0.05).abs() < 1e-5));
    assert!(collide_speculative(&square, &at(0.0, 0.0), &square, &at(0.0, 2.15), 0.1).is_empty());
    let soft = rounded(2.0, 2.0, 0.5);
    let m = collide_speculative(&soft, &at(0.0, 0.0), &soft, &at(1.8, 1.8), 0.2);
    assert_eq!(m.count, 1);
    assert!((m.points[0].penetration - (1.0 - 0.8 * SQRT_2)).abs() < 1e-5);
    let ball = circle(1.0);
    let m = collide_speculative(&ball, &at(0.0, 0.0), &ball, &at(2.5, 0.0), 0.5);
    assert!((m.points[0].penetration + 0.5).abs() < 1e-6);
}

#[test]
fn feature_ids_stay_stable_while_sliding() {
    let square = rect(2.0, 2.0);
    let ids = |x: f32| {
        let m = collide(&square, &at(0.0, 0.0), &square, &at(x, 1.9));
        let mut ids: Vec<FeatureId> = m.points().iter().map(|p| p.id).collect();
        ids.sort();
        ids
    };
    assert_eq!(ids(0.3), ids(0.6));
    assert_eq!(ids(-0.3), ids(-0.6));
}

#[test]
fn aabb_cases() {
    let a = Aabb::new(v(0.0, 0.0), v(2.0, 2.0)).unwrap();
    let m = a.manifold(&Aabb::new(v(1.5, 1.0), v(4.0, 3.0)).unwrap());
    assert_eq!((m.normal, m.count), (Vec2::X, 2));
    assert_eq!(m.points[0].point, v(1.75, 1.0));
    assert_eq!(m.points[1].point, v(1.75, 2.0));
    assert_eq!(m.points[0].penetration, 0.5);
    let m = a.manifold(&Aabb::new(v(0.5, -1.0), v(1.5, 0.25)).unwrap());
    assert_eq!((m.normal, m.count), (-Vec2::Y, 2));
    assert_eq!(m.points[0].penetration, 0.25);
    assert_eq!(
        a.manifold(&Aabb::new(v(2.0, 0.0), v(3.0, 1.0)).unwrap())
            .points[0]
            .penetration,
        0.0
    );
    assert!(a
        .manifold(&Aabb::new(v(2.01, 0.0), v(3.0, 1.0)).unwrap())
        .is_empty());
    let contained = a.manifold(&Aabb::new(v(0.2, 0.5), v(0.6, 1.5)).unwrap());
    assert_eq!(contained.normal, -Vec2::X);
    assert!((contained.points[0].penetration - 0.6).abs() < 1e-6);

    let ball = Circle::with_radius(0.5).unwrap();
    let m = a.manifold_circle(&ball, &at(2.3, 1.0));
    assert_eq!(m.normal, Vec2::X);
    assert!(
        (m.points[0].penetration - 0.2).abs() < 1e-6
            && (m.points[0].point - v(1.9, 1.0)).length() < 1e-6
    );
    let m = a.manifold_circle(&Circle::with_radius(0.51).unwrap(), &at(2.3, 2.4));
    assert!(m.count == 1, "{m:?}");
    assert!(
        (m.normal - v(0.6, 0.8)).length() < 1e-5 && (m.points[0].penetration - 0.01).abs() < 1e-5
    );
    assert_eq!(
        m.points[0].id,
        FeatureId {
            a: Feature::Vertex(2),
            b: Feature::Vertex(0)
        }
    );
    assert!(a.manifold_circle(&ball, &at(2.31, 2.41)).is_empty());
    let m = a.manifold_circle(&ball, &at(1.0, 1.8));
    assert_eq!(m.normal, Vec2::Y);
    assert!((m.points[0].penetration - 0.7).abs() < 1e-6);

    let square = Polygon::rect(1.0, 1.0).unwrap();
    let m = a.manifold_polygon(&square, &at(1.0, 2.4));
    assert_eq!(m.count, 2);
    assert!((m.normal - Vec2::Y).length() < 1e-6 && (m.max_penetration() - 0.1).abs() < 1e-6);
    let as_polygon = Shape::from(a.to_polygon().unwrap());
    let reference = collide(
        &as_polygon,
        &Transform::IDENTITY,
        &Shape::from(square.clone()),
        &at(1.0, 2.4),
    );
    assert!((reference.max_penetration() - m.max_penetration()).abs() < 1e-6);
    assert!(a.manifold_polygon(&square, &at(1.0, 2.51)).is_empty());
}

#[test]
fn manifold_empty_is_default() {
    assert_eq!(Manifold::default(), Manifold::EMPTY);
}
