//! Continuous bars and bullets that spin between updates, about the origin or 1e3..1e6 out,
//! against an exact `f64` reference.
//!
//! Each case is one world: a post (circle, capsule or thin box, 0.2–3 long) either still or
//! itself continuous, moving up to 1e4 the other way and turning up to ±20 rad, and a
//! continuous bar or bullet of the same kinds moved 1e2..1e5 in one update past it (up to 4 to
//! either side of its path), turning up to ±3 rad by the shortest turn or ±100 rad stated with
//! `set_transform_spinning`. The reference places both shapes in `f64` along the world's sweeps
//! (from the stored `f32` placements) and finds, by conservative advancement on the exact signed
//! distance (separating-axis depth when the cores overlap), the first time the gap falls to
//! `-allow` (a touch that must be reported) and to `+allow` (the earliest a report may come),
//! where `allow` is the sweep's tolerance plus the rounding of the coordinates and turns. A
//! `Begin` must come when the first exists, not come when the second does not, and carry a time
//! between the two.

use crate::support::{Rng, BROAD_PHASES};
use collide2d::shape::{Capsule, Circle, Polygon, Shape};
use collide2d::world::{Collider, CollisionEvent, World};
use collide2d::{Transform, Vec2};

/// A point in `f64`.
type P = (f64, f64);
fn sub(a: P, b: P) -> P {
    (a.0 - b.0, a.1 - b.1)
}
fn dot(a: P, b: P) -> f64 {
    a.0 * b.0 + a.1 * b.1
}
fn cross(a: P, b: P) -> f64 {
    a.0 * b.1 - a.1 * b.0
}
fn len(a: P) -> f64 {
    dot(a, a).sqrt()
}
fn pseg(p: P, a: P, b: P) -> f64 {
    let d = sub(b, a);
    let l = dot(d, d);
    let t = if l == 0.0 {
        0.0
    } else {
        (dot(sub(p, a), d) / l).clamp(0.0, 1.0)
    };
    len(sub(p, (a.0 + d.0 * t, a.1 + d.1 * t)))
}
fn cross_seg(a: P, b: P, c: P, d: P) -> bool {
    let d1 = cross(sub(b, a), sub(c, a));
    let d2 = cross(sub(b, a), sub(d, a));
    let d3 = cross(sub(d, c), sub(a, c));
    let d4 = cross(sub(d, c), sub(b, c));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}
