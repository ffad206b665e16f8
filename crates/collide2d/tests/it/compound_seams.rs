//! A compound whose children tile a surface collides like that surface: no contact normal
//! along a face two children share (inside the union), and a resting face contact spans the
//! whole flat run across children. Exact cases (a narrow box sunk across the seam of two boxes,
//! a plank resting across it, both argument orders), and sweeps against an exact `f64`
//! reference: convex polygons cut into 2 to 6 convex pieces, and `from_concave` L and U shapes,
//! with boxes, circles, capsules and polygons pressed into their faces.

use crate::manifold_reference::{check_manifold, shape_of, size_of, Family};
use crate::manifold_union_reference::split;
use crate::support::Rng;
use collide2d::query::collide_all;
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

/// A level's floor (box 20 × 1 centred at (0, −0.5)) and a wall standing on it (box 1 × 4
/// centred at (5, 2)), as one compound: the wall's bottom face is a seam.
fn floor_and_wall() -> Shape {
    let part = |centre: Vec2, width: f32, height: f32| {
        (
            Transform::new(centre, 0.0),
            Shape::from(Polygon::rect(width, height).unwrap()),
        )
    };
    Shape::from(
        Compound::new(vec![
            part(Vec2::new(0.0, -0.5), 20.0, 1.0),
            part(Vec2::new(5.0, 2.0), 1.0, 4.0),
        ])
        .unwrap(),
    )
}

/// A body on the floor (resting, or sunk 0.01 into it) and sunk 0.43 into the wall's side:
/// the wall's own pair pushes it down out of the wall's bottom face (a seam, 0.3 for a box
/// 0.3 tall); the union pushes it left by 0.43 (into the corner, by √(0.43² + 0.01²), when
/// also sunk into the floor), never up over the wall (4 and more), both argument orders, at
/// the origin and 1e3 out.
#[test]
fn body_sunk_into_a_wall_standing_on_a_floor_is_pushed_out_sideways() {
    let level = floor_and_wall();
    let low_box = Shape::from(Polygon::rect(0.6, 0.3).unwrap());
    let ball = Shape::from(collide2d::shape::Circle::with_radius(0.2).unwrap());
    for far in [Vec2::ZERO, Vec2::new(1e3, 1e3)] {
        for sunk in [0.0f32, 0.01] {
            for (body, half) in [(&low_box, Vec2::new(0.3, 0.15)), (&ball, Vec2::splat(0.2))] {
                let at = Transform::new(far + Vec2::new(4.93 - half.x, half.y - sunk), 0.0);
                let level_at = Transform::new(far, 0.0);
                for m in both_orders(&level, &level_at, body, &at) {
                    let depth = m.max_penetration();
                    let wanted = (0.43f32 * 0.43 + sunk * sunk).sqrt();
                    let tolerance = if far == Vec2::ZERO { 1e-5 } else { 3e-4 };
                    assert!((depth - wanted).abs() < tolerance, "{far} {sunk}: {m:?}");
                    let normal = Vec2::new(-0.43, sunk) / wanted;
                    assert!((m.normal - normal).length() < 1e-3, "{far} {sunk}: {m:?}");
                }
            }
        }
    }
}

/// Core points (in the compound's frame, `f64`) and radius of a convex shape placed by the
/// compound-frame placement `(position, angle cosine, angle sine)`.
fn core64(shape: &Shape, place: ([f64; 2], f64, f64)) -> (Vec<[f64; 2]>, f64) {
    let ([px, py], c, s) = place;
    let apply = |v: Vec2| {
        let (x, y) = (f64::from(v.x), f64::from(v.y));
        [px + c * x - s * y, py + s * x + c * y]
    };
    match shape {
        Shape::Circle(k) => (vec![apply(k.center())], f64::from(k.radius())),
        Shape::Capsule(k) => (vec![apply(k.a()), apply(k.b())], f64::from(k.radius())),
        Shape::Polygon(p) => (
            p.vertices().iter().map(|v| apply(*v)).collect(),
            f64::from(p.radius()),
        ),
        _ => unreachable!("children and pressed shapes are convex"),
    }
}

