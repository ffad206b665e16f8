//! Chains: polylines of one-sided segments for level geometry.

use crate::math::{cross, right_perp, Transform, Vec2};
use crate::shape::error::{check_point, ShapeError};
use crate::shape::{closest_point_on_segment, Aabb, PointProjection, Segment};

/// Most vertices a [`Chain`] may have.
pub const MAX_CHAIN_VERTICES: usize = 1 << 24;

/// How many boxes of one level of a chain's segment hierarchy one box of the next level covers.
const BRANCHING: usize = 8;

/// A polyline, open or closed, of one-sided segments that know their neighbours.
///
/// Chains are for level geometry: floors, walls, terrain outlines. Segment `i` runs from vertex
/// `i` to vertex `i + 1` (the last segment of a closed chain back to vertex 0) and collides on
/// its **right** side only, the side of the outward normal `(d.y, −d.x)` for direction `d`: a
/// closed chain wound counter-clockwise around solid ground faces outwards, exactly like a
/// polygon. A floor that is walked on from above therefore runs right to left (or use
/// [`Chain::reversed`]).
///
/// What a chain adds over separate segments or boxes:
/// - **No ghost collisions.** A shape sliding along the chain never gets a normal from an inner
///   vertex that points against its motion: at flat and concave joints only the segments' own
///   face normals are reported; at convex joints vertex normals are kept between the two face
///   normals. Boxes, circles and capsules slide across 1,000 collinear joints without catching.
/// - **One-sidedness.** A shape whose centroid is behind a segment passes through it; rays and
///   casts hit a segment only from its front.
///
/// A chain encloses no area: [`contains`](Chain::contains) is true only exactly on a segment.
/// Chains do not collide with chains (level geometry against level geometry). Manifolds report
/// the touching segment's index in `child_a`/`child_b`.
///
/// **Invariant:** at least two vertices (three when closed), every segment of non-zero length,
/// `normals[i]` is the unit right normal of segment `i`, and `levels` is a hierarchy of boxes
/// where `levels[0][i]` bounds segment `i` and each box of `levels[k + 1]` bounds
/// `BRANCHING` (8) consecutive boxes of `levels[k]`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "ChainData", into = "ChainData")
)]
pub struct Chain {
    /// Boxed so that a [`Shape`](crate::shape::Shape) stays small.
    parts: Box<ChainParts>,
}

/// The fields of a [`Chain`], in one heap block.
#[derive(Clone, Debug, PartialEq)]
struct ChainParts {
    vertices: Vec<Vec2>,
    closed: bool,
    normals: Vec<Vec2>,
    levels: Vec<Vec<Aabb>>,
}

/// The serialised form of a [`Chain`], validated on the way in.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct ChainData {
    vertices: Vec<Vec2>,
    closed: bool,
}

#[cfg(feature = "serde")]
impl TryFrom<ChainData> for Chain {
    type Error = ShapeError;
    fn try_from(data: ChainData) -> Result<Self, ShapeError> {
        Chain::build(&data.vertices, data.closed)
    }
}

#[cfg(feature = "serde")]
impl From<Chain> for ChainData {
    fn from(chain: Chain) -> Self {
        ChainData {
            vertices: chain.parts.vertices,
            closed: chain.parts.closed,
        }
    }
}

/// How the joint at a chain vertex bends, seen from the collision side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Joint {
    /// An end of an open chain: no neighbour.
    End,
    /// The solid turns away: vertex normals between the two face normals are real.
    Convex {
        /// The neighbouring segment's unit normal.
        neighbour_normal: Vec2,
    },
    /// Collinear or turning into the solid: only face normals are real.
    FlatOrConcave,
}

