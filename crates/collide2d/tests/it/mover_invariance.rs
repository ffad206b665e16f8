//! Character movement seen from every frame: seeded sweeps over body kinds (circle, capsule,
//! box, rounded box, polygon) from 0.05 to 50 units, near the origin and up to 1e5 from it,
//! in scenes of boxes, polygons, segments, chains, compounds and tile maps. Each scene is run
//! as built, turned by a quarter, a half and an arbitrary angle (with `up` turned alike) and
//! mirrored (x → −x); every property is checked in every frame, and every frame's motion,
//! turned back, is compared with the unturned one's.
//!
//! The tolerances come from `f32` rounding at the scene's magnitude ([`Case::slack`]): the
//! casts stop within their tolerance of the skin, and placing a scene turned rounds each
//! coordinate to its spacing.

use crate::character_mover::depth;
use crate::mover_edges::collinear_piece;
use crate::mover_scale::{spacing, SKIN_SPACINGS};
use crate::support::{assert_no_failures, Rng};

use collide2d::glam::DVec2;
use collide2d::level::{Tile, TileMap};
use collide2d::shape::{Capsule, Chain, Circle, Compound, Polygon, Segment, Shape};
use collide2d::world::{
    Collider, ColliderHandle, MoveOptions, TileGeometry, TileMapColliders, World,
};
use collide2d::{Rot, Transform, Vec2};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// A place far from the origin for a scene of characters `size` across: at a distance drawn
/// log-uniformly from `nearest` to 1e5 (no further than 1e5 sizes), in a random direction.
pub(crate) fn far_origin(rng: &mut Rng, nearest: f32, size: f32) -> Vec2 {
    let distance = rng.log_size(nearest, 1.0e5).min(1.0e5 * size);
    let angle = rng.angle();
    v(distance * angle.cos(), distance * angle.sin())
}

// ---------------------------------------------------------------------------------------------
// Frames, scenes and runs.

thread_local! {
    /// Whether the open cases run (see [`the_open_cases_of_every_sweep`]): far from the origin
    /// every frame (else only as built), random polygons falling along stacked boxes, ceilings
    /// far from the origin.
    static OPEN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn open() -> bool {
    OPEN.with(|open| open.get())
}

/// Where a scene is placed: its origin, a turn (as cosine and sine), and whether it is
/// mirrored (x → −x, before the turn).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    pub(crate) origin: Vec2,
    cos: f32,
    sin: f32,
    pub(crate) mirror: bool,
}

impl Frame {
    pub(crate) fn new(origin: Vec2, (cos, sin): (f32, f32), mirror: bool) -> Frame {
        Frame {
            origin,
            cos,
            sin,
            mirror,
        }
    }
    pub(crate) fn dir(&self, d: Vec2) -> Vec2 {
        let d = if self.mirror { v(-d.x, d.y) } else { d };
        v(
            self.cos * d.x - self.sin * d.y,
            self.sin * d.x + self.cos * d.y,
        )
    }
    pub(crate) fn point(&self, p: Vec2) -> Vec2 {
        self.origin + self.dir(p)
    }
    /// A world displacement back in the scene's frame, in `f64`.
    pub(crate) fn back(&self, d: DVec2) -> DVec2 {
        let (c, s) = (self.cos as f64, self.sin as f64);
        let r = DVec2::new(c * d.x + s * d.y, -s * d.x + c * d.y);
        if self.mirror {
            DVec2::new(-r.x, r.y)
        } else {
            r
        }
    }
    /// A world point back in the scene's frame, in `f64`.
    pub(crate) fn back_point(&self, p: Vec2) -> DVec2 {
        self.back(p.as_dvec2() - self.origin.as_dvec2())
    }
    fn rot(&self) -> Rot {
        Rot::try_from_cos_sin(self.cos, self.sin).unwrap()
    }
    fn axis_aligned(&self) -> bool {
        self.cos == 1.0 && self.sin == 0.0
    }
    fn local(&self, points: &[Vec2], anchor: Vec2) -> Vec<Vec2> {
        points
            .iter()
            .map(|p| {
                let d = *p - anchor;
                if self.mirror {
                    v(-d.x, d.y)
                } else {
                    d
                }
            })
            .collect()
    }
    pub(crate) fn name(&self) -> String {
        format!(
            "turn {:.4} rad{}",
            self.sin.atan2(self.cos),
            if self.mirror { " mirrored" } else { "" }
        )
    }
}

/// The frames every case runs in: as built, a quarter, a half and an arbitrary turn, mirrored,
/// and mirrored with another arbitrary turn.
fn frames(origin: Vec2, rng: &mut Rng) -> Vec<Frame> {
    let (a, b) = (rng.angle(), rng.angle());
    vec![
        Frame::new(origin, (1.0, 0.0), false),
        Frame::new(origin, (0.0, 1.0), false),
        Frame::new(origin, (-1.0, 0.0), false),
        Frame::new(origin, (a.cos(), a.sin()), false),
        Frame::new(origin, (1.0, 0.0), true),
        Frame::new(origin, (b.cos(), b.sin()), true),
    ]
}

/// One obstacle, in the scene's frame.
#[derive(Clone, Debug)]
pub(crate) enum Piece {
    /// A convex outline, with its rounding radius.
    Convex(Vec<Vec2>, f32),
    Segment(Vec2, Vec2),
    /// An open chain; it stops characters on its right, walking along it.
    Chain(Vec<Vec2>),
    /// Convex outlines as one compound.
    Compound(Vec<Vec<Vec2>>),
    /// Solid cells of a tile map (`width` × `height` cells of `cell`, lower left at `corner`);
    /// placed only in frames that are not turned.
    Tiles {
        cells: Vec<(u32, u32)>,
        width: u32,
        height: u32,
        cell: f32,
        corner: Vec2,
        outlines: bool,
    },
}

fn mean(points: &[Vec2]) -> Vec2 {
    points.iter().copied().sum::<Vec2>() / points.len() as f32
}

impl Piece {
    pub(crate) fn insert(&self, world: &mut World, frame: &Frame) {
        let mut solid = |shape: Shape, anchor: Vec2| {
            let xf = Transform {
                p: frame.point(anchor),
                q: frame.rot(),
            };
            world
                .insert(Collider::new(shape).with_transform(xf))
                .unwrap();
        };
        match self {
            Piece::Convex(outline, radius) => {
                let anchor = mean(outline);
                let polygon = Polygon::new(&frame.local(outline, anchor)).unwrap();
                let polygon = if *radius > 0.0 {
                    polygon.with_radius(*radius).unwrap()
                } else {
                    polygon
                };
                solid(Shape::from(polygon), anchor);
            }
            Piece::Segment(a, b) => {
                let anchor = 0.5 * (*a + *b);
                let ends = frame.local(&[*a, *b], anchor);
                solid(Shape::from(Segment::new(ends[0], ends[1]).unwrap()), anchor);
            }
            Piece::Chain(points) => {
                let anchor = points[0];
                let mut local = frame.local(points, anchor);
                if frame.mirror {
                    local.reverse();
                }
                solid(Shape::from(Chain::open(&local).unwrap()), anchor);
            }
            Piece::Compound(outlines) => {
                let all: Vec<Vec2> = outlines.iter().flatten().copied().collect();
                let anchor = mean(&all);
                let children = outlines
                    .iter()
                    .map(|outline| {
                        let polygon = Polygon::new(&frame.local(outline, anchor)).unwrap();
                        (Transform::IDENTITY, Shape::from(polygon))
                    })
                    .collect();
                solid(Shape::from(Compound::new(children).unwrap()), anchor);
            }
            Piece::Tiles {
                cells,
                width,
                height,
                cell,
                corner,
                outlines,
            } => {
                assert!(frame.axis_aligned());
                let (w, h) = (*width, *height);
                let mut corner = *corner;
                if frame.mirror {
                    corner.x = -(corner.x + w as f32 * cell);
                }
                let solid_at = |x: u32, y: u32| {
                    let x = if frame.mirror { w - 1 - x } else { x };
                    cells.contains(&(x, y))
                };
                let map = TileMap::from_fn(w, h, *cell, frame.origin + corner, |x, y| {
                    if solid_at(x, y) {
                        Tile::SOLID
                    } else {
                        Tile::EMPTY
                    }
                })
                .unwrap();
                let geometry = if *outlines {
                    TileGeometry::Outlines
                } else {
                    TileGeometry::Rectangles
                };
                TileMapColliders::insert(world, &map, geometry).unwrap();
            }
        }
    }
}

pub(crate) fn rect(center: Vec2, half: Vec2) -> Vec<Vec2> {
    vec![
        center + v(-half.x, -half.y),
        center + v(half.x, -half.y),
        center + v(half.x, half.y),
        center + v(-half.x, half.y),
    ]
}

/// `outline` turned by `angle` about `pivot`.
pub(crate) fn turned(outline: &[Vec2], pivot: Vec2, angle: f32) -> Vec<Vec2> {
    let (s, c) = angle.sin_cos();
    outline
        .iter()
        .map(|p| {
            let d = *p - pivot;
            pivot + v(c * d.x - s * d.y, s * d.x + c * d.y)
        })
        .collect()
}

#[derive(Clone, Debug)]
pub(crate) enum Body {
    Circle,
    Capsule,
    Box,
    RoundedBox,
    Polygon(Vec<Vec2>),
}