/// B's placement in the compound's frame (both placed in the world), in `f64`.
fn relative64(xf: &Transform, xf_b: &Transform) -> ([f64; 2], f64, f64) {
    let (c, s) = (f64::from(xf.q.c), f64::from(xf.q.s));
    let (bc, bs) = (f64::from(xf_b.q.c), f64::from(xf_b.q.s));
    let (dx, dy) = (
        f64::from(xf_b.p.x) - f64::from(xf.p.x),
        f64::from(xf_b.p.y) - f64::from(xf.p.y),
    );
    (
        [c * dx + s * dy, -s * dx + c * dy],
        c * bc + s * bs,
        c * bs - s * bc,
    )
}

/// The convex polygon (counter-clockwise) a region `hull ⊕ disc(radius)` is bracketed by: every
/// vertex of the hull's rounded outline at `directions` (inside the region) when `outer` is
/// false, the polygon of its tangent lines at those directions (around it) when true.
fn bracket(
    points: &[[f64; 2]],
    radius: f64,
    directions: &[[f64; 2]],
    outer: bool,
) -> Vec<[f64; 2]> {
    let support = |u: [f64; 2]| {
        points
            .iter()
            .copied()
            .max_by(|p, q| (p[0] * u[0] + p[1] * u[1]).total_cmp(&(q[0] * u[0] + q[1] * u[1])))
            .unwrap()
    };
    let height = |u: [f64; 2]| {
        let p = support(u);
        p[0] * u[0] + p[1] * u[1] + radius
    };
    let n = directions.len();
    let mut out: Vec<[f64; 2]> = Vec::with_capacity(n);
    for i in 0..n {
        let u = directions[i];
        let p = if outer {
            let w = directions[(i + 1) % n];
            let (h1, h2) = (height(u), height(w));
            let det = u[0] * w[1] - u[1] * w[0];
            [(h1 * w[1] - h2 * u[1]) / det, (u[0] * h2 - w[0] * h1) / det]
        } else {
            // Every core point on the tangent line, in order along it.
            let top = height(u) - radius;
            let mut on: Vec<[f64; 2]> = points
                .iter()
                .copied()
                .filter(|p| p[0] * u[0] + p[1] * u[1] >= top - 1e-12 * (1.0 + top.abs()))
                .collect();
            on.sort_by(|p, q| (p[1] * u[0] - p[0] * u[1]).total_cmp(&(q[1] * u[0] - q[0] * u[1])));
            for s in on {
                let p = [s[0] + radius * u[0], s[1] + radius * u[1]];
                if out
                    .last()
                    .is_none_or(|q| (q[0] - p[0]).abs() + (q[1] - p[1]).abs() > 1e-12)
                {
                    out.push(p);
                }
            }
            continue;
        };
        out.push(p);
    }
    out
}

/// How deep `p` is inside the convex counter-clockwise polygon (negative outside; exact
/// inside, a lower bound of the distance outside).
fn inside_by(polygon: &[[f64; 2]], p: [f64; 2]) -> f64 {
    let n = polygon.len();
    (0..n)
        .map(|i| {
            let (a, b) = (polygon[i], polygon[(i + 1) % n]);
            let (ex, ey) = (b[0] - a[0], b[1] - a[1]);
            let length = ex.hypot(ey);
            if length == 0.0 {
                return f64::INFINITY;
            }
            (ex * (p[1] - a[1]) - ey * (p[0] - a[0])) / length
        })
        .fold(f64::INFINITY, f64::min)
}

