//! Surfaces built from several pieces answer as the one convex surface they make up: a convex
//! polygon split into a compound of 2 to 6 convex pieces, or wound into a closed chain with
//! extra collinear vertices, against every convex shape kind (resting, sliding across seams,
//! tilted, shallow to deep, tiny to huge, near and far from the origin, turned frames), checked
//! against the exact `f64` reference of the polygon: same depth, a normal as good as the exact
//! one, every point on both surfaces, the contact region's ends covered; and the mirrored pair
//! gives the same manifold turned round. In a world, shapes sliding across a tile-map floor
//! never get a normal other than straight up.

use crate::manifold_common::exact::{core, core_points, exact};
use crate::manifold_reference::{
    check_manifold, place, shape_of, size_of, Family, Setting, FAMILIES,
};
use crate::support::Rng;
use collide2d::level::{Tile, TileMap};
use collide2d::query::{collide_all, Manifold};
use collide2d::shape::{Chain, Compound, Polygon, Segment, Shape};
use collide2d::world::{Collider, CollisionEvent, TileGeometry, TileMapColliders, World};
use collide2d::{collide_speculative, Rot, Transform, Vec2};

/// A polygon's outline with one to three collinear vertices put into some of its edges.
fn with_flat_joints(vertices: &[Vec2], rng: &mut Rng) -> Vec<Vec2> {
    let mut points = Vec::new();
    for (i, &v) in vertices.iter().enumerate() {
        points.push(v);
        let next = vertices[(i + 1) % vertices.len()];
        if rng.chance(0.7) {
            for k in 1..=rng.below(3) + 1 {
                let f = k as f32 / 4.0 + rng.range(-0.05, 0.05);
                points.push(v + (next - v) * f);
            }
        }
    }
    points
}

/// A convex outline cut into two along the chord from a point on edge `i` to one on edge `j`
/// (`i < j`), at fractions `s` and `t` along them.
fn cut(outline: &[Vec2], i: usize, j: usize, s: f32, t: f32) -> (Vec<Vec2>, Vec<Vec2>) {
    let n = outline.len();
    let p = outline[i] + (outline[(i + 1) % n] - outline[i]) * s;
    let q = outline[j] + (outline[(j + 1) % n] - outline[j]) * t;
    let mut first = vec![p];
    first.extend_from_slice(&outline[i + 1..=j]);
    first.push(q);
    let mut second = vec![q];
    second.extend((j + 1..n).chain(0..=i).map(|k| outline[k]));
    second.push(p);
    (first, second)
}

/// A convex polygon split into 2 to 6 convex pieces by chords between its edges (or its
/// diagonals), as a compound of children placed at the identity.
pub(crate) fn split(polygon: &Polygon, rng: &mut Rng) -> Option<Shape> {
    let mut pieces = vec![polygon.vertices().to_vec()];
    let wanted = 2 + rng.below(5);
    let mut tries = 0;
    while pieces.len() < wanted && tries < 40 {
        tries += 1;
        let index = rng.below(pieces.len());
        let piece = &pieces[index];
        let n = piece.len();
        let (i, j) = (rng.below(n), rng.below(n));
        let (i, j) = (i.min(j), i.max(j));
        if i == j {
            continue;
        }
        // Through the vertices (a diagonal) or across the edges' insides.
        let (s, t) = if rng.chance(0.3) {
            (1.0, 1.0)
        } else {
            (rng.range(0.2, 0.8), rng.range(0.2, 0.8))
        };
        let (first, second) = cut(piece, i, j, s, t);
        let (Ok(a), Ok(b)) = (Polygon::new(&first), Polygon::new(&second)) else {
            continue;
        };
        let big = |p: &Polygon| p.area() > 0.01 * polygon.area();
        if !big(&a) || !big(&b) {
            continue;
        }
        pieces[index] = a.vertices().to_vec();
        pieces.push(b.vertices().to_vec());
    }
    if pieces.len() < 2 {
        return None;
    }
    let children = pieces
        .iter()
        .map(|p| (Transform::IDENTITY, Shape::from(Polygon::new(p).unwrap())))
        .collect();
    Some(Shape::from(Compound::new(children).unwrap()))
}

/// `m` turned round: what the mirrored pair must give.
fn turned(m: &Manifold) -> Manifold {
    let mut out = *m;
    out.normal = -m.normal;
    out
}

