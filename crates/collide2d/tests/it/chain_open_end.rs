//! Chains touched from behind at an open end: a shape whose centroid is in front of a segment
//! but whose surface meets it from behind gets the smallest push-out the one-sided segment
//! admits, along the face normal or out past the open end along the segment, so its depth grows
//! from zero at first touch. Checked against an exact `f64` reference for boxes at the end of a
//! one-segment chain, and on the example that showed the jump.

use crate::support::Rng;

use collide2d::shape::{Chain, Polygon, Shape};
use collide2d::{collide, collide_speculative, Rot, Transform, Vec2};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// The chain from (0, 0) to (-`length`, 0), facing +y, both ends open.
fn ledge(length: f32) -> Shape {
    let chain = Chain::open(&[v(0.0, 0.0), v(-length, 0.0)]).unwrap();
    assert!((chain.normals()[0] - Vec2::Y).length() < 1e-6);
    Shape::from(chain)
}

/// The exact answer for a convex polygon (corners in order, `f64`) against the segment from
/// (-`length`, 0) to (0, 0) facing +y with both ends open: `None` when they do not overlap,
/// else the depth and the direction B is pushed along.
fn reference(corners: &[[f64; 2]], length: f64) -> Option<(f64, [f64; 2])> {
    let count = corners.len();
    let edges = || (0..count).map(move |i| (corners[i], corners[(i + 1) % count]));
    // The two-sided minimum translation: the separating axes are the segment's normal and the
    // polygon's edge normals.
    let mut axes = vec![[0.0, 1.0]];
    for (p, q) in edges() {
        let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
        let l = dx.hypot(dy);
        axes.push([dy / l, -dx / l]);
    }
    let mut best = (f64::INFINITY, [0.0, 0.0]);
    for a in axes {
        let segment = [0.0f64, -length * a[0]];
        let (s_min, s_max) = (segment[0].min(segment[1]), segment[0].max(segment[1]));
        let along = corners.iter().map(|c| c[0] * a[0] + c[1] * a[1]);
        let b_min = along.clone().fold(f64::INFINITY, f64::min);
        let b_max = along.fold(f64::NEG_INFINITY, f64::max);
        for (depth, d) in [(s_max - b_min, a), (b_max - s_min, [-a[0], -a[1]])] {
            if depth < best.0 {
                best = (depth, d);
            }
        }
    }
    if best.0 <= 0.0 {
        return None;
    }
    if best.1[1] > 0.0 {
        return Some(best);
    }
    // From behind: the face push along +y over the columns above the segment, or the push out
    // past either end along the segment, whichever is smallest.
    let crossings: Vec<f64> = edges()
        .filter(|(p, q)| (p[1] <= 0.0) != (q[1] <= 0.0))
        .map(|(p, q)| p[0] + (q[0] - p[0]) * (0.0 - p[1]) / (q[1] - p[1]))
        .collect();
    let lo = crossings.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = crossings.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let bottom = |x: f64| {
        edges()
            .filter(|(p, q)| (p[0] <= x) != (q[0] <= x) || p[0] == x)
            .map(|(p, q)| {
                if q[0] == p[0] {
                    p[1].min(q[1])
                } else {
                    p[1] + (q[1] - p[1]) * (x - p[0]) / (q[0] - p[0])
                }
            })
            .fold(f64::INFINITY, f64::min)
    };
    // Every column of the polygon over the segment, also where it lies wholly behind the
    // segment: pushed along +y, it passes through the segment there too.
    let x_min = corners.iter().map(|c| c[0]).fold(f64::INFINITY, f64::min);
    let x_max = corners
        .iter()
        .map(|c| c[0])
        .fold(f64::NEG_INFINITY, f64::max);
    let (from, to) = (x_min.max(-length), x_max.min(0.0));
    let face = std::iter::once(from)
        .chain(std::iter::once(to))
        .chain(corners.iter().map(|c| c[0]).filter(|&x| x > from && x < to))
        .map(|x| -bottom(x))
        .fold(f64::NEG_INFINITY, f64::max);
    let candidates = [
        (face, [0.0, 1.0]),
        (0.0 - lo, [1.0, 0.0]),
        (hi + length, [-1.0, 0.0]),
    ];
    candidates
        .into_iter()
        .fold(None, |best: Option<(f64, [f64; 2])>, c| match best {
            Some(b) if b.0 <= c.0 => Some(b),
            _ => Some(c),
        })
}