/// The nearest point to the origin outside every polygon (counter-clockwise, convex) and its
/// distance, by brute force: the nearest point of every edge and the crossings of every two
/// edges of different polygons, kept when strictly inside no other polygon; the origin when
/// it is inside none.
fn union_push(polygons: &[Vec<[f64; 2]>]) -> (f64, [f64; 2]) {
    let slack = 1e-10;
    if polygons.iter().all(|p| inside_by(p, [0.0, 0.0]) <= slack) {
        return (0.0, [0.0, 0.0]);
    }
    let edges: Vec<(usize, [f64; 2], [f64; 2])> = polygons
        .iter()
        .enumerate()
        .flat_map(|(k, p)| (0..p.len()).map(move |i| (k, p[i], p[(i + 1) % p.len()])))
        .collect();
    let clear = |p: [f64; 2], on: (usize, usize)| {
        polygons
            .iter()
            .enumerate()
            .all(|(k, polygon)| k == on.0 || k == on.1 || inside_by(polygon, p) <= slack)
    };
    let mut best = f64::INFINITY;
    let mut at = [0.0, 0.0];
    let nearest = |a: [f64; 2], b: [f64; 2]| {
        let (ex, ey) = (b[0] - a[0], b[1] - a[1]);
        if ex == 0.0 && ey == 0.0 {
            return a;
        }
        let t = (-(a[0] * ex + a[1] * ey) / (ex * ex + ey * ey)).clamp(0.0, 1.0);
        [a[0] + t * ex, a[1] + t * ey]
    };
    for &(k, a, b) in &edges {
        let p = nearest(a, b);
        if p[0].hypot(p[1]) < best && clear(p, (k, k)) {
            best = p[0].hypot(p[1]);
            at = p;
        }
    }
    for (i, &(k, a, b)) in edges.iter().enumerate() {
        let near = nearest(a, b);
        if near[0].hypot(near[1]) >= best {
            continue;
        }
        for &(l, c, d) in &edges[i + 1..] {
            if l == k {
                continue;
            }
            let (e, f) = ([b[0] - a[0], b[1] - a[1]], [d[0] - c[0], d[1] - c[1]]);
            let det = e[0] * f[1] - e[1] * f[0];
            if det == 0.0 {
                continue;
            }
            let w = [c[0] - a[0], c[1] - a[1]];
            let s = (w[0] * f[1] - w[1] * f[0]) / det;
            let t = (w[0] * e[1] - w[1] * e[0]) / det;
            if !(0.0..=1.0).contains(&s) || !(0.0..=1.0).contains(&t) {
                continue;
            }
            let p = [a[0] + s * e[0], a[1] + s * e[1]];
            if p[0].hypot(p[1]) < best && clear(p, (k, l)) {
                best = p[0].hypot(p[1]);
                at = p;
            }
        }
    }
    (best, at)
}

/// The distance from the origin to the nearest point outside every polygon.
fn union_depth(polygons: &[Vec<[f64; 2]>]) -> f64 {
    union_push(polygons).0
}

/// The outward normals of the faces of the (sharp polygon) children that lie inside the union:
/// just outside them, all along, is inside other children.
fn seam_normals(built: &Compound) -> Vec<Vec<Vec2>> {
    let children = built.children();
    children
        .iter()
        .enumerate()
        .map(|(k, (xf, child))| {
            let Shape::Polygon(p) = child else {
                return Vec::new();
            };
            let count = p.vertices().len();
            (0..count)
                .filter_map(|i| {
                    let (v, w) = (
                        xf.apply(p.vertices()[i]),
                        xf.apply(p.vertices()[(i + 1) % count]),
                    );
                    let n = xf.rotate(p.normals()[i]);
                    // Covered all along: just outside it, at points along it, is inside
                    // another child.
                    [0.02f32, 0.25, 0.5, 0.75, 0.98]
                        .iter()
                        .all(|t| {
                            let probe = v.lerp(w, *t) + n * 1e-3 * (w - v).length();
                            children
                                .iter()
                                .enumerate()
                                .any(|(j, (xf_j, other))| j != k && other.contains(xf_j, probe))
                        })
                        .then_some(n)
                })
                .collect()
        })
        .collect()
}

/// The regions `M_k` = child ⊕ (−B) of a compound's children against B (placed by `xf_b`),
/// in the compound's frame, each bracketed: (inside, around).
fn regions(
    built: &Compound,
    xf: &Transform,
    b: &Shape,
    xf_b: &Transform,
) -> Vec<[Vec<[f64; 2]>; 2]> {
    let (core_b, radius_b) = core64(b, relative64(xf, xf_b));
    built
        .children()
        .iter()
        .map(|(child_xf, child)| {
            let place = (
                [f64::from(child_xf.p.x), f64::from(child_xf.p.y)],
                f64::from(child_xf.q.c),
                f64::from(child_xf.q.s),
            );
            let (core, radius) = core64(child, place);
            let points: Vec<[f64; 2]> = core
                .iter()
                .flat_map(|c| core_b.iter().map(move |p| [c[0] - p[0], c[1] - p[1]]))
                .collect();
            let radius = radius + radius_b;
            // The hull's own face normals (exact for sharp regions) and, when rounded, 96
            // directions around.
            let mut angles: Vec<f64> = Vec::new();
            for p in &points {
                for q in &points {
                    let (ex, ey) = (q[0] - p[0], q[1] - p[1]);
                    let length = ex.hypot(ey);
                    let left = |r: &[f64; 2]| ex * (r[1] - p[1]) - ey * (r[0] - p[0]);
                    if length > 0.0 && points.iter().all(|r| left(r) >= -1e-12 * (1.0 + length)) {
                        angles.push((-ex).atan2(ey));
                    }
                }
            }
            if radius > 0.0 || angles.len() < 3 {
                angles.extend((0..96).map(|i| f64::from(i) * std::f64::consts::TAU / 96.0));
            }
            let mut angles: Vec<f64> = angles
                .into_iter()
                .map(|a| a.rem_euclid(std::f64::consts::TAU))
                .collect();
            angles.sort_by(f64::total_cmp);
            angles.dedup_by(|x, y| (*x - *y).abs() < 1e-7);
            let directions: Vec<[f64; 2]> = angles.iter().map(|a| [a.cos(), a.sin()]).collect();
            [
                bracket(&points, radius, &directions, false),
                bracket(&points, radius, &directions, true),
            ]
        })
        .collect()
}

