//! Splitting a simple polygon outline into convex pieces.
//!
//! [`decompose_simple_polygon`] runs four stages:
//!
//! 1. **Clean and validate** ([`clean_outline`]): range-check every point, weld near-duplicate
//!    neighbours, drop straight-through vertices, reject outlines that enclose no area or whose
//!    edges cross or touch, and orient the rest counter-clockwise.
//! 2. **Triangulate** by ear clipping ([`triangulate_by_ear_clipping`]).
//! 3. **Merge** the triangles into convex pieces by Hertel–Mehlhorn
//!    ([`merge_into_convex_pieces`]).
//! 4. **Finish** each piece: drop straight vertices and split pieces with more than
//!    [`MAX_POLYGON_VERTICES`] vertices ([`split_to_vertex_limit`]).
//!
//! Pieces only ever use the caller's own points (no new vertex is computed), and every geometric
//! decision after cleaning uses the exact orientation test [`turn`]. Rounding therefore cannot
//! make a piece concave, flip it, or leave a gap, however thin or tiny the outline is.

use std::cmp::Ordering;

use super::error::{check_point, ShapeError};
use super::MAX_POLYGON_VERTICES;
use crate::math::Vec2;

/// Cleaning tolerance, as a fraction of the outline's bounding-box diagonal.
///
/// With `tolerance = OUTLINE_RELATIVE_TOLERANCE × diagonal`: consecutive points at most
/// `tolerance` apart are welded into one, a vertex within `tolerance` of the line through its
/// neighbours (and lying between them) is dropped, and an outline whose points all lie within
/// `tolerance` of one line is [`ShapeError::Collinear`]. Everything else is decided exactly.
pub(crate) const OUTLINE_RELATIVE_TOLERANCE: f64 = 1.0e-6;

/// Splits a simple polygon outline (either winding) into convex pieces, each CCW.
///
/// The outline lists each corner once; a closing point equal to the first is allowed. Every
/// piece is strictly convex, counter-clockwise, has 3 to [`MAX_POLYGON_VERTICES`] vertices
/// taken from `outline`, and the pieces tile the outline without overlap. An outline that is
/// already convex (after cleaning) comes back as one piece when it has at most
/// [`MAX_POLYGON_VERTICES`] vertices. The piece count is at most `2r + 1` for `r` reflex
/// vertices, at most four times the optimum (before splitting pieces that are too large). The
/// same input always gives the same output.
///
/// # Errors
///
/// - [`ShapeError::NonFinite`] or [`ShapeError::OutOfRange`] for a bad coordinate.
/// - [`ShapeError::TooFewPoints`] when fewer than 3 points remain after welding.
/// - [`ShapeError::Collinear`] when the outline encloses no area.
/// - [`ShapeError::SelfIntersecting`] when two edges that are not neighbours cross or touch (a
///   repeated vertex, or a vertex on another edge, counts), or two neighbouring edges fold back
///   over each other. The edge numbers are the caller's: edge `i` runs from `outline[i]` to
///   `outline[(i + 1) % outline.len()]`, and `edge_a < edge_b`. When the crossing only appears
///   after cleaning moved the outline by up to the tolerance, the first caller edge of each of
///   the two cleaned edges is reported.
pub(crate) fn decompose_simple_polygon(outline: &[Vec2]) -> Result<Vec<Vec<Vec2>>, ShapeError> {
    let points = clean_outline(outline)?;
    let count = points.len();
    let is_convex = (0..count).all(|i| {
        turn(
            points[(i + count - 1) % count],
            points[i],
            points[(i + 1) % count],
        ) == Turn::Left
    });
    let pieces = if is_convex {
        vec![(0..count).collect()]
    } else {
        let triangles = triangulate_by_ear_clipping(&points);
        merge_into_convex_pieces(&points, &triangles)
    };
    let mut result = Vec::with_capacity(pieces.len());
    for piece in pieces {
        let piece = drop_straight_vertices(&points, &piece);
        if piece.len() < 3 {
            continue; // Cannot happen: every merged piece has positive area.
        }
        for chunk in split_to_vertex_limit(&piece) {
            result.push(chunk.iter().map(|&index| points[index]).collect());
        }
    }
    Ok(result)
}

/// Validates `outline` and returns its cleaned vertices, counter-clockwise.
fn clean_outline(outline: &[Vec2]) -> Result<Vec<Vec2>, ShapeError> {
    // 1. Every point finite and in range.
    for &point in outline {
        check_point(point)?;
    }
    // 2. The tolerance, relative to the outline's size.
    let tolerance = OUTLINE_RELATIVE_TOLERANCE * bounding_box_diagonal(outline);
    // 3. Weld near-duplicate neighbours, including the last point onto the first.
    let welded = weld_near_duplicates(outline, tolerance);
    if welded.len() < 3 {
        return Err(ShapeError::TooFewPoints {
            distinct: welded.len(),
        });
    }
    // 4. Reject outlines lying along one line.
    if all_near_one_line(outline, &welded, tolerance) {
        return Err(ShapeError::Collinear);
    }
    // 5. Drop vertices the outline passes straight through.
    let kept = drop_collinear_vertices(outline, welded, tolerance);
    if kept.len() < 3 {
        return Err(ShapeError::Collinear);
    }
    let mut points: Vec<Vec2> = kept.iter().map(|&index| outline[index]).collect();
    // 6. Reject crossing or touching edges, reporting them in the caller's numbering.
    if let Some((edge_a, edge_b)) = find_self_intersection(&points) {
        let (edge_a, edge_b) = caller_edge_pair(outline, &kept, edge_a, edge_b);
        return Err(ShapeError::SelfIntersecting { edge_a, edge_b });
    }
    // 7. Orient counter-clockwise.
    if !is_counter_clockwise(&points) {
        points.reverse();
    }
    Ok(points)
}

/// The length of the diagonal of the points' bounding box (0 for no points).
fn bounding_box_diagonal(points: &[Vec2]) -> f64 {
    let Some((first, rest)) = points.split_first() else {
        return 0.0;
    };
    let (mut min, mut max) = (*first, *first);
    for point in rest {
        min = min.min(*point);
        max = max.max(*point);
    }
    let width = f64::from(max.x) - f64::from(min.x);
    let height = f64::from(max.y) - f64::from(min.y);
    width.hypot(height)
}

/// Indices of the points left after welding each point onto the last kept one when they are at
/// most `tolerance` apart, then the trailing points onto the first.
fn weld_near_duplicates(outline: &[Vec2], tolerance: f64) -> Vec<usize> {
    let tolerance_squared = tolerance * tolerance;
    let mut kept: Vec<usize> = Vec::with_capacity(outline.len());
    for (index, &point) in outline.iter().enumerate() {
        let is_duplicate = kept
            .last()
            .is_some_and(|&last| distance_squared(outline[last], point) <= tolerance_squared);
        if !is_duplicate {
            kept.push(index);
        }
    }
    while kept.len() > 1 {
        let (first, last) = (kept[0], kept[kept.len() - 1]);
        if distance_squared(outline[first], outline[last]) > tolerance_squared {
            break;
        }
        kept.pop();
    }
    kept
}

/// Whether every kept point lies within `tolerance` of the line through the first kept point
/// and the kept point farthest from it.
fn all_near_one_line(outline: &[Vec2], kept: &[usize], tolerance: f64) -> bool {
    let origin = outline[kept[0]];
    let farthest = kept
        .iter()
        .map(|&index| outline[index])
        .fold(origin, |best, point| {
            if distance_squared(origin, point) > distance_squared(origin, best) {
                point
            } else {
                best
            }
        });
    let direction = difference(farthest, origin);
    let length = direction.0.hypot(direction.1);
    kept.iter().all(|&index| {
        let offset = difference(outline[index], origin);
        cross_f64(direction, offset).abs() <= tolerance * length
    })
}

