//! Faces resting on faces where a shape is rounded (a box on a rounded floor, a capsule lying
//! on a rounded ledge): moving both shapes together moves the manifold with them, with the
//! same number of points at the same places, and two faces resting on each other give two
//! points, whichever side of touching the cores are.
//!
//! The incident surface under a rounded edge is its deeper end's cap down to the point
//! straight below the core vertex, then the flat side; the clipping follows that whole path,
//! so an edge sliding over the end of the reference face keeps a point that moves with it
//! instead of one that vanishes while still deep (`clip_to_face` in `query/manifold/clip.rs`).

use crate::manifold_common::axis_gap::sat_axis_gap;
use crate::manifold_common::exact;
use crate::manifold_common::shape_size;
use crate::support::Rng;

use collide2d::query::{Feature, Manifold};
use collide2d::shape::{Capsule, Polygon, Segment, Shape};
use collide2d::{collide, Rot, Transform, Vec2};
use std::f32::consts::TAU;

/// A rounded (or, with radius 0, sharp) polygon with the given counter-clockwise vertices.
fn rounded(vertices: &[(f32, f32)], radius: f32) -> Shape {
    let outline: Vec<Vec2> = vertices.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
    Shape::from(Polygon::new(&outline).unwrap().with_radius(radius).unwrap())
}

fn capsule(a: (f32, f32), b: (f32, f32), radius: f32) -> Shape {
    Shape::from(Capsule::new(Vec2::new(a.0, a.1), Vec2::new(b.0, b.1), radius).unwrap())
}

fn segment(a: (f32, f32), b: (f32, f32)) -> Shape {
    Shape::from(Segment::new(Vec2::new(a.0, a.1), Vec2::new(b.0, b.1)).unwrap())
}

/// A placement from its translation and its rotation's cosine and sine, bit for bit.
fn placed(p: (f32, f32), (c, s): (f32, f32)) -> Transform {
    Transform {
        p: Vec2::new(p.0, p.1),
        q: Rot { c, s },
    }
}

/// Two shapes, their placements, and a rigid motion applied to both.
struct Case {
    a: Shape,
    xf_a: Transform,
    b: Shape,
    xf_b: Transform,
    motion: Transform,
}

/// `m` carried by `motion`.
fn moved(m: &Manifold, motion: &Transform) -> Manifold {
    let mut out = *m;
    out.normal = motion.rotate(m.normal);
    for point in &mut out.points[..m.count] {
        point.point = motion.apply(point.point);
    }
    out
}

/// The manifold of `case` and of `case` moved: each point of one within the crate's tolerance
/// (1e-4 × size, plus the rounding of coordinates as far out as the shapes are) of a point of
/// the other, in place and penetration (so the same number of points, but for a point no
/// deeper than the tolerance), and the same normal. `Err` says how not.
fn check_motion(case: &Case) -> Result<(Manifold, Manifold), String> {
    let Case {
        a,
        xf_a,
        b,
        xf_b,
        motion,
    } = case;
    let m = collide(a, xf_a, b, xf_b);
    let moved_a = motion.mul(xf_a);
    let moved_b = motion.mul(xf_b);
    let mm = collide(a, &moved_a, b, &moved_b);
    let expected = moved(&m, motion);
    let far = [xf_a.p, xf_b.p, moved_a.p, moved_b.p]
        .iter()
        .map(|p| p.abs().max_element())
        .fold(0.0, f32::max)
        + shape_size(a).max(shape_size(b));
    let mut tolerance = 1e-4 * shape_size(a).max(shape_size(b)) + 8.0 * f32::EPSILON * far;
    let mut angle_tolerance = 2e-3;
    // A corner (closest core vertices, one point): the normal is the line between the
    // vertices, which turns with the rounding of their offset when they are close, and the
    // point with it; the other side of the face's end gives the face's normal instead.
    let corner = |x: &Manifold| {
        x.count == 1
            && matches!(
                (x.points[0].id.a, x.points[0].id.b),
                (Feature::Vertex(_), Feature::Vertex(_))
            )
    };
    if corner(&m) || corner(&mm) {
        let radii = radius_of(a) + radius_of(b);
        let core_distance = (radii - m.max_penetration()).max(1e-9);
        angle_tolerance += 8.0 * f32::EPSILON * far / core_distance;
        tolerance += radii * angle_tolerance;
    }
    // A point at the margin (no deeper than the tolerance) may come and go with rounding.
    let matched = |x: &Manifold, y: &Manifold| {
        x.points().iter().all(|p| {
            p.penetration <= tolerance
                || y.points().iter().any(|q| {
                    (q.point - p.point).length() <= tolerance
                        && (q.penetration - p.penetration).abs() <= tolerance
                })
        })
    };
    if (expected.normal - mm.normal).length() > angle_tolerance
        || !matched(&expected, &mm)
        || !matched(&mm, &expected)
    {
        return Err(format!(
            "tolerance {tolerance}:\n  {expected:?}\nmoved:\n  {mm:?}"
        ));
    }
    Ok((m, mm))
}