/// The outlines (counter-clockwise) of the concave unions swept: L, U, T, a staircase, and
/// rows of tiles (flat, and with one tile a step higher), each with the compound built from it
/// (`from_concave`, or the row's boxes side by side).
fn swept_unions(rng: &mut Rng) -> Vec<(&'static str, Vec<Vec2>, Compound)> {
    let v = Vec2::new;
    let concave = |name: &'static str, outline: Vec<Vec2>| {
        let built = Compound::from_concave(&outline).unwrap();
        (name, outline, built)
    };
    let mut unions = vec![
        concave(
            "L",
            vec![
                v(0.0, 0.0),
                v(2.0, 0.0),
                v(2.0, 1.0),
                v(1.0, 1.0),
                v(1.0, 2.0),
                v(0.0, 2.0),
            ],
        ),
        concave(
            "U",
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
        ),
        concave(
            "T",
            vec![
                v(1.0, 0.0),
                v(2.0, 0.0),
                v(2.0, 1.5),
                v(3.0, 1.5),
                v(3.0, 2.5),
                v(0.0, 2.5),
                v(0.0, 1.5),
                v(1.0, 1.5),
            ],
        ),
        concave(
            "staircase",
            vec![
                v(0.0, 0.0),
                v(3.0, 0.0),
                v(3.0, 3.0),
                v(2.0, 3.0),
                v(2.0, 2.0),
                v(1.0, 2.0),
                v(1.0, 1.0),
                v(0.0, 1.0),
            ],
        ),
    ];
    // Rows of 2 to 6 tiles 0.5 to 1.5 wide, 1 tall; the stepped row has one tile 0.5 higher.
    for stepped in [false, true] {
        let count = 2 + rng.below(5);
        let widths: Vec<f32> = (0..count).map(|_| rng.pick(&[0.5f32, 1.0, 1.5])).collect();
        let step = if stepped { rng.below(count) } else { count };
        let mut x = 0.0f32;
        let mut tiles = Vec::new();
        let mut outline = vec![v(0.0, 0.0)];
        let total: f32 = widths.iter().sum();
        outline.push(v(total, 0.0));
        let mut top: Vec<Vec2> = Vec::new();
        for (i, &w) in widths.iter().enumerate() {
            let h = if i == step { 1.5 } else { 1.0 };
            tiles.push((
                Transform::IDENTITY,
                Shape::from(
                    Polygon::box_at(v(x + 0.5 * w, 0.5 * h), v(0.5 * w, 0.5 * h), 0.0).unwrap(),
                ),
            ));
            top.push(v(x, h));
            top.push(v(x + w, h));
            x += w;
        }
        // The top from right to left, without the points inside a flat stretch.
        top.reverse();
        for p in top {
            let last = *outline.last().unwrap();
            if (p - last).length() < 1e-6 {
                continue;
            }
            outline.push(p);
        }
        outline.dedup_by(|a, b| (*a - *b).length() < 1e-6);
        let name = if stepped { "stepped row" } else { "row" };
        unions.push((name, outline, Compound::new(tiles).unwrap()));
    }
    unions
}

