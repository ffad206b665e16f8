//! Tile maps: merged outlines and rectangles checked against the cells they come from.
//!
//! Hand cases with known geometry; random maps whose regions are checked cell by cell and by
//! sampling over a million points; random edit sequences compared after every edit with a fresh
//! build of the same cells; and bad input. The seeded generators are deterministic; the proptest
//! cases draw fresh seeds locally (CI fixes `PROPTEST_RNG_SEED`).

use std::collections::{BTreeMap, BTreeSet, HashSet};

use crate::support::Rng;
use collide2d::level::{
    CellRect, Region, RegionChange, RegionId, Tile, TileMap, TileMapError, MAX_CELLS,
    MAX_COORDINATE_IN_CELLS,
};
use collide2d::{Aabb, LayerId, Vec2};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// Deterministic random numbers (the shared SplitMix64 generator).

/// Helpers of these tests on the shared generator.
impl Rng {
    /// A number in `0..n` (`n` > 0).
    fn below_u32(&mut self, n: u32) -> u32 {
        (self.next_u64() % u64::from(n)) as u32
    }
}

// ---------------------------------------------------------------------------------------------
// Building maps.

const ONE_WAY: Tile = Tile::SOLID.with_one_way(true);
const LAYER_1: Tile = Tile::SOLID.with_layer(LayerId::new(1).unwrap());
/// An empty tile with flags set: must behave exactly like `Tile::EMPTY` for regions.
const EMPTY_FLAGGED: Tile = Tile {
    solid: false,
    one_way: true,
    layer: LayerId::new(3).unwrap(),
};

/// A map drawn as text, top row first: `#` solid, `o` one-way, `1` layer 1, anything else empty.
fn drawn(rows: &[&str], cell_size: f32, origin: Vec2) -> TileMap {
    let height = rows.len() as u32;
    let width = rows[0].len() as u32;
    TileMap::from_fn(width, height, cell_size, origin, |x, y| {
        match rows[(height - 1 - y) as usize].as_bytes()[x as usize] {
            b'#' => Tile::SOLID,
            b'o' => ONE_WAY,
            b'1' => LAYER_1,
            _ => Tile::EMPTY,
        }
    })
    .unwrap()
}

fn unit_map(rows: &[&str]) -> TileMap {
    drawn(rows, 1.0, Vec2::ZERO)
}

/// A map whose cells are solid with probability `density`, solid tiles drawn from `palette`.
fn random_map(
    rng: &mut Rng,
    (width, height): (u32, u32),
    density: f64,
    palette: &[Tile],
    cell_size: f32,
    origin: Vec2,
) -> TileMap {
    TileMap::from_fn(width, height, cell_size, origin, |_, _| {
        if rng.chance(density) {
            rng.pick(palette)
        } else if rng.chance(0.1) {
            EMPTY_FLAGGED
        } else {
            Tile::EMPTY
        }
    })
    .unwrap()
}

/// The same cells built from scratch.
fn rebuilt(map: &TileMap) -> TileMap {
    let tiles = map.tiles();
    TileMap::from_fn(
        map.width(),
        map.height(),
        map.cell_size(),
        map.origin(),
        |x, y| tiles[(y * map.width() + x) as usize],
    )
    .unwrap()
}

fn tile_at(map: &TileMap, x: i64, y: i64) -> Tile {
    if x < 0 || y < 0 {
        return Tile::EMPTY;
    }
    map.tile(x as u32, y as u32).unwrap_or(Tile::EMPTY)
}

// ---------------------------------------------------------------------------------------------
// Geometry helpers. Loops are compared in lattice coordinates (cells from the origin).

type Lattice = (i64, i64);

/// The lattice vertex of a world point, checking it is exactly where the map puts vertices.
fn lattice(map: &TileMap, point: Vec2) -> Lattice {
    let local = (point - map.origin()) / map.cell_size();
    let vertex = (local.x.round() as i64, local.y.round() as i64);
    let expected = Vec2::new(
        map.origin().x + vertex.0 as f32 * map.cell_size(),
        map.origin().y + vertex.1 as f32 * map.cell_size(),
    );
    assert_eq!(point, expected, "outline vertex off the lattice");
    vertex
}

fn lattice_loops(map: &TileMap, region: &Region) -> Vec<Vec<Lattice>> {
    region
        .outlines()
        .map(|outline| outline.iter().map(|&p| lattice(map, p)).collect())
        .collect()
}

/// Twice the signed area (shoelace), exact in integers.
fn twice_area(outline: &[Lattice]) -> i64 {
    let mut sum = 0;
    for (i, &(x0, y0)) in outline.iter().enumerate() {
        let (x1, y1) = outline[(i + 1) % outline.len()];
        sum += x0 * y1 - x1 * y0;
    }
    sum
}

/// The loop rotated to start at its smallest vertex (the smallest such rotation if that vertex
/// repeats at a saddle).
fn normalised<T: Ord + Clone>(outline: &[T]) -> Vec<T> {
    let smallest = outline.iter().min().unwrap();
    (0..outline.len())
        .filter(|&start| &outline[start] == smallest)
        .map(|start| {
            let mut rotated = outline[start..].to_vec();
            rotated.extend_from_slice(&outline[..start]);
            rotated
        })
        .min()
        .unwrap()
}

fn normalised_loops(map: &TileMap, region: &Region) -> Vec<Vec<Lattice>> {
    let mut loops: Vec<Vec<Lattice>> = lattice_loops(map, region)
        .iter()
        .map(|outline| normalised(outline))
        .collect();
    loops[1..].sort();
    loops
}

fn direction(from: Lattice, to: Lattice) -> Lattice {
    ((to.0 - from.0).signum(), (to.1 - from.1).signum())
}

fn cross(a: Lattice, b: Lattice) -> i64 {
    a.0 * b.1 - a.1 * b.0
}

/// Whether the four cells around lattice vertex `v` hold the region in a diagonal pattern.
fn is_saddle(v: Lattice, inside: &dyn Fn(i64, i64) -> bool) -> bool {
    let ne = inside(v.0, v.1);
    let nw = inside(v.0 - 1, v.1);
    let sw = inside(v.0 - 1, v.1 - 1);
    let se = inside(v.0, v.1 - 1);
    ne == sw && nw == se && ne != nw
}

// ---------------------------------------------------------------------------------------------
// The full check of a map's regions against its cells.