/// Whether the mirrored pair gives `m` turned round, within `tol`; else what it gives.
fn mirrors(m: &Manifold, mirrored: &Manifold, tol: f32) -> Result<(), String> {
    if same(&turned(m), mirrored, tol) {
        Ok(())
    } else {
        Err(format!("mirrored pair gives {mirrored:?}"))
    }
}

/// Whether two manifolds agree within `tol`: count, normal, and points (in either order) with
/// their depths.
fn same(first: &Manifold, second: &Manifold, tol: f32) -> bool {
    if first.count != second.count {
        return false;
    }
    if first.count == 0 {
        return true;
    }
    if (first.normal - second.normal).length() > 1e-5 {
        return false;
    }
    let close = |i: usize, j: usize| {
        let (p, q) = (first.points[i], second.points[j]);
        (p.point - q.point).length() <= tol && (p.penetration - q.penetration).abs() <= tol
    };
    match first.count {
        1 => close(0, 0),
        _ => (close(0, 0) && close(1, 1)) || (close(0, 1) && close(1, 0)),
    }
}

/// Which of the pieces a sweep builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Union {
    Chain,
    Compound,
}

/// Whether B's centroid lies behind (or within a tenth of B's size in front of) the line of a
/// face of `polygon` that B reaches (within 0.02 of its size, at most 0.02) or that is turned
/// towards the polygon's contact normal (or B does not touch the polygon): a one-sided chain
/// round the polygon leaves such a face out, as the polygon's answer does not.
fn behind_a_face_it_meets(
    polygon: &Polygon,
    xf_a: &Transform,
    b: &Shape,
    xf_b: &Transform,
) -> bool {
    let a = Shape::from(polygon.clone());
    let centroid = xf_a.apply_inv(xf_b.apply(b.centroid()));
    let count = polygon.vertices().len();
    let reference = collide_speculative(&a, xf_a, b, xf_b, 0.0);
    let towards = xf_a.rotate_inv(reference.normal);
    // Every face B reaches (within the larger margin), and every face turned towards the
    // contact, has B's centroid in front of its line.
    let reach = 0.02 * size_of(b).min(1.0);
    let core_b = core(b, xf_b, xf_a.p).unwrap();
    reference.is_empty()
        || (0..count).any(|i| {
            let (v, w) = (polygon.vertices()[i], polygon.vertices()[(i + 1) % count]);
            let face = Shape::from(Segment::new(v, w).unwrap());
            let reached =
                exact(&core(&face, xf_a, xf_a.p).unwrap(), &core_b).depth > -f64::from(reach);
            let n = polygon.normals()[i];
            (reached || n.dot(towards) > 0.02) && (centroid - v).dot(n) < 0.1 * size_of(b)
        })
}