impl Body {
    pub(crate) fn random(rng: &mut Rng, size: f32) -> Body {
        match rng.below(5) {
            0 => Body::Circle,
            1 => Body::Capsule,
            2 => Body::Box,
            3 => Body::RoundedBox,
            _ => {
                // A convex polygon about `size` across, never symmetric by construction.
                let sides = 3 + rng.below(6);
                let phase = rng.angle();
                let points: Vec<Vec2> = (0..sides)
                    .map(|i| {
                        let angle = phase + i as f32 * std::f32::consts::TAU / sides as f32;
                        let r = 0.5 * size * rng.range(0.75, 1.0);
                        v(r * angle.cos(), r * angle.sin())
                    })
                    .collect();
                Body::Polygon(points)
            }
        }
    }
    pub(crate) fn shape(&self, size: f32, mirror: bool) -> Shape {
        match self {
            Body::Circle => Shape::from(Circle::with_radius(0.5 * size).unwrap()),
            Body::Capsule => Shape::from(Capsule::vertical(size, 0.3 * size).unwrap()),
            Body::Box => Shape::from(Polygon::rect(0.8 * size, size).unwrap()),
            Body::RoundedBox => {
                Shape::from(Polygon::rounded_rect(0.8 * size, size, 0.2 * size).unwrap())
            }
            Body::Polygon(points) => {
                let points: Vec<Vec2> = points
                    .iter()
                    .map(|p| if mirror { v(-p.x, p.y) } else { *p })
                    .collect();
                Shape::from(Polygon::hull(&points).unwrap())
            }
        }
    }
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Body::Circle => "circle",
            Body::Capsule => "capsule",
            Body::Box => "box",
            Body::RoundedBox => "rounded box",
            Body::Polygon(_) => "polygon",
        }
    }
}

/// One case: a scene, a character placed in it, the settings, and the frames it runs in.
#[derive(Clone, Debug)]
pub(crate) struct Case {
    pub(crate) seed: u64,
    pub(crate) what: String,
    pub(crate) pieces: Vec<Piece>,
    pub(crate) body: Body,
    pub(crate) size: f32,
    pub(crate) start: Vec2,
    pub(crate) origin: Vec2,
    /// How far from the scene's origin it reaches.
    pub(crate) extent: f32,
    pub(crate) max_slope: f32,
    /// Whether far from the origin it runs in every frame too, as its sweep holds there (else
    /// only as built, outside [`the_open_cases_of_every_sweep`]).
    pub(crate) every_frame_far: bool,
}

impl Case {
    fn new(seed: u64, rng: &mut Rng, what: &str) -> Case {
        let size = rng.log_size(0.05, 50.0);
        let body = Body::random(rng, size);
        // Up to 1e5 from the origin, but no further than 1e5 character sizes.
        let origin = if rng.chance(0.5) {
            far_origin(rng, 1.0e4, size)
        } else {
            Vec2::ZERO
        };
        Case {
            seed,
            what: what.to_string(),
            pieces: Vec::new(),
            body,
            size,
            start: Vec2::ZERO,
            origin,
            extent: 10.0 * size,
            max_slope: std::f32::consts::FRAC_PI_4,
            every_frame_far: false,
        }
    }

    /// The skin a call uses, by the rule on `MoveOptions::skin`, at the farthest coordinate the
    /// case reaches: the options' (`for_size`: a hundredth of the size), at most a fiftieth
    /// of the character's smallest extent, at least [`SKIN_SPACINGS`] spacings of its
    /// coordinates and 64 `f32` epsilons of its size.
    pub(crate) fn skin(&self) -> f32 {
        let extents = self.body.shape(self.size, false).aabb(&Transform::IDENTITY);
        let (width, height) = (extents.max - extents.min).into();
        let reach = self.origin.abs().max_element() + self.extent;
        (0.01 * self.size)
            .min(0.02 * width.min(height))
            .max(SKIN_SPACINGS * spacing(reach))
            .max(64.0 * f32::EPSILON * width.max(height))
    }

    /// The lowest point of the character below its origin (negative), as built.
    pub(crate) fn bottom(&self) -> f32 {
        self.body
            .shape(self.size, false)
            .aabb(&Transform::IDENTITY)
            .min
            .y
    }

    /// How far two frames' motions (or one call's motion and the exact answer) may differ per
    /// call: four times the casts' tolerance (each stops within it of its target), eight
    /// spacings of the scene's coordinates (placing it turned rounds each one), and 64 `f32`
    /// epsilons of the character's size (its turned vertices).
    pub(crate) fn slack(&self) -> f64 {
        let size = self.size;
        let cast = (0.01 * self.skin())
            .min(1.0e-4)
            .max(4.0 * f32::EPSILON * size);
        let reach = self.origin.abs().max_element() + self.extent;
        (4.0 * cast + 8.0 * spacing(reach) + 64.0 * f32::EPSILON * size) as f64
    }

    /// The deepest a character may end inside anything: a thousandth of its size and a few
    /// spacings of its coordinates (the bound `move_and_slide` documents).
    pub(crate) fn deepest(&self) -> f32 {
        let reach = self.origin.abs().max_element() + self.extent;
        1.0e-3 * self.size + 4.0 * spacing(reach)
    }

    fn has_tiles(&self) -> bool {
        self.pieces.iter().any(|p| matches!(p, Piece::Tiles { .. }))
    }

    pub(crate) fn frames(&self, rng: &mut Rng) -> Vec<Frame> {
        let all = frames(self.origin, rng);
        if self.origin != Vec2::ZERO && !open() && !self.every_frame_far {
            all.into_iter().take(1).collect()
        } else if self.has_tiles() {
            all.into_iter().filter(|f| f.axis_aligned()).collect()
        } else {
            all
        }
    }

    pub(crate) fn label(&self, frame: &Frame) -> String {
        format!(
            "seed {} {}: {} {:.4} at {:?}, {}",
            self.seed,
            self.what,
            self.body.name(),
            self.size,
            self.origin,
            frame.name()
        )
    }
}

/// One call as seen from the scene's frame.
#[derive(Clone, Copy, Debug)]
struct Call {
    delta: Vec2,
    moved: DVec2,
    /// The character's origin after the call, relative to the scene's origin.
    at: DVec2,
    on_floor: bool,
    on_wall: bool,
    on_ceiling: bool,
    depth: f32,
}

pub(crate) struct Run {
    pub(crate) world: World,
    pub(crate) hero: ColliderHandle,
    pub(crate) frame: Frame,
    pub(crate) options: MoveOptions<'static>,
}

impl Run {
    pub(crate) fn new(case: &Case, frame: Frame) -> Run {
        let mut world = World::new();
        for piece in &case.pieces {
            piece.insert(&mut world, &frame);
        }
        let shape = case.body.shape(case.size, frame.mirror);
        let xf = Transform {
            p: frame.point(case.start),
            q: frame.rot(),
        };
        let hero = world
            .insert(Collider::new(shape).with_transform(xf))
            .unwrap();
        let options = MoveOptions::for_size(case.size)
            .with_up(frame.dir(Vec2::Y))
            .with_max_slope(case.max_slope);
        Run {
            world,
            hero,
            frame,
            options,
        }
    }

    fn at(&self) -> DVec2 {
        let p = self.world.get(self.hero).unwrap().transform().p;
        self.frame.back_point(p)
    }

    fn call(&mut self, delta: Vec2) -> Call {
        let result = self
            .world
            .move_and_slide(self.hero, self.frame.dir(delta), self.options)
            .unwrap();
        Call {
            delta,
            moved: self.frame.back(result.moved.as_dvec2()),
            at: self.at(),
            on_floor: result.on_floor,
            on_wall: result.on_wall,
            on_ceiling: result.on_ceiling,
            depth: depth(&self.world, self.hero),
        }
    }

    fn calls(&mut self, deltas: &[Vec2]) -> Vec<Call> {
        deltas.iter().map(|d| self.call(*d)).collect()
    }
}

/// Runs `case` with `deltas` in each of its frames, checks `property` on each frame's calls
/// (it returns a complaint), that no call ends deeper than the bound, and that every frame's
/// calls match the first frame's (motion within `slack` per call so far, the same flags).
/// Returns the failures.
fn check_frames(
    case: &Case,
    rng: &mut Rng,
    deltas: &[Vec2],
    property: impl Fn(&Case, &[Call]) -> Option<String>,
) -> Vec<String> {
    let mut failures = Vec::new();
    let mut reference: Option<Vec<Call>> = None;
    let slack = case.slack();
    for frame in case.frames(rng) {
        let mut run = Run::new(case, frame);
        let calls = run.calls(deltas);
        let label = case.label(&frame);
        if let Some(complaint) = property(case, &calls) {
            failures.push(format!("{label}: {complaint}"));
            continue;
        }
        if let Some(i) = calls.iter().position(|c| c.depth > case.deepest()) {
            failures.push(format!("{label}: call {i} ends {} deep", calls[i].depth));
            continue;
        }
        let Some(first) = &reference else {
            reference = Some(calls);
            continue;
        };
        for (i, (mine, theirs)) in calls.iter().zip(first).enumerate() {
            let off = (mine.moved - theirs.moved).length();
            let flags = |c: &Call| (c.on_floor, c.on_wall, c.on_ceiling);
            if off > slack * (i + 1) as f64 || flags(mine) != flags(theirs) {
                failures.push(format!(
                    "{label}: call {i} ({:?}) moved {:?} {:?}, unturned {:?} {:?} (off {off:.3e}, slack {slack:.3e})",
                    mine.delta,
                    mine.moved,
                    flags(mine),
                    theirs.moved,
                    flags(theirs)
                ));
                break;
            }
        }
    }
    failures
}

// ---------------------------------------------------------------------------------------------
// Scenes.

/// The flat floors: top at y = 0 from x = −`length` to `length`.
pub(crate) const FLOORS: [&str; 8] = [
    "box",
    "row of boxes",
    "chain with collinear vertices",
    "polygon with a collinear top",
    "compound row",
    "box tilted 1e-6 rad",
    "tile outlines",
    "tile rectangles",
];