/// Regressions: an incident edge whose flat side ends at a side plane of the reference face,
/// its deeper core vertex's cap reaching over the face. Clipping the flat side alone gave two
/// points (the cap's bottom and the flat side's clipped end) or, once the flat side had
/// slid past the plane (or within 1e-6 of the face's length of it), one: the clipped end
/// vanished with all its depth, as the frame's rounding moved it across.
#[test]
fn an_edge_ending_at_a_side_plane_keeps_its_points_under_motion() {
    let cases = [
        // `run_family(Kind::RoundedPolygon, Kind::RoundedPolygon, 5564148917952335436)` in `manifold_props.rs`.
        Case {
            a: rounded(
                &[
                    (-0.068141975, 0.009401358),
                    (-0.047089912, -0.018772017),
                    (0.052351505, 0.026324332),
                    (0.03324273, 0.05509106),
                    (0.008783171, 0.06408553),
                    (-0.02100382, 0.06589842),
                ],
                0.013726422,
            ),
            xf_a: placed((-25.843657, 31.2238), (-0.9997409, 0.022763105)),
            b: rounded(
                &[
                    (-0.031274598, 0.039165035),
                    (0.0038917235, -0.050108515),
                    (0.06973586, -0.009845815),
                    (0.058356155, 0.033847824),
                    (-0.011911713, 0.06051126),
                ],
                0.009997788,
            ),
            xf_b: placed((-25.88487, 31.260157), (-0.6074358, 0.7943688)),
            motion: placed((27.449799, -49.203556), (0.68481946, -0.7287128)),
        },
        // `run_family(Kind::RoundedPolygon, Kind::RoundedPolygon, 13969512705569057712)` in `manifold_props.rs`.
        Case {
            a: rounded(
                &[
                    (-0.07374498, -0.16601926),
                    (0.05886283, 0.21958452),
                    (0.029770803, 0.24868925),
                ],
                0.029342877,
            ),
            xf_a: placed((48.37294, 12.171818), (0.7320337, -0.6812684)),
            b: rounded(
                &[
                    (-0.17836374, -0.16762336),
                    (0.082267895, -0.11737287),
                    (0.14682299, 0.08338093),
                ],
                0.010656744,
            ),
            xf_b: placed((48.446346, 12.534131), (0.20632684, 0.97848314)),
            motion: placed((-22.126478, -2.6468163), (0.85389096, 0.520452)),
        },
        // `run_family(Kind::RoundedPolygon, Kind::RoundedPolygon, 887825896415285865)` in `manifold_props.rs`.
        Case {
            a: rounded(
                &[
                    (-0.17355356, 0.13408376),
                    (-0.028509732, -0.2336713),
                    (0.2772824, -0.01247381),
                    (0.17638202, 0.19068468),
                    (-0.060060564, 0.20027372),
                ],
                0.04997006,
            ),
            xf_a: placed((-23.834627, 32.467354), (-0.22720025, -0.97384804)),
            b: rounded(
                &[
                    (-2.517877, 0.6378874),
                    (-1.5762156, -2.2811117),
                    (1.1985552, -2.4951446),
                    (2.5241292, 1.4800456),
                    (0.37103713, 2.7436407),
                ],
                0.29032105,
            ),
            xf_b: placed((-21.437931, 34.175205), (0.6091135, 0.7930831)),
            motion: placed((19.44439, 31.492172), (-0.495728, 0.8684778)),
        },
        // `run_family(Kind::RoundedPolygon, Kind::Capsule, 6524720102552719319)` in `manifold_props.rs`.
        Case {
            a: rounded(
                &[
                    (-0.7502871, 0.1274006),
                    (0.31270996, -0.3625942),
                    (0.39769873, -0.36489365),
                    (0.5581905, 0.23871171),
                    (-0.46069124, 0.5393903),
                    (-0.7445648, 0.24445476),
                ],
                0.14205398,
            ),
            xf_a: placed((12.180973, 6.2334366), (0.7138306, -0.7003184)),
            b: capsule(
                (-0.085969396, 0.03594706),
                (0.0179393, -0.003264621),
                0.054209698,
            ),
            xf_b: placed((12.17249, 5.5162034), (0.99668956, -0.0813018)),
            motion: placed((0.6144333, -28.351677), (-0.9275352, 0.3737358)),
        },
        // `run_family(Kind::RoundedPolygon, Kind::Capsule, 9618569696780368772)` in `manifold_props.rs`.
        Case {
            a: rounded(
                &[
                    (-0.09977236, 0.026214845),
                    (-0.06362541, -0.056839854),
                    (0.0018024631, -0.10326424),
                    (0.10354955, -0.029793017),
                    (0.045967966, 0.06436282),
                ],
                0.04190677,
            ),
            xf_a: placed((41.151497, 20.810387), (-0.33525467, -0.9421275)),
            b: capsule(
                (-0.046228267, -0.124691285),
                (0.20267189, 0.12966505),
                0.13230295,
            ),
            xf_b: placed((41.151287, 20.9706), (0.19354036, 0.98109233)),
            motion: placed((-16.99775, -33.640923), (0.24231151, -0.9701985)),
        },
        // `run_family(Kind::RoundedPolygon, Kind::Capsule, 16270856623904366478)` in `manifold_props.rs`.
        Case {
            a: rounded(
                &[
                    (-0.1404309, -0.028021855),
                    (0.06348483, -0.17282978),
                    (0.0262197, 0.13784869),
                ],
                0.014012319,
            ),
            xf_a: placed((41.75679, 2.2066536), (-0.9096602, -0.41535315)),
            b: capsule(
                (-0.03819015, 0.22230737),
                (0.009539078, -0.17270459),
                0.10514973,
            ),
            xf_b: placed((41.85122, 1.9331626), (-0.9998526, -0.017170865)),
            motion: placed((32.798134, 35.062096), (0.99023455, -0.13941154)),
        },
        // `run_family(Kind::Segment, Kind::RoundedPolygon, 7888692470405023376)` in `manifold_props.rs`.
        Case {
            a: segment((0.4356652, 0.03837022), (-0.40222186, -0.013397684)),
            xf_a: placed((25.519875, -12.093418), (-0.8389942, -0.5441404)),
            b: rounded(
                &[
                    (-0.076826975, 0.0025811195),
                    (0.050060265, -0.090916045),
                    (-0.0010017925, 0.06381317),
                ],
                0.025185935,
            ),
            xf_b: placed((25.13265, -12.316118), (-0.5119417, -0.8590202)),
            motion: placed((-41.715443, -1.7238388), (0.77356505, -0.63371694)),
        },
        // `run_family(Kind::RoundedPolygon, Kind::Polygon, 11045610983358379822)` in `manifold_props.rs`.
        Case {
            a: rounded(
                &[
                    (-0.13723616, -0.010600459),
                    (-0.13177781, -0.03811117),
                    (-0.08259807, -0.06411011),
                    (-0.064114265, -0.06935317),
                    (0.07579123, -0.031477645),
                    (0.05834244, 0.042675123),
                    (-0.09942226, 0.071027994),
                ],
                0.0393535,
            ),
            xf_a: placed((16.987022, 37.6167), (0.55542105, 0.83156925)),
            b: rounded(
                &[
                    (-0.116825454, -0.03255629),
                    (-0.103306174, -0.050512627),
                    (0.0054970216, -0.12054644),
                    (0.0881593, 0.017968258),
                    (0.10116566, 0.05180171),
                ],
                0.0,
            ),
            xf_b: placed((16.985182, 37.417267), (0.8015889, 0.5978756)),
            motion: placed((-40.046936, 37.01982), (-0.8283253, 0.5602475)),
        },
    ];
    for (index, case) in cases.iter().enumerate() {
        let (m, _) = check_motion(case).unwrap_or_else(|e| panic!("case {index}: {e}"));
        assert_eq!(m.count, 2, "case {index}: {m:?}");
    }
}