impl Chain {
    /// An open chain through `points` (at least two; consecutive points must differ).
    ///
    /// Errors: [`ShapeError::TooFewPoints`], [`ShapeError::DegenerateSegment`] for a repeated
    /// point, [`ShapeError::NonFinite`] / [`ShapeError::OutOfRange`] for bad coordinates,
    /// [`ShapeError::TooManyVertices`] past [`MAX_CHAIN_VERTICES`], [`ShapeError::TooSmall`] for
    /// segments too short for a unit normal.
    ///
    /// ```
    /// use collide2d::{shape::{Chain, Circle, Shape}, collide, Transform, Vec2};
    /// // A floor walked on from above runs right to left: its collision side is then up.
    /// let floor = Shape::from(Chain::open(&[Vec2::new(10.0, 0.0), Vec2::new(0.0, 0.0), Vec2::new(-10.0, 0.0)])?);
    /// let ball = Shape::from(Circle::with_radius(0.5)?);
    /// let manifold = collide(&floor, &Transform::IDENTITY, &ball, &Transform::new(Vec2::new(0.0, 0.4), 0.0));
    /// assert!((manifold.normal - Vec2::Y).length() < 1e-6); // never tilted by the joint at x = 0
    /// assert!((manifold.points[0].penetration - 0.1).abs() < 1e-5);
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn open(points: &[Vec2]) -> Result<Chain, ShapeError> {
        Chain::build(points, false)
    }

    /// A closed chain (a loop) through `points` (at least three; consecutive points must differ;
    /// a last point equal to the first is dropped). Wind it counter-clockwise around solid
    /// ground to face outwards, clockwise to keep things inside. Errors as [`Chain::open`].
    pub fn closed(points: &[Vec2]) -> Result<Chain, ShapeError> {
        let points = match points {
            [first, .., last] if points.len() > 3 && first == last => &points[..points.len() - 1],
            _ => points,
        };
        Chain::build(points, true)
    }

    /// Validates and builds; see [`Chain::open`] and [`Chain::closed`].
    fn build(points: &[Vec2], closed: bool) -> Result<Chain, ShapeError> {
        let needed = if closed { 3 } else { 2 };
        if points.len() < needed {
            return Err(ShapeError::TooFewPoints {
                distinct: points.len(),
            });
        }
        if points.len() > MAX_CHAIN_VERTICES {
            return Err(ShapeError::TooManyVertices {
                count: points.len(),
            });
        }
        for &point in points {
            check_point(point)?;
        }
        let segment_count = if closed {
            points.len()
        } else {
            points.len() - 1
        };
        let mut normals = Vec::with_capacity(segment_count);
        for i in 0..segment_count {
            let a = points[i];
            let b = points[(i + 1) % points.len()];
            if a == b {
                return Err(ShapeError::DegenerateSegment);
            }
            if (b - a).length() < crate::shape::MIN_EDGE_LENGTH {
                // Shorter than `MIN_EDGE_LENGTH`.
                return Err(ShapeError::TooSmall);
            }
            let direction = crate::math::try_unit(b - a).ok_or(ShapeError::TooSmall)?;
            normals.push(right_perp(direction));
        }
        let mut chain = Chain {
            parts: Box::new(ChainParts {
                vertices: points.to_vec(),
                closed,
                normals,
                levels: Vec::new(),
            }),
        };
        chain.build_hierarchy();
        Ok(chain)
    }

    /// Fills `levels`: segment boxes, then boxes of [`BRANCHING`] boxes up to a single root.
    fn build_hierarchy(&mut self) {
        let leaves: Vec<Aabb> = (0..self.segment_count())
            .map(|i| {
                let (a, b) = self.segment_points(i);
                Aabb {
                    min: a.min(b),
                    max: a.max(b),
                }
            })
            .collect();
        let mut levels = vec![leaves];
        while levels.last().is_some_and(|level| level.len() > 1) {
            let below = levels.last().map(Vec::as_slice).unwrap_or_default();
            let above: Vec<Aabb> = below
                .chunks(BRANCHING)
                .map(|group| group[1..].iter().fold(group[0], |acc, b| acc.union(b)))
                .collect();
            levels.push(above);
        }
        self.parts.levels = levels;
    }

    /// The vertices (local space), without repeating the first for a closed chain.
    #[inline]
    pub fn vertices(&self) -> &[Vec2] {
        &self.parts.vertices
    }

    /// Whether the last vertex joins back to the first.
    #[inline]
    pub fn is_closed(&self) -> bool {
        self.parts.closed
    }

    /// How many segments the chain has.
    #[inline]
    pub fn segment_count(&self) -> usize {
        self.parts.normals.len()
    }