fn floor(kind: &str, length: f32, tile: f32, rng: &mut Rng) -> Piece {
    let count = (2.0 * length / tile).ceil() as usize;
    let left = -0.5 * count as f32 * tile;
    let tiles = |i: usize| {
        rect(
            v(left + (i as f32 + 0.5) * tile, -0.5 * tile),
            v(0.5 * tile, 0.5 * tile),
        )
    };
    match kind {
        "box" => Piece::Convex(rect(v(0.0, -tile), v(length, tile)), 0.0),
        // A row of boxes is inserted box by box (see `floor_pieces`).
        "row of boxes" | "compound row" => Piece::Compound((0..count).map(tiles).collect()),
        "chain with collinear vertices" => {
            let mut points = Vec::new();
            for i in (0..=count).rev() {
                points.push(v(left + i as f32 * tile, 0.0));
                if i > 0 && rng.chance(0.5) {
                    points.push(v(left + (i as f32 - rng.range(0.1, 0.9)) * tile, 0.0));
                }
            }
            Piece::Chain(points)
        }
        "polygon with a collinear top" => {
            let mut outline = vec![v(-length, -tile), v(length, -tile)];
            let mut x = length;
            while x > -length {
                outline.push(v(x, 0.0));
                x -= rng.range(0.2, 1.0) * tile;
            }
            outline.push(v(-length, 0.0));
            Piece::Convex(outline, 0.0)
        }
        "box tilted 1e-6 rad" => Piece::Convex(
            turned(&rect(v(0.0, -tile), v(length, tile)), Vec2::ZERO, 1.0e-6),
            0.0,
        ),
        _ => Piece::Tiles {
            cells: (0..count as u32).map(|x| (x, 0)).collect(),
            width: count as u32,
            height: 2,
            cell: tile,
            corner: v(left, -tile),
            outlines: kind == "tile outlines",
        },
    }
}

/// The floor's pieces (a row of boxes as separate colliders).
pub(crate) fn floor_pieces(kind: &str, length: f32, tile: f32, rng: &mut Rng) -> Vec<Piece> {
    match floor(kind, length, tile, rng) {
        Piece::Compound(outlines) if kind == "row of boxes" => outlines
            .into_iter()
            .map(|outline| Piece::Convex(outline, 0.0))
            .collect(),
        piece => vec![piece],
    }
}

/// A case standing on a flat floor of `kind` long enough for `reach` either way.
fn on_floor(seed: u64, rng: &mut Rng, kind: &str, reach_in_sizes: f32) -> Case {
    let mut case = Case::new(seed, rng, &format!("on a {kind}"));
    let size = case.size;
    let tile = size * rng.range(0.3, 2.0);
    let length = reach_in_sizes * size + 4.0 * size;
    case.pieces = floor_pieces(kind, length, tile, rng);
    case.extent = length + 2.0 * size;
    let x = rng.range(-1.0, 1.0) * tile;
    case.start = v(x, -case.bottom() + 0.5 * case.skin());
    case
}

// ---------------------------------------------------------------------------------------------
// 1 and 2: walking on flat floors.

/// On every flat floor, walking under gravity moves exactly the walk along the floor every
/// call (no sticking at seams, collinear vertices or a 1e-6 tilt), stays level, stays on the
/// floor, and does the same turned and mirrored.
#[test]
fn walking_on_flat_floors_moves_the_whole_walk_every_call_in_every_frame() {
    let (failures, count) =
        sweep_walking_on_flat_floors_moves_the_whole_walk_every_call_in_every_frame();
    assert_no_failures(&failures, count, shown());
}

fn sweep_walking_on_flat_floors_moves_the_whole_walk_every_call_in_every_frame(
) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut count = 0;
    for seed in 0..96u64 {
        let mut rng = Rng(0x1_0000 + seed);
        let kind = FLOORS[seed as usize % FLOORS.len()];
        let calls = 16;
        let walk = rng.range(1.0e-3, 1.0) * if rng.chance(0.5) { 1.0 } else { -1.0 };
        let gravity = rng.range(0.0, 0.5);
        let mut case = on_floor(seed, &mut rng, kind, calls as f32 * walk.abs());
        let size = case.size;
        let (walk, gravity) = (walk * size, gravity * size);
        case.what = format!("{} walking {walk:.3e} under {gravity:.3e}", case.what);
        let mut deltas = vec![v(0.0, -0.1 * size); 3];
        deltas.extend(std::iter::repeat_n(v(walk, -gravity), calls));
        let tilt = if kind.contains("tilted") {
            2.0e-6 * walk.abs() as f64
        } else {
            0.0
        };
        count += 1;
        failures.extend(check_frames(&case, &mut rng, &deltas, |case, calls| {
            let slack = case.slack();
            for (i, call) in calls.iter().enumerate().skip(3) {
                let along = (call.moved.x - walk as f64).abs();
                let across = call.moved.y.abs();
                if along > slack || across > slack + tilt || !call.on_floor || call.on_wall {
                    return Some(format!(
                        "call {i} moved {:?} for the walk {walk} (on floor {}, on wall {}; slack {slack:.3e})",
                        call.moved, call.on_floor, call.on_wall
                    ));
                }
            }
            None
        }));
    }
    (failures, count)
}

/// A wall of `kind` whose face is at x = 0 (solid for x > 0), from y = `low` to `high`.
fn wall(kind: usize, low: f32, high: f32, size: f32, rng: &mut Rng) -> (String, Vec<Piece>) {
    let thickness = size;
    match kind {
        0 => (
            "box wall".into(),
            vec![Piece::Convex(
                rect(
                    v(0.5 * thickness, 0.5 * (low + high)),
                    v(0.5 * thickness, 0.5 * (high - low)),
                ),
                0.0,
            )],
        ),
        1 | 2 => {
            // A stack of boxes (separate, or one compound) with seams every `h`.
            let h = size * rng.range(0.2, 1.5);
            let mut outlines = Vec::new();
            let mut y = low;
            while y < high {
                outlines.push(rect(
                    v(0.5 * thickness, y + 0.5 * h),
                    v(0.5 * thickness, 0.5 * h),
                ));
                y += h;
            }
            if kind == 1 {
                let pieces = outlines
                    .into_iter()
                    .map(|o| Piece::Convex(o, 0.0))
                    .collect();
                ("stack of boxes".into(), pieces)
            } else {
                ("compound stack".into(), vec![Piece::Compound(outlines)])
            }
        }
        3 => {
            // Collinear vertices on the way up.
            let mut points = vec![v(0.0, low)];
            let mut y = low;
            loop {
                y += size * rng.range(0.2, 1.5);
                if y >= high {
                    break;
                }
                points.push(v(0.0, y));
            }
            points.push(v(0.0, high));
            // Going down, its right is x < 0, where the character is.
            points.reverse();
            ("chain wall".into(), vec![Piece::Chain(points)])
        }
        _ => (
            "segment wall".into(),
            vec![Piece::Segment(v(0.0, low), v(0.0, high))],
        ),
    }
}

/// Falling beside a wall while walking into it: the fall is the whole requested fall every
/// call (no wall friction, no snag on a seam), the character stays against the wall, reports
/// it, and does the same turned and mirrored.
#[test]
fn falling_while_walking_into_a_wall_falls_the_whole_fall_in_every_frame() {
    let (failures, count) =
        sweep_falling_while_walking_into_a_wall_falls_the_whole_fall_in_every_frame();
    assert_no_failures(&failures, count, shown());
}

fn sweep_falling_while_walking_into_a_wall_falls_the_whole_fall_in_every_frame(
) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut count = 0;
    for seed in 0..80u64 {
        let mut rng = Rng(0x2_0000 + seed);
        let mut case = Case::new(seed, &mut rng, "");
        let size = case.size;
        let calls = 16;
        let fall = size * rng.range(1.0e-3, 0.5);
        let walk = size * rng.range(1.0e-3, 2.0);
        let depth_needed = calls as f32 * fall + 3.0 * size;
        let kind = seed as usize % 5;
        let (name, pieces) = wall(kind, -depth_needed, 2.0 * size, size, &mut rng);
        case.pieces = pieces;
        case.extent = depth_needed + 2.0 * size;
        let right = case
            .body
            .shape(size, false)
            .aabb(&Transform::IDENTITY)
            .max
            .x;
        case.start = v(-right - 0.5 * case.skin(), 0.0);
        case.what = format!("beside a {name}, walking {walk:.3e} into it, falling {fall:.3e}");
        let deltas = vec![v(walk, -fall); calls];
        count += 1;
        failures.extend(check_frames(&case, &mut rng, &deltas, |case, calls| {
            let slack = case.slack();
            for (i, call) in calls.iter().enumerate() {
                let falls = (call.moved.y + fall as f64).abs();
                if falls > slack || call.moved.x.abs() > slack || !call.on_wall {
                    return Some(format!(
                        "call {i} moved {:?} for a fall of {fall} (on wall {}; slack {slack:.3e})",
                        call.moved, call.on_wall
                    ));
                }
            }
            None
        }));
    }
    (failures, count)
}

// ---------------------------------------------------------------------------------------------
// 3: the same walk in 1, 4 and 32 calls.

/// The same total walk on a flat floor in 1, 4 and 32 calls (gravity each call), and the
/// same climb along a wall while pressing into it, end at the same place in every frame.
#[test]
fn a_walk_split_into_more_calls_ends_at_the_same_place() {
    let (failures, count) = sweep_a_walk_split_into_more_calls_ends_at_the_same_place();
    assert_no_failures(&failures, count, shown());
}