/// A shape whose straight side can rest on a face: a rounded polygon (a box or, with
/// `outline`, a random outline), a capsule or a segment, about `size` across (`long`: about
/// ten times longer).
fn resting_shape(rng: &mut Rng, size: f32, long: bool, radius: f32, outline: bool) -> Shape {
    let stretch = if long { 10.0 } else { 1.0 };
    let kind = if outline {
        rng.below(4)
    } else {
        [0, 2, 3][rng.below(3)]
    };
    match kind {
        0 => {
            let outline = Polygon::rect(
                size * stretch * rng.range(0.4, 1.0),
                size * rng.range(0.3, 1.0),
            );
            Shape::from(outline.unwrap().with_radius(radius).unwrap())
        }
        1 => {
            let outline =
                crate::manifold_common::random_polygon(0.5 * size * stretch, Vec2::ZERO, rng);
            Shape::from(outline.with_radius(radius).unwrap())
        }
        2 => {
            let half = 0.5 * size * stretch * rng.range(0.4, 1.0);
            Shape::from(Capsule::new(Vec2::new(-half, 0.0), Vec2::new(half, 0.0), radius).unwrap())
        }
        _ => {
            let half = 0.5 * size * stretch * rng.range(0.4, 1.0);
            Shape::from(Segment::new(Vec2::new(-half, 0.0), Vec2::new(half, 0.0)).unwrap())
        }
    }
}