/// Checks every documented property of every region against the cells. Returns the failure
/// as text so proptest can shrink it.
fn check_regions(map: &TileMap) -> Result<(), String> {
    let (width, height) = (map.width(), map.height());
    let listed: Vec<(RegionId, &Region)> = map.regions().collect();
    if listed.len() != map.region_count() {
        return Err(format!(
            "{} listed, count {}",
            listed.len(),
            map.region_count()
        ));
    }

    // Cells by the region `region_at` names.
    let mut cells_of: BTreeMap<RegionId, BTreeSet<(u32, u32)>> = BTreeMap::new();
    for y in 0..height {
        for x in 0..width {
            let tile = map.tile(x, y).unwrap();
            match map.region_at(x, y) {
                None if tile.solid => return Err(format!("solid cell ({x}, {y}) has no region")),
                None => {}
                Some(_) if !tile.solid => {
                    return Err(format!("empty cell ({x}, {y}) has a region"))
                }
                Some(id) => {
                    let region = map.region(id).ok_or(format!("{id} does not resolve"))?;
                    if region.tile() != tile {
                        return Err(format!("({x}, {y}) tile differs from its region's"));
                    }
                    // Side neighbours share the region exactly when they share the tile.
                    for (nx, ny) in [(x + 1, y), (x, y + 1)] {
                        if let Some(neighbour) = map.tile(nx, ny) {
                            let same_region = map.region_at(nx, ny) == Some(id);
                            if same_region != (neighbour == tile) {
                                return Err(format!("({x}, {y}) and ({nx}, {ny}) disagree"));
                            }
                        }
                    }
                    cells_of.entry(id).or_default().insert((x, y));
                }
            }
        }
    }
    if cells_of.len() != listed.len() {
        return Err(format!(
            "{} regions own cells, {} listed",
            cells_of.len(),
            listed.len()
        ));
    }

    for &(id, region) in &listed {
        let cells = cells_of.get(&id).ok_or(format!("{id} owns no cell"))?;
        check_region(map, id, region, cells)?;
    }
    Ok(())
}