fn sweep_a_walk_split_into_more_calls_ends_at_the_same_place() -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut count = 0;
    for seed in 0..64u64 {
        let mut rng = Rng(0x3_0000 + seed);
        let total = rng.range(0.2, 4.0) * if rng.chance(0.5) { 1.0 } else { -1.0 };
        let on_wall = seed % 3 == 2;
        let mut case = if on_wall {
            let mut case = Case::new(seed, &mut rng, "");
            let size = case.size;
            let (name, pieces) = wall(
                seed as usize % 5,
                -2.0 * size,
                (total.abs() + 3.0) * size,
                size,
                &mut rng,
            );
            case.pieces = pieces;
            case.extent = (total.abs() + 4.0) * size;
            let right = case
                .body
                .shape(size, false)
                .aabb(&Transform::IDENTITY)
                .max
                .x;
            case.start = v(-right - 0.5 * case.skin(), 0.0);
            case.what = format!("along a {name}");
            case
        } else {
            on_floor(
                seed,
                &mut rng,
                FLOORS[seed as usize % FLOORS.len()],
                total.abs(),
            )
        };
        case.every_frame_far = true;
        let size = case.size;
        let total = total * size;
        let gravity = 0.05 * size;
        case.what = format!("{} in 1, 4, 32 calls of {total:.3e} in all", case.what);
        let mut ends: Vec<(usize, DVec2)> = Vec::new();
        let frames = case.frames(&mut rng);
        for frame in frames {
            ends.clear();
            for n in [1usize, 4, 32] {
                let mut run = Run::new(&case, frame);
                if !on_wall {
                    run.calls(&[v(0.0, -0.1 * size); 3]);
                }
                let each = total / n as f32;
                let delta = if on_wall {
                    v(0.3 * size, total.abs() / n as f32)
                } else {
                    v(each, -gravity)
                };
                run.calls(&vec![delta; n]);
                ends.push((n, run.at()));
            }
            count += 1;
            let slack = case.slack() * 32.0;
            let (_, one) = ends[0];
            for (n, end) in &ends[1..] {
                if (*end - one).length() > slack {
                    failures.push(format!(
                        "{}: {n} calls end at {end:?}, one call at {one:?} (slack {slack:.3e})",
                        case.label(&frame)
                    ));
                }
            }
        }
    }
    (failures, count)
}

// ---------------------------------------------------------------------------------------------
// 4: ceilings.

/// Moving up into a ceiling (flat, or tilted by less than `max_slope`) slides along it
/// exactly: the request less its part into the ceiling. Never through it, in every frame.
#[test]
fn moving_up_into_a_ceiling_slides_along_it_in_every_frame() {
    let (failures, count) = sweep_moving_up_into_a_ceiling_slides_along_it_in_every_frame();
    assert_no_failures(&failures, count, shown());
}

fn sweep_moving_up_into_a_ceiling_slides_along_it_in_every_frame() -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut count = 0;
    for seed in 0..80u64 {
        let mut rng = Rng(0x4_0000 + seed);
        let mut case = Case::new(seed, &mut rng, "");
        let size = case.size;
        let tilt = if seed % 2 == 0 {
            0.0
        } else {
            rng.range(-0.7, 0.7)
        };
        let length = 8.0 * size;
        // A slab whose bottom passes through (0, gap) at angle `tilt`.
        let slab = rect(v(0.0, 0.5 * size), v(length, 0.5 * size));
        let kind = seed % 4;
        let outline = turned(&slab, Vec2::ZERO, tilt);
        case.pieces = match kind {
            0 | 1 => vec![Piece::Convex(outline, 0.0)],
            2 => vec![Piece::Segment(outline[0], outline[1])],
            _ => vec![Piece::Chain(vec![outline[0], outline[1]])],
        };
        case.extent = 2.0 * length;
        // Start well below it; a first call moves up into it.
        let top = case
            .body
            .shape(size, false)
            .aabb(&Transform::IDENTITY)
            .max
            .y;
        case.start = v(0.0, -top - 0.5 * size);
        let normal = v(tilt.sin(), -tilt.cos());
        let push = v(rng.range(-1.0, 1.0), rng.range(0.05, 1.0)) * size * rng.range(0.01, 1.0);
        // Far out in every frame, pushes of a few spacings of the coordinates included.
        case.every_frame_far = true;
        case.what = format!("under a ceiling tilted {tilt:.3} ({kind}), moving {push:?}");
        let deltas = [v(0.0, size), push, push, push];
        count += 1;
        failures.extend(check_frames(&case, &mut rng, &deltas, |case, calls| {
            let slack = case.slack();
            let n = normal.as_dvec2();
            for (i, call) in calls.iter().enumerate().skip(1) {
                let d = call.delta.as_dvec2();
                let into = n.dot(d).min(0.0);
                let expected = d - n * into;
                if (call.moved - expected).length() > slack + 1.0e-5 * d.length()
                    || (into < 0.0 && !call.on_ceiling)
                {
                    return Some(format!(
                        "call {i} moved {:?}, expected {expected:?} (on ceiling {}; slack {slack:.3e})",
                        call.moved, call.on_ceiling
                    ));
                }
            }
            None
        }));
    }
    (failures, count)
}

// ---------------------------------------------------------------------------------------------
// 5 and 6: creases, steep slopes and corridors.

/// A V of two slabs steeper than `max_slope`, meeting at the origin, too narrow for the
/// character: it falls in and then walks either way under gravity. It never gets out over
/// the top (never higher than where it first came to rest) nor through.
#[test]
fn a_character_in_a_steep_crease_never_climbs_out_in_any_frame() {
    let (failures, count) = sweep_a_character_in_a_steep_crease_never_climbs_out_in_any_frame();
    assert_no_failures(&failures, count, shown());
}

fn sweep_a_character_in_a_steep_crease_never_climbs_out_in_any_frame() -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut count = 0;
    for seed in 0..80u64 {
        let mut rng = Rng(0x5_0000 + seed);
        let mut case = Case::new(seed, &mut rng, "");
        let size = case.size;
        let (left, right) = (rng.range(0.8, 1.3), rng.range(0.8, 1.3));
        // Starting clear of both sides: where the crease is wider than the character.
        let height = size * (1.0 + 0.7 * left.max(right).tan());
        let length = 3.0 * height;
        let thickness = 0.5 * size;
        let slab = |angle: f32, sign: f32| {
            // Top face from the origin up along `angle` on side `sign`.
            let outline = rect(
                v(sign * 0.5 * length, -0.5 * thickness),
                v(0.5 * length, 0.5 * thickness),
            );
            turned(&outline, Vec2::ZERO, sign * angle)
        };
        case.pieces = if seed % 3 == 0 {
            let mut points = vec![turned(&[v(-length, 0.0)], Vec2::ZERO, -left)[0], Vec2::ZERO];
            points.push(turned(&[v(length, 0.0)], Vec2::ZERO, right)[0]);
            points.reverse();
            vec![Piece::Chain(points)]
        } else if seed % 3 == 1 {
            vec![Piece::Compound(vec![slab(left, -1.0), slab(right, 1.0)])]
        } else {
            vec![
                Piece::Convex(slab(left, -1.0), 0.0),
                Piece::Convex(slab(right, 1.0), 0.0),
            ]
        };
        case.extent = 2.0 * length;
        case.start = v(rng.range(-0.1, 0.1) * size, height);
        let gravity = size * rng.range(0.05, 0.3);
        case.what = format!("in a crease of {left:.3} and {right:.3} rad under {gravity:.3e}");
        let mut deltas = vec![v(0.0, -gravity); 30 + (height / gravity) as usize];
        for _ in 0..30 {
            let walk = gravity * rng.range(-6.0, 6.0);
            deltas.push(v(walk, -gravity));
        }
        count += 1;
        failures.extend(check_frames(&case, &mut rng, &deltas, |case, calls| {
            let slack = case.slack();
            let settled = calls.len() - 30;
            let rest = calls[settled - 1].at.y;
            for (i, call) in calls.iter().enumerate().skip(settled) {
                if call.at.y > rest + slack * (i + 1 - settled) as f64 {
                    return Some(format!(
                        "call {i} ({:?}) rose to {} above where it came to rest",
                        call.delta,
                        call.at.y - rest
                    ));
                }
            }
            None
        }));
    }
    (failures, count)
}

/// In the air against a slope too steep to stand on, walking into it under gravity (any walk,
/// also more than gravity times the slope's tangent, and jumping) never gains more height than
/// the request's own upward part, never goes against the request, and never passes into the
/// slope, in every frame. Slopes within 1e-3 rad of `max_slope` are not probed.
#[test]
fn in_the_air_walking_into_a_too_steep_slope_gains_no_height_in_any_frame() {
    let (failures, count) =
        sweep_in_the_air_walking_into_a_too_steep_slope_gains_no_height_in_any_frame();
    assert_no_failures(&failures, count, shown());
}