/// One sweep: `per_family` placements of every family against polygons of the sweep's
/// families, each built as `union`, B's size drawn from `ratios` (times A's); returns (cases,
/// failures). Kept: B's centroid outside the polygon and in front of every face it is near
/// or, with `facing`, in front of every face turned towards the polygon's own contact normal
/// (a large shape resting on a small outline is behind the lines of the faces beside it,
/// which a one-sided chain leaves out, as the polygon's answer does not need them).
fn sweep(
    union: Union,
    seed: u64,
    per_family: usize,
    ratios: &[f32],
    facing: bool,
) -> (usize, Vec<String>) {
    // The speculative margin is left out of the `facing` sweep: a shape within the margin of a
    // convex corner it reaches beyond is still answered by a push through the side (open).
    let margins: &[f32] = if facing { &[0.0] } else { &[0.0, 0.01] };
    let mut failures = Vec::new();
    let mut cases = 0;
    for (j, &fb) in FAMILIES.iter().enumerate() {
        let mut rng = Rng(seed + j as u64);
        for index in 0..per_family {
            let fa = rng.pick(&[Family::Polygon, Family::ManySided, Family::Box]);
            let setting = Setting {
                far: rng.pick(&[0.0f32, 3.0, 1e4, 1e5]),
                tilt: Some(
                    rng.pick(&[0.0f32, 1e-6, 1e-4, 1e-2, 0.05, 0.1])
                        * if rng.chance(0.5) { 1.0 } else { -1.0 },
                ),
                depth: rng.pick(&[0.0f32, 1e-6, 1e-4, 1e-3, 0.02, 0.1, 0.3]),
                ratio: rng.pick(ratios),
                quarter: rng.chance(0.3),
            };
            let (a, xf_a, b, xf_b) = place(fa, fb, setting, &mut rng);
            let Shape::Polygon(polygon) = &a else {
                continue;
            };
            // B's centroid in front of every face it is near (the chain is one-sided).
            let centroid = xf_a.apply_inv(xf_b.apply(b.centroid()));
            let count = polygon.vertices().len();
            let near_behind = (0..count).any(|i| {
                let (v, w) = (polygon.vertices()[i], polygon.vertices()[(i + 1) % count]);
                let n = polygon.normals()[i];
                let f = ((centroid - v).dot(w - v) / (w - v).length_squared()).clamp(0.0, 1.0);
                let near = centroid.distance(v + (w - v) * f) < size_of(&b);
                near && (centroid - v).dot(n) < 0.1 * size_of(&b)
            });
            let behind_facing = behind_a_face_it_meets(polygon, &xf_a, &b, &xf_b);
            // (Not swallowing the small outline whole: a chain is its outline, not its inside.)
            let swallowed = collide_speculative(&a, &xf_a, &b, &xf_b, 0.0).max_penetration()
                > 0.2 * size_of(&a);
            let skip = if facing {
                behind_facing || swallowed
            } else {
                near_behind
            };
            if skip || polygon.contains(&Transform::IDENTITY, centroid) {
                continue;
            }
            let built = match union {
                Union::Chain => Shape::from(
                    Chain::closed(&with_flat_joints(polygon.vertices(), &mut rng)).unwrap(),
                ),
                Union::Compound => match split(polygon, &mut rng) {
                    Some(compound) => compound,
                    None => continue,
                },
            };
            for &relative in margins {
                let margin = relative * size_of(&b).min(1.0);
                cases += 1;
                let m = collide_speculative(&built, &xf_a, &b, &xf_b, margin);
                let mirrored = collide_speculative(&b, &xf_b, &built, &xf_a, margin);
                let tol = 1e-6 * (size_of(&b).max(1.0) + xf_a.p.abs().max_element());
                let result = check_manifold(&a, &xf_a, &b, &xf_b, margin, &m)
                    .and_then(|()| mirrors(&m, &mirrored, tol));
                if let Err(e) = result {
                    failures.push(format!(
                        "{union:?} {fa:?}-{fb:?} case {index} margin {margin:e} {setting:?}: {e}\n  built {built:?} at {xf_a:?}\n  b {b:?} at {xf_b:?}\n  -> {m:?}\n  polygon: {:?}",
                        collide_speculative(&a, &xf_a, &b, &xf_b, margin)
                    ));
                }
            }
        }
    }
    (cases, failures)
}

fn report(name: &str, cases: usize, failures: &[String]) {
    println!("{name}: {cases} cases, {} failures", failures.len());
    for failure in failures {
        println!("{}", failure.lines().next().unwrap_or_default());
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} failed:\n{}",
        failures.len(),
        failures[..failures.len().min(3)].join("\n")
    );
}

/// Closed chains round convex polygons, with collinear vertices in their edges: every family,
/// 400 placements each, answer as the polygon (exact reference) and mirror exactly.
#[test]
fn closed_chains_with_flat_joints_answer_as_their_polygon_at_every_scale() {
    let (cases, failures) = sweep(Union::Chain, 0x5ea_0000, 400, &RATIOS, false);
    report("chains", cases, &failures);
    assert!(cases > 2000, "{cases}");
}

/// B's size against A's in the sweeps.
const RATIOS: [f32; 8] = [1e-3, 1e-2, 0.1, 0.5, 1.0, 10.0, 1e2, 1e3];

/// Shapes 1 to 1e3 times larger than the closed chain they rest on, their centroid in front of
/// every face they reach and every face turned towards their contact, not swallowing the
/// outline: every family, 600 placements each (kept: about one in eight), without a margin,
/// answer as the polygon.
#[test]
fn large_shapes_on_small_closed_chains_answer_as_their_polygon() {
    let (cases, failures) = sweep(Union::Chain, 0x5ea_4000, 600, &[1.0, 10.0, 1e2, 1e3], true);
    report("large on chains", cases, &failures);
    assert!(cases > 50, "{cases}");
}

