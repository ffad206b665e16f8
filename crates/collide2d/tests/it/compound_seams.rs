//! A compound whose children tile a surface collides like that surface: no contact normal
//! along a face two children share (inside the union), and a resting face contact spans the
//! whole flat run across children. Exact cases (a narrow box sunk across the seam of two boxes,
//! a plank resting across it, both argument orders), and sweeps against an exact `f64`
//! reference: convex polygons cut into 2 to 6 convex pieces, and `from_concave` L and U shapes,
//! with boxes, circles, capsules and polygons pressed into their faces.

use crate::manifold_reference::{check_manifold, shape_of, size_of, Family};
use crate::manifold_union_reference::split;
use crate::support::Rng;
use collide2d::query::Manifold;
use collide2d::shape::{Compound, Polygon, Shape};
use collide2d::{collide, Transform, Vec2};

/// Two boxes 2 × 1 side by side, their seam at x = 0, their top at y = 0.5.
fn two_boxes() -> Shape {
    let half = |x: f32| {
        (
            Transform::IDENTITY,
            Shape::from(Polygon::box_at(Vec2::new(x, 0.0), Vec2::new(1.0, 0.5), 0.0).unwrap()),
        )
    };
    Shape::from(Compound::new(vec![half(-1.0), half(1.0)]).unwrap())
}

/// `collide` both ways round, the second turned back into the first's view.
fn both_orders(a: &Shape, xf_a: &Transform, b: &Shape, xf_b: &Transform) -> [Manifold; 2] {
    [
        collide(a, xf_a, b, xf_b),
        collide(b, xf_b, a, xf_a).swapped(),
    ]
}

/// A box 0.25 wide sunk 0.15 into the top of two boxes, straddling their seam (0.13 of it over
/// the left box, 0.12 over the right): the child pairs push it sideways out of either box
/// (0.13 along +x from the left one); the surface is flat, so the answer is straight up, 0.15.
#[test]
fn narrow_box_sunk_across_a_seam_is_pushed_straight_up() {
    let floor = two_boxes();
    let narrow = Shape::from(Polygon::rect(0.25, 1.0).unwrap());
    for far in [Vec2::ZERO, Vec2::new(1e3, -1e3)] {
        let at = Transform::new(far + Vec2::new(-0.005, 0.85), 0.0);
        let floor_at = Transform::new(far, 0.0);
        for m in both_orders(&floor, &floor_at, &narrow, &at) {
            assert!((m.normal - Vec2::Y).length() < 1e-6, "{far}: {m:?}");
            assert!((m.max_penetration() - 0.15).abs() < 1e-4, "{far}: {m:?}");
            assert_eq!(m.count, 2, "{far}: {m:?}");
        }
    }
}

/// A plank 1 long resting 0.01 deep across the seam of a box split in two: the contact is
/// straight up with points at both ends of the plank's face (not one end and the seam), in
/// either argument order.
#[test]
fn plank_across_a_seam_gets_both_ends_of_its_face() {
    let floor = two_boxes();
    let plank = Shape::from(Polygon::rect(1.0, 0.2).unwrap());
    for x in [0.0f32, 0.2, -0.3, 0.45] {
        let at = Transform::new(Vec2::new(x, 0.59), 0.0);
        for m in both_orders(&floor, &Transform::IDENTITY, &plank, &at) {
            assert!((m.normal - Vec2::Y).length() < 1e-6, "{x}: {m:?}");
            assert_eq!(m.count, 2, "{x}: {m:?}");
            let mut ends: Vec<f32> = m.points().iter().map(|p| p.point.x).collect();
            ends.sort_by(f32::total_cmp);
            assert!(
                (ends[0] - (x - 0.5)).abs() < 1e-5 && (ends[1] - (x + 0.5)).abs() < 1e-5,
                "{x}: points at {ends:?}: {m:?}"
            );
            for p in m.points() {
                assert!((p.penetration - 0.01).abs() < 1e-5, "{x}: {m:?}");
            }
        }
    }
}

/// How far a shape turned by `angle` reaches from its origin along `direction`.
fn reach(shape: &Shape, angle: f32, direction: Vec2) -> f32 {
    let local = Transform::new(Vec2::ZERO, angle).rotate_inv(direction);
    let most = |points: &[Vec2]| {
        points
            .iter()
            .map(|p| p.dot(local))
            .fold(f32::NEG_INFINITY, f32::max)
    };
    match shape {
        Shape::Circle(c) => c.center().dot(local) + c.radius(),
        Shape::Capsule(c) => most(&[c.a(), c.b()]) + c.radius(),
        Shape::Polygon(p) => most(p.vertices()) + p.radius(),
        _ => unreachable!("pressed shapes are convex"),
    }
}