fn sweep_in_the_air_walking_into_a_too_steep_slope_gains_no_height_in_any_frame(
) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut count = 0;
    for seed in 0..96u64 {
        let mut rng = Rng(0x6_0000 + seed);
        let mut case = Case::new(seed, &mut rng, "");
        let size = case.size;
        case.max_slope = rng.range(0.3, 1.2);
        let angle = rng.range(case.max_slope + 1.0e-3, 1.55);
        let length = 10.0 * size;
        // A slab rising to the right at `angle` whose top face passes through the origin.
        let outline = turned(
            &rect(v(0.0, -0.5 * size), v(length, 0.5 * size)),
            Vec2::ZERO,
            angle,
        );
        case.pieces = match seed % 3 {
            0 => vec![Piece::Convex(outline, 0.0)],
            1 => vec![Piece::Segment(outline[3], outline[2])],
            _ => vec![Piece::Chain(vec![outline[2], outline[3]])],
        };
        case.extent = 2.0 * length;
        // Left of the slope, a little way from it, at the height of the slope's middle.
        let right = case
            .body
            .shape(size, false)
            .aabb(&Transform::IDENTITY)
            .max
            .x;
        let gap = size * rng.range(0.0, 0.3);
        case.start = v(-right - gap - size / angle.tan(), 0.0);
        let gravity = size * rng.range(1.0e-3, 0.1);
        case.what = format!(
            "beside a slope of {angle:.4} rad (max {:.4}, {}) under {gravity:.3e}",
            case.max_slope,
            seed % 3
        );
        let mut deltas = Vec::new();
        for _ in 0..24 {
            let walk = (gravity * angle.tan() * rng.range(0.0, 4.0)).min(0.5 * size);
            let rise = if rng.chance(0.2) {
                gravity * rng.range(0.0, 3.0)
            } else {
                -gravity
            };
            deltas.push(v(walk, rise));
        }
        count += 1;
        failures.extend(check_frames(&case, &mut rng, &deltas, |case, calls| {
            let slack = case.slack();
            for (i, call) in calls.iter().enumerate() {
                let allowed = (call.delta.y as f64).max(0.0);
                let along = call.moved.dot(call.delta.as_dvec2());
                if call.moved.y > allowed + slack || along < -slack * call.delta.length() as f64 {
                    return Some(format!(
                        "call {i} ({:?}) moved {:?}: up {} more than the request's {allowed}",
                        call.delta,
                        call.moved,
                        call.moved.y - allowed
                    ));
                }
            }
            None
        }));
    }
    (failures, count)
}

/// A corridor a few skins taller than the character (floor and ceiling of box rows with seams)
/// and a shaft a few skins wider: walking along the corridor under gravity moves the whole walk
/// every call, level; falling down the shaft while walking into a side falls the whole fall.
#[test]
fn corridors_slightly_wider_than_the_character_give_steady_progress() {
    let (failures, count) =
        sweep_corridors_slightly_wider_than_the_character_give_steady_progress();
    assert_no_failures(&failures, count, shown());
}

fn sweep_corridors_slightly_wider_than_the_character_give_steady_progress() -> (Vec<String>, usize)
{
    let mut failures = Vec::new();
    let mut count = 0;
    for seed in 0..64u64 {
        let mut rng = Rng(0x7_0000 + seed);
        let mut case = Case::new(seed, &mut rng, "");
        let size = case.size;
        let shape = case.body.shape(size, false);
        let local = shape.aabb(&Transform::IDENTITY);
        let calls = 16;
        let speed = size * rng.range(1.0e-3, 0.5);
        let length = calls as f32 * (speed + 0.3 * size) + 4.0 * size;
        let tile = size * rng.range(0.3, 2.0);
        let room = case.skin() * rng.range(2.5, 6.0);
        let shaft = seed % 2 == 1;
        // Far out, a polygon in a shaft a few skins wider than it snags in turned frames
        // where the skin is a few spacings of its coordinates (see
        // `the_open_cases_of_every_sweep`).
        case.every_frame_far = !(shaft && matches!(case.body, Body::Polygon(_)));
        let extent = if shaft {
            local.max.x - local.min.x
        } else {
            local.max.y - local.min.y
        };
        let mut outlines = Vec::new();
        let count_tiles = (2.0 * length / tile).ceil() as usize;
        for i in 0..count_tiles {
            let at = -length + (i as f32 + 0.5) * tile;
            for side in [-1.0f32, 1.0] {
                let offset = side * (0.5 * extent + 0.5 * room + 0.5 * tile);
                let center = if shaft { v(offset, at) } else { v(at, offset) };
                outlines.push(rect(center, v(0.5 * tile, 0.5 * tile)));
            }
        }
        case.pieces = if seed % 4 < 2 {
            outlines
                .into_iter()
                .map(|o| Piece::Convex(o, 0.0))
                .collect()
        } else {
            vec![Piece::Compound(outlines)]
        };
        case.extent = length + 2.0 * size;
        let middle = 0.5 * (local.min + local.max);
        case.start = -middle
            - if shaft {
                v(0.0, 0.0)
            } else {
                v(0.0, 0.5 * room - 0.5 * case.skin())
            };
        let gravity = size * rng.range(0.0, 0.3);
        let delta = if shaft {
            v(speed + room, -gravity.max(1.0e-3 * size))
        } else {
            v(speed, -gravity)
        };
        case.what = format!(
            "in a {} {room:.3e} wider, moving {delta:?}",
            if shaft { "shaft" } else { "corridor" }
        );
        let mut deltas = vec![v(0.0, -0.1 * size); if shaft { 0 } else { 3 }];
        deltas.extend(std::iter::repeat_n(delta, calls));
        let skip = if shaft { 1 } else { 3 };
        count += 1;
        failures.extend(check_frames(&case, &mut rng, &deltas, |case, calls| {
            let slack = case.slack();
            for (i, call) in calls.iter().enumerate().skip(skip) {
                let (along, across) = if shaft {
                    (call.moved.y - delta.y as f64, call.moved.x)
                } else {
                    (call.moved.x - delta.x as f64, call.moved.y)
                };
                if along.abs() > slack || across.abs() > slack {
                    return Some(format!(
                        "call {i} moved {:?} (slack {slack:.3e})",
                        call.moved
                    ));
                }
            }
            None
        }));
    }
    (failures, count)
}

// ---------------------------------------------------------------------------------------------
// 7: huge steps.

/// A request 10 or 100 times the character's size towards a thin wall (a segment, a chain, a
/// box a hundredth of the character thick, a tile column) never passes through it.
#[test]
fn huge_steps_never_pass_through_thin_walls() {
    let (failures, count) = sweep_huge_steps_never_pass_through_thin_walls();
    assert_no_failures(&failures, count, shown());
}

fn sweep_huge_steps_never_pass_through_thin_walls() -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut count = 0;
    for seed in 0..96u64 {
        let mut rng = Rng(0x8_0000 + seed);
        let mut case = Case::new(seed, &mut rng, "");
        case.every_frame_far = true;
        let size = case.size;
        let ahead = size * rng.range(0.0, 3.0);
        let high = 200.0 * size;
        let thin = 0.01 * size;
        let kind = seed % 5;
        case.pieces = match kind {
            0 => vec![Piece::Segment(v(0.0, -high), v(0.0, high))],
            1 => vec![Piece::Chain(vec![
                v(0.0, high),
                v(0.0, 0.3 * size),
                v(0.0, -high),
            ])],
            2 => vec![Piece::Convex(
                rect(v(0.5 * thin, 0.0), v(0.5 * thin, high)),
                0.0,
            )],
            3 => vec![Piece::Compound(vec![
                rect(v(0.5 * thin, -0.5 * high), v(0.5 * thin, 0.5 * high)),
                rect(v(0.5 * thin, 0.5 * high), v(0.5 * thin, 0.5 * high)),
            ])],
            _ => {
                let cell = size * rng.range(0.05, 0.5);
                let rows = (2.0 * high / cell) as u32;
                vec![Piece::Tiles {
                    cells: (0..rows).map(|y| (0, y)).collect(),
                    width: 1,
                    height: rows,
                    cell,
                    corner: v(0.0, -high),
                    outlines: rng.chance(0.5),
                }]
            }
        };
        case.extent = high;
        let right = case
            .body
            .shape(size, false)
            .aabb(&Transform::IDENTITY)
            .max
            .x;
        case.start = v(-right - ahead - 0.5 * case.skin(), 0.0);
        let reach = if rng.chance(0.5) { 10.0 } else { 100.0 };
        let step = v(reach * size, reach * size * rng.range(-0.5, 0.5));
        case.what = format!("a thin wall ({kind}) {ahead:.3e} ahead, a step of {step:?}");
        count += 1;
        failures.extend(check_frames(
            &case,
            &mut rng,
            &[step, step, v(0.0, -step.y)],
            |case, calls| {
                let right = case
                    .body
                    .shape(case.size, false)
                    .aabb(&Transform::IDENTITY)
                    .max
                    .x as f64;
                for (i, call) in calls.iter().enumerate() {
                    let front = call.at.x + right;
                    if front > case.slack() {
                        return Some(format!(
                            "call {i} ({:?}) ended {front} past the wall",
                            call.delta
                        ));
                    }
                }
                None
            },
        ));
    }
    (failures, count)
}

// ---------------------------------------------------------------------------------------------
// Moving platforms.

/// A character standing on a platform that moves and turns a little each frame, carried with
/// `World::carry` and then pressed down by gravity along the platform's normal, stays on it
/// (on the floor, within two skins of it, never inside) and where it stood along it, in every
/// frame.
#[test]
fn a_character_carried_by_a_moving_turning_platform_stays_where_it_stood() {
    let (failures, count) =
        sweep_a_character_carried_by_a_moving_turning_platform_stays_where_it_stood();
    assert_no_failures(&failures, count, shown());
}