/// Drops, until none is left, every vertex within `tolerance` of the line through its
/// neighbours and lying between them. A vertex where the outline folds back is kept, so the
/// self-intersection test reports it.
fn drop_collinear_vertices(outline: &[Vec2], kept: Vec<usize>, tolerance: f64) -> Vec<usize> {
    let count = kept.len();
    let mut next: Vec<usize> = (0..count).map(|i| (i + 1) % count).collect();
    let mut previous: Vec<usize> = (0..count).map(|i| (i + count - 1) % count).collect();
    let mut alive = vec![true; count];
    let mut alive_count = count;
    let mut worklist: Vec<usize> = (0..count).rev().collect();
    while let Some(vertex) = worklist.pop() {
        if alive_count < 3 {
            break;
        }
        if !alive[vertex] {
            continue;
        }
        let (before, after) = (previous[vertex], next[vertex]);
        let start = outline[kept[before]];
        let middle = outline[kept[vertex]];
        let end = outline[kept[after]];
        let along = difference(middle, start);
        let onward = difference(end, middle);
        let chord = difference(end, start);
        let is_straight_through = cross_f64(along, chord).abs()
            <= tolerance * chord.0.hypot(chord.1)
            && along.0 * onward.0 + along.1 * onward.1 > 0.0;
        if is_straight_through {
            alive[vertex] = false;
            alive_count -= 1;
            next[before] = after;
            previous[after] = before;
            worklist.push(after);
            worklist.push(before);
        }
    }
    (0..count).filter(|&i| alive[i]).map(|i| kept[i]).collect()
}

/// The first pair `(edge_a, edge_b)`, `edge_a < edge_b`, of cleaned edges that cross, touch or
/// fold back over each other; `None` for a simple outline.
///
/// Edges are sorted by their smallest x, and each is tested against the edges whose x range
/// overlaps its own: O(n log n) for typical outlines, O(n²) at worst.
fn find_self_intersection(points: &[Vec2]) -> Option<(usize, usize)> {
    let count = points.len();
    let start_of = |edge: usize| points[edge];
    let end_of = |edge: usize| points[(edge + 1) % count];
    let mut first_pair: Option<(usize, usize)> = None;
    let mut record = |edge_a: usize, edge_b: usize| {
        let pair = (edge_a.min(edge_b), edge_a.max(edge_b));
        if first_pair.is_none_or(|best| pair < best) {
            first_pair = Some(pair);
        }
    };
    // 1. Neighbouring edges folding back at their shared vertex.
    for vertex in 0..count {
        let before = points[(vertex + count - 1) % count];
        let after = points[(vertex + 1) % count];
        if folds_back(before, points[vertex], after) {
            record((vertex + count - 1) % count, vertex);
        }
    }
    // 2. Edges that are not neighbours, swept along x.
    let min_x = |edge: usize| start_of(edge).x.min(end_of(edge).x);
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by(|&a, &b| min_x(a).total_cmp(&min_x(b)).then(a.cmp(&b)));
    for (position, &edge) in order.iter().enumerate() {
        let (start, end) = (start_of(edge), end_of(edge));
        let max_x = start.x.max(end.x);
        let (min_y, max_y) = (start.y.min(end.y), start.y.max(end.y));
        for &other in &order[position + 1..] {
            if min_x(other) > max_x {
                break;
            }
            let are_neighbours = (edge + 1) % count == other || (other + 1) % count == edge;
            let (other_start, other_end) = (start_of(other), end_of(other));
            let overlaps_in_y =
                other_start.y.min(other_end.y) <= max_y && other_start.y.max(other_end.y) >= min_y;
            if !are_neighbours
                && overlaps_in_y
                && segments_touch(start, end, other_start, other_end)
            {
                record(edge, other);
            }
        }
    }
    first_pair
}

/// Whether the path `before → vertex → after` reverses along one line, so its two edges overlap.
fn folds_back(before: Vec2, vertex: Vec2, after: Vec2) -> bool {
    if turn(before, vertex, after) != Turn::Straight {
        return false;
    }
    // Collinear: it folds back when `after` lies on the same side of `vertex` as `before`.
    if before.x != vertex.x {
        (before.x < vertex.x) == (after.x < vertex.x) && after.x != vertex.x
    } else {
        (before.y < vertex.y) == (after.y < vertex.y) && after.y != vertex.y
    }
}

/// Maps a pair of intersecting cleaned edges to the caller's edge numbers.
///
/// A cleaned edge stands for a run of caller edges (welded or dropped points in between). The
/// first pair of non-neighbouring caller edges from the two runs that touch is reported; when
/// none does (the crossing came from cleaning), the runs' first edges, or for a fold the two
/// caller edges meeting at the fold.
fn caller_edge_pair(
    outline: &[Vec2],
    kept: &[usize],
    edge_a: usize,
    edge_b: usize,
) -> (usize, usize) {
    let caller_count = outline.len();
    let cleaned_count = kept.len();
    let caller_edges_of = |cleaned_edge: usize| {
        let first = kept[cleaned_edge];
        let end = kept[(cleaned_edge + 1) % cleaned_count];
        let length = (end + caller_count - first) % caller_count;
        (0..length).map(move |step| (first + step) % caller_count)
    };
    let ordered = |a: usize, b: usize| (a.min(b), a.max(b));
    let next = |edge: usize| (edge + 1) % caller_count;
    for caller_a in caller_edges_of(edge_a) {
        for caller_b in caller_edges_of(edge_b) {
            let are_neighbours =
                caller_a == caller_b || next(caller_a) == caller_b || next(caller_b) == caller_a;
            if !are_neighbours
                && segments_touch(
                    outline[caller_a],
                    outline[next(caller_a)],
                    outline[caller_b],
                    outline[next(caller_b)],
                )
            {
                return ordered(caller_a, caller_b);
            }
        }
    }
    let fold_vertex = if (edge_a + 1) % cleaned_count == edge_b {
        Some(kept[edge_b])
    } else if (edge_b + 1) % cleaned_count == edge_a {
        Some(kept[edge_a])
    } else {
        None
    };
    match fold_vertex {
        Some(vertex) => ordered((vertex + caller_count - 1) % caller_count, vertex),
        None => ordered(kept[edge_a], kept[edge_b]),
    }
}

/// Whether a simple outline winds counter-clockwise, decided at its lowest (then leftmost)
/// vertex, which is always strictly convex.
fn is_counter_clockwise(points: &[Vec2]) -> bool {
    let count = points.len();
    let lowest = (0..count)
        .min_by(|&a, &b| {
            (points[a].y, points[a].x)
                .partial_cmp(&(points[b].y, points[b].x))
                .unwrap_or(Ordering::Equal)
        })
        .unwrap_or(0);
    turn(
        points[(lowest + count - 1) % count],
        points[lowest],
        points[(lowest + 1) % count],
    ) == Turn::Left
}