fn segs(p: &[P]) -> Vec<(P, P)> {
    match p.len() {
        1 => vec![(p[0], p[0])],
        2 => vec![(p[0], p[1])],
        n => (0..n).map(|i| (p[i], p[(i + 1) % n])).collect(),
    }
}
fn inside(q: P, p: &[P]) -> bool {
    p.len() >= 3
        && (0..p.len()).all(|i| cross(sub(p[(i + 1) % p.len()], p[i]), sub(q, p[i])) >= 0.0)
}
fn axes(p: &[P]) -> Vec<P> {
    let mut v = vec![];
    for (a, b) in segs(p) {
        let d = sub(b, a);
        let l = len(d);
        if l > 0.0 {
            v.push((d.1 / l, -d.0 / l));
            v.push((-d.1 / l, d.0 / l));
            v.push((d.0 / l, d.1 / l));
            v.push((-d.0 / l, -d.1 / l));
        }
    }
    v
}
/// Signed distance between convex hulls of a and b (CCW if >= 3 points).
fn core_gap(a: &[P], b: &[P]) -> f64 {
    let sa = segs(a);
    let sb = segs(b);
    let overlap = sa
        .iter()
        .any(|&(p, q)| sb.iter().any(|&(r, s)| cross_seg(p, q, r, s)))
        || a.iter().any(|&q| inside(q, b))
        || b.iter().any(|&q| inside(q, a));
    if !overlap {
        let mut d = f64::INFINITY;
        for &(p, q) in &sa {
            for &(r, s) in &sb {
                d = d
                    .min(pseg(p, r, s))
                    .min(pseg(q, r, s))
                    .min(pseg(r, p, q))
                    .min(pseg(s, p, q));
            }
        }
        return d;
    }
    let mut best = f64::NEG_INFINITY;
    for n in axes(a).into_iter().chain(axes(b)) {
        let amax = a
            .iter()
            .map(|&p| dot(p, n))
            .fold(f64::NEG_INFINITY, f64::max);
        let bmin = b.iter().map(|&p| dot(p, n)).fold(f64::INFINITY, f64::min);
        best = best.max(bmin - amax);
    }
    best.min(0.0)
}
#[derive(Clone)]
struct Body {
    pts: Vec<P>,
    r: f64,
    p0: P,
    p1: P,
    a0: f64,
    turn: f64,
    reach: f64,
}
impl Body {
    fn at(&self, t: f64) -> Vec<P> {
        let a = self.a0 + self.turn * t;
        let (s, c) = a.sin_cos();
        let o = (
            self.p0.0 + (self.p1.0 - self.p0.0) * t,
            self.p0.1 + (self.p1.1 - self.p0.1) * t,
        );
        self.pts
            .iter()
            .map(|&(x, y)| (o.0 + c * x - s * y, o.1 + s * x + c * y))
            .collect()
    }
}
fn gap(a: &Body, b: &Body, t: f64) -> f64 {
    core_gap(&a.at(t), &b.at(t)) - a.r - b.r
}
/// First t where gap <= level by conservative advancement.
fn first(a: &Body, b: &Body, level: f64) -> Option<f64> {
    let v = len(sub(sub(a.p1, a.p0), sub(b.p1, b.p0)));
    let bound = v + a.turn.abs() * a.reach + b.turn.abs() * b.reach;
    let mut t = 0.0;
    for _ in 0..2_000_000 {
        let g = gap(a, b, t);
        if g <= level {
            return Some(t);
        }
        t += (g - level) / bound * 0.999 + 1e-15;
        if t > 1.0 {
            let g = gap(a, b, 1.0);
            return (g <= level).then_some(1.0);
        }
    }
    panic!("stuck");
}
fn shape_of(rng: &mut Rng, long: f32) -> (Shape, Vec<P>, f64) {
    let thick = rng.log_size(0.01, 0.2);
    match rng.below(3) {
        0 => (
            Shape::from(Circle::with_radius(thick).unwrap()),
            vec![(0.0, 0.0)],
            thick as f64,
        ),
        1 => {
            let s = Shape::from(
                Capsule::new(Vec2::new(-long, 0.0), Vec2::new(long, 0.0), thick * 0.5).unwrap(),
            );
            (
                s,
                vec![(-long as f64, 0.0), (long as f64, 0.0)],
                (thick * 0.5) as f64,
            )
        }
        _ => {
            let p = Polygon::rect(2.0 * long, thick).unwrap();
            let pts: Vec<P> = p
                .vertices()
                .iter()
                .map(|v| (v.x as f64, v.y as f64))
                .collect();
            (Shape::from(p), pts, 0.0)
        }
    }
}
#[test]
fn spinning_bars_and_bullets_far_out_touch_posts_and_each_other_at_the_reference_time() {
    let mut stats = [0usize; 6];
    let n: u64 = 6000;
    let mut failures = Vec::new();
    for seed in 0..n {
        let mut rng = Rng(seed * 7 + 1);
        let kind = BROAD_PHASES[seed as usize % 3];
        let mut world = World::with_broad_phase(kind).unwrap();
        let far = [0.0f32, 1e3, 1e4, 1e5, 1e6][rng.below(5)];
        let c = Vec2::new(far * rng.range(-1.0, 1.0), far * rng.range(-1.0, 1.0));
        // Post: still or moving the other way.
        let l1 = rng.range(0.2, 3.0);
        let (ps, ppts, pr) = shape_of(&mut rng, l1);
        let l2 = rng.range(0.2, 3.0);
        let (bs, bpts, br) = shape_of(&mut rng, l2);
        let speed = rng.log_size(1e2, 1e5);
        let dir = {
            let a = rng.angle();
            Vec2::new(a.cos(), a.sin())
        };
        let side = Vec2::new(-dir.y, dir.x) * rng.range(-4.0, 4.0);
        let b_start = Transform::new(c - dir * speed * rng.range(0.2, 0.8) + side, rng.angle());
        let b_end_p = b_start.p + dir * speed;
        let turn = if rng.below(2) == 0 {
            rng.range(-100.0, 100.0)
        } else {
            rng.range(-3.0, 3.0)
        };
        let b_end = Transform::new(b_end_p, b_start.angle() + turn);
        let post_moves = rng.below(3) == 0;
        let p_start = Transform::new(c, rng.angle());
        let p_turn = if post_moves {
            rng.range(-20.0, 20.0)
        } else {
            0.0
        };
        let p_delta = if post_moves {
            -dir * rng.log_size(1.0, 1e4)
        } else {
            Vec2::ZERO
        };
        let p_end = Transform::new(c + p_delta, p_start.angle() + p_turn);
        let post = world
            .insert(
                Collider::new(ps)
                    .with_transform(p_start)
                    .with_continuous(post_moves),
            )
            .unwrap();
        let bullet = world
            .insert(
                Collider::new(bs)
                    .with_transform(b_start)
                    .with_continuous(true),
            )
            .unwrap();
        world.update();
        if !world.events().is_empty() {
            stats[5] += 1;
            continue;
        }
        world.set_transform_spinning(bullet, b_end, turn).unwrap();
        if post_moves {
            world.set_transform_spinning(post, p_end, p_turn).unwrap();
        } else {
            world.set_transform(post, p_end).unwrap();
        }
        world.update();
        let ev: Vec<_> = world.events().to_vec();
        let got = ev.iter().find_map(|e| match e {
            CollisionEvent::Begin { time_of_impact, .. } => {
                Some(time_of_impact.map_or(1.0, |t| t.get() as f64))
            }
            _ => None,
        });
        // reference bodies from stored f32
        let body = |pts: Vec<P>, r: f64, s: Transform, e: Transform, stated: f32| {
            let a0 = (s.q.s as f64).atan2(s.q.c as f64);
            let a1 = (e.q.s as f64).atan2(e.q.c as f64);
            let tau = std::f64::consts::TAU;
            let short = (a1 - a0 + std::f64::consts::PI).rem_euclid(tau) - std::f64::consts::PI;
            let turn = short + tau * ((stated as f64 - short) / tau).round();
            let reach = pts.iter().map(|&p| len(p)).fold(0.0, f64::max);
            Body {
                pts,
                r,
                p0: (s.p.x as f64, s.p.y as f64),
                p1: (e.p.x as f64, e.p.y as f64),
                a0,
                turn: if s.q == e.q { 0.0 } else { turn },
                reach,
            }
        };
        let stored_b = world.get(bullet).unwrap().transform();
        let stored_p = world.get(post).unwrap().transform();
        let bb = body(bpts, br, b_start, stored_b, turn);
        let pb = body(
            ppts,
            pr,
            if post_moves { p_start } else { stored_p },
            stored_p,
            p_turn,
        );
        let mag = [b_start.p, stored_b.p, p_start.p, stored_p.p]
            .iter()
            .map(|p| p.abs().max_element())
            .fold(0.0f32, f32::max)
            .max(speed);
        let tol = (mag * 4.0 * f32::EPSILON).max(1e-5) as f64;
        let slack = (mag * 8.0 * f32::EPSILON) as f64
            + 2e-6 * (1.0 + (turn.abs() + p_turn.abs()) as f64) * (bb.reach + pb.reach);
        let allow = tol + slack;
        let must = first(&bb, &pb, -allow);
        let may = first(&bb, &pb, allow);
        stats[0] += 1;
        match (got, must, may) {
            (None, Some(m), _) => {
                stats[1] += 1;
                failures.push(format!("TUNNEL seed {seed} far {far} speed {speed} turn {turn} post_moves {post_moves} must {m}"));
            }
            (Some(g), _, None) => {
                stats[2] += 1;
                failures.push(format!("FALSE seed {seed} far {far} speed {speed} turn {turn} post_moves {post_moves} got {g}"));
            }
            (Some(g), m, Some(y)) => {
                let late = m.is_some_and(|m| g > m + 1e-6);
                let early = g < y - 1e-6;
                if late || early {
                    stats[3] += 1;
                    failures.push(format!("TIME seed {seed} far {far} speed {speed} turn {turn} post_moves {post_moves} got {g} may {y} must {m:?} gap_at_got {}", gap(&bb,&pb,g)));
                } else {
                    stats[4] += 1;
                }
            }
            _ => {}
        }
    }
    assert!(stats[4] > n as usize / 5 && stats[5] == 0, "{stats:?}");
    crate::support::assert_no_failures(&failures, n as usize, 10);
}