/// The check of one pressing against the exact union depth (either argument order): never
/// deeper than the union (`high`, within `tolerance`). Where the deepest child pair as it is
/// pushes along a seam (`seam`: its depth and the seam's outward normal, compound frame; the
/// old answer's ghost normal): not along that normal, and at least as deep as that pair.
/// Returns whether the answer is the union's exact depth (`[low, high]`: the depths of the
/// polygons inside and around the rounded regions) along a normal that pushes B clear of every
/// child.
fn check_union(
    m: &Manifold,
    flip: bool,
    xf: &Transform,
    brackets: &[[Vec<[f64; 2]>; 2]],
    (low, high): (f64, f64),
    seam: Option<(f64, Vec2)>,
    tolerance: f64,
) -> Result<bool, String> {
    if m.is_empty() {
        return Err(format!("empty; union depth in [{low}, {high}]"));
    }
    let normal = xf.rotate_inv(if flip { -m.normal } else { m.normal });
    let depth = f64::from(m.max_penetration());
    if depth > high + tolerance {
        return Err(format!(
            "depth {depth} deeper than the union's [{low}, {high}]: {m:?}"
        ));
    }
    if let Some((old, ghost)) = seam {
        if (normal - ghost).length() < 1e-3 {
            return Err(format!("along the seam's normal {ghost}: {m:?}"));
        }
        if depth < old - tolerance {
            return Err(format!(
                "depth {depth} shallower than the seam's pair ({old}): {m:?}"
            ));
        }
    }
    let push = [f64::from(normal.x) * depth, f64::from(normal.y) * depth];
    let clears = brackets
        .iter()
        .all(|[inside, _]| inside_by(inside, push) <= tolerance);
    Ok(depth >= low - tolerance && clears)
}