/// Triangulates a simple counter-clockwise polygon by ear clipping; triangles are CCW index
/// triples.
///
/// ```text
/// while more than 3 vertices remain:
///     ear = next convex vertex whose closed triangle (prev, ear, next) holds no reflex vertex
///     emit (prev, ear, next); unlink ear; re-classify prev and next
/// emit the last triangle
/// ```
///
/// Every simple polygon with more than 3 vertices has an ear (Meisters, "Polygons have ears",
/// 1975), and only non-convex vertices need testing (Eberly, "Triangulation by Ear Clipping",
/// 2002). The tests are exact, so an ear is always found; should none be, the convex vertex
/// with the fewest vertices in its triangle is clipped, so the loop always ends.
fn triangulate_by_ear_clipping(points: &[Vec2]) -> Vec<[usize; 3]> {
    let count = points.len();
    let mut next: Vec<usize> = (0..count).map(|i| (i + 1) % count).collect();
    let mut previous: Vec<usize> = (0..count).map(|i| (i + count - 1) % count).collect();
    let corner_turn = |previous: &[usize], next: &[usize], vertex: usize| {
        turn(
            points[previous[vertex]],
            points[vertex],
            points[next[vertex]],
        )
    };
    let mut is_reflex: Vec<bool> = (0..count)
        .map(|vertex| corner_turn(&previous, &next, vertex) != Turn::Left)
        .collect();
    let mut reflex_vertices: Vec<usize> = (0..count).filter(|&v| is_reflex[v]).collect();
    let mut triangles = Vec::with_capacity(count.saturating_sub(2));
    let mut remaining = count;
    let mut cursor = 0;
    while remaining > 3 {
        // 1. Walk once around from the cursor looking for an ear.
        let mut ear = None;
        let mut candidate = cursor;
        for _ in 0..remaining {
            let corner = [previous[candidate], candidate, next[candidate]];
            if !is_reflex[candidate] && count_blockers(points, &reflex_vertices, corner, 1) == 0 {
                ear = Some(candidate);
                break;
            }
            candidate = next[candidate];
        }
        // 2. Never loop: fall back to the least-blocked convex vertex.
        let ear = ear.unwrap_or_else(|| {
            least_blocked_vertex(
                points,
                &previous,
                &next,
                &reflex_vertices,
                cursor,
                remaining,
            )
        });
        // 3. Clip the ear.
        let (before, after) = (previous[ear], next[ear]);
        if turn(points[before], points[ear], points[after]) == Turn::Left {
            triangles.push([before, ear, after]);
        }
        next[before] = after;
        previous[after] = before;
        is_reflex[ear] = false;
        remaining -= 1;
        // 4. Re-classify the two neighbours.
        for corner in [before, after] {
            let now_reflex = corner_turn(&previous, &next, corner) != Turn::Left;
            if now_reflex && !is_reflex[corner] {
                reflex_vertices.push(corner);
            }
            is_reflex[corner] = now_reflex;
        }
        reflex_vertices.retain(|&vertex| is_reflex[vertex]);
        cursor = before;
    }
    // 5. The last triangle.
    let (a, b) = (cursor, next[cursor]);
    let c = next[b];
    if count >= 3 && turn(points[a], points[b], points[c]) == Turn::Left {
        triangles.push([a, b, c]);
    }
    triangles
}

/// How many of `candidates` (other than the corner's own vertices) lie in the closed triangle
/// `corner`, stopping once `limit` are found.
fn count_blockers(
    points: &[Vec2],
    candidates: &[usize],
    corner: [usize; 3],
    limit: usize,
) -> usize {
    let [a, b, c] = corner.map(|index| points[index]);
    let min = a.min(b).min(c);
    let max = a.max(b).max(c);
    let mut found = 0;
    for &vertex in candidates {
        if corner.contains(&vertex) {
            continue;
        }
        let point = points[vertex];
        if point.x < min.x || point.y < min.y || point.x > max.x || point.y > max.y {
            continue;
        }
        if turn(a, b, point) != Turn::Right
            && turn(b, c, point) != Turn::Right
            && turn(c, a, point) != Turn::Right
        {
            found += 1;
            if found >= limit {
                break;
            }
        }
    }
    found
}

/// The convex remaining vertex whose triangle holds the fewest reflex vertices (the cursor when
/// no vertex is convex); the ear-clipping fallback.
fn least_blocked_vertex(
    points: &[Vec2],
    previous: &[usize],
    next: &[usize],
    reflex_vertices: &[usize],
    cursor: usize,
    remaining: usize,
) -> usize {
    let mut best: Option<(usize, usize)> = None;
    let mut candidate = cursor;
    for _ in 0..remaining {
        let corner = [previous[candidate], candidate, next[candidate]];
        let [a, b, c] = corner.map(|index| points[index]);
        if turn(a, b, c) == Turn::Left {
            let blockers = count_blockers(points, reflex_vertices, corner, usize::MAX);
            if best.is_none_or(|(fewest, _)| blockers < fewest) {
                best = Some((blockers, candidate));
            }
        }
        candidate = next[candidate];
    }
    best.map_or(cursor, |(_, vertex)| vertex)
}

/// A triangle edge shared by two triangles.
struct Diagonal {
    /// One end (vertex index).
    start: usize,
    /// The other end.
    end: usize,
    /// The two triangles on either side.
    triangles: [usize; 2],
}

/// Merges triangles into convex pieces by removing inessential diagonals.
///
/// ```text
/// for each diagonal, in order:
///     if the two pieces it separates merge into a piece convex at both its ends: merge them
/// ```
///
/// Hertel and Mehlhorn, "Fast triangulation of simple polygons", FCT 1983; see also O'Rourke,
/// *Computational Geometry in C*, §2.5. Merging only widens angles, so a diagonal that cannot go
/// when visited never can, and one pass leaves only essential diagonals. Each is essential at a
/// reflex end, and a reflex vertex keeps at most two essential diagonals (three would need more
/// than 360° around it), so there are at most `2r + 1` pieces for `r` reflex vertices; any
/// convex partition needs at least `⌈r/2⌉ + 1` (each cut resolves at most two reflex vertices),
/// so this is at most 4× the optimum.
fn merge_into_convex_pieces(points: &[Vec2], triangles: &[[usize; 3]]) -> Vec<Vec<usize>> {
    // 1. Diagonals: edges shared by two triangles, in (low end, high end) order.
    let mut edges: Vec<(usize, usize, usize)> = Vec::with_capacity(triangles.len() * 3);
    for (triangle_index, triangle) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (triangle[k], triangle[(k + 1) % 3]);
            edges.push((a.min(b), a.max(b), triangle_index));
        }
    }
    edges.sort_unstable();
    let diagonals = edges
        .windows(2)
        .filter(|pair| (pair[0].0, pair[0].1) == (pair[1].0, pair[1].1))
        .map(|pair| Diagonal {
            start: pair[0].0,
            end: pair[0].1,
            triangles: [pair[0].2, pair[1].2],
        });
    // 2. Every triangle starts as its own piece.
    let mut pieces: Vec<Vec<usize>> = triangles.iter().map(|t| t.to_vec()).collect();
    let mut owner: Vec<usize> = (0..triangles.len()).collect();
    // 3. Remove every diagonal whose removal keeps the merged piece convex.
    for diagonal in diagonals {
        let first = find_root(&mut owner, diagonal.triangles[0]);
        let second = find_root(&mut owner, diagonal.triangles[1]);
        if first == second {
            continue;
        }
        let Some(plan) = plan_merge(
            points,
            &pieces[first],
            &pieces[second],
            diagonal.start,
            diagonal.end,
        ) else {
            continue;
        };
        let merged = plan.merged(&pieces[first], &pieces[second]);
        let (kept, absorbed) = (first.min(second), first.max(second));
        pieces[kept] = merged;
        pieces[absorbed] = Vec::new();
        owner[absorbed] = kept;
    }
    // 4. Pieces in order of their first triangle.
    pieces
        .into_iter()
        .filter(|piece| !piece.is_empty())
        .collect()
}

/// The piece (root triangle) that triangle `triangle` now belongs to.
fn find_root(owner: &mut [usize], mut triangle: usize) -> usize {
    while owner[triangle] != triangle {
        owner[triangle] = owner[owner[triangle]];
        triangle = owner[triangle];
    }
    triangle
}

/// How to merge two pieces across their shared diagonal `u — v`, where the first piece walks
/// it from `u` to `v` and the second from `v` to `u`.
struct MergePlan {
    /// Position of `v` in the first piece.
    v_in_first: usize,
    /// Position of `u` in the second piece.
    u_in_second: usize,
}