fn sweep_a_character_carried_by_a_moving_turning_platform_stays_where_it_stood(
) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut count = 0;
    for seed in 0..48u64 {
        let mut rng = Rng(0x9_0000 + seed);
        let mut case = Case::new(seed, &mut rng, "on a moving platform");
        case.every_frame_far = true;
        let size = case.size;
        let bottom = case.bottom();
        let speed = v(rng.range(-0.2, 0.2), rng.range(-0.2, 0.2)) * size;
        let turn = rng.range(-0.01, 0.01);
        let start = v(
            rng.range(-1.0, 1.0) * size,
            0.25 * size - bottom + 0.5 * case.skin(),
        );
        for frame in case.frames(&mut rng) {
            let mut world = World::new();
            let slab = Shape::from(Polygon::rect(8.0 * size, 0.5 * size).unwrap());
            let placed = Transform {
                p: frame.point(Vec2::ZERO),
                q: frame.rot(),
            };
            let platform = world
                .insert(Collider::new(slab.clone()).with_transform(placed))
                .unwrap();
            let hero_xf = Transform {
                p: frame.point(start),
                q: frame.rot(),
            };
            let shape = case.body.shape(size, frame.mirror);
            let hero = world
                .insert(Collider::new(shape.clone()).with_transform(hero_xf))
                .unwrap();
            let mut angle = frame.sin.atan2(frame.cos);
            let along = if frame.mirror { -start.x } else { start.x };
            let mut failed = None;
            for i in 0..24 {
                let before = world.get(platform).unwrap().transform();
                angle += turn;
                let now = Transform::new(before.p + frame.dir(speed), angle);
                world.set_transform(platform, now).unwrap();
                let up = now.rotate(Vec2::Y);
                let options = MoveOptions::for_size(size).with_up(up);
                world.carry(hero, platform, before, options).unwrap();
                let result = world
                    .move_and_slide(hero, -up * 0.05 * size, options)
                    .unwrap();
                let me = world.get(hero).unwrap().world_transform();
                let on = now.apply_inv(me.p);
                let gap = collide2d::distance(&shape, &me, &slab, &now).distance;
                let drift = (on.x - along).abs();
                let allowed = case.skin() + (i + 1) as f32 * case.slack() as f32;
                if !result.on_floor || drift > allowed || gap > 2.0 * case.skin() || gap < 0.0 {
                    failed = Some(format!(
                        "frame {i}: at {on:?} on the platform, {gap:.3e} above it, stood at x {along} (drift {drift:.3e}, allowed {allowed:.3e}; on floor {})",
                        result.on_floor
                    ));
                    break;
                }
            }
            count += 1;
            if let Some(f) = failed {
                failures.push(format!("{}: {f}", case.label(&frame)));
            }
        }
    }
    (failures, count)
}

fn shown() -> usize {
    std::env::var("SHOWN")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10)
}

/// A sweep: its failures and how many cases it ran.
type Sweep = fn() -> (Vec<String>, usize);

/// The open cases, each sweep with them included; `SHOWN=n` lists the first n failures.
/// All are far from the origin (5e3 to 9e4) and in turned or mirrored frames only (as built
/// every sweep holds, and near the origin in every frame; the split walks, ceilings, huge
/// steps, platforms and corridors but polygons in shafts run every frame far out by default).
/// Of 1220 runs, 18 fail, in 8 cases, all of characters whose skin is the least the rule
/// allows, four spacings of their coordinates (a 0.05 to 2-unit character), and all only in
/// `on_wall`: the motions agree within the slack. A character falls into a steep crease, or
/// beside a steep slope, ending within a spacing or so of one side in one frame and not
/// another (creases, seeds 13, 28, 31, 48, 77, 79, in 12 runs; steep slopes, seeds 50, 68, in
/// 6): a scene turned rounds each collider's position on its own, by up to half a spacing, an
/// eighth of that skin, and as the character falls the gap to the side shrinks by a few
/// spacings a call, so whatever band counts as touching, frames whose gaps differ by a spacing
/// cross its edge on different calls (with the band widened to four spacings these cases held
/// and as many others, seeds 15, 39, 52 of the creases and 1, 54, 69 of the steep slopes,
/// failed instead).
///
/// No band on the planes makes `on_wall` frame-independent here: in the frames that report no
/// wall the side never became a plane in that call. The cast met it in one frame and the
/// character passed a spacing or so short of it in another (seed 13: a 2.1-unit capsule 9e4
/// out falling 0.62 a call into a crease is deflected 0.006 by a side in turned frames,
/// `on_wall`, and falls the whole fall as built). The band on the planes ended on stated in
/// the position's resolution along the wall's normal (`sx·|nx| + sy·|ny|`, as the floor's),
/// at 1 to 8 times it in place of the four spacings, still leaves 18 runs failing (12 in
/// creases, 6 on steep slopes; at half of it, 200). Counting as touched any wall-like surface
/// within the skin and the band of four spacings of where the character ended which the
/// request presses into (as ceilings are) leaves 15, one of them a flat floor's that held
/// before: the edge moves to the band's, which gaps that differ by a spacing still cross on
/// different calls.
#[test]
#[ignore = "open cases: far turned or mirrored scenes, skins of a few coordinate spacings"]
fn the_open_cases_of_every_sweep() {
    OPEN.with(|open| open.set(true));
    let sweeps: [(&str, Sweep); 9] = [
        (
            "flat floors",
            sweep_walking_on_flat_floors_moves_the_whole_walk_every_call_in_every_frame,
        ),
        (
            "walls",
            sweep_falling_while_walking_into_a_wall_falls_the_whole_fall_in_every_frame,
        ),
        (
            "split walks",
            sweep_a_walk_split_into_more_calls_ends_at_the_same_place,
        ),
        (
            "ceilings",
            sweep_moving_up_into_a_ceiling_slides_along_it_in_every_frame,
        ),
        (
            "creases",
            sweep_a_character_in_a_steep_crease_never_climbs_out_in_any_frame,
        ),
        (
            "steep slopes",
            sweep_in_the_air_walking_into_a_too_steep_slope_gains_no_height_in_any_frame,
        ),
        (
            "corridors",
            sweep_corridors_slightly_wider_than_the_character_give_steady_progress,
        ),
        ("huge steps", sweep_huge_steps_never_pass_through_thin_walls),
        (
            "platforms",
            sweep_a_character_carried_by_a_moving_turning_platform_stays_where_it_stood,
        ),
    ];
    let mut all = Vec::new();
    let mut total = 0;
    for (name, sweep) in sweeps {
        let (failures, count) = sweep();
        eprintln!("{name}: {} failures in {count} cases", failures.len());
        all.extend(failures);
        total += count;
    }
    assert_no_failures(&all, total, shown());
}

// ---------------------------------------------------------------------------------------------
// The wrong answers found, each with its exact example.

/// Far from the origin, in every frame, a character that rests inside the skin of a floor it
/// walks along (or of a wall it falls along, pressing into it) keeps its gap to it: no call
/// moves it across the surface by more than two spacings of its coordinates (its position
/// rounds by half of one), so it never sinks through the skin call after call and is never
/// pushed back out all at once. Boxes and segments, characters of every kind from 0.05 to 50
/// units, 5e3 to 9e4 out, 48 calls from a gap of half to nine tenths of the skin.
#[test]
fn far_out_a_character_inside_the_skin_of_a_floor_or_wall_keeps_its_gap_in_every_frame() {
    let (failures, count) = sweep_inside_the_skin_far_out();
    assert_no_failures(&failures, count, shown());
}

fn sweep_inside_the_skin_far_out() -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut count = 0;
    for seed in 0..64u64 {
        let mut rng = Rng(0xA_0000 + seed);
        let mut case = Case::new(seed, &mut rng, "");
        let size = case.size;
        let distance = rng.log_size(5.0e3, 9.0e4);
        let angle = rng.angle();
        case.origin = v(distance * angle.cos(), distance * angle.sin());
        case.every_frame_far = true;
        let calls = 48;
        let on_wall = seed % 2 == 1;
        let segment = seed % 4 >= 2;
        let gap = rng.range(0.5, 0.9);
        let (walk, fall) = if on_wall {
            (size * rng.range(0.01, 1.0), size * rng.range(0.01, 0.3))
        } else {
            let sign = if rng.chance(0.5) { 1.0 } else { -1.0 };
            (
                size * rng.range(0.01, 0.5) * sign,
                size * rng.range(0.0, 0.3),
            )
        };
        let length = calls as f32 * (walk.abs() + fall) + 4.0 * size;
        case.extent = length + 2.0 * size;
        case.pieces = vec![match (on_wall, segment) {
            (false, false) => Piece::Convex(rect(v(0.0, -size), v(length, size)), 0.0),
            (false, true) => Piece::Segment(v(length, 0.0), v(-length, 0.0)),
            (true, false) => Piece::Convex(rect(v(size, 0.0), v(size, length)), 0.0),
            (true, true) => Piece::Segment(v(0.0, -length), v(0.0, length)),
        }];
        let gap = gap * case.skin();
        let what = if on_wall { "wall" } else { "floor" };
        let kind = if segment { "segment" } else { "box" };
        case.start = if on_wall {
            let right = case
                .body
                .shape(size, false)
                .aabb(&Transform::IDENTITY)
                .max
                .x;
            v(-right - gap, 0.0)
        } else {
            v(0.0, -case.bottom() + gap)
        };
        case.what = format!("{gap:.3e} from a {kind} {what}, moving {walk:.3e} under {fall:.3e}");
        let deltas = vec![v(walk, -fall); calls];
        count += 1;
        failures.extend(check_frames(&case, &mut rng, &deltas, |case, calls| {
            let reach = case.origin.abs().max_element() + case.extent;
            let rounding = 2.0 * spacing(reach) as f64;
            let slack = case.slack();
            for (i, call) in calls.iter().enumerate() {
                let (across, along, wanted, touching) = if on_wall {
                    (call.moved.x, call.moved.y, -fall, call.on_wall)
                } else {
                    (call.moved.y, call.moved.x, walk, call.on_floor)
                };
                if across.abs() > rounding
                    || (along - wanted as f64).abs() > slack
                    || !touching
                {
                    return Some(format!(
                        "call {i} moved {:?} ({across:.3e} across, at most {rounding:.3e}; touching {touching})",
                        call.moved
                    ));
                }
            }
            None
        }));
    }
    (failures, count)
}

