//! Shape casts across seams: a sharp shape sliding level with the face of the next shape in a
//! row (a box along a floor of tiles, under a ceiling of tiles) meets that shape's corner only
//! by grazing it. The cast may report the touch, but its normal must be the face slid along,
//! not a direction between it and the corner's other face, which would turn a mover aside (a
//! ghost collision at the seam).

use crate::support::Rng;
use collide2d::query::{shape_cast, CastOptions, Sweep};
use collide2d::shape::{Polygon, Shape};
use collide2d::{Rot, Transform, Vec2};

/// The four quarter turns, exactly.
const QUARTERS: [Rot; 4] = [
    Rot { c: 1.0, s: 0.0 },
    Rot { c: 0.0, s: 1.0 },
    Rot { c: -1.0, s: 0.0 },
    Rot { c: 0.0, s: -1.0 },
];

fn sharp(vertices: &[Vec2]) -> Shape {
    Shape::from(Polygon::hull(vertices).unwrap_or_else(|e| panic!("{e:?} for {vertices:?}")))
}

/// The exact example: a 2 x 2 box moving 10 along x meets, at t = 0.4, the corner of a 2 x 2
/// box whose bottom (or top) face is level with its top (or bottom) face. It used to answer
/// the normal (0.894, ±0.447).
#[test]
fn a_box_sliding_level_with_the_next_box_meets_its_corner_along_the_face() {
    let a = Shape::from(Polygon::rect(2.0, 2.0).unwrap());
    for offset in [0.0, 1e3, 1e5] {
        for side in [1.0f32, -1.0] {
            let start = Transform::new(Vec2::new(offset, offset), 0.0);
            let b_at = Transform::new(Vec2::new(offset + 6.0, offset + 2.0 * side), 0.0);
            let hit = shape_cast(
                &a,
                &Sweep::linear(&start, Vec2::new(10.0, 0.0)),
                &a,
                &Sweep::fixed(&b_at),
                CastOptions::default(),
            )
            .expect("the corners touch at t = 0.4");
            assert!((hit.t - 0.4).abs() < 1e-4, "{hit:?}");
            assert!(
                (hit.normal - Vec2::new(0.0, side)).length() < 1e-6,
                "offset {offset}, side {side}: {hit:?}"
            );
        }
    }
}

/// A random convex polygon on a 1/64 grid with a flat bottom face from `(0, 0)` to
/// `(width, 0)` and every other vertex above it.
fn flat_bottomed(rng: &mut Rng) -> Vec<Vec2> {
    let grid = |x: f32| (x * 64.0).round() / 64.0;
    let width = grid(rng.range(0.25, 3.0));
    let height = grid(rng.range(0.25, 3.0));
    let mut vertices = vec![Vec2::ZERO, Vec2::new(width, 0.0)];
    for _ in 0..rng.below(6) + 1 {
        let x = grid(rng.range(-0.5, 0.5) * width + 0.5 * width);
        let y = grid(rng.range(0.1, 1.0) * height).max(1.0 / 64.0);
        vertices.push(Vec2::new(x, y));
    }
    vertices
}

/// Every sharp polygon with a flat face, sliding level with the flat face of another ahead of
/// it (above it, below it, moving either way, the scene turned by a quarter turn and placed up
/// to 1e5 from the origin, on a grid where all of it is exact), at the contact distance 0: when
/// the cast reports a hit, its normal is the flat face's.
#[test]
fn sharp_shapes_sliding_across_a_seam_meet_it_along_the_face() {
    let mut rng = Rng(0x5ea_11e55);
    let mut hits = 0;
    for case in 0..4000 {
        let mover = flat_bottomed(&mut rng);
        let tile = flat_bottomed(&mut rng);
        let above = rng.chance(0.5);
        let forwards = rng.chance(0.5);
        // Resting a skin off the line, a cast with that skin as its target stops within its
        // tolerance of the skin, before the corners line up: its normal is then tilted by up
        // to sqrt(2 tolerance / skin) by definition. Only the contact itself is probed.
        let skin = 0.0;
        let turn = rng.pick(&QUARTERS);
        let offset = rng.pick(&[0.0f32, 64.0, 1024.0, 65536.0]);
        let origin = Vec2::new(offset, -offset);
        // The mover's flat face faces the tile's: its outline flipped upside down when the
        // tile is above it (the tile's face then points down).
        let flip = |points: &[Vec2]| -> Vec<Vec2> {
            points.iter().map(|p| Vec2::new(p.x, -p.y)).collect()
        };
        let (mover, tile) = if above {
            (flip(&mover), tile)
        } else {
            (mover, flip(&tile))
        };
        // Then the mover rests `skin` away from the tile's line, beside the tile with a gap.
        let mover_width = mover.iter().map(|p| p.x).fold(f32::MIN, f32::max);
        let tile_width = tile.iter().map(|p| p.x).fold(f32::MIN, f32::max);
        let gap = (rng.range(0.0, 2.0) * 64.0).round() / 64.0;
        let lift = if above { -skin } else { skin };
        let (mover_x, tile_x, travel) = if forwards {
            (0.0, mover_width + gap, gap + 2.0)
        } else {
            (tile_width + gap, 0.0, -(gap + 2.0))
        };
        let place = |points: &[Vec2], dx: f32, dy: f32| -> Vec<Vec2> {
            points
                .iter()
                .map(|p| turn.rotate(Vec2::new(p.x + dx, p.y + dy)))
                .collect()
        };
        let a = sharp(&place(&mover, mover_x, lift));
        let b = sharp(&place(&tile, tile_x, 0.0));
        let at = Transform {
            p: origin,
            q: Rot::IDENTITY,
        };
        let motion = turn.rotate(Vec2::new(travel, 0.0));
        let options = CastOptions {
            target_separation: skin,
            ..CastOptions::default()
        };
        let Some(hit) = shape_cast(
            &a,
            &Sweep::linear(&at, motion),
            &b,
            &Sweep::fixed(&at),
            options,
        ) else {
            continue;
        };
        hits += 1;
        let face = turn.rotate(Vec2::new(0.0, if above { 1.0 } else { -1.0 }));
        assert!(
            (hit.normal - face).length() < 1e-4,
            "case {case}: normal {:?}, the face's {face:?}; {hit:?}\n  mover {mover:?} at ({mover_x}, {lift})\n  tile {tile:?} at {tile_x}\n  turn {turn:?}, offset {offset}, travel {travel}, skin {skin}",
            hit.normal
        );
    }
    // Most slides reach the seam's corner (the rest pass it by rounding or end short).
    assert!(hits > 2000, "only {hits} of 4000 slides reported the seam");
}