/// Boxes of every size and tilt over the end of a one-segment ledge, centroid in front: the
/// depth is the exact smallest admissible push-out (the two-sided one where it points in front).
#[test]
fn boxes_at_an_open_end_get_the_smallest_admissible_push() {
    let mut rng = Rng(0x0e2d_1ed9e);
    let length = 1.0f32;
    let chain = ledge(length);
    let (mut behind, mut checked) = (0, 0);
    for case in 0..20_000 {
        let (hx, hy) = (rng.log_size(0.02, 3.0), rng.log_size(0.02, 3.0));
        let box_shape = Shape::from(Polygon::rect(2.0 * hx, 2.0 * hy).unwrap());
        let centre = v(rng.range(-0.5, 3.0), rng.range(1e-3, 2.0));
        let xf = Transform::new(centre, rng.angle());
        let corners: Vec<[f64; 2]> = [v(-hx, -hy), v(hx, -hy), v(hx, hy), v(-hx, hy)]
            .iter()
            .map(|&c| {
                let p = xf.apply(c);
                [f64::from(p.x), f64::from(p.y)]
            })
            .collect();
        let size = f64::from(hx.max(hy));
        let tolerance = 2e-5 * (size + 1.0);
        let m = collide(&chain, &Transform::IDENTITY, &box_shape, &xf);
        let Some((depth, direction)) = reference(&corners, f64::from(length)) else {
            assert!(
                m.is_empty() || f64::from(m.max_penetration()) <= tolerance,
                "case {case}: apart, got {m:?} for the box {hx} × {hy} at {xf:?}"
            );
            continue;
        };
        checked += 1;
        if direction[1] <= 0.0 {
            behind += 1;
        }
        let got = if m.is_empty() {
            0.0
        } else {
            f64::from(m.max_penetration())
        };
        assert!(
            (got - depth).abs() <= tolerance,
            "case {case}: depth {got}, exact {depth} along {direction:?} for the box {hx} × {hy} \
             at {xf:?}: {m:?}"
        );
        let turned = f64::from(m.normal.x) * direction[0] + f64::from(m.normal.y) * direction[1];
        assert!(
            depth <= tolerance || turned > 1.0 - 1e-3,
            "case {case}: normal {:?}, exact {direction:?} ({depth} deep) for the box {hx} × {hy} \
             at {xf:?}",
            m.normal
        );
    }
    println!("{checked} overlapping, {behind} from behind");
    assert!(
        checked > 1_500 && behind > 300,
        "{checked} overlapping, {behind} behind"
    );
}