/// L, U, T and staircase outlines (`from_concave`) and rows of tiles (flat, stepped), scaled,
/// with boxes, circles, capsules and polygons 0.05 to 0.6 of the scale pressed into any point
/// of the outline (ends, concave corners and where seams meet it included) up to 0.3 of their
/// size, turned, at the
/// origin and 1e3 out, both argument orders, against the brute-force distance to the union's
/// boundary (`f64`): never deeper than the union; where the deepest child pair would push along
/// a seam, never along it and at least as deep, and mostly the union's exact push (see
/// `check_union`; a kept contact as deep as every seam pair stands even where its push leaves B
/// in another child).
#[test]
fn concave_unions_push_out_by_the_exact_union_depth() {
    let mut rng = Rng(0x5ea_a11);
    let (mut cases, mut seam_cases, mut exact_seam_answers, mut failures) = (0, 0, 0, Vec::new());
    for round in 0..120 {
        for (name, outline, compound) in swept_unions(&mut rng) {
            let scale = rng.pick(&[0.5f32, 1.0, 3.0]);
            let outline: Vec<Vec2> = outline.iter().map(|p| *p * scale).collect();
            let children: Vec<(Transform, Shape)> = compound
                .children()
                .iter()
                .map(|(xf, child)| {
                    let Shape::Polygon(p) = child else {
                        unreachable!()
                    };
                    let scaled: Vec<Vec2> =
                        p.vertices().iter().map(|v| xf.apply(*v) * scale).collect();
                    (
                        Transform::IDENTITY,
                        Shape::from(Polygon::new(&scaled).unwrap()),
                    )
                })
                .collect();
            let built = Compound::new(children).unwrap();
            let shape = Shape::from(built.clone());
            let seams = seam_normals(&built);
            for _ in 0..3 {
                let (b, depth, angle) =
                    pressed(scale * rng.pick(&[0.05f32, 0.15, 0.3, 0.6]), &mut rng);
                let count = outline.len();
                // Half of them across a seam: at a child's vertex on the outline (where a cut
                // or a tile's side meets it), give or take a third of B's size.
                let on_outline = |v: Vec2| {
                    (0..count).find(|&i| {
                        let (p, q) = (outline[i], outline[(i + 1) % count]);
                        let t = (v - p).dot(q - p) / (q - p).length_squared();
                        (0.0..=1.0).contains(&t) && (p + (q - p) * t - v).length() < 1e-4
                    })
                };
                let corners: Vec<Vec2> = built
                    .children()
                    .iter()
                    .flat_map(|(_, child)| match child {
                        Shape::Polygon(p) => p.vertices().to_vec(),
                        _ => Vec::new(),
                    })
                    .collect();
                let (i, at) = if rng.chance(0.5) {
                    let v = corners[rng.below(corners.len())];
                    match on_outline(v) {
                        Some(i) => {
                            let (p, q) = (outline[i], outline[(i + 1) % count]);
                            let along = (q - p).normalize() * size_of(&b) * rng.range(-0.3, 0.3);
                            (i, v + along)
                        }
                        None => continue,
                    }
                } else {
                    let i = rng.below(count);
                    let (p, q) = (outline[i], outline[(i + 1) % count]);
                    (i, p + (q - p) * rng.range(-0.05, 1.05))
                };
                let (p, q) = (outline[i], outline[(i + 1) % count]);
                let n = Vec2::new(q.y - p.y, p.x - q.x).normalize();
                let local = Transform::new(at + n * (reach(&b, angle, -n) - depth), angle);
                let xf = frame(&mut rng);
                let xf_b = xf.mul(&local);
                let brackets = regions(&built, &xf, &b, &xf_b);
                let inside: Vec<Vec<[f64; 2]>> = brackets.iter().map(|r| r[0].clone()).collect();
                let around: Vec<Vec<[f64; 2]>> = brackets.iter().map(|r| r[1].clone()).collect();
                let (low, high) = (union_depth(&inside), union_depth(&around));
                // The deepest child pair as it is (`collide_all`), and whether its normal is
                // one of its child's seams'.
                let mut pairs = Vec::new();
                collide_all(&shape, &xf, &b, &xf_b, 0.0, &mut pairs);
                let old = pairs.iter().fold(None::<Manifold>, |best, m| match best {
                    Some(d) if d.max_penetration() >= m.max_penetration() => Some(d),
                    _ => Some(*m),
                });
                let seam = old.and_then(|m| {
                    let n = xf.rotate_inv(m.normal);
                    seams[m.child_a as usize]
                        .iter()
                        .any(|s| (*s - n).length() < 1e-3)
                        .then_some((f64::from(m.max_penetration()), n))
                });
                let far = xf.p.length() > 1.0;
                let tolerance =
                    2e-4 * f64::from(scale + size_of(&b)) + if far { 5e-4 } else { 0.0 };
                if low <= tolerance {
                    continue;
                }
                cases += 1;
                seam_cases += usize::from(seam.is_some());
                let depths = (low, high);
                let results = [
                    check_union(
                        &collide(&shape, &xf, &b, &xf_b),
                        false,
                        &xf,
                        &brackets,
                        depths,
                        seam,
                        tolerance,
                    ),
                    check_union(
                        &collide(&b, &xf_b, &shape, &xf),
                        true,
                        &xf,
                        &brackets,
                        depths,
                        seam,
                        tolerance,
                    )
                    .map_err(|e| format!("mirrored: {e}")),
                ];
                for result in results {
                    if seam.is_some() && result == Ok(true) {
                        exact_seam_answers += 1;
                    }
                    if let Err(e) = result {
                        failures.push(format!(
                            "{name} round {round}: {e}\n  built {built:?} at {xf:?}\n  b {b:?} at {xf_b:?}"
                        ));
                    }
                }
            }
        }
    }
    report(
        "concave unions against the exact union depth",
        cases,
        &failures,
    );
    println!(
        "{seam_cases} of {cases} with the deepest child pair along a seam; \
         {exact_seam_answers} of their {} answers the union's exact push",
        2 * seam_cases
    );
    assert!(
        cases > 1000 && seam_cases > 20,
        "{cases} cases, {seam_cases} along a seam"
    );
}

/// Children of sizes 1e-6 to 1e9 in one compound: the seam analysis's grid takes its cell from
/// the small ones, and a turned child as large as the coordinates allow spans every cell of
/// that grid on both axes (a count of cells that overflowed, and a walk over 2^64 of them).
/// Building must finish.
#[test]
fn a_compound_of_tiny_and_huge_children_is_built() {
    let tiny = || Shape::from(Polygon::rect(1e-6, 1e-6).unwrap());
    let huge = Shape::from(Polygon::rect(1e9, 1e9).unwrap());
    let compound = Compound::new(vec![
        (Transform::new(Vec2::new(5e8, 5e8), 0.0), tiny()),
        (Transform::new(Vec2::new(5e8 + 1e-6, 5e8), 0.0), tiny()),
        (
            Transform::new(Vec2::ZERO, std::f32::consts::FRAC_PI_4),
            huge,
        ),
        (Transform::new(Vec2::new(-5e8, 5e8), 0.0), tiny()),
    ])
    .unwrap();
    assert_eq!(compound.children().len(), 4);
}