    /// The unit collision-side normal of each segment (local space).
    #[inline]
    pub fn normals(&self) -> &[Vec2] {
        &self.parts.normals
    }

    /// Segment `index` as a plain two-sided [`Segment`] (local space); `None` past the end.
    pub fn segment(&self, index: usize) -> Option<Segment> {
        (index < self.segment_count()).then(|| {
            let (a, b) = self.segment_points(index);
            Segment::new_unchecked(a, b)
        })
    }

    /// The two end points of segment `index` (which must exist).
    #[inline]
    pub(crate) fn segment_points(&self, index: usize) -> (Vec2, Vec2) {
        let next = if index + 1 == self.parts.vertices.len() {
            0
        } else {
            index + 1
        };
        (self.parts.vertices[index], self.parts.vertices[next])
    }

    /// The bounding box of segment `index` (local space).
    #[inline]
    pub(crate) fn segment_aabb(&self, index: usize) -> Aabb {
        self.parts.levels[0][index]
    }

    /// The joint at the start (`at_end == false`) or the end of segment `index`.
    pub(crate) fn joint(&self, index: usize, at_end: bool) -> Joint {
        let Some(neighbour) = self.neighbour(index, at_end) else {
            return Joint::End;
        };
        let own = self.parts.normals[index];
        let other = self.parts.normals[neighbour];
        // Normals turn the same way as directions; with the solid on the left, a left turn
        // (counter-clockwise) along the chain is a convex joint.
        let turn = if at_end {
            cross(own, other)
        } else {
            cross(other, own)
        };
        if turn > CONVEX_TURN {
            Joint::Convex {
                neighbour_normal: other,
            }
        } else {
            Joint::FlatOrConcave
        }
    }

    /// The segment that meets segment `index` at its start (`at_end == false`) or end; `None`
    /// at an end of an open chain.
    pub(crate) fn neighbour(&self, index: usize, at_end: bool) -> Option<usize> {
        let count = self.segment_count();
        if at_end {
            if index + 1 < count {
                Some(index + 1)
            } else {
                self.parts.closed.then_some(0)
            }
        } else if index > 0 {
            Some(index - 1)
        } else {
            self.parts.closed.then_some(count - 1)
        }
    }

    /// The unit normal of the segment meeting segment `index` at its start or end (its own
    /// normal at an end of an open chain).
    pub(crate) fn neighbour_normal(&self, index: usize, at_end: bool) -> Vec2 {
        let neighbour = self.neighbour(index, at_end).unwrap_or(index);
        self.parts.normals[neighbour]
    }

    /// The same chain run backwards: the collision side flips.
    pub fn reversed(&self) -> Chain {
        let mut vertices = self.parts.vertices.clone();
        vertices.reverse();
        // Every segment of the input was valid, so the reversed ones are too.
        Chain::build(&vertices, self.parts.closed).unwrap_or_else(|_| self.clone())
    }

    /// The bounding box of the whole chain (local space).
    #[inline]
    pub fn local_aabb(&self) -> Aabb {
        self.parts
            .levels
            .last()
            .map(|root| root[0])
            .unwrap_or(Aabb {
                min: Vec2::ZERO,
                max: Vec2::ZERO,
            })
    }

    /// Calls `visit` with the index of each segment whose box overlaps `bounds` (local space), in
    /// increasing order, until it returns `false`.
    pub(crate) fn for_each_segment_in(&self, bounds: &Aabb, visit: &mut dyn FnMut(usize) -> bool) {
        let top = self.parts.levels.len() - 1;
        let mut stack: Vec<(usize, usize)> = vec![(top, 0)];
        // Children are pushed in reverse so they pop in increasing order.
        while let Some((level, index)) = stack.pop() {
            if !self.parts.levels[level][index].overlaps(bounds) {
                continue;
            }
            if level == 0 {
                if !visit(index) {
                    return;
                }
                continue;
            }
            let first = index * BRANCHING;
            let last = (first + BRANCHING).min(self.parts.levels[level - 1].len());
            for child in (first..last).rev() {
                stack.push((level - 1, child));
            }
        }
    }