/// One pressing: B (from `families`) placed against face `face` of `reference` (in the frame
/// placed by `xf`) at fraction `t` along it, its deepest point `depth` behind the face's line;
/// `None` when B's centroid is not outside the reference.
fn press(
    reference: &Polygon,
    xf: &Transform,
    face: usize,
    t: f32,
    b: &Shape,
    depth: f32,
    angle: f32,
) -> Option<Transform> {
    let count = reference.vertices().len();
    let (v, w) = (
        reference.vertices()[face],
        reference.vertices()[(face + 1) % count],
    );
    let n = reference.normals()[face];
    let at = v + (w - v) * t;
    let centre = at + n * (reach(b, angle, -n) - depth);
    let local = Transform::new(centre, angle);
    if reference.contains(&Transform::IDENTITY, local.apply(b.centroid())) {
        return None;
    }
    Some(xf.mul(&local))
}

/// Checks `collide` of `built` (placed by `xf`) against `b` both ways round against the exact
/// reference of the convex `reference`, which agrees with `built`'s union within B's reach:
/// depth within `1e-4` of the larger size plus float spacing at the distance from the origin,
/// a normal that clears the overlap as well as the exact one, every point on both surfaces.
fn check(
    built: &Shape,
    reference: &Shape,
    xf: &Transform,
    b: &Shape,
    xf_b: &Transform,
) -> Result<(), String> {
    let m = collide(built, xf, b, xf_b);
    check_manifold(reference, xf, b, xf_b, 0.0, &m).map_err(|e| format!("{e}: {m:?}"))?;
    let mirrored = collide(b, xf_b, built, xf);
    check_manifold(b, xf_b, reference, xf, 0.0, &mirrored)
        .map_err(|e| format!("mirrored: {e}: {mirrored:?}"))
}

/// The families pressed in.
const PRESSED: [Family; 4] = [
    Family::Box,
    Family::Circle,
    Family::Capsule,
    Family::Polygon,
];

/// A random frame: at the origin or 1e3 out, turned.
fn frame(rng: &mut Rng) -> Transform {
    let far = rng.pick(&[0.0f32, 1e3]);
    let direction = rng.angle();
    Transform::new(
        Vec2::new(direction.cos(), direction.sin()) * far,
        rng.angle(),
    )
}

/// B's shape, its depth (up to 0.3 of its size) and turn.
fn pressed(size: f32, rng: &mut Rng) -> (Shape, f32, f32) {
    let family = rng.pick(&PRESSED);
    let b = shape_of(family, size, rng);
    let depth = rng.pick(&[0.0f32, 1e-4, 0.01, 0.05, 0.1, 0.2, 0.3]) * 0.5 * size_of(&b);
    let angle = if rng.chance(0.4) { 0.0 } else { rng.angle() };
    (b, depth, angle)
}

fn report(name: &str, cases: usize, failures: &[String]) {
    println!("{name}: {cases} cases, {} failures", failures.len());
    assert!(
        failures.is_empty(),
        "{name}: {} of {cases} failed:\n{}",
        failures.len(),
        failures[..failures.len().min(4)].join("\n")
    );
}

/// Boxes and convex polygons cut into 2 to 6 convex pieces, with boxes, circles, capsules and
/// polygons 0.05 to 0.6 of their size pressed into every face (also across its ends) up to
/// 0.3 of their own size, at the origin and 1e3 out, both argument orders: the answer is the
/// convex whole's (exact reference).
#[test]
fn compounds_tiling_a_convex_polygon_collide_as_the_polygon() {
    let mut rng = Rng(0xc0_5ea5);
    let (mut cases, mut failures) = (0, Vec::new());
    for index in 0..600 {
        let size = rng.pick(&[1.0f32, 2.0, 5.0]);
        let whole = if rng.chance(0.5) {
            Shape::from(
                Polygon::rect(size * rng.range(0.3, 1.0), size * rng.range(0.3, 1.0)).unwrap(),
            )
        } else {
            shape_of(Family::Polygon, size, &mut rng)
        };
        let Shape::Polygon(polygon) = &whole else {
            continue;
        };
        let Some(built) = split(polygon, &mut rng) else {
            continue;
        };
        let xf = frame(&mut rng);
        for _ in 0..4 {
            let (b, depth, angle) = pressed(size * rng.pick(&[0.05f32, 0.15, 0.3, 0.6]), &mut rng);
            let face = rng.below(polygon.vertices().len());
            let t = rng.range(-0.05, 1.05);
            let Some(xf_b) = press(polygon, &xf, face, t, &b, depth, angle) else {
                continue;
            };
            cases += 1;
            if let Err(e) = check(&built, &whole, &xf, &b, &xf_b) {
                failures.push(format!(
                    "case {index}: {e}\n  built {built:?} at {xf:?}\n  b {b:?} at {xf_b:?}"
                ));
            }
        }
    }
    report("convex tilings", cases, &failures);
    assert!(cases > 1500, "{cases}");
}