fn check_region(
    map: &TileMap,
    id: RegionId,
    region: &Region,
    cells: &BTreeSet<(u32, u32)>,
) -> Result<(), String> {
    let size = map.cell_size();
    let inside = |x: i64, y: i64| x >= 0 && y >= 0 && cells.contains(&(x as u32, y as u32));

    // Connected through sides: one flood from the first cell reaches them all.
    let mut reached = BTreeSet::new();
    let mut stack = vec![*cells.first().unwrap()];
    while let Some((x, y)) = stack.pop() {
        if !cells.contains(&(x, y)) || !reached.insert((x, y)) {
            continue;
        }
        stack.extend([(x + 1, y), (x, y + 1)]);
        stack.extend(x.checked_sub(1).map(|x| (x, y)));
        stack.extend(y.checked_sub(1).map(|y| (x, y)));
    }
    if reached.len() != cells.len() {
        return Err(format!("{id} is not side-connected"));
    }

    // Counts and bounds.
    if region.cell_count() as usize != cells.len() {
        return Err(format!(
            "{id}: cell_count {} for {} cells",
            region.cell_count(),
            cells.len()
        ));
    }
    let min_x = cells.iter().map(|c| c.0).min().unwrap();
    let max_x = cells.iter().map(|c| c.0).max().unwrap();
    let min_y = cells.iter().map(|c| c.1).min().unwrap();
    let max_y = cells.iter().map(|c| c.1).max().unwrap();
    let bounds = CellRect {
        x: min_x,
        y: min_y,
        width: max_x - min_x + 1,
        height: max_y - min_y + 1,
    };
    if region.cell_bounds() != bounds {
        return Err(format!(
            "{id}: bounds {:?}, expected {bounds:?}",
            region.cell_bounds()
        ));
    }
    let expected_aabb = Aabb {
        min: map.cell_aabb(min_x, min_y).unwrap().min,
        max: map.cell_aabb(max_x, max_y).unwrap().max,
    };
    if region.aabb() != expected_aabb {
        return Err(format!(
            "{id}: aabb {:?}, expected {expected_aabb:?}",
            region.aabb()
        ));
    }

    // Rectangles: disjoint, exactly the cells, and placed where the cells are.
    let mut covered = BTreeSet::new();
    for rect in region.cell_rectangles() {
        for cell in rect.cells() {
            if !covered.insert(cell) {
                return Err(format!("{id}: rectangles overlap at {cell:?}"));
            }
        }
    }
    if &covered != cells {
        return Err(format!("{id}: rectangles do not cover exactly the cells"));
    }
    if region.cells().collect::<BTreeSet<_>>() != *cells {
        return Err(format!("{id}: cells() differs from the cells"));
    }
    let world: Vec<Aabb> = region.rectangles().collect();
    // In f64 from the extents, so huge or subnormal cells neither overflow nor underflow.
    let mut area = 0.0f64;
    for (rect, aabb) in region.cell_rectangles().iter().zip(&world) {
        let expected = Aabb {
            min: map.cell_aabb(rect.x, rect.y).unwrap().min,
            max: map
                .cell_aabb(rect.x + rect.width - 1, rect.y + rect.height - 1)
                .unwrap()
                .max,
        };
        if *aabb != expected {
            return Err(format!("{id}: rectangle {rect:?} placed at {aabb:?}"));
        }
        let extents = aabb.max - aabb.min;
        area += f64::from(extents.x) * f64::from(extents.y);
    }
    let expected_area = cells.len() as f64 * f64::from(size) * f64::from(size);
    // Each world coordinate is rounded to f32, so an extent may be off by a unit in the last
    // place of the map's largest coordinate (relative to the cell size: tiny near the origin,
    // large only for maps near the precision limit).
    let aabb = map.aabb();
    let largest = aabb.min.abs().max(aabb.max.abs()).max_element();
    let relative_extent_error = f64::from(largest) * f64::from(f32::EPSILON) / f64::from(size);
    let tolerance = 4.0 * relative_extent_error + 1e-5;
    if (area - expected_area).abs() > tolerance * expected_area {
        return Err(format!(
            "{id}: rectangle area {area}, expected {expected_area}"
        ));
    }

    // Outlines.
    let loops = lattice_loops(map, region);
    if loops.is_empty() || region.outline_count() != loops.len() {
        return Err(format!("{id}: {} loops", loops.len()));
    }
    if region.outer_boundary() != region.outline(0).unwrap()
        || region.holes().len() + 1 != loops.len()
    {
        return Err(format!(
            "{id}: outer boundary or holes disagree with outline()"
        ));
    }
    let mut total_twice_area = 0;
    let mut unit_edges = BTreeSet::new();
    let mut visits: BTreeMap<Lattice, usize> = BTreeMap::new();
    for (index, outline) in loops.iter().enumerate() {
        if outline.len() < 4 {
            return Err(format!("{id}: loop {index} has {} vertices", outline.len()));
        }
        let signed = twice_area(outline);
        if (index == 0) != (signed > 0) || signed == 0 {
            return Err(format!("{id}: loop {index} has twice-area {signed}"));
        }
        total_twice_area += signed;
        let n = outline.len();
        for i in 0..n {
            let (previous, vertex, next) =
                (outline[(i + n - 1) % n], outline[i], outline[(i + 1) % n]);
            let incoming = direction(previous, vertex);
            let outgoing = direction(vertex, next);
            // Axis-aligned, non-zero, and turning at every vertex (no collinear vertices).
            if previous == vertex
                || (previous.0 != vertex.0 && previous.1 != vertex.1)
                || cross(incoming, outgoing) == 0
            {
                return Err(format!(
                    "{id}: loop {index} is not a turning axis-aligned loop at {vertex:?}"
                ));
            }
            *visits.entry(vertex).or_default() += 1;
            // At a saddle the loop turns left, hugging the cell it came along.
            if is_saddle(vertex, &inside) && cross(incoming, outgoing) < 0 {
                return Err(format!(
                    "{id}: loop {index} turns right at saddle {vertex:?}"
                ));
            }
            // Unit edges, each with the region on its left and not on its right.
            let mut at = vertex;
            while at != next {
                let step = (at.0 + outgoing.0, at.1 + outgoing.1);
                let (left_cell, right_cell) = match outgoing {
                    (1, 0) => ((at.0, at.1), (at.0, at.1 - 1)),
                    (0, 1) => ((at.0 - 1, at.1), (at.0, at.1)),
                    (-1, 0) => ((at.0 - 1, at.1 - 1), (at.0 - 1, at.1)),
                    _ => ((at.0, at.1 - 1), (at.0 - 1, at.1 - 1)),
                };
                if !inside(left_cell.0, left_cell.1) || inside(right_cell.0, right_cell.1) {
                    return Err(format!("{id}: edge {at:?} -> {step:?} is not a boundary with the region on its left"));
                }
                if !unit_edges.insert((at, step)) {
                    return Err(format!("{id}: edge {at:?} -> {step:?} walked twice"));
                }
                at = step;
            }
        }
    }
    if total_twice_area != 2 * cells.len() as i64 {
        return Err(format!(
            "{id}: loops enclose {total_twice_area}/2 cells, not {}",
            cells.len()
        ));
    }
    // Every boundary side of every cell is walked (each once, checked above).
    let boundary_sides: usize = cells
        .iter()
        .map(|&(x, y)| {
            let (x, y) = (i64::from(x), i64::from(y));
            [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
                .iter()
                .filter(|&&(nx, ny)| !inside(nx, ny))
                .count()
        })
        .sum();
    if unit_edges.len() != boundary_sides {
        return Err(format!(
            "{id}: {} edges walked, {boundary_sides} boundary sides",
            unit_edges.len()
        ));
    }
    // A vertex repeats only where the region touches itself diagonally, at most twice.
    for (&vertex, &count) in &visits {
        if count > 2 || (count == 2 && !is_saddle(vertex, &inside)) {
            return Err(format!("{id}: vertex {vertex:?} visited {count} times"));
        }
    }
    Ok(())
}

/// How often a loop passes through `vertex`.
fn visits_of(outline: &[Lattice], vertex: Lattice) -> usize {
    outline.iter().filter(|&&v| v == vertex).count()
}

// ---------------------------------------------------------------------------------------------
// Hand cases.

fn only_region(map: &TileMap) -> (RegionId, &Region) {
    assert_eq!(map.region_count(), 1);
    map.regions().next().unwrap()
}

#[test]
fn single_cell_is_one_counter_clockwise_square_and_one_rectangle() {
    let map = drawn(&["...", ".#.", "..."], 2.0, Vec2::new(10.0, 20.0));
    let (id, region) = only_region(&map);
    assert_eq!(map.region_at(1, 1), Some(id));
    assert_eq!(region.cell_count(), 1);
    assert_eq!(region.tile(), Tile::SOLID);
    assert_eq!(region.outline_count(), 1);
    let outline = normalised(&lattice_loops(&map, region)[0]);
    assert_eq!(outline, vec![(1, 1), (2, 1), (2, 2), (1, 2)]);
    let world = region.outer_boundary();
    assert!(world.contains(&Vec2::new(12.0, 22.0)) && world.contains(&Vec2::new(14.0, 24.0)));
    let rectangles: Vec<Aabb> = region.rectangles().collect();
    let cell = Aabb {
        min: Vec2::new(12.0, 22.0),
        max: Vec2::new(14.0, 24.0),
    };
    assert_eq!(rectangles, vec![cell]);
    assert_eq!(region.aabb(), cell);
    check_regions(&map).unwrap();
}

#[test]
fn a_row_of_a_thousand_tiles_is_one_four_vertex_loop() {
    let map = TileMap::from_fn(1000, 1, 0.5, Vec2::new(-250.0, 0.0), |_, _| Tile::SOLID).unwrap();
    let (_, region) = only_region(&map);
    assert_eq!(region.cell_count(), 1000);
    assert_eq!(region.outline_count(), 1);
    assert_eq!(
        normalised(&lattice_loops(&map, region)[0]),
        vec![(0, 0), (1000, 0), (1000, 1), (0, 1)]
    );
    assert_eq!(
        region.cell_rectangles(),
        &[CellRect {
            x: 0,
            y: 0,
            width: 1000,
            height: 1
        }]
    );
    check_regions(&map).unwrap();
}

#[test]
fn an_l_shape_has_six_vertices_and_two_rectangles() {
    let map = unit_map(&["#..", "#..", "###"]);
    let (_, region) = only_region(&map);
    assert_eq!(
        normalised(&lattice_loops(&map, region)[0]),
        vec![(0, 0), (3, 0), (3, 1), (1, 1), (1, 3), (0, 3)]
    );
    assert_eq!(
        region.cell_rectangles(),
        &[
            CellRect {
                x: 0,
                y: 0,
                width: 3,
                height: 1
            },
            CellRect {
                x: 0,
                y: 1,
                width: 1,
                height: 2
            },
        ]
    );
    check_regions(&map).unwrap();
}

#[test]
fn a_ring_has_a_counter_clockwise_outside_and_a_clockwise_hole() {
    let size = 0.5;
    let map = drawn(
        &["####", "#..#", "#..#", "####"],
        size,
        Vec2::new(-3.0, 7.0),
    );
    let (_, region) = only_region(&map);
    let loops = normalised_loops(&map, region);
    assert_eq!(loops[0], vec![(0, 0), (4, 0), (4, 4), (0, 4)]);
    assert_eq!(loops[1], vec![(1, 1), (1, 3), (3, 3), (3, 1)]);
    assert_eq!(region.holes().len(), 1);
    let shoelace = |outline: &[Vec2]| {
        let n = outline.len();
        (0..n)
            .map(|i| outline[i].perp_dot(outline[(i + 1) % n]))
            .sum::<f32>()
            / 2.0
    };
    let outer = shoelace(region.outer_boundary());
    let hole = shoelace(region.holes().next().unwrap());
    assert!(outer > 0.0 && hole < 0.0);
    assert_eq!(outer + hole, 12.0 * size * size);
    // The hole is not part of the region; the ring is, boundaries included.
    assert!(!region.contains(Vec2::new(-3.0 + 2.0 * size, 7.0 + 2.0 * size)));
    assert!(region.contains(Vec2::new(-3.0 + 0.5 * size, 7.0 + 2.0 * size)));
    assert!(region.contains(Vec2::new(-3.0 + size, 7.0 + 2.0 * size)));
    check_regions(&map).unwrap();
}

#[test]
fn cells_touching_only_at_a_corner_are_separate_regions() {
    let map = unit_map(&[".#", "#."]);
    assert_eq!(map.region_count(), 2);
    let a = map.region_at(0, 0).unwrap();
    let b = map.region_at(1, 1).unwrap();
    assert_ne!(a, b);
    for id in [a, b] {
        let region = map.region(id).unwrap();
        assert_eq!(region.cell_count(), 1);
        assert_eq!(region.outline_count(), 1);
        assert_eq!(region.outer_boundary().len(), 4);
    }
    check_regions(&map).unwrap();
}

#[test]
fn a_ring_closed_only_at_a_corner_is_one_loop_pinched_at_the_saddle() {
    // The empty cell (1, 1) reaches the outside through the corner at (1, 1), so there is no
    // hole: one loop, passing the saddle vertex twice, turning left both times.
    let map = unit_map(&["###", "#.#", ".##"]);
    let (_, region) = only_region(&map);
    assert_eq!(region.outline_count(), 1);
    let outline = normalised(&lattice_loops(&map, region)[0]);
    assert_eq!(
        outline,
        vec![
            (0, 1),
            (1, 1),
            (1, 2),
            (2, 2),
            (2, 1),
            (1, 1),
            (1, 0),
            (3, 0),
            (3, 3),
            (0, 3)
        ]
    );
    assert_eq!(visits_of(&outline, (1, 1)), 2);
    assert_eq!(twice_area(&outline), 2 * 7);
    check_regions(&map).unwrap();
}

#[test]
fn holes_touching_at_a_corner_are_one_hole_loop() {
    let map = unit_map(&["####", "#.##", "##.#", "####"]);
    let (_, region) = only_region(&map);
    assert_eq!(region.outline_count(), 2);
    let hole = &normalised_loops(&map, region)[1];
    assert_eq!(hole.len(), 8);
    assert_eq!(visits_of(hole, (2, 2)), 2);
    assert_eq!(twice_area(hole), -2 * 2);
    check_regions(&map).unwrap();
}

#[test]
fn a_checkerboard_is_all_separate_cells() {
    let map = TileMap::from_fn(9, 7, 1.0, Vec2::ZERO, |x, y| {
        if (x + y) % 2 == 0 {
            Tile::SOLID
        } else {
            Tile::EMPTY
        }
    })
    .unwrap();
    assert_eq!(map.region_count(), 32);
    assert!(map
        .regions()
        .all(|(_, region)| region.outer_boundary().len() == 4));
    // A fresh map lists its regions by first cell in row-major order.
    let firsts: Vec<(u32, u32)> = map
        .regions()
        .map(|(_, region)| (region.cell_bounds().y, region.cell_bounds().x))
        .collect();
    assert!(firsts.windows(2).all(|pair| pair[0] < pair[1]));
    check_regions(&map).unwrap();
}

#[test]
fn adjacent_cells_with_different_flags_are_different_regions() {
    let map = unit_map(&["#o1#", "#oo#"]);
    // Columns: plain | one-way | (layer 1 over one-way) | plain.
    assert_eq!(map.region_count(), 4);
    let ids: BTreeSet<RegionId> = [(0, 0), (1, 0), (2, 1), (3, 0)]
        .iter()
        .map(|&(x, y)| map.region_at(x, y).unwrap())
        .collect();
    assert_eq!(ids.len(), 4);
    assert_eq!(map.region_at(1, 0), map.region_at(2, 0));
    assert_eq!(map.region_at(1, 0), map.region_at(1, 1));
    assert_eq!(
        map.region(map.region_at(2, 1).unwrap()).unwrap().tile(),
        LAYER_1
    );
    assert_eq!(
        map.region(map.region_at(1, 0).unwrap()).unwrap().tile(),
        ONE_WAY
    );
    check_regions(&map).unwrap();
}

#[test]
fn points_on_boundaries_count_as_solid() {
    let map = drawn(&["#.", ".."], 2.0, Vec2::new(1.0, 1.0)); // solid cell (0, 1): [1, 3] × [3, 5]
    let (_, region) = only_region(&map);
    for point in [
        Vec2::new(3.0, 4.0), // right side, shared with an empty cell
        Vec2::new(2.0, 3.0), // bottom side
        Vec2::new(1.0, 5.0), // the map's top-left corner
        Vec2::new(3.0, 3.0), // the corner shared by four cells
    ] {
        assert!(map.is_solid_at(point), "{point}");
        assert!(region.contains(point), "{point}");
    }
    assert!(!map.is_solid_at(Vec2::new(3.01, 4.0)));
    assert!(!region.contains(Vec2::new(3.01, 4.0)));
    // cell_at gives each point one cell: grid lines belong to the cell above or right.
    assert_eq!(map.cell_at(Vec2::new(3.0, 3.0)), Some((1, 1)));
    assert_eq!(map.cell_at(Vec2::new(1.0, 1.0)), Some((0, 0)));
    assert_eq!(map.cell_at(Vec2::new(5.0, 2.0)), None);
    assert_eq!(map.cell_at(Vec2::new(0.99, 2.0)), None);
}

#[test]
fn setting_a_cell_to_its_own_tile_or_another_empty_tile_changes_nothing() {
    let mut map = unit_map(&["##.", "#.."]);
    let before: Vec<_> = map.regions().map(|(id, r)| (id, r.clone())).collect();
    assert!(map.set_tile(0, 0, Tile::SOLID).unwrap().is_empty());
    assert!(map.set_tile(2, 0, Tile::EMPTY).unwrap().is_empty());
    assert!(map.set_tile(2, 0, EMPTY_FLAGGED).unwrap().is_empty());
    assert_eq!(map.tile(2, 0), Some(EMPTY_FLAGGED));
    let after: Vec<_> = map.regions().map(|(id, r)| (id, r.clone())).collect();
    assert_eq!(before, after);
}

#[test]
fn filling_a_gap_merges_and_digging_splits() {
    let mut map = unit_map(&["#.#"]);
    let (left, right) = (map.region_at(0, 0).unwrap(), map.region_at(2, 0).unwrap());
    let merged = map.set_tile(1, 0, Tile::SOLID).unwrap();
    assert_eq!(
        merged.removed.iter().copied().collect::<BTreeSet<_>>(),
        [left, right].into()
    );
    assert_eq!(merged.added.len(), 1);
    assert!(map.region(left).is_none() && map.region(right).is_none());
    let whole = merged.added[0];
    assert_eq!(map.region(whole).unwrap().cell_count(), 3);
    assert_eq!(map.region(whole).unwrap().outer_boundary().len(), 4);

    let split = map.set_tile(1, 0, ONE_WAY).unwrap();
    assert_eq!(split.removed, vec![whole]);
    assert_eq!(split.added.len(), 3); // two plain ends and the one-way middle
    for id in &split.added {
        assert!(
            !merged.added.contains(id) && *id != left && *id != right,
            "ids are never reused"
        );
    }
    check_regions(&map).unwrap();
}

#[test]
fn an_edit_leaves_unrelated_neighbours_alone() {
    // The layer-1 region beside the edited cell neither loses nor gains a cell.
    let mut map = unit_map(&["1#"]);
    let layer_region = map.region_at(0, 0).unwrap();
    let change = map.set_tile(1, 0, ONE_WAY).unwrap();
    assert_eq!(change.removed.len(), 1);
    assert_eq!(change.added.len(), 1);
    assert_eq!(map.region_at(0, 0), Some(layer_region));
}

// ---------------------------------------------------------------------------------------------
// Random maps: every region against the cells, and a million points against all three answers.

/// Per cell, the regions whose bounds include it: the only candidates for containing a point.
fn candidates_by_cell(map: &TileMap) -> Vec<Vec<RegionId>> {
    let mut candidates = vec![Vec::new(); (map.width() * map.height()) as usize];
    for (id, region) in map.regions() {
        let bounds = region.cell_bounds();
        for (x, y) in bounds.cells() {
            candidates[(y * map.width() + x) as usize].push(id);
        }
    }
    candidates
}

/// Samples `count` points over the map and a one-cell margin around it, away from grid lines,
/// and checks that the cells, the outlines and the rectangles agree about each.
fn check_points(map: &TileMap, rng: &mut Rng, count: usize) {
    let (width, height) = (map.width(), map.height());
    let (origin, size) = (map.origin(), map.cell_size());
    let line = |origin: f32, k: i64| origin + k as f32 * size;
    let candidates = candidates_by_cell(map);
    let mut sampled = 0;
    while sampled < count {
        let local_x = rng.unit_f64() * f64::from(width + 2) - 1.0;
        let local_y = rng.unit_f64() * f64::from(height + 2) - 1.0;
        let point = Vec2::new(
            (f64::from(origin.x) + local_x * f64::from(size)) as f32,
            (f64::from(origin.y) + local_y * f64::from(size)) as f32,
        );
        // The cell between the actual f32 grid lines; skip points within 1e-4 cells of one.
        let (cell_x, cell_y) = (local_x.floor() as i64, local_y.floor() as i64);
        let margin = 1e-4 * size;
        if (point.x - line(origin.x, cell_x)) < margin
            || (line(origin.x, cell_x + 1) - point.x) < margin
            || (point.y - line(origin.y, cell_y)) < margin
            || (line(origin.y, cell_y + 1) - point.y) < margin
        {
            continue;
        }
        sampled += 1;

        let tile = tile_at(map, cell_x, cell_y);
        assert_eq!(map.is_solid_at(point), tile.solid, "is_solid_at {point}");
        let in_map =
            cell_x >= 0 && cell_y >= 0 && cell_x < i64::from(width) && cell_y < i64::from(height);
        assert_eq!(
            map.cell_at(point),
            in_map.then_some((cell_x as u32, cell_y as u32)),
            "cell_at {point}"
        );
        let owner = if in_map {
            map.region_at(cell_x as u32, cell_y as u32)
        } else {
            None
        };
        let nearest = (
            cell_x.clamp(0, i64::from(width) - 1) as u32,
            cell_y.clamp(0, i64::from(height) - 1) as u32,
        );
        let nearby = &candidates[(nearest.1 * width + nearest.0) as usize];
        for &id in nearby.iter().chain(owner.as_ref()) {
            let region = map.region(id).unwrap();
            let expected = Some(id) == owner;
            assert_eq!(
                region.contains(point),
                expected,
                "{id} outline contains {point}"
            );
            let rectangles = region
                .rectangles()
                .filter(|r| r.contains_point(point))
                .count();
            assert_eq!(
                rectangles,
                usize::from(expected),
                "{id} rectangles contain {point}"
            );
        }
    }
}

#[test]
fn random_maps_regions_match_cells_and_sampled_points() {
    let mut rng = Rng(0x5eed_0001);
    let palettes: [&[Tile]; 3] = [
        &[Tile::SOLID],
        &[Tile::SOLID, ONE_WAY],
        &[
            Tile::SOLID,
            Tile::SOLID,
            ONE_WAY,
            LAYER_1,
            LAYER_1.with_one_way(true),
        ],
    ];
    let placements = [
        (1.0, Vec2::ZERO),
        (0.5, Vec2::new(-12.25, 3.5)),
        (0.3, Vec2::new(7.1, -40.0)),
        (16.0, Vec2::new(-100.0, -100.0)),
    ];
    let mut total_points = 0;
    let mut total_regions = 0;
    // Many small maps with many points each, then a few large ones with fewer.
    for map_index in 0..400 {
        let large = map_index % 50 == 49;
        let (width, height) = if large {
            (150 + rng.below_u32(51), 150 + rng.below_u32(51))
        } else {
            (1 + rng.below_u32(48), 1 + rng.below_u32(48))
        };
        let density = rng.pick(&[0.1, 0.3, 0.5, 0.6, 0.75, 0.9, 1.0]);
        let palette = rng.pick(&palettes);
        let (size, origin) = rng.pick(&placements);
        let map = random_map(&mut rng, (width, height), density, palette, size, origin);
        check_regions(&map).unwrap_or_else(|e| panic!("map {map_index}: {e}"));
        let points = if large { 20_000 } else { 2_500 };
        check_points(&map, &mut rng, points);
        total_points += points;
        total_regions += map.region_count();
    }
    assert!(total_points >= 1_000_000);
    assert!(
        total_regions > 10_000,
        "only {total_regions} regions sampled"
    );
}

#[test]
fn a_bulk_build_matches_a_map_painted_cell_by_cell() {
    let mut rng = Rng(0x5eed_0002);
    let map = random_map(
        &mut rng,
        (40, 30),
        0.55,
        &[Tile::SOLID, ONE_WAY],
        1.0,
        Vec2::ZERO,
    );
    let mut painted = TileMap::new(40, 30, 1.0, Vec2::ZERO).unwrap();
    for y in 0..30 {
        for x in 0..40 {
            painted.set_tile(x, y, map.tile(x, y).unwrap()).unwrap();
        }
    }
    assert_eq!(signature(&painted), signature(&map));
    check_regions(&painted).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Edits against fresh builds.

/// A region compared across maps: tile, cells, loops (each rotated to start at its smallest
/// vertex, holes sorted) and rectangles.
type RegionSignature = (
    (bool, bool, LayerId),
    Vec<(u32, u32)>,
    Vec<Vec<Lattice>>,
    Vec<(u32, u32, u32, u32)>,
);

fn region_signature(map: &TileMap, region: &Region) -> RegionSignature {
    let tile = region.tile();
    let mut cells: Vec<(u32, u32)> = region.cells().collect();
    cells.sort();
    (
        (tile.solid, tile.one_way, tile.layer),
        cells,
        normalised_loops(map, region),
        region
            .cell_rectangles()
            .iter()
            .map(|r| (r.x, r.y, r.width, r.height))
            .collect(),
    )
}

fn signature(map: &TileMap) -> BTreeSet<RegionSignature> {
    map.regions()
        .map(|(_, region)| region_signature(map, region))
        .collect()
}

/// Applies one edit and checks it against a fresh build and against the reported change.
fn check_edit(
    map: &mut TileMap,
    (x, y, tile): (u32, u32, Tile),
    ever_seen: &mut HashSet<RegionId>,
) -> Result<RegionChange, String> {
    let before: BTreeMap<RegionId, Region> = map.regions().map(|(id, r)| (id, r.clone())).collect();
    let old_tile = map.tile(x, y).unwrap();
    let change = map.set_tile(x, y, tile).map_err(|e| e.to_string())?;
    let after: BTreeMap<RegionId, Region> = map.regions().map(|(id, r)| (id, r.clone())).collect();

    // Same regions as building these cells from scratch.
    let fresh = rebuilt(map);
    if signature(map) != signature(&fresh) {
        return Err(format!(
            "set ({x}, {y}) to {tile:?}: regions differ from a fresh build"
        ));
    }
    if map.region_count() != fresh.region_count() {
        return Err("region count differs from a fresh build".into());
    }

    // The change names exactly the ids that disappeared and appeared.
    let removed: BTreeSet<RegionId> = before
        .keys()
        .filter(|id| !after.contains_key(id))
        .copied()
        .collect();
    let added: BTreeSet<RegionId> = after
        .keys()
        .filter(|id| !before.contains_key(id))
        .copied()
        .collect();
    let reported_removed: BTreeSet<RegionId> = change.removed.iter().copied().collect();
    let reported_added: BTreeSet<RegionId> = change.added.iter().copied().collect();
    if removed != reported_removed || added != reported_added {
        return Err(format!(
            "change {change:?} but removed {removed:?}, added {added:?}"
        ));
    }
    if reported_removed.len() != change.removed.len() || reported_added.len() != change.added.len()
    {
        return Err(format!("duplicate ids in {change:?}"));
    }
    for id in &change.removed {
        if map.region(*id).is_some() {
            return Err(format!("removed {id} still resolves"));
        }
        // Only regions at the edited cell or beside it are rebuilt.
        let region = &before[id];
        let near = [(0i64, 0i64), (1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .any(|&(dx, dy)| {
                let (nx, ny) = (i64::from(x) + dx, i64::from(y) + dy);
                nx >= 0 && ny >= 0 && region.cells().any(|c| c == (nx as u32, ny as u32))
            });
        if !near {
            return Err(format!("removed {id} is not at or beside ({x}, {y})"));
        }
    }
    for id in &change.added {
        if map.region(*id).is_none() {
            return Err(format!("added {id} does not resolve"));
        }
        if !ever_seen.insert(*id) {
            return Err(format!("added {id} was handed out before"));
        }
    }
    // Regions that kept their id are untouched.
    for (id, region) in &after {
        if let Some(old) = before.get(id) {
            if old != region {
                return Err(format!("{id} kept its id but changed"));
            }
        }
    }
    if old_tile == tile && !change.is_empty() {
        return Err("a no-op edit reported a change".into());
    }
    check_regions(map)?;
    Ok(change)
}

#[test]
fn random_edit_sequences_match_fresh_builds() {
    let mut rng = Rng(0x5eed_0003);
    let palette = [
        Tile::EMPTY,
        Tile::EMPTY,
        Tile::SOLID,
        Tile::SOLID,
        ONE_WAY,
        LAYER_1,
        EMPTY_FLAGGED,
    ];
    let mut edits = 0;
    let mut splits_and_merges = 0;
    for (width, height, density, steps) in [
        (16, 16, 0.5, 600),
        (24, 12, 0.7, 500),
        (1, 40, 0.6, 200),
        (40, 1, 0.6, 200),
        (8, 8, 0.8, 300),
        (20, 20, 0.3, 400),
    ] {
        let mut map = random_map(
            &mut rng,
            (width, height),
            density,
            &palette[2..6],
            0.5,
            Vec2::new(-3.0, 2.0),
        );
        let mut ever_seen: HashSet<RegionId> = map.regions().map(|(id, _)| id).collect();
        for step in 0..steps {
            let (x, y) = (rng.below_u32(width), rng.below_u32(height));
            // Sometimes copy a neighbour's tile, which makes merges likely.
            let tile = if rng.chance(0.3) {
                let (nx, ny) = rng.pick(&[(1i64, 0i64), (-1, 0), (0, 1), (0, -1)]);
                tile_at(&map, i64::from(x) + nx, i64::from(y) + ny)
            } else {
                rng.pick(&palette)
            };
            let change = check_edit(&mut map, (x, y, tile), &mut ever_seen)
                .unwrap_or_else(|e| panic!("{width}x{height} step {step}: {e}"));
            splits_and_merges += usize::from(change.removed.len() != change.added.len());
            edits += 1;
        }
    }
    assert!(edits >= 2_000);
    assert!(
        splits_and_merges > 100,
        "only {splits_and_merges} edits split or merged"
    );
}

fn tile_strategy() -> impl Strategy<Value = Tile> {
    prop::sample::select(vec![
        Tile::EMPTY,
        Tile::SOLID,
        Tile::SOLID,
        ONE_WAY,
        LAYER_1,
        EMPTY_FLAGGED,
    ])
}

/// A small map's size and tiles.
fn small_map() -> impl Strategy<Value = (u32, u32, Vec<Tile>)> {
    (1u32..12, 1u32..12).prop_flat_map(|(width, height)| {
        (
            Just(width),
            Just(height),
            prop::collection::vec(tile_strategy(), (width * height) as usize),
        )
    })
}

fn map_of(width: u32, height: u32, tiles: &[Tile]) -> TileMap {
    TileMap::from_fn(width, height, 1.0, Vec2::ZERO, |x, y| {
        tiles[(y * width + x) as usize]
    })
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn regions_match_cells_on_small_maps((width, height, tiles) in small_map()) {
        let map = map_of(width, height, &tiles);
        check_regions(&map).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn edits_match_fresh_builds_on_small_maps(
        (width, height, tiles) in small_map(),
        edits in prop::collection::vec((0u32..12, 0u32..12, tile_strategy()), 1..12),
    ) {
        let mut map = map_of(width, height, &tiles);
        let mut ever_seen: HashSet<RegionId> = map.regions().map(|(id, _)| id).collect();
        for (x, y, tile) in edits {
            let (x, y) = (x % width, y % height);
            check_edit(&mut map, (x, y, tile), &mut ever_seen).map_err(TestCaseError::fail)?;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Bad input.

#[test]
fn each_bad_dimension_is_its_own_error() {
    let origin = Vec2::ZERO;
    assert_eq!(
        TileMap::new(0, 5, 1.0, origin).unwrap_err(),
        TileMapError::ZeroSize {
            width: 0,
            height: 5
        }
    );
    assert_eq!(
        TileMap::new(5, 0, 1.0, origin).unwrap_err(),
        TileMapError::ZeroSize {
            width: 5,
            height: 0
        }
    );
    let side = 1 << 14; // side × side = MAX_CELLS exactly
    assert_eq!(u64::from(side) * u64::from(side), MAX_CELLS);
    assert_eq!(
        TileMap::new(side + 1, side, 1.0, origin).unwrap_err(),
        TileMapError::TooManyCells {
            width: side + 1,
            height: side
        }
    );
    assert_eq!(
        TileMap::new(u32::MAX, u32::MAX, 1.0, origin).unwrap_err(),
        TileMapError::TooManyCells {
            width: u32::MAX,
            height: u32::MAX
        }
    );
    for cell_size in [0.0, -0.0, -1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        match TileMap::new(4, 4, cell_size, origin).unwrap_err() {
            TileMapError::InvalidCellSize {
                cell_size: reported,
            } => {
                assert!(reported.to_bits() == cell_size.to_bits())
            }
            other => panic!("cell size {cell_size}: {other:?}"),
        }
    }
    for origin in [
        Vec2::new(f32::NAN, 0.0),
        Vec2::new(0.0, f32::NAN),
        Vec2::new(f32::INFINITY, 0.0),
        Vec2::new(0.0, f32::NEG_INFINITY),
    ] {
        assert_eq!(
            TileMap::new(4, 4, 1.0, origin).unwrap_err(),
            TileMapError::NonFiniteOrigin
        );
    }
}

#[test]
fn maps_beyond_the_coordinate_range_are_refused() {
    // Few cells, so the grid lines stay apart, but the corners lie beyond MAX_COORDINATE.
    assert!(matches!(
        TileMap::new(4, 4, 1.0e30, Vec2::ZERO),
        Err(TileMapError::OutOfRange { largest_coordinate }) if largest_coordinate == 4.0e30
    ));
    assert!(matches!(
        TileMap::new(4, 4, 1.0e3, Vec2::new(0.0, -2.0e9)),
        Err(TileMapError::OutOfRange { .. })
    ));
    assert!(TileMap::new(4, 4, 1.0e8, Vec2::new(-4.0e8, 5.0e8)).is_ok());
}

/// Over cell sizes and origins from tiny to huge: a map is either refused with an error, or
/// every one of its solid regions gets colliders in a world, in both geometries (a region is
/// never silently left without any).
#[test]
fn every_accepted_map_gives_every_solid_region_colliders() {
    use collide2d::world::{TileGeometry, TileMapColliders, World};
    let mut rng = Rng(0x7113_5eed);
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..400 {
        let cell_size = rng.log_size(1.0e-6, 1.0e32);
        let reach = rng.log_size(1.0e-3, 1.0e12);
        let origin = Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)) * reach;
        let (width, height) = (1 + rng.below(6) as u32, 1 + rng.below(6) as u32);
        let solid: Vec<bool> = (0..width * height).map(|_| rng.below(3) == 0).collect();
        let map = TileMap::from_fn(width, height, cell_size, origin, |x, y| {
            if solid[(y * width + x) as usize] {
                Tile::SOLID
            } else {
                Tile::EMPTY
            }
        });
        let Ok(map) = map else {
            refused += 1;
            continue;
        };
        accepted += 1;
        for geometry in [TileGeometry::Outlines, TileGeometry::Rectangles] {
            let mut world = World::new();
            let colliders = TileMapColliders::insert(&mut world, &map, geometry)
                .unwrap_or_else(|e| panic!("{cell_size} at {origin}: {e}"));
            for (id, _) in map.regions() {
                assert!(
                    !colliders.region_colliders(id).is_empty(),
                    "{cell_size} at {origin}: region {id:?} has no collider"
                );
            }
        }
    }
    assert!(
        accepted > 50 && refused > 50,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn maps_too_far_for_their_cell_size_are_refused() {
    // Just inside and just outside 2^22 cells from zero.
    let limit = MAX_COORDINATE_IN_CELLS;
    assert!(TileMap::new(4, 4, 1.0, Vec2::new(limit - 4.0, 0.0)).is_ok());
    assert!(matches!(
        TileMap::new(4, 4, 1.0, Vec2::new(limit - 3.0, 0.0)),
        Err(TileMapError::PrecisionLoss { .. })
    ));
    assert!(matches!(
        TileMap::new(4, 4, 0.001, Vec2::new(0.0, -1.0e4)),
        Err(TileMapError::PrecisionLoss { .. })
    ));
    // The far corner overflows f32.
    match TileMap::new(1000, 1, 1.0e36, Vec2::ZERO) {
        Err(TileMapError::PrecisionLoss {
            largest_coordinate, ..
        }) => {
            assert!(largest_coordinate.is_infinite())
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_refused_build_never_calls_the_tile_function() {
    let result = TileMap::from_fn(0, 10, 1.0, Vec2::ZERO, |_, _| panic!("called"));
    assert!(result.is_err());
}

#[test]
fn cells_outside_the_map_are_refused_and_change_nothing() {
    let mut map = unit_map(&["#.", "##"]);
    let before = signature(&map);
    for (x, y) in [(2, 0), (0, 2), (u32::MAX, 0), (0, u32::MAX)] {
        assert_eq!(map.tile(x, y), None);
        assert_eq!(map.region_at(x, y), None);
        assert_eq!(map.cell_aabb(x, y), None);
        assert_eq!(
            map.set_tile(x, y, Tile::SOLID),
            Err(TileMapError::OutOfBounds {
                x,
                y,
                width: 2,
                height: 2
            })
        );
    }
    assert_eq!(signature(&map), before);
    assert_eq!(map.tile(1, 1), Some(Tile::EMPTY));
}

#[test]
fn non_finite_points_are_in_no_cell() {
    let map = TileMap::from_fn(3, 3, 1.0, Vec2::ZERO, |_, _| Tile::SOLID).unwrap();
    let (_, region) = only_region(&map);
    for point in [
        Vec2::new(f32::NAN, 1.0),
        Vec2::new(1.0, f32::NAN),
        Vec2::new(f32::INFINITY, 1.0),
        Vec2::new(1.0, f32::NEG_INFINITY),
    ] {
        assert_eq!(map.cell_at(point), None);
        assert!(!map.is_solid_at(point));
        assert!(!region.contains(point));
    }
}

#[test]
fn stale_and_foreign_ids_do_not_resolve() {
    let mut map = unit_map(&["#"]);
    let id = map.region_at(0, 0).unwrap();
    map.set_tile(0, 0, Tile::EMPTY).unwrap();
    let change = map.set_tile(0, 0, Tile::SOLID).unwrap();
    assert!(map.region(id).is_none());
    assert_ne!(change.added, vec![id]);
    assert!(map.region(RegionId::new(99, 0)).is_none());
}

#[test]
fn errors_describe_themselves() {
    let errors = [
        TileMapError::ZeroSize {
            width: 0,
            height: 1,
        },
        TileMapError::TooManyCells {
            width: 1 << 20,
            height: 1 << 20,
        },
        TileMapError::InvalidCellSize { cell_size: -1.0 },
        TileMapError::NonFiniteOrigin,
        TileMapError::PrecisionLoss {
            cell_size: 1.0,
            largest_coordinate: 1e9,
        },
        TileMapError::OutOfBounds {
            x: 3,
            y: 4,
            width: 2,
            height: 2,
        },
    ];
    for error in errors {
        let boxed: Box<dyn std::error::Error> = Box::new(error);
        assert!(!boxed.to_string().is_empty());
    }
}

fn any_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<u32>().prop_map(f32::from_bits),
        prop::sample::select(vec![
            0.0,
            f32::NAN,
            f32::INFINITY,
            f32::MIN_POSITIVE,
            1e-40,
            1e30,
            f32::MAX,
            1.0,
            -1.0,
        ]),
        -10.0f32..10.0,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn no_input_panics_or_builds_non_finite_geometry(
        width in 0u32..6, height in 0u32..6, cell_size in any_f32(),
        origin_x in any_f32(), origin_y in any_f32(),
        probe_x in any_f32(), probe_y in any_f32(),
    ) {
        let origin = Vec2::new(origin_x, origin_y);
        if let Ok(map) = TileMap::from_fn(width, height, cell_size, origin, |x, y| {
            if (x * 7 + y * 3) % 4 != 0 { Tile::SOLID } else { Tile::EMPTY }
        }) {
            for (_, region) in map.regions() {
                prop_assert!(region.outlines().flatten().all(|v| v.is_finite()));
                prop_assert!(region.rectangles().all(|r| r.is_valid() && r.min != r.max));
            }
            let probe = Vec2::new(probe_x, probe_y);
            let _ = (map.cell_at(probe), map.is_solid_at(probe));
            check_regions(&map).map_err(TestCaseError::fail)?;
        }
    }
}