/// A 10 × 10 box turned by -0.1 rad over the corner of a closed unit square chain, its
/// bottom-right corner 0.05 below the top face and 0.2 in from the top-left corner: the left
/// side meets the box's bottom face from behind, just outside the corner's cone, and was
/// answered by the push through the whole side (0.205 along -x), deeper than the top face's
/// contact. The answer is the square's: 0.05 straight up, with the mirrored pair the same.
#[test]
fn box_tilted_over_the_corner_of_a_square_chain_is_pushed_off_the_face_it_rests_on() {
    let square = [
        Vec2::new(-0.5, -0.5),
        Vec2::new(0.5, -0.5),
        Vec2::new(0.5, 0.5),
        Vec2::new(-0.5, 0.5),
    ];
    let chain = Shape::from(Chain::closed(&square).unwrap());
    let polygon = Shape::from(Polygon::new(&square).unwrap());
    let b = Shape::from(Polygon::rect(10.0, 10.0).unwrap());
    let q = Rot::from_angle(-0.1);
    let xf_b = Transform {
        p: Vec2::new(-0.3, 0.45) - q.rotate(Vec2::new(5.0, -5.0)),
        q,
    };
    let at = Transform::IDENTITY;
    for margin in [0.0, 0.01] {
        let m = collide_speculative(&chain, &at, &b, &xf_b, margin);
        let mirrored = turned(&collide_speculative(&b, &xf_b, &chain, &at, margin));
        for m in [m, mirrored] {
            assert!((m.normal - Vec2::Y).length() < 1e-6, "{margin}: {m:?}");
            assert!((m.max_penetration() - 0.05).abs() < 1e-5, "{margin}: {m:?}");
            check_manifold(&polygon, &at, &b, &xf_b, margin, &m)
                .unwrap_or_else(|e| panic!("{margin}: {e}: {m:?}"));
        }
    }
}

/// The outlines of the corner sweep: a unit square and two triangles (one with a sharp
/// corner), about 1 across.
const CORNER_OUTLINES: [&[[f32; 2]]; 3] = [
    &[[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]],
    &[[-0.5, -0.4], [0.5, -0.3], [0.05, 0.5]],
    &[[-0.6, 0.0], [0.6, -0.15], [0.3, 0.2]],
];