impl MergePlan {
    /// The merged piece: the first piece from `v` round to `u`, then the second strictly
    /// between `u` and `v`.
    fn merged(&self, first: &[usize], second: &[usize]) -> Vec<usize> {
        let mut merged = Vec::with_capacity(first.len() + second.len() - 2);
        merged.extend((0..first.len()).map(|i| first[(self.v_in_first + i) % first.len()]));
        merged.extend((1..second.len() - 1).map(|i| second[(self.u_in_second + i) % second.len()]));
        merged
    }
}

/// The plan for merging `first` and `second` across the diagonal between `start` and `end`, or
/// `None` when the merged piece would be reflex at either end (or they do not share it).
fn plan_merge(
    points: &[Vec2],
    first: &[usize],
    second: &[usize],
    start: usize,
    end: usize,
) -> Option<MergePlan> {
    let (u, v) = if directed_edge_position(first, start, end).is_some() {
        (start, end)
    } else {
        (end, start)
    };
    let u_in_first = directed_edge_position(first, u, v)?;
    let v_in_second = directed_edge_position(second, v, u)?;
    let v_in_first = (u_in_first + 1) % first.len();
    let u_in_second = (v_in_second + 1) % second.len();
    let before_u = first[(u_in_first + first.len() - 1) % first.len()];
    let after_u = second[(u_in_second + 1) % second.len()];
    let before_v = second[(v_in_second + second.len() - 1) % second.len()];
    let after_v = first[(v_in_first + 1) % first.len()];
    let stays_convex = |before: usize, vertex: usize, after: usize| {
        turn(points[before], points[vertex], points[after]) != Turn::Right
    };
    if !stays_convex(before_u, u, after_u) || !stays_convex(before_v, v, after_v) {
        return None;
    }
    Some(MergePlan {
        v_in_first,
        u_in_second,
    })
}

/// Position `i` with `piece[i] == from` and `piece[i + 1] == to` (cyclically).
fn directed_edge_position(piece: &[usize], from: usize, to: usize) -> Option<usize> {
    let position = piece.iter().position(|&vertex| vertex == from)?;
    (piece[(position + 1) % piece.len()] == to).then_some(position)
}

/// The piece without the vertices it passes straight through, rotated to start at its lowest
/// vertex index.
fn drop_straight_vertices(points: &[Vec2], piece: &[usize]) -> Vec<usize> {
    let count = piece.len();
    let mut kept: Vec<usize> = (0..count)
        .filter(|&i| {
            let before = points[piece[(i + count - 1) % count]];
            let after = points[piece[(i + 1) % count]];
            turn(before, points[piece[i]], after) != Turn::Straight
        })
        .map(|i| piece[i])
        .collect();
    if let Some(lowest) = (0..kept.len()).min_by_key(|&i| kept[i]) {
        kept.rotate_left(lowest);
    }
    kept
}

/// Splits a strictly convex piece into the fewest fans from its first vertex with at most
/// [`MAX_POLYGON_VERTICES`] vertices each, of near-equal size.
fn split_to_vertex_limit(piece: &[usize]) -> Vec<Vec<usize>> {
    if piece.len() <= MAX_POLYGON_VERTICES {
        return vec![piece.to_vec()];
    }
    // A chunk is the first vertex plus a run of consecutive vertices; the runs share their end
    // vertices and cover the `len - 2` edges that do not touch the first vertex.
    let chain_edges = piece.len() - 2;
    let chunk_count = chain_edges.div_ceil(MAX_POLYGON_VERTICES - 2);
    let (base, extra) = (chain_edges / chunk_count, chain_edges % chunk_count);
    let mut run_start = 1;
    (0..chunk_count)
        .map(|chunk| {
            let run_edges = base + usize::from(chunk < extra);
            let mut vertices = Vec::with_capacity(run_edges + 2);
            vertices.push(piece[0]);
            vertices.extend_from_slice(&piece[run_start..=run_start + run_edges]);
            run_start += run_edges;
            vertices
        })
        .collect()
}

/// Which way a path turns at a vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    /// Counter-clockwise (positive cross product).
    Left,
    /// Straight on or straight back (the three points are collinear).
    Straight,
    /// Clockwise.
    Right,
}

/// Which way `a → b → c` turns, decided exactly for any `f32` inputs.
///
/// ```text
/// (b − a) × (c − a) = ax·by − ay·bx + bx·cy − by·cx + cx·ay − cy·ax
/// ```
///
/// Each product of two `f32` values is exact in `f64`, so only the sum can round. A floating
/// point filter decides the clear cases; the rest are summed exactly as a nonoverlapping
/// expansion (Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric
/// Predicates", 1997, Grow-Expansion), whose sign is that of its largest component.
fn turn(a: Vec2, b: Vec2, c: Vec2) -> Turn {
    let [ax, ay, bx, by, cx, cy] = [a.x, a.y, b.x, b.y, c.x, c.y].map(f64::from);
    let terms = [
        ax * by,
        -(ay * bx),
        bx * cy,
        -(by * cx),
        cx * ay,
        -(cy * ax),
    ];
    // 1. Filter: summing six terms errs by at most 5·2⁻⁵³ of their magnitudes' sum.
    let estimate: f64 = terms.iter().sum();
    let magnitude: f64 = terms.iter().map(|term| term.abs()).sum();
    let error_bound = 4.0 * f64::EPSILON * magnitude;
    if estimate > error_bound {
        return Turn::Left;
    }
    if estimate < -error_bound {
        return Turn::Right;
    }
    // 2. Exact: grow an expansion term by term.
    let mut expansion = [0.0f64; 6];
    for (length, &term) in terms.iter().enumerate() {
        let mut carry = term;
        for component in expansion.iter_mut().take(length) {
            let (sum, error) = two_sum(carry, *component);
            *component = error;
            carry = sum;
        }
        expansion[length] = carry;
    }
    match expansion.iter().rev().find(|&&component| component != 0.0) {
        Some(&component) if component > 0.0 => Turn::Left,
        Some(_) => Turn::Right,
        None => Turn::Straight,
    }
}

/// `a + b` as a rounded sum and its exact rounding error (Knuth's TwoSum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let sum = a + b;
    let b_virtual = sum - a;
    let a_virtual = sum - b_virtual;
    (sum, (a - a_virtual) + (b - b_virtual))
}

/// Whether the closed segments `p0 p1` and `q0 q1` share a point, decided exactly.
fn segments_touch(p0: Vec2, p1: Vec2, q0: Vec2, q1: Vec2) -> bool {
    let q0_side = turn(p0, p1, q0);
    let q1_side = turn(p0, p1, q1);
    let p0_side = turn(q0, q1, p0);
    let p1_side = turn(q0, q1, p1);
    let opposite = |a: Turn, b: Turn| {
        matches!(
            (a, b),
            (Turn::Left, Turn::Right) | (Turn::Right, Turn::Left)
        )
    };
    if opposite(q0_side, q1_side) && opposite(p0_side, p1_side) {
        return true;
    }
    (q0_side == Turn::Straight && within_box(p0, p1, q0))
        || (q1_side == Turn::Straight && within_box(p0, p1, q1))
        || (p0_side == Turn::Straight && within_box(q0, q1, p0))
        || (p1_side == Turn::Straight && within_box(q0, q1, p1))
}

/// Whether `point` lies in the bounding box of `a` and `b` (closed).
fn within_box(a: Vec2, b: Vec2, point: Vec2) -> bool {
    a.x.min(b.x) <= point.x
        && point.x <= a.x.max(b.x)
        && a.y.min(b.y) <= point.y
        && point.y <= a.y.max(b.y)
}

/// `b − a` in `f64`.
fn difference(b: Vec2, a: Vec2) -> (f64, f64) {
    (
        f64::from(b.x) - f64::from(a.x),
        f64::from(b.y) - f64::from(a.y),
    )
}