/// A shape's core outline: counter-clockwise vertices and each edge's outward normal (a
/// capsule's or segment's core is a two-vertex outline, its edges the two sides).
fn core_outline(shape: &Shape) -> (Vec<Vec2>, Vec<Vec2>) {
    match shape {
        Shape::Capsule(c) => two_sided(c.a(), c.b()),
        Shape::Segment(s) => two_sided(s.a(), s.b()),
        Shape::Polygon(p) => (p.vertices().to_vec(), p.normals().to_vec()),
        _ => unreachable!("only polygons, capsules and segments here"),
    }
}

fn two_sided(a: Vec2, b: Vec2) -> (Vec<Vec2>, Vec<Vec2>) {
    let direction = (b - a).normalize();
    let side = Vec2::new(direction.y, -direction.x);
    (vec![a, b], vec![side, -side])
}

fn radius_of(shape: &Shape) -> f32 {
    match shape {
        Shape::Capsule(c) => c.radius(),
        Shape::Polygon(p) => p.radius(),
        _ => 0.0,
    }
}

/// A shape resting with a straight side on a face of a longer one, in the longer one's frame,
/// tilted by up to 1e-3 rad (at a face end, half the time up to 0.5 rad): either well inside the face (`inside`), its lower core vertex
/// from 1e-4 × size below to 1e-4 × size above a polygon face's core line (across the switch
/// between overlapping and separated cores), or with one end of its side just inside the
/// face's end, within the cap's reach; on the rounding where noted below, clear of the rounding of
/// coordinates as far out as `far`. At least one of the two is rounded. `None` when the draw
/// does not fit.
fn resting_pair(rng: &mut Rng, inside: bool, far: f32) -> Option<(Shape, Shape, Transform, f32)> {
    let size = rng.log_size(0.1, 10.0);
    let radius = |rng: &mut Rng| {
        if rng.chance(0.25) {
            0.0
        } else {
            size * rng.log_size(0.01, 0.5)
        }
    };
    let (radius_base, radius_top) = (radius(rng), radius(rng));
    // At a face end, no random outlines: two nearly collinear sides meeting there have nearly
    // equal normals, and which is the reference face or the incident edge then turns on
    // rounding, a choice this test does not probe.
    let base = resting_shape(rng, size, true, radius_base, inside);
    let top = resting_shape(rng, size, false, radius_top, inside);
    let radius_top = radius_of(&top);
    if radius_of(&base) + radius_top < 0.01 * size {
        return None;
    }

    // The face of the base and the side of the top that rests on it.
    let (base_vertices, base_normals) = core_outline(&base);
    let (top_vertices, top_normals) = core_outline(&top);
    if !inside && base_vertices.len() == 2 && top_vertices.len() == 2 {
        // Two segment cores near parallel take the capsule pair's own clipping, not this one.
        return None;
    }
    let face = rng.below(base_vertices.len());
    let (v1, v2) = (
        base_vertices[face],
        base_vertices[(face + 1) % base_vertices.len()],
    );
    let face_normal = base_normals[face];
    let side = rng.below(top_vertices.len());
    let side_normal = top_normals[side];
    // Resting: up to 1e-3 rad. At a face end also tilted as far as 0.5 rad, where the cap
    // reaches furthest over the side plane beyond the flat side.
    let tilt = if inside || rng.chance(0.5) {
        rng.range(-1e-3, 1e-3)
    } else {
        rng.range(-0.5, 0.5)
    };
    let wanted = (-face_normal).y.atan2((-face_normal).x) + tilt;
    let rotation = Rot::from_angle(wanted - side_normal.y.atan2(side_normal.x));
    let (w1, w2) = (
        rotation.rotate(top_vertices[side]),
        rotation.rotate(top_vertices[(side + 1) % top_vertices.len()]),
    );

    // Height: the lowest core vertex of the top at `gap` above the face's core line.
    let lowest = top_vertices
        .iter()
        .map(|&v| face_normal.dot(rotation.rotate(v)))
        .fold(f32::INFINITY, f32::min);
    // Well inside a polygon's face: across the switch. At a face end, or on a capsule or a
    // segment: on the rounding, the cores clearly apart (two corners whose cores nearly
    // coincide have no stable normal, and a core crossing a segment core by rounding may lie
    // on either side of it).
    let two_vertex_base = base_vertices.len() == 2;
    let gap = if inside && !two_vertex_base {
        rng.range(-1e-4, 1e-4) * size
    } else {
        let radii = radius_of(&base) + radius_top;
        let gap = rng.range(0.02, 0.5) * radii;
        if gap < 64.0 * f32::EPSILON * far {
            return None;
        }
        gap
    };
    // Along the face: the side's middle well inside, or one of its ends near a face end.
    let tangent = (v2 - v1).normalize();
    let length = (v2 - v1).length();
    let (t1, t2) = (w1.dot(tangent), w2.dot(tangent));
    let shift = if inside {
        let middle = 0.5 * (t1 + t2);
        rng.range(0.3, 0.7) * length - middle
    } else {
        let end = if rng.chance(0.5) { t1 } else { t2 };
        // Inside the face by up to twice the cap's reach beyond its flat side: the flat side
        // ends beyond the side plane or within a hair of it while the cap reaches over it.
        // (At least 1e-3 × size inside: a corner on a corner has the ill-defined normal of
        // two nearly coincident core vertices.)
        let reach = 2.0 * radius_top * tilt.abs().sin();
        let inward = 1e-3 * size + rng.range(0.0, reach);
        if rng.chance(0.5) {
            inward - end
        } else {
            length - inward - end
        }
    };
    let (low_t, high_t) = (t1.min(t2) + shift, t1.max(t2) + shift);
    if inside && (low_t < 0.05 * length || high_t > 0.95 * length) {
        return None;
    }
    let p = v1 + tangent * shift + face_normal * (gap - lowest);
    Some((base, top, Transform { p, q: rotation }, size))
}