/// A 0.33-unit polygon falling along a compound stack of boxes 1.2e4 out, turned 1.72 rad,
/// walking into it: at a seam the box below was read first, its top (hidden inside the seam,
/// just under the character's nearly level bottom) lining up with nothing yet, and it held
/// the character as a floor beside the wall; the box above, read after it, turned to the wall
/// face both share only then. The character stopped (moved nothing for a fall of 0.0199).
/// It falls the whole fall every call past the seams, against the wall.
#[test]
fn far_out_a_polygon_falling_along_a_compound_stack_is_not_held_by_a_hidden_top() {
    let seams = [
        (-1.2974786, -1.1395904),
        (-1.1395905, -0.9817023),
        (-0.98170245, -0.8238143),
        (-0.8238143, -0.6659261),
        (-0.6659262, -0.50803804),
        (-0.50803804, -0.35014993),
        (-0.35014993, -0.19226182),
        (-0.19226182, -0.0343737),
        (-0.0343737, 0.123514414),
        (0.123514414, 0.28140253),
        (0.28140253, 0.43929064),
        (0.43929067, 0.5971788),
        (0.5971787, 0.7550669),
    ];
    let width = 0.32656926;
    let stack = Piece::Compound(
        seams
            .iter()
            .map(|&(low, high)| vec![v(0.0, low), v(width, low), v(width, high), v(0.0, high)])
            .collect(),
    );
    let frame = Frame::new(v(760.604, -12202.943), (-0.14468248, 0.9894781), false);
    let mut world = World::new();
    stack.insert(&mut world, &frame);
    let size = 0.32656926;
    let body = Body::Polygon(vec![
        v(0.09456215, 0.10922041),
        v(-0.121158816, 0.10489829),
        v(-0.090129815, -0.10410104),
        v(0.12050274, -0.10433029),
    ]);
    // Where the 12th call of the sweep's walk found it, 0.0023 from the wall.
    let xf = Transform {
        p: v(760.8627, -12203.029),
        q: frame.rot(),
    };
    let hero = world
        .insert(Collider::new(body.shape(size, false)).with_transform(xf))
        .unwrap();
    let options = MoveOptions::for_size(size).with_up(frame.dir(Vec2::Y));
    let delta = v(0.576771, -0.019860674);
    let slack = 4.0e-4 + 8.0 * spacing(1.3e4) as f64;
    for call in 0..8 {
        let result = world
            .move_and_slide(hero, frame.dir(delta), options)
            .unwrap();
        let moved = frame.back(result.moved.as_dvec2());
        assert!(
            (moved.y - delta.y as f64).abs() <= slack && moved.x.abs() <= slack,
            "call {call}: moved {moved:?} for a fall of {}",
            -delta.y
        );
        assert!(result.on_wall, "call {call}: {result:?}");
    }
}

/// The exact examples of the sweep above, as the flat-floor and wall sweeps found them: each
/// call's motion across the surface (in the scene's frame) is at most two spacings, where
/// the character used to sink into the skin a few hundredths of a spacing a call and then be
/// pushed out to the skin in one call.
#[test]
fn far_out_a_box_on_a_turned_floor_and_a_polygon_on_a_turned_wall_keep_their_gaps_exactly() {
    // A 2.6-unit box on a polygon's collinear top 2.4e4 out, turned 2.42 rad, 0.0125 above it
    // (half its skin): at the 13th call it lifted 0.0195.
    let top = [
        13.437346,
        11.264826,
        10.196679,
        8.521549,
        7.2081003,
        5.005087,
        4.546195,
        3.0329971,
        1.282784,
        -0.36859393,
        -1.5185158,
        -2.250213,
        -2.9300728,
        -4.64272,
        -5.338828,
        -6.9445167,
        -7.4705048,
        -9.196312,
        -9.8289585,
        -11.075539,
        -12.517628,
        -13.437346,
    ];
    let mut outline = vec![v(-13.437346, -2.2714727), v(13.437346, -2.2714727)];
    outline.extend(top.iter().map(|&x| v(x, 0.0)));
    let floor = Frame::new(v(1598.0555, -23948.105), (-0.75157607, 0.65964645), false);
    // A 6.9-unit polygon beside a stack of sixteen boxes 5.7e4 out, turned 0.84 rad and
    // mirrored: at the 10th call it moved 0.051 off the wall.
    let seams = [
        (-70.21533, -64.78581),
        (-64.78581, -59.356293),
        (-59.35629, -53.92677),
        (-53.926765, -48.497246),
        (-48.497242, -43.067722),
        (-43.06772, -37.6382),
        (-37.638195, -32.208675),
        (-32.20867, -26.779148),
        (-26.779148, -21.349625),
        (-21.349625, -15.920101),
        (-15.920103, -10.49058),
        (-10.49058, -5.061057),
        (-5.061057, 0.36846542),
        (0.36846542, 5.797988),
        (5.7979875, 11.22751),
        (11.22751, 16.657034),
    ];
    let width = 6.8515453;
    let boxes: Vec<Piece> = seams
        .iter()
        .map(|&(low, high)| {
            Piece::Convex(
                vec![v(0.0, low), v(width, low), v(width, high), v(0.0, high)],
                0.0,
            )
        })
        .collect();
    let wall = Frame::new(v(-45202.094, -34528.652), (0.66528183, 0.7465923), true);
    let polygon = Body::Polygon(vec![
        v(-3.2910955, -0.16281633),
        v(-1.6200615, -2.2513006),
        v(0.92565155, -3.2954595),
        v(2.807913, -1.1850739),
        v(2.7425418, 1.4919621),
        v(0.4636902, 2.62305),
        v(-2.0591097, 2.335303),
    ]);
    let runs = [
        (
            vec![Piece::Convex(outline, 0.0)],
            floor,
            Body::Box,
            2.6048288,
            v(1596.374, -23948.379),
            v(0.18862695, -0.21446833),
        ),
        (
            boxes,
            wall,
            polygon,
            6.8515453,
            v(-45200.203, -34526.53),
            v(7.511672, -3.1037936),
        ),
    ];
    for (pieces, frame, body, size, at, delta) in runs {
        let mut world = World::new();
        for piece in &pieces {
            piece.insert(&mut world, &frame);
        }
        let shape = body.shape(size, frame.mirror);
        let xf = Transform {
            p: at,
            q: frame.rot(),
        };
        let hero = world
            .insert(Collider::new(shape).with_transform(xf))
            .unwrap();
        let options = MoveOptions::for_size(size).with_up(frame.dir(Vec2::Y));
        let on_wall = frame.mirror;
        let rounding = 2.0 * spacing(frame.origin.abs().max_element() + 100.0) as f64;
        for call in 0..16 {
            let result = world
                .move_and_slide(hero, frame.dir(delta), options)
                .unwrap();
            let moved = frame.back(result.moved.as_dvec2());
            let across = if on_wall { moved.x } else { moved.y };
            assert!(
                across.abs() <= rounding,
                "{} call {call}: moved {moved:?}, {across:.3e} across",
                body.name()
            );
            assert!(if on_wall {
                result.on_wall
            } else {
                result.on_floor
            });
        }
    }
}

/// A unit box in the air beside a 60° slope (max slope 45°), walking 0.3 into it under a fall
/// of 0.05 a call: the walk's part into the slope used to carry it up the slope (0.3 is more
/// than 0.05 · tan 60°). It stops against the slope, or slides down it, and never rises.
#[test]
fn a_box_in_the_air_walking_into_a_steep_slope_does_not_climb_it() {
    for slope in [
        Shape::from(Segment::new(v(-3.0, -5.196), v(3.0, 5.196)).unwrap()),
        Shape::from(Chain::open(&[v(3.0, 5.196), v(-3.0, -5.196)]).unwrap()),
    ] {
        let mut world = World::new();
        world.insert(Collider::new(slope)).unwrap();
        let hero = world
            .insert(
                Collider::new(Shape::from(Polygon::rect(1.0, 1.0).unwrap()))
                    .with_transform(Transform::new(v(-1.2, 0.0), 0.0)),
            )
            .unwrap();
        let mut touched = false;
        for call in 0..20 {
            let result = world
                .move_and_slide(hero, v(0.3, -0.05), MoveOptions::default())
                .unwrap();
            assert!(result.moved.y <= 1.0e-6, "call {call}: {result:?}");
            assert!(
                result.moved.dot(v(0.3, -0.05)) >= -1.0e-6,
                "call {call}: {result:?}"
            );
            touched |= result.on_wall;
        }
        assert!(touched);
    }
}

/// A unit box in a V of two 70° slopes, walking either way under gravity, never rises out of
/// it (it used to climb either side whenever the walk was more than the fall times tan 70°).
#[test]
fn a_box_in_a_steep_crease_walking_either_way_stays_at_the_bottom() {
    let mut world = World::new();
    let (s, c) = 70f32.to_radians().sin_cos();
    let left = v(-6.0 * c, 6.0 * s);
    let right = v(6.0 * c, 6.0 * s);
    let crease = Chain::open(&[right, Vec2::ZERO, left]).unwrap();
    world.insert(Collider::new(Shape::from(crease))).unwrap();
    let hero = world
        .insert(
            Collider::new(Shape::from(Polygon::rect(1.0, 1.0).unwrap()))
                .with_transform(Transform::new(v(0.0, 3.0), 0.0)),
        )
        .unwrap();
    for _ in 0..100 {
        world
            .move_and_slide(hero, v(0.0, -0.1), MoveOptions::default())
            .unwrap();
    }
    let rest = world.get(hero).unwrap().transform().p.y;
    for call in 0..40 {
        let walk = if (call / 5) % 2 == 0 { 0.6 } else { -0.6 };
        world
            .move_and_slide(hero, v(walk, -0.1), MoveOptions::default())
            .unwrap();
        let y = world.get(hero).unwrap().transform().p.y;
        assert!(
            y <= rest + 1.0e-4,
            "call {call}: at {y}, came to rest at {rest}"
        );
    }
}