/// A bar of an outline (its corners) and the outward normals of its faces that run between
/// convex corners of the outline.
type Bar = ((Vec2, Vec2), Vec<Vec2>);

/// An outline split by `Compound::from_concave`, and the bars (convex parts of the union) whose
/// outer faces run between convex corners of the outline: each bar with the normals of those
/// faces.
fn concave_outlines() -> Vec<(Vec<Vec2>, Vec<Bar>)> {
    let v = Vec2::new;
    let bar = |min: Vec2, max: Vec2| (min, max);
    let l_bars = vec![
        (bar(v(0.0, 0.0), v(2.0, 1.0)), vec![-Vec2::Y, Vec2::X]),
        (bar(v(0.0, 0.0), v(1.0, 2.0)), vec![-Vec2::X, Vec2::Y]),
    ];
    let u_bars = vec![
        (bar(v(0.0, 0.0), v(3.0, 1.0)), vec![-Vec2::Y]),
        (bar(v(0.0, 0.0), v(1.0, 2.0)), vec![-Vec2::X, Vec2::Y]),
        (bar(v(2.0, 0.0), v(3.0, 2.0)), vec![Vec2::X, Vec2::Y]),
    ];
    vec![
        (
            vec![
                v(0.0, 0.0),
                v(2.0, 0.0),
                v(2.0, 1.0),
                v(1.0, 1.0),
                v(1.0, 2.0),
                v(0.0, 2.0),
            ],
            l_bars.clone(),
        ),
        // With collinear vertices in the long outer faces: cuts that end inside them.
        (
            vec![
                v(0.0, 0.0),
                v(1.0, 0.0),
                v(2.0, 0.0),
                v(2.0, 1.0),
                v(1.0, 1.0),
                v(1.0, 2.0),
                v(0.0, 2.0),
                v(0.0, 1.0),
            ],
            l_bars,
        ),
        (
            vec![
                v(0.0, 0.0),
                v(3.0, 0.0),
                v(3.0, 2.0),
                v(2.0, 2.0),
                v(2.0, 1.0),
                v(1.0, 1.0),
                v(1.0, 2.0),
                v(0.0, 2.0),
            ],
            u_bars.clone(),
        ),
        (
            vec![
                v(0.0, 0.0),
                v(1.0, 0.0),
                v(2.0, 0.0),
                v(3.0, 0.0),
                v(3.0, 1.0),
                v(3.0, 2.0),
                v(2.0, 2.0),
                v(2.0, 1.0),
                v(1.0, 1.0),
                v(1.0, 2.0),
                v(0.0, 2.0),
                v(0.0, 1.0),
            ],
            u_bars,
        ),
    ]
}

/// `from_concave` L and U shapes (with and without collinear vertices where their cuts end),
/// scaled, with boxes, circles, capsules and polygons 0.05 to 0.6 of a bar's width pressed up
/// to 0.3 of their own size into the outer faces that run between convex corners (also across
/// their ends), at the origin and 1e3 out, both argument orders: the answer is the bar's under
/// the face (exact reference), which is the union within B's reach.
#[test]
fn concave_compounds_collide_as_their_outline() {
    let mut rng = Rng(0xc0_5ea6);
    let (mut cases, mut failures) = (0, Vec::new());
    for (outline, bars) in concave_outlines() {
        for index in 0..300 {
            let scale = rng.pick(&[0.5f32, 1.0, 3.0]);
            let scaled: Vec<Vec2> = outline.iter().map(|p| *p * scale).collect();
            let built = Shape::from(Compound::from_concave(&scaled).unwrap());
            let ((min, max), normals) = &bars[rng.below(bars.len())];
            let bar = Polygon::box_at(
                0.5 * (*min + *max) * scale,
                0.5 * (*max - *min) * scale,
                0.0,
            )
            .unwrap();
            let wanted = normals[rng.below(normals.len())];
            let face = bar
                .normals()
                .iter()
                .position(|n| (*n - wanted).length() < 1e-6)
                .unwrap();
            let xf = frame(&mut rng);
            let (b, depth, angle) = pressed(scale * rng.pick(&[0.05f32, 0.15, 0.3, 0.6]), &mut rng);
            let t = rng.range(-0.05, 1.05);
            let Some(xf_b) = press(&bar, &xf, face, t, &b, depth, angle) else {
                continue;
            };
            cases += 1;
            if let Err(e) = check(&built, &Shape::from(bar.clone()), &xf, &b, &xf_b) {
                failures.push(format!(
                    "case {index}: {e}\n  built {built:?} at {xf:?}\n  b {b:?} at {xf_b:?}"
                ));
            }
        }
    }
    report("concave outlines", cases, &failures);
    assert!(cases > 900, "{cases}");
}