/// The class of the regressions above, and the rest a game most often shows: shapes resting
/// face on face around touching cores, far from the origin, give the same manifold moved; and
/// a side well inside the face gives two points.
#[test]
fn faces_resting_around_touching_cores_give_the_same_manifold_moved() {
    let mut rng = Rng(0x5eed_f0ce_e11d_0001);
    let (mut checked, mut two_points) = (0, 0);
    for round in 0..40_000 {
        let inside = round % 2 == 0;
        let xf_base = Transform::new(rng.point(1e3), rng.range(0.0, TAU));
        let far = xf_base.p.abs().max_element() + 1e3;
        let Some((base, top, top_in_base, _size)) = resting_pair(&mut rng, inside, far) else {
            continue;
        };
        let xf_top = xf_base.mul(&top_in_base);
        let motion = Transform::new(rng.point(1e3), rng.range(0.0, TAU));
        let case = if rng.chance(0.5) {
            Case {
                a: base,
                xf_a: xf_base,
                b: top,
                xf_b: xf_top,
                motion,
            }
        } else {
            Case {
                a: top,
                xf_a: xf_top,
                b: base,
                xf_b: xf_base,
                motion,
            }
        };
        // Two faces nearly tied for the reference (a tilted side against a face): which one
        // is taken turns on rounding, and the normal with it (as in `manifold_props.rs`).
        let scale = shape_size(&case.a).max(shape_size(&case.b));
        if sat_axis_gap(&case.a, &case.xf_a, &case.b, &case.xf_b) <= 1e-3 * scale {
            continue;
        }
        let (m, mm) = check_motion(&case).unwrap_or_else(|e| {
            panic!(
                "round {round}: {:?} at {:?} and {:?} at {:?}, moved by {:?}: {e}",
                case.a, case.xf_a, case.b, case.xf_b, case.motion
            )
        });
        checked += 1;
        if inside {
            assert!(
                m.count == 2 && mm.count == 2,
                "round {round}: face on face gave {m:?} and, moved, {mm:?}"
            );
            two_points += 1;
        }
    }
    println!("{checked} placements, {two_points} well inside the face");
    assert!(checked > 15_000 && two_points > 8_000);
}