/// A plank 6 × 0.5 leaning at 60° whose upper face meets the end of a ledge from behind (its
/// lower end below the ledge, its centroid 1.5 above): the end vertex is `shift` inside it along
/// the ledge. It is pushed out along the ledge by `shift`, growing from zero as it slides onto
/// the end, not up by the depth of its lower end below the ledge (about 1) nor along its own
/// face normal (behind the ledge).
#[test]
fn leaning_plank_meeting_an_open_end_from_behind_is_pushed_out_along_the_ledge() {
    let chain = ledge(1.0);
    let plank = Shape::from(Polygon::rect(6.0, 0.5).unwrap());
    let angle = 60f32.to_radians();
    // Where the upper face crosses the ledge's line, relative to the centre.
    let upright = Transform::new(v(0.0, 1.5), angle);
    let (p, q) = (upright.apply(v(-3.0, 0.25)), upright.apply(v(3.0, 0.25)));
    let crossing = p.x + (q.x - p.x) * (0.0 - p.y) / (q.y - p.y);
    for shift in [0.0f32, 1e-3, 0.01, 0.1, 0.3, 0.5] {
        let xf = Transform::new(v(-crossing - shift, 1.5), angle);
        let m = collide(&chain, &Transform::IDENTITY, &plank, &xf);
        let depth = if m.is_empty() {
            0.0
        } else {
            m.max_penetration()
        };
        assert!(
            (depth - shift).abs() < 2e-5,
            "{shift} inside: depth {depth}: {m:?}"
        );
        if shift > 0.0 {
            assert!((m.normal - Vec2::X).length() < 1e-5, "{m:?}");
            assert_eq!(m.count, 1, "{m:?}");
            // Midway between the end vertex and the plank's face along the ledge.
            assert!(
                (m.points[0].point - v(-0.5 * shift, 0.0)).length() < 2e-5,
                "{m:?}"
            );
        }
    }
}

/// The example that showed the jump: a polygon about 300 across over a chain 0.7 long, placed
/// touching it (two-sided depth 0) with its surface behind the chain's first segment and its
/// centroid in front. It reported nothing, then 117.9 deep after a rigid motion of a few ulps.
/// Expected: about zero deep under every rigid motion, and a depth that grows by no more than
/// the chain's movement into it.
#[test]
fn large_polygon_first_touching_a_short_chain_from_behind_is_not_deep() {
    let polygon = Shape::from(
        Polygon::new(&[
            v(-75.022514, 262.7365),
            v(292.47998, 46.217728),
            v(308.1301, 243.44202),
            v(0.15183258, 358.32352),
        ])
        .unwrap(),
    );
    let xf_a = Transform {
        p: v(-908.6166, -282.41052),
        q: Rot::try_from_cos_sin(0.780515, -0.62513703).unwrap(),
    };
    let chain = Shape::from(
        Chain::open(&[
            v(-0.36251956, 0.057548597),
            v(-0.12083985, -0.024831789),
            v(0.12083987, -0.021788897),
            v(0.36251956, -0.07387562),
        ])
        .unwrap(),
    );
    let xf_b = Transform {
        p: v(-697.4978, -308.87793),
        q: Rot::try_from_cos_sin(-0.570658, -0.8211878).unwrap(),
    };
    let mut rng = Rng(0x300);
    for motion in 0..200 {
        let motion = if motion == 0 {
            Transform::IDENTITY
        } else {
            Transform::new(rng.point(1e3), rng.angle())
        };
        let (a, b) = (motion.mul(&xf_a), motion.mul(&xf_b));
        let m = collide_speculative(&polygon, &a, &chain, &b, 0.0);
        assert!(
            m.is_empty() || m.max_penetration() < 2e-3,
            "motion {motion:?}: {m:?}"
        );
        // Moving the chain into the polygon along the two-sided normal.
        let plain = collide_speculative(
            &polygon,
            &a,
            &Shape::from(
                collide2d::shape::Segment::new(
                    v(-0.36251956, 0.057548597),
                    v(-0.12083985, -0.024831789),
                )
                .unwrap(),
            ),
            &b,
            1.0,
        );
        if plain.is_empty() {
            continue;
        }
        for step in [1e-3f32, 1e-2, 0.05] {
            let moved = Transform {
                p: b.p - plain.normal * step,
                q: b.q,
            };
            let m = collide_speculative(&polygon, &a, &chain, &moved, 0.0);
            let depth = if m.is_empty() {
                0.0
            } else {
                m.max_penetration()
            };
            assert!(
                depth <= 2.0 * step + 2e-3,
                "motion {motion:?}, {step} in: {depth} deep: {m:?}"
            );
        }
    }
}