    /// The world-space bounding box.
    pub fn aabb(&self, xf: &Transform) -> Aabb {
        if xf.q.s == 0.0 && xf.q.c == 1.0 {
            let local = self.local_aabb();
            return Aabb {
                min: local.min + xf.p,
                max: local.max + xf.p,
            };
        }
        let first = xf.apply(self.parts.vertices[0]);
        let (min, max) = self.parts.vertices[1..]
            .iter()
            .fold((first, first), |(min, max), v| {
                let w = xf.apply(*v);
                (min.min(w), max.max(w))
            });
        Aabb { min, max }
    }

    /// Whether the world point lies exactly on a segment (a chain encloses no area).
    pub fn contains(&self, xf: &Transform, point: Vec2) -> bool {
        let local = xf.apply_inv(point);
        let mut on = false;
        let bounds = Aabb {
            min: local,
            max: local,
        };
        self.for_each_segment_in(&bounds, &mut |i| {
            let (a, b) = self.segment_points(i);
            on = closest_point_on_segment(a, b, local) == local;
            !on
        });
        on
    }

    /// The closest point of the chain to a world point.
    pub fn project_point(&self, xf: &Transform, point: Vec2) -> PointProjection {
        let local = xf.apply_inv(point);
        let (closest, distance) = self.closest_point_local(local);
        PointProjection {
            point: xf.apply(closest),
            inside: distance == 0.0,
            distance,
        }
    }

    /// The closest chain point to a local point and its distance; a best-first descent of the
    /// box hierarchy.
    pub(crate) fn closest_point_local(&self, local: Vec2) -> (Vec2, f32) {
        let mut best = (
            self.parts.vertices[0],
            local.distance(self.parts.vertices[0]),
        );
        let top = self.parts.levels.len() - 1;
        let mut stack: Vec<(usize, usize)> = vec![(top, 0)];
        while let Some((level, index)) = stack.pop() {
            let aabb = &self.parts.levels[level][index];
            if aabb.closest_point(local).distance(local) > best.1 {
                continue;
            }
            if level == 0 {
                let (a, b) = self.segment_points(index);
                let candidate = closest_point_on_segment(a, b, local);
                let distance = candidate.distance(local);
                if distance < best.1 {
                    best = (candidate, distance);
                }
                continue;
            }
            let first = index * BRANCHING;
            let last = (first + BRANCHING).min(self.parts.levels[level - 1].len());
            stack.extend((first..last).map(|child| (level - 1, child)));
        }
        best
    }

    /// The total length of the segments.
    pub fn length(&self) -> f32 {
        (0..self.segment_count())
            .map(|i| {
                let (a, b) = self.segment_points(i);
                a.distance(b)
            })
            .sum()
    }

    /// The length-weighted centroid of the segments, in local space.
    pub fn centroid(&self) -> Vec2 {
        let mut moment = glam::DVec2::ZERO;
        let mut total = 0.0f64;
        for i in 0..self.segment_count() {
            let (a, b) = self.segment_points(i);
            let length = a.distance(b) as f64;
            moment += (0.5 * (a + b)).as_dvec2() * length;
            total += length;
        }
        if total > 0.0 {
            (moment / total).as_vec2()
        } else {
            self.parts.vertices[0]
        }
    }
}

/// Smallest sine of the turning angle for a joint to count as convex (about 0.006°).
const CONVEX_TURN: f32 = 1.0e-4;

impl Chain {
    /// Calls `visit(segment, entry_distance)` for each segment whose box a local-space ray
    /// enters, descending the box hierarchy and skipping boxes the ray misses; `box_entry`
    /// answers where the ray enters a box, `None` for a miss.
    pub(crate) fn for_each_box_along(
        &self,
        box_entry: impl Fn(&Aabb) -> Option<f32>,
        visit: &mut dyn FnMut(usize, f32),
    ) {
        let top = self.parts.levels.len() - 1;
        let mut stack: Vec<(usize, usize)> = vec![(top, 0)];
        while let Some((level, index)) = stack.pop() {
            let Some(entry) = box_entry(&self.parts.levels[level][index]) else {
                continue;
            };
            if level == 0 {
                visit(index, entry);
                continue;
            }
            let first = index * BRANCHING;
            let last = (first + BRANCHING).min(self.parts.levels[level - 1].len());
            stack.extend((first..last).rev().map(|child| (level - 1, child)));
        }
    }
}