/// Whether moving B along `m`'s normal by its deepest penetration plus `slack` leaves the
/// shapes apart or touching, measured exactly in `f64` (the push itself in `f64`, so that it
/// is not rounded away at large coordinates). `Err` gives the exact depth left.
fn push_separates(
    a: &Shape,
    xf_a: &Transform,
    b: &Shape,
    xf_b: &Transform,
    m: &Manifold,
    slack: f32,
) -> Result<(), f64> {
    let origin = xf_a.p;
    let (Some(core_a), Some(core_b)) = (exact::core(a, xf_a, origin), exact::core(b, xf_b, origin))
    else {
        return Ok(());
    };
    let push = f64::from(m.max_penetration()) + f64::from(slack);
    let pushed = core_b.shifted([f64::from(m.normal.x) * push, f64::from(m.normal.y) * push]);
    let left = exact::exact(&core_a, &pushed).depth;
    if left > 0.0 {
        return Err(left);
    }
    Ok(())
}

/// Regression: a steep segment whose deeper vertex lies just beyond the end of a rounded
/// polygon's face, inside the end vertex's cap. Clipped at the face's side plane, the segment
/// kept the depth it has there (0.3253) while its vertex just beyond sinks 0.3386 into the
/// cap, and pushing the shapes apart by the reported depth left them overlapping.
/// `run_family(Kind::Segment, Kind::RoundedPolygon, 5407445972502201373)` in `manifold_props.rs`.
#[test]
fn a_steep_segment_beyond_a_rounded_face_end_reports_the_cap_depth() {
    let a = segment((-0.07082554, -0.04218177), (0.09088766, -0.07535447));
    let xf_a = placed((-6.9890785, 10.035877), (-0.598067, -0.8014461));
    let b = rounded(
        &[
            (-0.9265907, 1.1465671),
            (-0.45156807, -1.4396317),
            (1.2919954, 0.113646545),
            (1.2502172, 1.2489907),
            (0.33239496, 1.2651727),
            (-0.35558784, 1.2104259),
        ],
        0.6734005,
    );
    let xf_b = placed((-8.090465, 8.760202), (0.61240643, -0.7905431));
    for (a, xf_a, b, xf_b) in [(&a, &xf_a, &b, &xf_b), (&b, &xf_b, &a, &xf_a)] {
        let m = collide(a, xf_a, b, xf_b);
        assert!(!m.is_empty());
        // The exact depth along the reported normal is the segment's vertex in the cap.
        assert!(
            (m.max_penetration() - 0.33856).abs() < 1e-4,
            "depth {} in {m:?}",
            m.max_penetration()
        );
        let slack = 1e-4 * shape_size(a).max(shape_size(b));
        if let Err(left) = push_separates(a, xf_a, b, xf_b, &m, slack) {
            panic!("still {left} deep after the push: {m:?}");
        }
    }
}