/// Squared distance between two points, in `f64`.
fn distance_squared(a: Vec2, b: Vec2) -> f64 {
    let (dx, dy) = difference(b, a);
    dx * dx + dy * dy
}

/// 2D cross product of two `f64` vectors.
fn cross_f64(a: (f64, f64), b: (f64, f64)) -> f64 {
    a.0 * b.1 - a.1 * b.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::f64::consts::TAU;

    /// Builds an outline from coordinate pairs.
    fn outline_of(coordinates: &[(f32, f32)]) -> Vec<Vec2> {
        coordinates.iter().map(|&(x, y)| Vec2::new(x, y)).collect()
    }

    /// Signed area (positive for counter-clockwise), in `f64`.
    fn signed_area(points: &[Vec2]) -> f64 {
        let count = points.len();
        (0..count)
            .map(|i| {
                let (a, b) = (points[i], points[(i + 1) % count]);
                f64::from(a.x) * f64::from(b.y) - f64::from(a.y) * f64::from(b.x)
            })
            .sum::<f64>()
            / 2.0
    }

    /// `(b − a) × (c − a)` in `f64` from exact coordinate differences.
    fn orientation(a: Vec2, b: Vec2, c: Vec2) -> f64 {
        cross_f64(difference(b, a), difference(c, a))
    }

    /// Area of the intersection of two convex CCW polygons: Sutherland–Hodgman clipping of
    /// `subject` by every edge of `clip`, in `f64`.
    fn intersection_area(subject: &[Vec2], clip: &[Vec2]) -> f64 {
        let mut polygon: Vec<(f64, f64)> = subject
            .iter()
            .map(|p| (f64::from(p.x), f64::from(p.y)))
            .collect();
        for i in 0..clip.len() {
            let a = clip[i];
            let b = clip[(i + 1) % clip.len()];
            let (ax, ay) = (f64::from(a.x), f64::from(a.y));
            let edge = difference(b, a);
            let side = |p: (f64, f64)| cross_f64(edge, (p.0 - ax, p.1 - ay));
            let mut clipped = Vec::with_capacity(polygon.len() + 1);
            for j in 0..polygon.len() {
                let current = polygon[j];
                let following = polygon[(j + 1) % polygon.len()];
                let (current_side, following_side) = (side(current), side(following));
                if current_side >= 0.0 {
                    clipped.push(current);
                }
                if (current_side >= 0.0) != (following_side >= 0.0) {
                    let t = current_side / (current_side - following_side);
                    clipped.push((
                        current.0 + t * (following.0 - current.0),
                        current.1 + t * (following.1 - current.1),
                    ));
                }
            }
            polygon = clipped;
            if polygon.len() < 3 {
                return 0.0;
            }
        }
        let count = polygon.len();
        (0..count)
            .map(|i| {
                let (a, b) = (polygon[i], polygon[(i + 1) % count]);
                a.0 * b.1 - a.1 * b.0
            })
            .sum::<f64>()
            .abs()
            / 2.0
    }

    /// Even-odd test: whether `point` is inside `outline`.
    fn inside_outline(outline: &[Vec2], point: (f64, f64)) -> bool {
        let mut inside = false;
        for i in 0..outline.len() {
            let a = outline[i];
            let b = outline[(i + 1) % outline.len()];
            let (ax, ay, bx, by) = (
                f64::from(a.x),
                f64::from(a.y),
                f64::from(b.x),
                f64::from(b.y),
            );
            if (ay > point.1) != (by > point.1) {
                let crossing_x = ax + (point.1 - ay) / (by - ay) * (bx - ax);
                if point.0 < crossing_x {
                    inside = !inside;
                }
            }
        }
        inside
    }

    /// Distance from `point` to the nearest edge of `outline`.
    fn distance_to_boundary(outline: &[Vec2], point: (f64, f64)) -> f64 {
        (0..outline.len())
            .map(|i| {
                let a = outline[i];
                let b = outline[(i + 1) % outline.len()];
                let (ax, ay) = (f64::from(a.x), f64::from(a.y));
                let (ex, ey) = difference(b, a);
                let length_squared = ex * ex + ey * ey;
                let t = if length_squared > 0.0 {
                    (((point.0 - ax) * ex + (point.1 - ay) * ey) / length_squared).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                (point.0 - ax - t * ex).hypot(point.1 - ay - t * ey)
            })
            .fold(f64::INFINITY, f64::min)
    }

    /// Smallest signed distance from `point` to the edge lines of a convex CCW piece (positive
    /// inside).
    fn depth_in_piece(piece: &[Vec2], point: (f64, f64)) -> f64 {
        (0..piece.len())
            .map(|i| {
                let a = piece[i];
                let edge = difference(piece[(i + 1) % piece.len()], a);
                let offset = (point.0 - f64::from(a.x), point.1 - f64::from(a.y));
                cross_f64(edge, offset) / edge.0.hypot(edge.1)
            })
            .fold(f64::INFINITY, f64::min)
    }

    /// Each piece has 3 to 64 vertices, is strictly convex and counter-clockwise.
    fn check_pieces_are_convex(pieces: &[Vec<Vec2>]) -> Result<(), String> {
        for (index, piece) in pieces.iter().enumerate() {
            if piece.len() < 3 || piece.len() > MAX_POLYGON_VERTICES {
                return Err(format!("piece {index} has {} vertices", piece.len()));
            }
            for i in 0..piece.len() {
                let (a, b) = (piece[i], piece[(i + 1) % piece.len()]);
                for (j, &other) in piece.iter().enumerate() {
                    if j != i && j != (i + 1) % piece.len() && orientation(a, b, other) <= 0.0 {
                        return Err(format!(
                            "piece {index} is not strictly convex CCW: {piece:?}"
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// Checks every property of a decomposition of `outline`; `samples` are in `[0, 1]²` and
    /// are mapped onto the outline's bounding box grown by 10%.
    fn check_decomposition(
        outline: &[Vec2],
        pieces: &[Vec<Vec2>],
        samples: &[(f64, f64)],
    ) -> Result<(), String> {
        // 1. Shape of each piece.
        check_pieces_are_convex(pieces)?;
        // 2. Area preserved.
        let outline_area = signed_area(outline).abs();
        let pieces_area: f64 = pieces.iter().map(|piece| signed_area(piece)).sum();
        if (pieces_area - outline_area).abs() > 1e-4 * outline_area {
            return Err(format!("area {pieces_area} != outline area {outline_area}"));
        }
        // 3. No overlap.
        for (i, first) in pieces.iter().enumerate() {
            for second in &pieces[i + 1..] {
                let overlap = intersection_area(first, second);
                if overlap > 1e-6 * outline_area {
                    return Err(format!("pieces overlap by {overlap}: {first:?} {second:?}"));
                }
            }
        }
        // 4. Inside points covered, outside points not.
        let diagonal = bounding_box_diagonal(outline);
        let min = outline.iter().fold(outline[0], |m, p| m.min(*p));
        let max = outline.iter().fold(outline[0], |m, p| m.max(*p));
        let (min_x, min_y) = (f64::from(min.x), f64::from(min.y));
        let (width, height) = difference(max, min);
        for &(u, v) in samples {
            let point = (
                min_x + (u * 1.2 - 0.1) * width,
                min_y + (v * 1.2 - 0.1) * height,
            );
            if distance_to_boundary(outline, point) < 1e-5 * diagonal {
                continue;
            }
            let deepest = pieces
                .iter()
                .map(|piece| depth_in_piece(piece, point))
                .fold(f64::NEG_INFINITY, f64::max);
            let inside = inside_outline(outline, point);
            if inside && deepest < -1e-7 * diagonal {
                return Err(format!("inside point {point:?} is in no piece"));
            }
            if !inside && deepest > 1e-7 * diagonal {
                return Err(format!("outside point {point:?} is in a piece"));
            }
        }
        Ok(())
    }

    /// A 41 × 41 grid of sample positions.
    fn grid_samples() -> Vec<(f64, f64)> {
        (0..=40)
            .flat_map(|i| (0..=40).map(move |j| (f64::from(i) / 40.0, f64::from(j) / 40.0)))
            .collect()
    }

    /// An L of three unit squares, counter-clockwise: one reflex corner.
    fn l_shape() -> Vec<Vec2> {
        outline_of(&[
            (0.0, 0.0),
            (2.0, 0.0),
            (2.0, 1.0),
            (1.0, 1.0),
            (1.0, 2.0),
            (0.0, 2.0),
        ])
    }

    /// Decomposes `outline`, checks every property and returns the pieces.
    fn decompose_and_check(outline: &[Vec2]) -> Vec<Vec<Vec2>> {
        let pieces = decompose_simple_polygon(outline).expect("outline is simple");
        if let Err(message) = check_decomposition(outline, &pieces, &grid_samples()) {
            panic!("{message}");
        }
        pieces
    }

    /// Reflex vertices of the cleaned outline.
    fn reflex_count(outline: &[Vec2]) -> usize {
        let points = clean_outline(outline).expect("outline is simple");
        let count = points.len();
        (0..count)
            .filter(|&i| {
                turn(
                    points[(i + count - 1) % count],
                    points[i],
                    points[(i + 1) % count],
                ) == Turn::Right
            })
            .count()
    }

    /// A regular `count`-gon of radius `radius`.
    fn regular_polygon(count: usize, radius: f64) -> Vec<Vec2> {
        (0..count)
            .map(|i| {
                let angle = TAU * i as f64 / count as f64;
                Vec2::new((radius * angle.cos()) as f32, (radius * angle.sin()) as f32)
            })
            .collect()
    }

    /// A histogram-like comb: columns of the given widths between the given bottom depths and
    /// top heights, counter-clockwise.
    fn comb(widths: &[u8], depths: &[u8], heights: &[u8]) -> Vec<(f64, f64)> {
        let mut edges_x = vec![0.0];
        for &width in widths {
            edges_x.push(edges_x[edges_x.len() - 1] + f64::from(width));
        }
        let mut outline = Vec::new();
        for column in 0..widths.len() {
            let bottom = -f64::from(depths[column]);
            outline.push((edges_x[column], bottom));
            outline.push((edges_x[column + 1], bottom));
        }
        for column in (0..widths.len()).rev() {
            let top = f64::from(heights[column]);
            outline.push((edges_x[column + 1], top));
            outline.push((edges_x[column], top));
        }
        outline
    }

    #[test]
    fn square_is_a_single_piece() {
        let square = outline_of(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]);
        assert_eq!(decompose_and_check(&square), vec![square]);
    }

    #[test]
    fn l_shape_splits_into_two_pieces() {
        assert_eq!(decompose_and_check(&l_shape()).len(), 2);
    }

    #[test]
    fn u_shape_splits_into_three_pieces() {
        let u_shape = outline_of(&[
            (0.0, 0.0),
            (3.0, 0.0),
            (3.0, 3.0),
            (2.0, 3.0),
            (2.0, 1.0),
            (1.0, 1.0),
            (1.0, 3.0),
            (0.0, 3.0),
        ]);
        assert_eq!(decompose_and_check(&u_shape).len(), 3);
    }

    #[test]
    fn zig_zag_comb_gives_no_more_than_one_piece_per_tooth_plus_the_base() {
        let mut zig_zag = vec![(0.0, 0.0), (10.0, 0.0)];
        for step in 0..=10 {
            let x = 10.0 - step as f32;
            zig_zag.push((x, if step % 2 == 0 { 1.0 } else { 3.0 }));
        }
        let zig_zag = outline_of(&zig_zag);
        let pieces = decompose_and_check(&zig_zag);
        assert_eq!(reflex_count(&zig_zag), 4);
        // Cutting along y = 1 gives five teeth and the base.
        assert!(pieces.len() <= 6, "{} pieces", pieces.len());
    }

    #[test]
    fn five_pointed_star_stays_within_the_bound() {
        let star: Vec<Vec2> = (0..10)
            .map(|i| {
                let angle = TAU * f64::from(i) / 10.0;
                let radius = if i % 2 == 0 { 1.0 } else { 0.4 };
                Vec2::new((radius * angle.cos()) as f32, (radius * angle.sin()) as f32)
            })
            .collect();
        let pieces = decompose_and_check(&star);
        assert!(pieces.len() <= 2 * reflex_count(&star) + 1);
    }

    #[test]
    fn clockwise_outline_gives_the_same_pieces_as_counter_clockwise() {
        let teeth = comb(&[1, 2, 1, 1, 3], &[0, 2, 0, 1, 0], &[3, 1, 4, 1, 5]);
        let teeth: Vec<Vec2> = teeth
            .iter()
            .map(|&(x, y)| Vec2::new(x as f32, y as f32))
            .collect();
        for outline in [l_shape(), teeth] {
            let clockwise: Vec<Vec2> = outline.iter().rev().copied().collect();
            let pieces = decompose_and_check(&outline);
            assert_eq!(decompose_and_check(&clockwise), pieces);
        }
    }

    #[test]
    fn two_hundred_vertex_spiral_decomposes_into_valid_pieces() {
        // A band between two arms r = 1 + θ/2π (outer) and r − 0.5 (inner), three turns.
        let arm = |theta: f64, offset: f64| {
            let radius = 1.0 + theta / TAU - offset;
            Vec2::new((radius * theta.cos()) as f32, (radius * theta.sin()) as f32)
        };
        let samples_per_arm = 100;
        let end = 3.0 * TAU;
        let mut spiral: Vec<Vec2> = (0..samples_per_arm)
            .map(|i| arm(end * i as f64 / (samples_per_arm - 1) as f64, 0.0))
            .collect();
        spiral.extend(
            (0..samples_per_arm)
                .rev()
                .map(|i| arm(end * i as f64 / (samples_per_arm - 1) as f64, 0.5)),
        );
        let pieces = decompose_and_check(&spiral);
        assert!(pieces.len() <= 2 * reflex_count(&spiral) + 1);
    }

    #[test]
    fn two_hundred_vertex_comb_decomposes_into_valid_pieces() {
        let columns = 49;
        let widths = vec![1u8; columns];
        let depths = vec![0u8; columns];
        let heights: Vec<u8> = (0..columns)
            .map(|i| if i % 2 == 0 { 5 } else { 1 })
            .collect();
        let teeth: Vec<Vec2> = comb(&widths, &depths, &heights)
            .iter()
            .map(|&(x, y)| Vec2::new(x as f32, y as f32))
            .collect();
        assert!(teeth.len() >= 196);
        let pieces = decompose_and_check(&teeth);
        assert!(pieces.len() <= 2 * reflex_count(&teeth) + 1);
    }

    #[test]
    fn closing_duplicate_point_is_ignored() {
        let closed = outline_of(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.0, 0.0)]);
        assert_eq!(decompose_and_check(&closed), vec![closed[..4].to_vec()]);
    }

    #[test]
    fn repeated_consecutive_points_are_welded() {
        let repeated = outline_of(&[
            (0.0, 0.0),
            (0.0, 0.0),
            (1.0, 0.0),
            (1.0, 0.0),
            (1.0 + 1e-8, 0.0),
            (1.0, 1.0),
            (0.0, 1.0),
            (0.0, 1.0),
        ]);
        let pieces = decompose_and_check(&repeated);
        assert_eq!(pieces.len(), 1);
        assert_eq!(pieces[0].len(), 4);
    }

    #[test]
    fn straight_through_vertices_are_dropped() {
        let with_midpoints = outline_of(&[
            (0.0, 0.0),
            (0.5, 0.0),
            (1.0, 0.0),
            (1.0, 0.5),
            (1.0, 1.0),
            (0.0, 1.0),
        ]);
        let pieces = decompose_and_check(&with_midpoints);
        assert_eq!(pieces.len(), 1);
        assert_eq!(pieces[0].len(), 4);
    }

    #[test]
    fn convex_64_gon_is_a_single_piece() {
        let polygon = regular_polygon(MAX_POLYGON_VERTICES, 3.0);
        assert_eq!(decompose_and_check(&polygon), vec![polygon]);
    }

    #[test]
    fn large_convex_polygon_is_split_into_the_fewest_pieces_of_at_most_64_vertices() {
        let polygon = regular_polygon(200, 3.0);
        let pieces = decompose_and_check(&polygon);
        assert_eq!(pieces.len(), 4); // ⌈(200 − 2) / 62⌉
    }

    #[test]
    fn bow_tie_is_self_intersecting() {
        let bow_tie = outline_of(&[(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)]);
        assert_eq!(
            decompose_simple_polygon(&bow_tie),
            Err(ShapeError::SelfIntersecting {
                edge_a: 0,
                edge_b: 2
            })
        );
    }

    #[test]
    fn vertex_touching_a_non_adjacent_edge_is_self_intersecting() {
        // Vertex 4 touches the middle of edge 0.
        let touching = outline_of(&[
            (0.0, 0.0),
            (2.0, 0.0),
            (2.0, 2.0),
            (1.5, 2.0),
            (1.0, 0.0),
            (0.5, 2.0),
            (0.0, 2.0),
        ]);
        assert_eq!(
            decompose_simple_polygon(&touching),
            Err(ShapeError::SelfIntersecting {
                edge_a: 0,
                edge_b: 3
            })
        );
    }

    #[test]
    fn repeated_vertex_is_self_intersecting() {
        // Two squares sharing the corner (1, 1), visited twice.
        let figure_eight = outline_of(&[
            (0.0, 0.0),
            (1.0, 0.0),
            (1.0, 1.0),
            (2.0, 1.0),
            (2.0, 2.0),
            (1.0, 2.0),
            (1.0, 1.0),
            (0.0, 1.0),
        ]);
        assert!(matches!(
            decompose_simple_polygon(&figure_eight),
            Err(ShapeError::SelfIntersecting { .. })
        ));
    }

    #[test]
    fn edge_folding_back_over_its_neighbour_is_self_intersecting() {
        let folded = outline_of(&[(0.0, 0.0), (2.0, 0.0), (1.0, 0.0), (1.0, 1.0)]);
        assert_eq!(
            decompose_simple_polygon(&folded),
            Err(ShapeError::SelfIntersecting {
                edge_a: 0,
                edge_b: 1
            })
        );
    }

    #[test]
    fn self_intersection_reports_the_callers_edge_numbers() {
        // The bow tie again, after a duplicated first point and a straight-through point.
        let bow_tie = outline_of(&[
            (0.0, 0.0),
            (0.0, 0.0),
            (1.0, 1.0),
            (1.0, 0.0),
            (0.5, 0.5),
            (0.0, 1.0),
        ]);
        assert_eq!(
            decompose_simple_polygon(&bow_tie),
            Err(ShapeError::SelfIntersecting {
                edge_a: 1,
                edge_b: 3
            })
        );
    }

    #[test]
    fn all_collinear_points_are_collinear() {
        let line = outline_of(&[(0.0, 0.0), (1.0, 1.0), (3.0, 3.0), (2.0, 2.0)]);
        assert_eq!(decompose_simple_polygon(&line), Err(ShapeError::Collinear));
    }

    #[test]
    fn two_points_are_too_few() {
        let two = outline_of(&[(0.0, 0.0), (1.0, 0.0), (0.0, 0.0)]);
        assert_eq!(
            decompose_simple_polygon(&two),
            Err(ShapeError::TooFewPoints { distinct: 2 })
        );
        assert_eq!(
            decompose_simple_polygon(&[]),
            Err(ShapeError::TooFewPoints { distinct: 0 })
        );
    }

    #[test]
    fn nan_and_infinity_are_non_finite() {
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            let outline = outline_of(&[(0.0, 0.0), (1.0, 0.0), (bad, 1.0)]);
            assert_eq!(
                decompose_simple_polygon(&outline),
                Err(ShapeError::NonFinite)
            );
        }
    }

    #[test]
    fn huge_coordinate_is_out_of_range() {
        let outline = outline_of(&[(0.0, 0.0), (1e30, 0.0), (0.0, 1.0)]);
        assert_eq!(
            decompose_simple_polygon(&outline),
            Err(ShapeError::OutOfRange { value: 1e30 })
        );
    }

    #[test]
    fn subnormal_and_far_away_outlines_decompose_exactly() {
        let tiny = 1e-44_f32;
        let subnormal_l = outline_of(&[
            (0.0, 0.0),
            (2.0 * tiny, 0.0),
            (2.0 * tiny, tiny),
            (tiny, tiny),
            (tiny, 2.0 * tiny),
            (0.0, 2.0 * tiny),
        ]);
        let pieces = decompose_simple_polygon(&subnormal_l).expect("valid");
        assert_eq!(pieces.len(), 2);
        check_pieces_are_convex(&pieces).expect("convex pieces");
        let far = 9.0e8_f32; // near MAX_COORDINATE
        let far_l = outline_of(&[
            (far, far),
            (far + 2e7, far),
            (far + 2e7, far + 1e7),
            (far + 1e7, far + 1e7),
            (far + 1e7, far + 2e7),
            (far, far + 2e7),
        ]);
        assert_eq!(decompose_and_check(&far_l).len(), 2);
    }

    #[test]
    fn exact_orientation_sees_what_rounding_hides() {
        // Nearly collinear: the f64 cross product of differences rounds, the exact test not.
        let a = Vec2::new(0.5, 0.5);
        let b = Vec2::new(12.0, 12.0);
        let c = Vec2::new(24.0, 24.0);
        assert_eq!(turn(a, b, c), Turn::Straight);
        let nudged = Vec2::new(24.0, f32::from_bits(24.0_f32.to_bits() + 1));
        assert_eq!(turn(a, b, nudged), Turn::Left);
        assert_eq!(turn(b, a, nudged), Turn::Right);
    }

    /// Log-uniform scale in 0.01–100.
    fn scale() -> impl Strategy<Value = f64> {
        (-2.0f64..2.0).prop_map(|exponent| 10f64.powf(exponent))
    }

    /// Places unit-sized coordinates at a random scale, rotation and offset, in either winding.
    fn place(
        unit_outline: Vec<(f64, f64)>,
        scale: f64,
        angle: f64,
        offset: (f64, f64),
        clockwise: bool,
    ) -> Vec<Vec2> {
        let (sin, cos) = angle.sin_cos();
        let mut outline: Vec<Vec2> = unit_outline
            .into_iter()
            .map(|(x, y)| {
                Vec2::new(
                    (scale * (cos * x - sin * y + offset.0)) as f32,
                    (scale * (sin * x + cos * y + offset.1)) as f32,
                )
            })
            .collect();
        if clockwise {
            outline.reverse();
        }
        outline
    }

    /// Star-shaped polygons: increasing angles with gaps under π, random radii.
    fn star_polygon() -> impl Strategy<Value = Vec<Vec2>> {
        (3usize..=96)
            .prop_flat_map(|count| {
                (
                    prop::collection::vec(1.0f64..2.0, count),
                    prop::collection::vec(0.2f64..1.0, count),
                    scale(),
                    0.0..TAU,
                    (-50.0f64..50.0, -50.0f64..50.0),
                    any::<bool>(),
                )
            })
            .prop_map(|(gaps, radii, scale, angle, offset, clockwise)| {
                let total: f64 = gaps.iter().sum();
                let mut theta = 0.0;
                let unit_outline = gaps
                    .iter()
                    .zip(&radii)
                    .map(|(gap, radius)| {
                        theta += gap / total * TAU;
                        (radius * theta.cos(), radius * theta.sin())
                    })
                    .collect();
                place(unit_outline, scale, angle, offset, clockwise)
            })
    }

    /// Orthogonal combs (teeth up and down), axis-aligned or rotated.
    fn comb_polygon() -> impl Strategy<Value = Vec<Vec2>> {
        (1usize..=30)
            .prop_flat_map(|columns| {
                (
                    prop::collection::vec(1u8..=3, columns),
                    prop::collection::vec(0u8..=10, columns),
                    prop::collection::vec(1u8..=10, columns),
                    scale(),
                    prop_oneof![Just(0.0), 0.0..TAU],
                    (-50.0f64..50.0, -50.0f64..50.0),
                    any::<bool>(),
                )
            })
            .prop_map(
                |(widths, depths, heights, scale, angle, offset, clockwise)| {
                    let size = f64::from(widths.iter().map(|&w| u32::from(w)).sum::<u32>()) + 20.0;
                    let unit_outline = comb(&widths, &depths, &heights)
                        .into_iter()
                        .map(|(x, y)| (x / size, y / size))
                        .collect();
                    place(unit_outline, scale, angle, offset, clockwise)
                },
            )
    }

    /// Random simple polygons of either kind.
    fn simple_polygon() -> impl Strategy<Value = Vec<Vec2>> {
        prop_oneof![star_polygon(), comb_polygon()]
    }

    /// Sample positions in `[0, 1]²`.
    fn samples() -> impl Strategy<Value = Vec<(f64, f64)>> {
        prop::collection::vec((0.0f64..1.0, 0.0f64..1.0), 64)
    }

    /// Decomposes a generated (hence simple) outline.
    fn decompose_generated(outline: &[Vec2]) -> Result<Vec<Vec<Vec2>>, TestCaseError> {
        decompose_simple_polygon(outline)
            .map_err(|error| TestCaseError::fail(format!("{error} for {outline:?}")))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn total_area_equals_outline_area(outline in simple_polygon()) {
            let pieces = decompose_generated(&outline)?;
            let outline_area = signed_area(&outline).abs();
            let pieces_area: f64 = pieces.iter().map(|piece| signed_area(piece)).sum();
            prop_assert!((pieces_area - outline_area).abs() <= 1e-4 * outline_area);
        }

        #[test]
        fn pieces_do_not_overlap(outline in simple_polygon()) {
            let pieces = decompose_generated(&outline)?;
            let total: f64 = pieces.iter().map(|piece| signed_area(piece)).sum();
            for (i, first) in pieces.iter().enumerate() {
                for second in &pieces[i + 1..] {
                    prop_assert!(intersection_area(first, second) <= 1e-6 * total);
                }
            }
        }

        #[test]
        fn pieces_cover_the_inside_and_avoid_the_outside(
            outline in simple_polygon(),
            samples in samples(),
        ) {
            let pieces = decompose_generated(&outline)?;
            check_decomposition(&outline, &pieces, &samples).map_err(TestCaseError::fail)?;
        }

        #[test]
        fn every_piece_is_strictly_convex_ccw_within_the_vertex_limit(
            outline in simple_polygon(),
        ) {
            let pieces = decompose_generated(&outline)?;
            check_pieces_are_convex(&pieces).map_err(TestCaseError::fail)?;
        }

        /// Hertel–Mehlhorn: the merge leaves at most `2r + 1` pieces for `r` reflex vertices
        /// of the cleaned outline, and splitting adds only what the vertex limit forces.
        #[test]
        fn piece_count_is_within_the_hertel_mehlhorn_bound(outline in simple_polygon()) {
            let pieces = decompose_generated(&outline)?;
            let cleaned = clean_outline(&outline).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let reflex = reflex_count(&outline);
            let merged = if reflex == 0 {
                vec![(0..cleaned.len()).collect()]
            } else {
                merge_into_convex_pieces(&cleaned, &triangulate_by_ear_clipping(&cleaned))
            };
            prop_assert!(merged.len() <= 2 * reflex + 1, "{} > 2·{} + 1", merged.len(), reflex);
            let after_splitting: usize = merged
                .iter()
                .map(|piece| {
                    let strict = drop_straight_vertices(&cleaned, piece).len();
                    strict.saturating_sub(2).div_ceil(MAX_POLYGON_VERTICES - 2).max(1)
                })
                .sum();
            prop_assert_eq!(pieces.len(), after_splitting);
        }

        #[test]
        fn decomposition_is_deterministic(outline in simple_polygon()) {
            prop_assert_eq!(decompose_generated(&outline)?, decompose_generated(&outline)?);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn convex_outline_gives_one_piece_or_the_fewest_chunks(
            count in 3usize..=200,
            gaps in prop::collection::vec(1.0f64..2.0, 200),
            scale in scale(),
            offset in (-50.0f64..50.0, -50.0f64..50.0),
        ) {
            let total: f64 = gaps[..count].iter().sum();
            let mut theta = 0.0;
            let unit_outline = gaps[..count]
                .iter()
                .map(|gap| {
                    theta += gap / total * TAU;
                    (theta.cos(), theta.sin())
                })
                .collect();
            let outline = place(unit_outline, scale, 0.0, offset, false);
            let pieces = decompose_generated(&outline)?;
            let expected = (count - 2).div_ceil(MAX_POLYGON_VERTICES - 2);
            prop_assert_eq!(pieces.len(), expected);
            check_decomposition(&outline, &pieces, &[]).map_err(TestCaseError::fail)?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(10_000))]

        #[test]
        fn random_bytes_never_panic(bytes in prop::collection::vec(any::<[u8; 8]>(), 0..24)) {
            let outline: Vec<Vec2> = bytes
                .iter()
                .map(|b| {
                    Vec2::new(
                        f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                        f32::from_le_bytes([b[4], b[5], b[6], b[7]]),
                    )
                })
                .collect();
            if let Ok(pieces) = decompose_simple_polygon(&outline) {
                for piece in &pieces {
                    let count = piece.len();
                    prop_assert!((3..=MAX_POLYGON_VERTICES).contains(&count));
                    for i in 0..count {
                        let corner = (piece[(i + count - 1) % count], piece[i], piece[(i + 1) % count]);
                        prop_assert_eq!(turn(corner.0, corner.1, corner.2), Turn::Left);
                        prop_assert!(outline.contains(&piece[i]));
                    }
                }
            }
        }

        /// Outlines on a 5 × 5 grid are mostly degenerate; whatever is accepted must be tiled
        /// exactly, and reported edges must exist.
        #[test]
        fn small_grid_outlines_are_rejected_or_tiled_exactly(
            coordinates in prop::collection::vec((0u8..5, 0u8..5), 3..10),
            samples in samples(),
        ) {
            let outline: Vec<Vec2> = coordinates
                .iter()
                .map(|&(x, y)| Vec2::new(f32::from(x), f32::from(y)))
                .collect();
            match decompose_simple_polygon(&outline) {
                Ok(pieces) => check_decomposition(&outline, &pieces, &samples)
                    .map_err(TestCaseError::fail)?,
                Err(ShapeError::SelfIntersecting { edge_a, edge_b }) => {
                    prop_assert!(edge_a < edge_b && edge_b < outline.len());
                }
                Err(ShapeError::TooFewPoints { .. } | ShapeError::Collinear) => {}
                Err(other) => prop_assert!(false, "unexpected error {other}"),
            }
        }
    }
}