/// A unit box falling 0.0473 a call beside a wall of stacked 1 × 0.5 boxes (separate, or one
/// compound), half a skin from it, while walking 0.5 into it: starting (and again whenever it
/// comes) 0.007 above a seam, the box below's top, hidden in the seam, was taken for the
/// surface holding the box (it resists the fall less than the wall's side resists the walk),
/// and the box stood on the wall for good. It falls the whole fall every call.
#[test]
fn a_box_falling_along_a_wall_of_stacked_boxes_never_snags_on_a_seam() {
    for compound in [false, true] {
        let mut world = World::new();
        let tiles: Vec<Vec<Vec2>> = (0..48)
            .map(|i| rect(v(0.5, -20.0 + 0.5 * i as f32 + 0.25), v(0.5, 0.25)))
            .collect();
        let frame = Frame::new(Vec2::ZERO, (1.0, 0.0), false);
        if compound {
            Piece::Compound(tiles).insert(&mut world, &frame);
        } else {
            for tile in tiles {
                Piece::Convex(tile, 0.0).insert(&mut world, &frame);
            }
        }
        let hero = world
            .insert(
                Collider::new(Shape::from(Polygon::rect(1.0, 1.0).unwrap()))
                    .with_transform(Transform::new(v(-0.505, 0.007), 0.0)),
            )
            .unwrap();
        for call in 0..200 {
            let result = world
                .move_and_slide(hero, v(0.5, -0.0473), MoveOptions::default())
                .unwrap();
            let fell = (result.moved.y + 0.0473).abs() < 1.0e-5 && result.moved.x.abs() < 1.0e-5;
            assert!(fell, "compound {compound}, call {call}: {result:?}");
            assert!(
                result.on_wall && !result.on_floor,
                "call {call}: {result:?}"
            );
        }
    }
}

/// A random polygon about 8 units across, its corner half a skin's worth more from a wall of
/// stacked boxes (separate, or one compound; seams every 13.95), walking 2.1 into it while
/// falling 0.1 a call: the line of its own slanted face past the corner, 0.05 in front of the
/// corner of the box below the seam (within the skin of the wall's side, which the corner is
/// beside at 0.08), was taken for the surface holding it, and it slid down that line 0.174 a
/// call, further than the request fell. It falls the fall, along the wall.
#[test]
fn a_polygon_walking_into_a_stack_of_boxes_falls_only_the_fall() {
    let polygon = [
        v(1.218621, 3.5302043),
        v(-1.36792, 2.8102002),
        v(-2.9870048, 1.0311096),
        v(-3.4034252, -1.6566837),
        v(-1.194476, -3.4602602),
        v(1.5174993, -3.1174874),
        v(3.5773654, -1.2349018),
        v(3.4733531, 1.6907227),
    ];
    let size = 8.002113;
    let delta = v(2.100567, -0.10001831);
    for compound in [false, true] {
        let mut world = World::new();
        let (low, high) = (-99.81825f32, -85.87047f32);
        let boxes: Vec<Vec<Vec2>> = (0..16)
            .map(|i| {
                let bottom = low + i as f32 * (high - low);
                let top = bottom + (high - low);
                let (left, right) = (3.6219401, 17.569721);
                vec![
                    v(left, bottom),
                    v(right, bottom),
                    v(right, top),
                    v(left, top),
                ]
            })
            .collect();
        let frame = Frame::new(Vec2::ZERO, (1.0, 0.0), false);
        if compound {
            Piece::Compound(boxes).insert(&mut world, &frame);
        } else {
            for outline in boxes {
                Piece::Convex(outline, 0.0).insert(&mut world, &frame);
            }
        }
        let hero = world
            .insert(
                Collider::new(Shape::from(Polygon::hull(&polygon).unwrap()))
                    .with_transform(Transform::new(v(-0.08697009, -0.03497207), 0.0)),
            )
            .unwrap();
        let options = MoveOptions::for_size(size);
        world.move_and_slide(hero, delta, options).unwrap();
        for call in 1..40 {
            let result = world.move_and_slide(hero, delta, options).unwrap();
            let fell = (result.moved.y - delta.y).abs() < 1.0e-4 && result.moved.x.abs() < 1.0e-4;
            assert!(
                fell && result.on_wall,
                "compound {compound}, call {call}: {result:?}"
            );
        }
    }
}

/// A 26-unit capsule 1.5e4 from the origin, moving up into a chain ceiling tilted 0.052 rad
/// and then along it (-3.59, 9.58) a call: the cast along the ceiling stopped part way
/// wherever its reading of the unchanged gap rounded below its target (a hair under the gap
/// it started with), and the capsule slid 2.58 of the 3.09 the request has along it. It
/// slides the whole projection, within the rounding of its coordinates.
#[test]
fn a_capsule_far_out_slides_the_whole_way_along_a_ceiling() {
    let origin = v(12048.974, 15229.432);
    let (a, b) = (v(-208.75323, -10.857299), v(208.75323, 10.857299));
    let mut world = World::new();
    let frame = Frame::new(origin, (1.0, 0.0), false);
    Piece::Chain(vec![a, b]).insert(&mut world, &frame);
    let size = 26.129423;
    let hero = world
        .insert(
            Collider::new(Shape::from(Capsule::vertical(size, 0.3 * size).unwrap()))
                .with_transform(Transform::new(frame.point(v(0.0, -size)), 0.0)),
        )
        .unwrap();
    let options = MoveOptions::for_size(size);
    world.move_and_slide(hero, v(0.0, size), options).unwrap();
    let along = (b - a).as_dvec2().normalize();
    let normal = DVec2::new(along.y, -along.x);
    let delta = v(-3.5930536, 9.57775);
    let d = delta.as_dvec2();
    let expected = d - normal * normal.dot(d).min(0.0);
    let rounding = 8.0 * spacing(origin.abs().max_element()) as f64;
    for call in 0..4 {
        let result = world.move_and_slide(hero, delta, options).unwrap();
        let off = (result.moved.as_dvec2() - expected).length();
        assert!(
            off <= rounding && result.on_ceiling,
            "call {call}: moved {:?}, expected {expected:?} (off {off:.3e})",
            result.moved
        );
    }
}

/// A 0.083-unit rounded box 8,200 units out, falling 0.0083 a call beside a compound stack of
/// 0.086-tall boxes while walking 0.113 into it. Its skin is four spacings there (0.00195):
/// the corner of the box below a seam came within it, its closest-point direction leaning up
/// against the fall and resisting the walk less than the wall's side, and the box stood on
/// the wall for good. It falls the whole fall every call.
#[test]
fn a_small_rounded_box_far_out_falls_along_a_stack_of_boxes() {
    let origin = v(8182.8486, 1305.0115);
    let (size, fall, walk, h) = (0.08286258f32, 0.008326621f32, 0.11339403f32, 0.08617134f32);
    let (low, high) = (-(16.0 * fall + 3.0 * size), 2.0 * size);
    let mut outlines = Vec::new();
    let mut y = low;
    while y < high {
        outlines.push(rect(v(0.5 * size, y + 0.5 * h), v(0.5 * size, 0.5 * h)));
        y += h;
    }
    let mut world = World::new();
    let frame = Frame::new(origin, (1.0, 0.0), false);
    Piece::Compound(outlines).insert(&mut world, &frame);
    let shape = Shape::from(Polygon::rounded_rect(0.8 * size, size, 0.2 * size).unwrap());
    let skin = SKIN_SPACINGS * spacing(origin.x);
    let start = frame.point(v(-0.4 * size - 0.5 * skin, 0.0));
    let hero = world
        .insert(Collider::new(shape).with_transform(Transform::new(start, 0.0)))
        .unwrap();
    let rounding = 2.0 * spacing(origin.x);
    for call in 0..12 {
        let result = world
            .move_and_slide(hero, v(walk, -fall), MoveOptions::for_size(size))
            .unwrap();
        let fell = (result.moved.y + fall).abs() <= rounding && result.moved.x.abs() <= rounding;
        assert!(fell && result.on_wall, "call {call}: {result:?}");
    }
}

/// A 3.5-unit box 1e5 out walking 3.1 a call under gravity on a floor of polygons with
/// collinear tops, all placed at one point: where a cast stopped it over a seam's vertex (its
/// corner within a third of a spacing of it) its position rounded a spacing up, nothing was
/// within the skin to measure, and the cast's closest-point normal, 5° off up, held it: it
/// climbed 0.28. It walks level.
#[test]
fn a_box_far_out_walks_level_over_the_seams_of_collinear_polygons() {
    let origin = v(1.0e5, 5.0e4);
    let (size, speed, tile) = (3.481807f32, -3.1068816f32, 2.0f32);
    let from = -(speed.abs() * 200.0 + 2.0 * size + 5.0);
    let mut world = World::new();
    let mut rng = Rng(10889465211252099630);
    for i in 0..(2.0 * -from / tile).ceil() as usize + 1 {
        let polygon = collinear_piece(i, tile, &mut rng);
        let placed = Transform::new(origin + v(from, 0.0), 0.0);
        world
            .insert(Collider::new(polygon).with_transform(placed))
            .unwrap();
    }
    let box_shape = Shape::from(Polygon::rect(size, size).unwrap());
    let start = origin + v(rng.range(0.0, tile), 0.5 * size + 0.005);
    let hero = world
        .insert(Collider::new(box_shape).with_transform(Transform::new(start, 0.0)))
        .unwrap();
    for _ in 0..5 {
        world
            .move_and_slide(hero, v(0.0, -0.1), MoveOptions::default())
            .unwrap();
    }
    let rounding = 2.0 * spacing(origin.x);
    for call in 0..60 {
        let result = world
            .move_and_slide(hero, v(speed, -0.1), MoveOptions::default())
            .unwrap();
        let level = result.moved.y.abs() <= rounding && (result.moved.x - speed).abs() <= rounding;
        assert!(level && result.on_floor, "call {call}: {result:?}");
    }
}