/// Large shapes (boxes and polygons 1 to 1e3 times the size of the chain) with a face over a
/// corner of a small closed chain (a square or a triangle, with and without collinear
/// vertices in its sides): the face rests on one side of the corner and reaches past it,
/// tilted by 0 to ±0.2 rad, its end 0 to 0.05 below the side and up to 0.4 of the side back
/// from the corner, the scene turned; margins 0 and 0.01. Kept: B's centroid in front of every
/// side it meets. Each answer is the polygon's (exact reference, and a depth and normal within
/// 1e-4 of the chain's size plus the rounding of B's coordinates), in both argument orders.
#[test]
fn large_shapes_over_the_corners_of_small_closed_chains_answer_as_their_polygon() {
    let mut rng = Rng(0x5ea_5000);
    let tilts = [0.0f32, 1e-4, 1e-3, 3e-3, 0.02, 0.1, 0.2];
    let (mut cases, mut failures) = (0usize, Vec::new());
    for outline in CORNER_OUTLINES {
        let outline: Vec<Vec2> = outline.iter().map(|&[x, y]| Vec2::new(x, y)).collect();
        let polygon = Polygon::new(&outline).unwrap();
        let vertices = polygon.vertices().to_vec();
        let n = vertices.len();
        for flat in [false, true] {
            let points = if flat {
                with_flat_joints(&vertices, &mut rng)
            } else {
                vertices.clone()
            };
            let chain = Shape::from(Chain::closed(&points).unwrap());
            for corner in 0..n {
                let v = vertices[corner];
                for side in [(corner + n - 1) % n, corner] {
                    // The side's normal, and the direction along it towards the corner.
                    let normal = polygon.normals()[side];
                    let other = if side == corner {
                        vertices[(corner + 1) % n]
                    } else {
                        vertices[(corner + n - 1) % n]
                    };
                    let towards = (v - other).normalize();
                    let length = (v - other).length();
                    for ratio in [1.0f32, 10.0, 100.0, 1e3] {
                        for &tilt in &tilts {
                            for sign in [1.0f32, -1.0] {
                                let b = shape_of(
                                    rng.pick(&[Family::Box, Family::Polygon]),
                                    ratio,
                                    &mut rng,
                                );
                                let Shape::Polygon(pb) = &b else {
                                    continue;
                                };
                                // B's face turned against the side, tilted, its end nearer the
                                // side's other end placed back from the corner and down.
                                let face = rng.below(pb.vertices().len());
                                let mb = pb.normals()[face];
                                let angle =
                                    (-normal.y).atan2(-normal.x) - mb.y.atan2(mb.x) + sign * tilt;
                                let q = Rot::from_angle(angle);
                                let ends = [
                                    pb.vertices()[face],
                                    pb.vertices()[(face + 1) % pb.vertices().len()],
                                ];
                                let near = if q.rotate(ends[0]).dot(towards)
                                    < q.rotate(ends[1]).dot(towards)
                                {
                                    ends[0]
                                } else {
                                    ends[1]
                                };
                                let back = length * rng.range(0.02, 0.4);
                                let depth = rng.pick(&[0.0f32, 1e-4, 1e-3, 0.01, 0.05]);
                                let target = v - towards * back - normal * depth;
                                let local = Transform {
                                    p: target - q.rotate(near),
                                    q,
                                };
                                let frame = Transform::new(Vec2::ZERO, rng.pick(&[0.0, 1.0, 2.5]));
                                let (xf_a, xf_b) = (frame, frame.mul(&local));
                                let centroid = local.apply(b.centroid());
                                if behind_a_face_it_meets(&polygon, &xf_a, &b, &xf_b)
                                    || polygon.contains(&Transform::IDENTITY, centroid)
                                {
                                    continue;
                                }
                                let a = Shape::from(polygon.clone());
                                for margin in [0.0, 0.01] {
                                    cases += 1;
                                    let m = collide_speculative(&chain, &xf_a, &b, &xf_b, margin);
                                    let mirrored =
                                        collide_speculative(&b, &xf_b, &chain, &xf_a, margin);
                                    let result = check_manifold(&a, &xf_a, &b, &xf_b, margin, &m)
                                        .and_then(|()| close_to_exact(&a, &xf_a, &b, &xf_b, &m))
                                        .and_then(|()| {
                                            mirrors(&m, &mirrored, 1e-6 * ratio.max(1.0))
                                        });
                                    if let Err(e) = result {
                                        failures.push(format!(
                                            "corner {corner} of {outline:?} (flat joints {flat}), side {side}, ratio {ratio}, tilt {}, back {back}, depth {depth}, margin {margin}: {e}\n  b {b:?} at {xf_b:?}\n  chain at {xf_a:?} -> {m:?}\n  polygon: {:?}",
                                            sign * tilt,
                                            collide_speculative(&a, &xf_a, &b, &xf_b, margin)
                                        ));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    report("large over corners", cases, &failures);
    assert!(cases > 1000, "{cases}");
}

/// Whether a manifold's deepest depth is within 1e-4 of A's size (plus the rounding of the
/// coordinates) of the exact one, and its normal leaves no more than that to clear: tighter
/// than [`check_manifold`] for a large B, whose tolerance follows the larger size.
fn close_to_exact(
    a: &Shape,
    xf_a: &Transform,
    b: &Shape,
    xf_b: &Transform,
    m: &Manifold,
) -> Result<(), String> {
    if m.is_empty() {
        return Ok(());
    }
    let origin = xf_a.p;
    let (ca, cb) = (
        core(a, xf_a, origin).unwrap(),
        core(b, xf_b, origin).unwrap(),
    );
    let ex = exact(&ca, &cb);
    let far = f64::from(size_of(b).max(size_of(a)) + xf_b.p.abs().max_element());
    let tol = 1e-4 * f64::from(size_of(a)) + 16.0 * f64::from(f32::EPSILON) * far;
    let depth = f64::from(m.max_penetration());
    let n = [f64::from(m.normal.x), f64::from(m.normal.y)];
    let l = n[0].hypot(n[1]);
    let along = ca.depth_along(&cb, [n[0] / l, n[1] / l]);
    if (depth - ex.depth).abs() > tol || along - ex.depth > tol {
        return Err(format!(
            "deepest {depth:e} along {:?} (leaving {along:e} to clear), exact {:e} along {:?} \
             (tol {tol:e})",
            m.normal, ex.depth, ex.normal
        ));
    }
    Ok(())
}

/// Convex polygons split into compounds of 2 to 6 convex pieces: every family, 400
/// placements each, answer as the polygon (exact reference) and mirror exactly.
#[test]
fn compounds_split_from_a_polygon_answer_as_the_polygon() {
    let (cases, failures) = sweep(Union::Compound, 0x5ea_1000, 400, &RATIOS, false);
    report("compounds", cases, &failures);
    assert!(cases > 2000, "{cases}");
}

/// A tile map whose top row is a flat floor of `width` cells over an uneven underside (a
/// random depth of solid cells below each, all one region), at `origin`.
fn uneven_floor(width: u32, origin: Vec2, rng: &mut Rng) -> TileMap {
    let depths: Vec<u32> = (0..width).map(|_| 1 + rng.below(3) as u32).collect();
    TileMap::from_fn(width, 6, 1.0, origin, |x, y| {
        if y < 3 && y >= 3 - depths[x as usize] {
            Tile::SOLID
        } else {
            Tile::EMPTY
        }
    })
    .unwrap()
}

/// Shapes pressed into a tile-map floor (outlines) and slid across it in a world, near and far
/// from the origin: every `Begin` and `Stay` manifold between a shape and the floor has the
/// floor's normal, straight up, and the depth it was pressed in.
#[test]
fn shapes_sliding_across_a_tile_floor_in_a_world_only_see_up() {
    let mut rng = Rng(0x5ea_2000);
    let mut checked = 0usize;
    for run in 0..24 {
        let origin = Vec2::new(1.0, -3.0) * rng.pick(&[0.0f32, 1e3, 3e4]);
        let map = uneven_floor(40, origin, &mut rng);
        let mut world = World::new();
        let colliders = TileMapColliders::insert(&mut world, &map, TileGeometry::Outlines).unwrap();
        let size = rng.range(0.3, 3.0);
        let shape = match run % 4 {
            0 => Shape::from(Polygon::rect(size, rng.range(0.2, 1.0) * size).unwrap()),
            1 => Shape::from(
                Polygon::rect(size, 0.5 * size)
                    .unwrap()
                    .with_radius(0.1 * size)
                    .unwrap(),
            ),
            2 => Shape::from(collide2d::shape::Circle::with_radius(0.5 * size).unwrap()),
            _ => Shape::from(
                collide2d::shape::Capsule::new(
                    Vec2::new(-0.5 * size, 0.0),
                    Vec2::new(0.5 * size, 0.0),
                    0.2 * size,
                )
                .unwrap(),
            ),
        };
        let lowest = shape.aabb(&Transform::IDENTITY).min.y;
        let top = origin.y + 3.0;
        // At least a few of the coordinates' spacings, so that the press survives rounding.
        let spacing = f32::EPSILON * origin.abs().max_element().max(1.0);
        let pressure = (rng.log_size(1e-5, 0.05) * size).max(16.0 * spacing);
        let at = |x: f32| Transform::new(Vec2::new(origin.x + x, top - lowest - pressure), 0.0);
        let mover = world
            .insert(Collider::new(shape.clone()).with_transform(at(size)))
            .unwrap();
        world.update();
        let step = rng.pick(&[0.01f32, 0.1, 0.37, 1.0]);
        let mut x = size;
        while x < 40.0 - size {
            x += step;
            world.set_transform(mover, at(x)).unwrap();
            world.update();
            let mut touching = false;
            for event in world.events() {
                let (a, b, manifold) = match *event {
                    CollisionEvent::Begin { a, b, manifold, .. }
                    | CollisionEvent::Stay { a, b, manifold } => (a, b, manifold),
                    CollisionEvent::End { .. } => continue,
                };
                let Some(m) = manifold else { continue };
                let floor_first = colliders.region_of(a).is_some();
                assert!(floor_first || colliders.region_of(b).is_some());
                let up = if floor_first { m.normal } else { -m.normal };
                let tol = 1e-5 * size + 4.0 * spacing;
                assert!(
                    (up - Vec2::Y).length() < 1e-5 && (m.max_penetration() - pressure).abs() < tol,
                    "run {run} {shape:?} at x = {x} (origin {origin}, pressed {pressure:e}): {m:?}"
                );
                touching = true;
                checked += 1;
            }
            assert!(
                touching,
                "run {run}: no contact at x = {x} (origin {origin}, pressed {pressure:e})"
            );
        }
    }
    println!("{checked} floor manifolds, all straight up");
}

/// A plank resting across the seam of a box split in two halves: `collide` answers straight up
/// (see `compound_seams.rs` for its points), and the child pairs of `collide_all` together give
/// the face contact of the whole box: each straight up at the depth the plank rests at, with points at both ends of the
/// plank's face.
#[test]
fn plank_resting_across_a_compound_seam_gets_both_ends_of_its_face_from_its_child_pairs() {
    let half = |x: f32| {
        (
            Transform::IDENTITY,
            Shape::from(Polygon::box_at(Vec2::new(x, 0.0), Vec2::new(1.0, 0.5), 0.0).unwrap()),
        )
    };
    let floor = Shape::from(Compound::new(vec![half(-1.0), half(1.0)]).unwrap());
    let plank = Shape::from(Polygon::rect(1.0, 0.2).unwrap());
    for x in [0.0f32, 0.2, -0.3, 0.45] {
        let at = Transform::new(Vec2::new(x, 0.59), 0.0);
        let mut all = Vec::new();
        collide_all(&floor, &Transform::IDENTITY, &plank, &at, 0.0, &mut all);
        assert_eq!(all.len(), 2, "{x}: {all:?}");
        let mut ends: Vec<f32> = Vec::new();
        for m in &all {
            assert!((m.normal - Vec2::Y).length() < 1e-6, "{x}: {m:?}");
            assert!((m.max_penetration() - 0.01).abs() < 1e-5, "{x}: {m:?}");
            ends.extend(m.points().iter().map(|p| p.point.x));
        }
        ends.sort_by(f32::total_cmp);
        assert!(
            (ends[0] - (x - 0.5)).abs() < 1e-5 && (ends[ends.len() - 1] - (x + 0.5)).abs() < 1e-5,
            "{x}: points at {ends:?}: {all:?}"
        );
        let deepest = collide_speculative(&floor, &Transform::IDENTITY, &plank, &at, 0.0);
        assert!(
            (deepest.normal - Vec2::Y).length() < 1e-6,
            "{x}: {deepest:?}"
        );
        assert!(
            (deepest.max_penetration() - 0.01).abs() < 1e-5,
            "{x}: {deepest:?}"
        );
    }
}

/// A trapezoid resting flat on an open floor split near its corner: the short segment the
/// corner pokes through meets the trapezoid's slanted side first (its two-sided normal points
/// behind the floor), and its face contact, clipped to it alone, was as deep as the whole
/// floor's and came first, so the answer lost the far end of the resting face. The face
/// contact is the whole flat run's: straight up, 0.01 deep, points at both ends of the face.
#[test]
fn trapezoid_resting_across_a_short_floor_segment_keeps_both_ends_of_its_face() {
    let trapezoid = Shape::from(
        Polygon::new(&[
            Vec2::new(-1.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.5, 1.0),
            Vec2::new(-0.5, 1.0),
        ])
        .unwrap(),
    );
    for (cut, x) in [
        (0.999f32, 0.0f32),
        (0.999, 0.003),
        (0.9995, -0.002),
        (-0.999, 0.0),
    ] {
        // Right to left, so that the floor faces up; a short segment next to the corner.
        let xs = if cut > 0.0 {
            [3.0, cut, cut - 0.009, -3.0]
        } else {
            [3.0, cut + 0.009, cut, -3.0]
        };
        let points: Vec<Vec2> = xs.iter().map(|&x| Vec2::new(x, 0.0)).collect();
        let floor = Shape::from(Chain::open(&points).unwrap());
        let at = Transform::new(Vec2::new(x, -0.01), 0.0);
        for m in [
            collide_speculative(&floor, &Transform::IDENTITY, &trapezoid, &at, 0.0),
            turned(&collide_speculative(
                &trapezoid,
                &at,
                &floor,
                &Transform::IDENTITY,
                0.0,
            )),
        ] {
            let mut ends: Vec<f32> = m.points().iter().map(|p| p.point.x).collect();
            ends.sort_by(f32::total_cmp);
            assert_eq!(m.count, 2, "cut {cut} x {x}: {m:?}");
            assert!(
                (m.normal - Vec2::Y).length() < 1e-6,
                "cut {cut} x {x}: {m:?}"
            );
            assert!(
                (m.max_penetration() - 0.01).abs() < 1e-6,
                "cut {cut} x {x}: {m:?}"
            );
            assert!(
                (ends[0] - (x - 1.0)).abs() < 1e-5 && (ends[1] - (x + 1.0)).abs() < 1e-5,
                "cut {cut} x {x}: points at {ends:?}, the face spans {} to {}: {m:?}",
                x - 1.0,
                x + 1.0
            );
        }
    }
}

/// The outward normals of a shape's faces (a round shape: one random direction).
fn faces_of(shape: &Shape, rng: &mut Rng) -> Vec<Vec2> {
    let across = |d: Vec2| {
        let d = d.normalize();
        vec![Vec2::new(d.y, -d.x), Vec2::new(-d.y, d.x)]
    };
    match shape {
        Shape::Polygon(p) => p.normals().to_vec(),
        Shape::Capsule(c) => across(c.b() - c.a()),
        Shape::Segment(s) => across(s.b() - s.a()),
        _ => {
            let angle = rng.angle();
            vec![Vec2::new(angle.cos(), angle.sin())]
        }
    }
}

/// Open straight chains (a flat floor of segments 1e-3 to 1e3 times B's size, split at random
/// collinear vertices, facing up) against every family resting on them: a face of B turned
/// down, tilted by 0 to 0.1 rad, resting from 1e-6 to 0.3 of its size deep, anywhere along the
/// floor away from its ends, the whole scene turned and moved up to 1e5 from the origin. The
/// manifold is the one of the thick box whose top face is the floor (exact reference), and
/// the mirrored pair gives it turned round.
#[test]
fn open_flat_chains_answer_as_the_box_under_them() {
    let mut failures = Vec::new();
    let mut cases = 0;
    for (j, &fb) in FAMILIES.iter().enumerate() {
        let mut rng = Rng(0x5ea_3000 + j as u64);
        for index in 0..250 {
            let size = rng.pick(&[1e-2f32, 1.0, 50.0]);
            let b = shape_of(fb, size, &mut rng);
            let segment = size * rng.pick(&[1e-3f32, 1e-2, 0.1, 0.5, 2.0, 1e3]);
            let half = (3.0 * size).max(2.0 * segment);
            let count = ((2.0 * half / segment) as usize).clamp(2, 3000);
            let mut xs: Vec<f32> = (1..count).map(|_| rng.range(-half, half)).collect();
            xs.push(-half);
            xs.push(half);
            xs.sort_by(|p, q| q.total_cmp(p));
            xs.dedup();
            let points: Vec<Vec2> = xs.iter().map(|&x| Vec2::new(x, 0.0)).collect();
            let Ok(chain) = Chain::open(&points) else {
                continue;
            };
            let chain = Shape::from(chain);
            let floor = Shape::from(
                Polygon::box_at(
                    Vec2::new(0.0, -0.5 * half),
                    Vec2::new(half, 0.5 * half),
                    0.0,
                )
                .unwrap(),
            );
            // B's face turned down and tilted, moved to the depth wanted, slid along.
            let faces = faces_of(&b, &mut rng);
            let face = faces[rng.below(faces.len())];
            let tilt = rng.pick(&[0.0f32, 1e-6, 1e-4, 1e-2, 0.05, 0.1])
                * if rng.chance(0.5) { 1.0 } else { -1.0 };
            let angle = -std::f32::consts::FRAC_PI_2 - face.y.atan2(face.x) + tilt;
            let x = rng.range(-1.0, 1.0) * (half - 1.5 * size_of(&b));
            let trial = Transform::new(Vec2::new(x, 0.0), angle);
            let (points_b, radius) = core_points(&b, &trial, Vec2::ZERO).unwrap();
            let lowest = points_b.iter().map(|p| p[1]).fold(f64::INFINITY, f64::min) - radius;
            let depth = f64::from(size * rng.pick(&[0.0f32, 1e-6, 1e-4, 1e-3, 0.02, 0.1, 0.3]));
            let local_b = Transform::new(Vec2::new(x, (-lowest - depth) as f32), angle);
            if local_b.apply(b.centroid()).y < 0.1 * size {
                continue;
            }
            let far = rng.pick(&[0.0f32, 3.0, 1e4, 1e5]);
            let direction = rng.angle();
            let frame = Transform::new(
                Vec2::new(direction.cos(), direction.sin()) * far,
                rng.angle(),
            );
            let (xf_a, xf_b) = (frame, frame.mul(&local_b));
            for margin in [0.0, 0.01 * size] {
                cases += 1;
                let m = collide_speculative(&chain, &xf_a, &b, &xf_b, margin);
                let mirrored = collide_speculative(&b, &xf_b, &chain, &xf_a, margin);
                let tol = 1e-6 * (size_of(&b).max(segment) + far);
                let result = check_manifold(&floor, &xf_a, &b, &xf_b, margin, &m)
                    .and_then(|()| mirrors(&m, &mirrored, tol));
                if let Err(e) = result {
                    failures.push(format!(
                        "{fb:?} case {index} size {size} segment {segment} tilt {tilt} depth {depth:e} far {far} margin {margin:e}: {e}\n  b {b:?} at {xf_b:?}\n  floor at {xf_a:?}\n  -> {m:?}\n  box: {:?}",
                        collide_speculative(&floor, &xf_a, &b, &xf_b, margin)
                    ));
                }
            }
        }
    }
    report("open floors", cases, &failures);
    assert!(cases > 3000, "{cases}");
}