/// Segments and capsules at 0.3 to 1.5 rad to a rounded polygon's face, their lower end near
/// the face's end (before it, or beyond it within the end vertex's cap), at scales 0.1 to 10
/// and up to 1e3 from the origin, in both orders: moving B along the normal by the reported
/// depth (plus 1e-4 of the size and the rounding of coordinates that far out) separates the
/// shapes, measured exactly.
#[test]
fn steep_edges_crossing_a_rounded_face_end_are_pushed_clear_by_their_depth() {
    let mut rng = Rng(0x5EE9_FACE);
    let mut contacts = 0;
    let mut failures = Vec::new();
    for case in 0..60_000 {
        let scale = rng.log_size(0.1, 10.0);
        // A convex polygon: vertices at increasing angles around an ellipse.
        let count = 3 + (rng.next_u64() % 4) as usize;
        let (wide, tall) = (rng.range(0.5, 1.0) * scale, rng.range(0.5, 1.0) * scale);
        let start = rng.range(0.0, TAU);
        let vertices: Vec<(f32, f32)> = (0..count)
            .map(|k| {
                let angle = start + (k as f32 + rng.range(-0.3, 0.3)) * TAU / count as f32;
                (wide * angle.cos(), tall * angle.sin())
            })
            .collect();
        let radius = rng.range(0.05, 0.6) * scale;
        let polygon = rounded(&vertices, radius);
        // The face from vertex i to i + 1 and one of its ends.
        let i = (rng.next_u64() % count as u64) as usize;
        let (v0, v1) = (
            Vec2::from(vertices[i]),
            Vec2::from(vertices[(i + 1) % count]),
        );
        let tangent = (v1 - v0).normalize();
        let normal = Vec2::new(tangent.y, -tangent.x);
        let (end, outward) = if rng.next_u64() % 2 == 0 {
            (v1, tangent)
        } else {
            (v0, -tangent)
        };
        // The edge's lower end: up to 0.3 of the radius before the end, or beyond it by 1e-5
        // to 0.95 of the radius (spread evenly in its logarithm), below the cap's surface there
        // or a little above it.
        let beyond = if rng.next_u64() % 4 == 0 {
            rng.range(-0.3, 0.0) * radius
        } else {
            10f32.powf(rng.range(-5.0, 0.0)) * 0.95 * radius
        };
        let cap = (radius * radius - beyond.max(0.0).powi(2)).max(0.0).sqrt();
        let edge_radius = if rng.next_u64() % 2 == 0 {
            0.0
        } else {
            rng.range(0.0, 0.3) * radius
        };
        let height = rng.range(-0.5 * radius, cap + 0.05 * radius) + edge_radius;
        let low = end + outward * beyond + normal * height;
        let angle = rng.range(0.3, 1.5);
        let lean = if rng.next_u64() % 2 == 0 { 1.0 } else { -1.0 };
        let length = rng.range(0.3, 2.0) * scale;
        let high = low + (outward * (lean * angle.cos()) + normal * angle.sin()) * length;
        let edge = if edge_radius > 0.0 {
            capsule((low.x, low.y), (high.x, high.y), edge_radius)
        } else {
            segment((low.x, low.y), (high.x, high.y))
        };
        // Both in the polygon's frame, then placed together far out.
        let place = Transform::new(
            Vec2::new(rng.range(-1e3, 1e3), rng.range(-1e3, 1e3)),
            rng.range(0.0, TAU),
        );
        let (xf_polygon, xf_edge) = (place, place);
        let far = place.p.abs().max_element() + 3.0 * scale;
        for (a, xf_a, b, xf_b) in [
            (&polygon, &xf_polygon, &edge, &xf_edge),
            (&edge, &xf_edge, &polygon, &xf_polygon),
        ] {
            let m = collide(a, xf_a, b, xf_b);
            if m.is_empty() {
                continue;
            }
            contacts += 1;
            let slack = 1e-4 * shape_size(a).max(shape_size(b)) + 8.0 * f32::EPSILON * far;
            if let Err(left) = push_separates(a, xf_a, b, xf_b, &m, slack) {
                failures.push(format!(
                    "case {case}: still {left} deep after the push\n  A = {a:?} at {xf_a:?}\n  B = {b:?} at {xf_b:?}\n  {m:?}"
                ));
            }
        }
    }
    assert!(contacts > 60_000, "only {contacts} contacts");
    assert!(
        failures.is_empty(),
        "{} of {contacts} pushes leave the shapes overlapping; first:\n{}",
        failures.len(),
        failures[0]
    );
}
