//! `move_and_slide`: a character mover that solves every nearby contact plane at once.
//!
//! One call:
//! 1. **Recovery.** A start inside geometry or closer than a quarter of the skin (plus four
//!    times the cast's tolerance) is pushed out, at most `max_recovery` (reported as
//!    [`MoveResult::recovery`]): out of the floor, along the face facing up most of those
//!    it is in front of, never along a seam's hidden side.
//! 2. **Planes.** The surfaces within `2 × skin + |delta|` become planes on the displacement: a
//!    surface `s` away may be approached to `skin`, one already within the skin not at all.
//!    Separated pairs use the closest-point direction, so corners read as rounded by the skin and
//!    a character slides over seams between tiles instead of catching on them; where the
//!    character is wholly in front of one of the obstacle's faces and that face resists the
//!    request less, the face's plane (so a long step past a seam or a chain vertex stays level
//!    instead of climbing the next piece's rounded corner). Measured from the character's
//!    position, so the planes keep the shapes' own precision far from the world origin.
//! 3. **Solve and cast.** The displacement closest to the request that violates no plane (an
//!    exact 2D projection onto the intersection of half-planes, see `planes::solve_planes`);
//!    a shape cast along it (stopping half a skin short) keeps fast motion from tunnelling. A
//!    cast that stops early adds the planes around where it stopped, and the solve repeats.
//!    On walkable floor (with `stop_on_slope`) the floor absorbs the request's downward part:
//!    the walk across `up` is solved, then as much of the downward part as the planes allow is
//!    added (`planes::solve_absorbing`), so gravity neither slides a walker down a slope it
//!    climbs nor a stander down one it stands on.
//! 4. **Game features.** Step-up onto walkable ledges, snapping down slopes and steps (sliding
//!    a rounded bottom down off the corner of a ledge it walks off), and a floor probe under
//!    the character that decides `on_floor` (never without a surface under it).
//!
//! Every length a call uses is held to the character's size and to the `f32` spacing of its
//! coordinates first (`lengths.rs`; the rule is stated on [`MoveOptions`]), and the casts'
//! tolerance follows the skin, so a 0.01-unit character and a 1000-unit one far from the
//! origin move alike in proportion.

mod lengths;
mod planes;

use super::{
    check_motion_end, check_vector, ColliderHandle, QueryFilter, World, WorldCastHit, WorldError,
};
use crate::math::Vec2;
use crate::query::CastOptions;
use crate::shape::Shape;
use crate::Transform;
use lengths::{f32_spacing, Lengths};
use planes::{solve_absorbing, solve_planes, solve_push, Plane, Preference, Surface};

/// Settings for [`World::move_and_slide`]. The defaults suit a character about one unit tall:
/// a 45° walkable slope, a 0.01 skin, steps up to 0.2 and snapping down 0.2;
/// [`MoveOptions::for_size`] scales them for a character of another size.
///
/// **Lengths follow the character's size.** Whatever the options say, a call uses at most
/// half the character's extent along `up` as step height and as snap distance, at most that
/// extent as recovery, and as skin at most a fiftieth of its smallest extent (along `up` or
/// across) and at least four `f32` spacings of its coordinates (the spacing at the largest
/// coordinate of its bounding box) and 64 `f32` epsilons of its size. So a 0.05-unit
/// character neither steps onto ledges four times its height nor keeps a skin of a fifth of
/// its size, and a character far from the origin keeps a skin the numbers can hold (a gap
/// of one spacing cannot be kept: a position rounds by half of one): 5,000 units out a
/// skin is at least 0.00195, 1e5 out 0.031, however small the character. A character at
/// least 0.5 units tall and wide within 16,384 of the origin uses the default options as
/// given.
///
/// The options borrow the filter's exclusion list and predicate (see [`QueryFilter`]); a
/// one-call drop-through or "ignore what I carry" is written on the options of that call:
///
/// ```
/// use collide2d::{shape::{Circle, Polygon, Shape}, world::{Collider, MoveOptions, World}, Transform, Vec2};
/// let mut world = World::new();
/// let platform = world.insert(Collider::new(Shape::from(Polygon::rect(4.0, 0.2)?)).with_one_way(Vec2::Y, 0.1))?;
/// let hero = world.insert(Collider::new(Shape::from(Circle::with_radius(0.5)?)).with_transform(Transform::new(Vec2::new(0.0, 0.61), 0.0)))?;
/// let fall = Vec2::new(0.0, -1.0);
/// assert!(world.move_and_slide(hero, fall, MoveOptions::default())?.on_floor);
/// let dropped = world.move_and_slide(hero, fall, MoveOptions::default().with_skip_one_way(true))?;
/// assert!(!dropped.on_floor);
/// # let _ = platform;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct MoveOptions<'a> {
    /// The "up" direction, for floor and ceiling detection (normalised here).
    pub up: Vec2,
    /// Steepest slope still counted as floor, in radians (default 45°); taken within `[0, π]`
    /// (a negative slope counts only level floor as floor).
    pub max_slope: f32,
    /// Gap kept between the character and what it touches, so its next move does not start in
    /// contact (default 0.01; used: at most a fiftieth of the character's smallest extent, at
    /// least four `f32` spacings of its coordinates, see [`MoveOptions`]; the tolerances of
    /// the call follow the skin used). A character comes to rest between the skin and the
    /// skin plus the casts' tolerance (a hundredth of the skin, at most 1e-4) from what holds
    /// it: a gap that much beyond the skin counts as the skin and is not closed, so a
    /// character at rest is not moved a sliver every call. Far from the origin, where a
    /// coordinate's spacing is more than that, a character standing on walkable floor may
    /// rest up to one spacing further (a gap its coordinates cannot close finer).
    pub skin: f32,
    /// Most solve-and-cast rounds per call (default 4). A call stops before it when a round
    /// ends where it began and finds no new surface (every later round would repeat it), so a
    /// large value, `u32::MAX` included, costs no more than the rounds that change something.
    pub max_iterations: u32,
    /// What the character collides with (the character itself is always excluded, besides
    /// the filter's own exclusions).
    pub filter: QueryFilter<'a>,
    /// Highest ledge the character steps up onto while walking into it, only onto walkable
    /// floor and only when it stood on the floor (default 0.2; 0 turns stepping off; used: at
    /// most half the character's extent along `up`). The ledge is measured from floor to
    /// floor, so one exactly this high is climbed. A step carries the character at least two
    /// skins forward (a slow walk gets over the ledge's edge), and a rounded character on
    /// until the centre of its rounding is over the ledge (at most half its width), so it
    /// stands on the ledge instead of on its rim.
    pub step_height: f32,
    /// Farthest the character is pulled down onto the floor when a move along it would leave
    /// it in the air (walking down slopes and steps), only when it stood on the floor and the
    /// request does not go up, and only onto walkable floor (default 0.2; 0 turns snapping off;
    /// used: at most half the character's extent along `up`). It lands only on floor walkable
    /// as the floor probe reads it (touching, see [`MoveResult::on_floor`]): a rounded
    /// character over a corner too steep to stand on touching is not pulled back onto it,
    /// though the corner reads less steep at the skin; it slides off at once. A rounded bottom
    /// walking off a ledge meets the ledge's corner on its side, too steep to stand on: it
    /// slides down off the corner onto the floor below, which may carry it on across `up` by at
    /// most half its width, when that floor is at most this far below the corner (a higher
    /// drop it falls).
    pub snap_distance: f32,
    /// Whether walkable floor under the character absorbs the request's downward part (along
    /// `-up`, gravity) instead of sliding the character down the slope (default `true`).
    ///
    /// With it, a character that stands on walkable floor (the probe `on_floor` uses, at the
    /// start of the call, or a walkable surface it lands on during it) has only the request's
    /// part across `up`, the walk, solved against what it touches; then as much of the
    /// downward part is added as the surfaces allow (reported as [`MoveResult::absorbed`]).
    /// So under gravity of any strength:
    /// - standing still (a request only along `-up`) it stays where it is on a walkable slope;
    /// - walking up a walkable slope it climbs it, at the walk's projection on the slope (a
    ///   walk `w` across a slope of angle `a` goes `w · cos a` along it), the speed it climbs
    ///   at with no gravity at all: how fast a character walks does not depend on the frame
    ///   rate's share of gravity in each request, and the motion is never longer than the
    ///   request (keeping the walk's horizontal speed instead would take a character further
    ///   than asked on steep slopes);
    /// - walking down a walkable slope it follows the slope down as far as the downward part
    ///   reaches (snapping, `snap_distance`, brings it down the rest);
    /// - against a surface too steep to walk it does not climb it (pushing into it slides
    ///   along it sideways or down, never up).
    ///
    /// Off the floor (falling, sliding down a slope steeper than `max_slope`) nothing is
    /// absorbed and gravity acts as requested; a surface too steep to walk is not climbed
    /// either way: walking into it in the air the character rises no more than the request's
    /// own upward part (falling, it slides down it or stops against it, never up it, however
    /// much the walk exceeds the fall). With `false` the whole request is solved, and a
    /// walk up a slope under gravity more than the walk times the slope's cotangent slides
    /// down it.
    pub stop_on_slope: bool,
    /// Most push-out per call for a start inside geometry (default 0.5; used: at most the
    /// character's extent along `up`).
    pub max_recovery: f32,
}

impl Default for MoveOptions<'_> {
    fn default() -> Self {
        MoveOptions {
            up: Vec2::Y,
            max_slope: std::f32::consts::FRAC_PI_4,
            skin: 0.01,
            max_iterations: 4,
            filter: QueryFilter::default(),
            step_height: 0.2,
            snap_distance: 0.2,
            stop_on_slope: true,
            max_recovery: 0.5,
        }
    }
}

impl<'a> MoveOptions<'a> {
    /// The defaults for a character `height` units tall along `up`: its skin, step height,
    /// snap distance and recovery bound are those of the defaults times `height` (a 32-unit
    /// character in a game measured in pixels steps up 6.4). `for_size(1.0)` is the default; a
    /// `height` that is not finite and positive gives the default.
    ///
    /// ```
    /// use collide2d::world::MoveOptions;
    /// let options = MoveOptions::for_size(32.0);
    /// assert_eq!((options.skin, options.step_height), (0.32, 6.4));
    /// ```
    pub fn for_size(height: f32) -> Self {
        let defaults = MoveOptions::default();
        if !(height.is_finite() && height > 0.0) {
            return defaults;
        }
        MoveOptions {
            skin: defaults.skin * height,
            step_height: defaults.step_height * height,
            snap_distance: defaults.snap_distance * height,
            max_recovery: defaults.max_recovery * height,
            ..defaults
        }
    }
    /// With another "up" direction.
    pub fn with_up(mut self, up: Vec2) -> Self {
        self.up = up;
        self
    }
    /// With another steepest walkable slope (radians).
    pub fn with_max_slope(mut self, max_slope: f32) -> Self {
        self.max_slope = max_slope;
        self
    }
    /// With another skin.
    pub fn with_skin(mut self, skin: f32) -> Self {
        self.skin = skin;
        self
    }
    /// With another filter.
    pub fn with_filter(mut self, filter: QueryFilter<'a>) -> Self {
        self.filter = filter;
        self
    }
    /// Passing through these colliders for this call (beside the character itself), e.g. what
    /// it carries; replaces the filter's exclusion list.
    pub fn excluding(mut self, handles: &'a [ColliderHandle]) -> Self {
        self.filter.exclude = handles;
        self
    }
    /// Passing through every one-way collider for this call (`true`), e.g. to drop through a
    /// platform the character stands on.
    pub fn with_skip_one_way(mut self, skip: bool) -> Self {
        self.filter.skip_one_way = skip;
        self
    }
    /// With another step height (0 turns stepping off).
    pub fn with_step_height(mut self, step_height: f32) -> Self {
        self.step_height = step_height;
        self
    }
    /// With another snap distance (0 turns snapping off).
    pub fn with_snap_distance(mut self, snap_distance: f32) -> Self {
        self.snap_distance = snap_distance;
        self
    }
    /// With stopping on walkable slopes under pure gravity on or off.
    pub fn with_stop_on_slope(mut self, stop_on_slope: bool) -> Self {
        self.stop_on_slope = stop_on_slope;
        self
    }
    /// With another bound on the push-out per call.
    pub fn with_max_recovery(mut self, max_recovery: f32) -> Self {
        self.max_recovery = max_recovery;
        self
    }
}

/// One surface that limited the character's motion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveHit {
    /// The collider hit.
    pub collider: ColliderHandle,
    /// The surface's point nearest the character.
    pub point: Vec2,
    /// The surface normal, pointing from the surface towards the character.
    pub normal: Vec2,
}

/// What [`World::move_and_slide`] did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveResult {
    /// The displacement actually made (recovery, step and snap included).
    pub moved: Vec2,
    /// The surfaces that limited the motion (the solved planes it ended on).
    pub hits: Vec<MoveHit>,
    /// A walkable surface (within `max_slope` of up) is under the character, within twice the
    /// skin used (see [`MoveOptions`]), read as the character meets it coming straight down
    /// (touching: a corner under a rounded character is read by the direction from the corner
    /// to the centre of the rounding then). Coming down onto a floor it is on it from two skins
    /// above; once it stands, gravity alone moves it exactly nothing.
    pub on_floor: bool,
    /// A surface facing down within `max_slope` stopped the motion.
    pub on_ceiling: bool,
    /// A surface steeper than `max_slope` both ways stopped the motion.
    pub on_wall: bool,
    /// The normal of the floor under the character, when `on_floor`.
    pub floor_normal: Option<Vec2>,
    /// The collider the character stands on, when `on_floor` (for moving platforms: see
    /// [`World::carry`]).
    pub floor_collider: Option<ColliderHandle>,
    /// The push-out made first because the character started inside geometry.
    pub recovery: Vec2,
    /// The request's part along `-up` that walkable floor under the character absorbed (see
    /// [`MoveOptions::stop_on_slope`]): `delta`'s whole part along `-up` when the character
    /// stood on walkable floor (or landed on it), else zero. Only the rest, the walk, was
    /// solved against the surfaces, and of this part only as much was added as they allowed
    /// (following a slope down). The solved motion never goes against `delta - absorbed`.
    pub absorbed: Vec2,
    /// How far the character stepped up onto a ledge (0 when it did not).
    pub step: f32,
    /// How far the character was snapped down onto the floor, along `-up` (0 when it was not).
    /// Sliding off a ledge's corner, the snap also moved it across `up` (at most half its
    /// width, see [`MoveOptions::snap_distance`]); `moved` includes that.
    pub snap: f32,
}

/// The per-call constants of a move.
struct Mover<'a> {
    shape: &'a Shape,
    filter: QueryFilter<'a>,
    up: Vec2,
    skin: f32,
    /// The casts' tolerance (see [`Lengths`]).
    tolerance: f32,
    /// The `f32` spacing of the character's coordinates (see [`Lengths`]).
    spacing: f32,
    floor_cos: f32,
}

impl Mover<'_> {
    fn is_walkable(&self, normal: Vec2) -> bool {
        normal.dot(self.up) >= self.floor_cos
    }

    fn cast_options(&self, target_separation: f32) -> CastOptions {
        CastOptions {
            target_separation,
            tolerance: self.tolerance,
            ..CastOptions::default()
        }
    }

    /// How far from the character a surface becomes a plane: the skin and a little more, so a
    /// surface a cast stopped at (within its tolerance, and the character's position rounded
    /// to the spacing of its coordinates) is one. (Without the spacing, a 3.5-unit box 1e5
    /// out, whose position rounded a spacing up where a cast stopped it, measured nothing
    /// there; only the cast's own normal held it, leaning 5° back over a seam, and it
    /// climbed 0.28 on a flat floor.)
    fn plane_reach(&self) -> f32 {
        self.skin + 4.0 * self.tolerance + self.spacing
    }

    /// How far beyond the skin a surface may be and still count as at the skin: the casts'
    /// tolerance (a cast stops anywhere within it of its target). Not the spacing of the
    /// coordinates far out, where that is more: a box 4.7e4 out falling beside a stack of
    /// boxes, its gap to a seam's corner a spacing beyond the skin, was held by that corner.
    fn settled(&self) -> f32 {
        self.tolerance
    }

    /// How far down the character looks for what it would come down on, deciding whether the
    /// floor absorbs a fall: twice the skin along the steepest walkable normal, so a corner
    /// twice the skin away along a direction within `max_slope`, which lies further below
    /// the character than that, is met (at most eight skins, for slopes near vertical).
    fn corner_probe(&self) -> f32 {
        2.0 * self.skin / self.floor_cos.max(0.25)
    }

    /// The gap below which a surface pushes the character out to the skin: a quarter of the
    /// skin and a little more, so whatever the character keeps at least this far is more than
    /// the cast's tolerance above the lowest target a cast stops at ([`cast_target`]). (At the
    /// quarter exactly, a character resting there, as rounding far from the origin may leave
    /// it, started every cast within the tolerance of its target and stopped at once, on a
    /// slope it could walk.)
    fn recovery_gap(&self) -> f32 {
        (0.25 * self.skin + 4.0 * self.tolerance).min(self.skin)
    }

    /// The most a position rounded to the spacing of the character's coordinates may go
    /// against a plane the solve kept it on: a spacing either way on each axis (half a
    /// spacing of rounding, and the solve's own slack within that).
    fn rounding(&self) -> f32 {
        2.0 * self.spacing
    }
}

impl World {
    /// Moves a collider's object by up to `delta`, sliding along everything in the way.
    ///
    /// A start inside geometry is first pushed out (bounded, reported as `recovery`). The
    /// surfaces the character touches become planes, and the displacement closest to `delta`
    /// that violates none of them is taken, all planes at once (in a crease: along it, or not
    /// at all); a shape cast along it stops at anything not yet touched, whose surfaces then
    /// join the planes. [`MoveOptions`] adds stepping up ledges, snapping down slopes and
    /// standing and walking on slopes under gravity; `on_floor` comes from a probe under the
    /// character.
    ///
    /// The motion made never goes against the request less the downward part the floor
    /// absorbed (`moved · (delta - absorbed) ≥ 0`, with [`MoveResult::absorbed`] zero off the
    /// floor or without [`MoveOptions::stop_on_slope`], so then `moved · delta ≥ 0`) and is
    /// never longer than the request, except for recovery, step-up and snapping, each reported
    /// in the result. (Walking up a slope under gravity goes against the gravity: the floor
    /// absorbs it, see [`MoveOptions::stop_on_slope`].) A call
    /// that starts clear ends no deeper inside anything than a thousandth of the character's
    /// size plus a few `f32` spacings of its coordinates (`tests/it/mover_scale.rs` checks it
    /// from 0.01 to 1000 units).
    ///
    /// **At rest.** Called every frame with gravity alone (or no motion), a character comes
    /// to a fixed point within a bounded number of calls and then moves exactly nothing, its
    /// flags unchanged: standing on walkable floor (a slope it may climb included: it neither
    /// slides down it nor creeps up it), wedged in a crease, or against what holds it. What
    /// cannot hold it (a slope or a corner too steep to stand on) it slides off at once,
    /// `on_floor` false; it never creeps while reported as standing. After a walk, the first
    /// call without it stops the character (settling to the skin at most) and the next moves
    /// nothing. Far from the origin the floor absorbs, besides the fall, a gap beyond the skin
    /// shorter than a spacing of the character's coordinates (see [`MoveOptions::skin`]):
    /// rounded per coordinate, closing it kept only its part along the finer axis, and a
    /// character on a floor turned against the axes slid along it. (`tests/it/mover_rest.rs`
    /// checks it near the origin and 1e3 to 1e5 from it, in frames turned every way.)
    ///
    /// A request shorter than about a spacing of the character's coordinates is the
    /// coordinates' limit: it may round to nothing, and then moves the character nothing
    /// (1e4 from the origin, where the spacing is 0.00098, a fall of 0.0004 a call leaves a
    /// character where it is, in the air or not), and in a frame turned against the axes it may
    /// round to a move along one axis only. The mover carries nothing over from one call to
    /// the next; request at least a spacing there.
    ///
    /// The lengths used follow the character's size (see [`MoveOptions`]). One-way colliders
    /// block only from their blocking side, so a character jumps up through a one-way platform
    /// and lands on it. Errors (the world unchanged) for a stale handle, non-finite or negative
    /// input, or a `delta` that would carry the character beyond ±[`MAX_COORDINATE`](crate::shape::MAX_COORDINATE)
    /// ([`WorldError::TransformOutOfRange`]).
    ///
    /// ```
    /// use collide2d::{shape::{Polygon, Shape}, world::{Collider, MoveOptions, World}, Transform, Vec2};
    /// let mut world = World::new();
    /// world.insert(Collider::new(Shape::from(Polygon::rect(20.0, 1.0)?)))?; // floor, top at y = 0.5
    /// let hero = world.insert(
    ///     Collider::new(Shape::from(Polygon::rect(1.0, 1.0)?)).with_transform(Transform::new(Vec2::new(0.0, 1.2), 0.0)),
    /// )?;
    /// let result = world.move_and_slide(hero, Vec2::new(1.0, -1.0), MoveOptions::default())?;
    /// assert!(result.on_floor && !result.on_wall);
    /// assert!((result.moved.x - 1.0).abs() < 1e-4); // slid the whole way along the floor
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn move_and_slide(
        &mut self,
        handle: ColliderHandle,
        delta: Vec2,
        opts: MoveOptions,
    ) -> Result<MoveResult, WorldError> {
        check_vector(delta, "move delta")?;
        let up = crate::math::try_unit(opts.up).ok_or(WorldError::InvalidInput("up direction"))?;
        let non_negative = |value: f32| value.is_finite() && value >= 0.0;
        if !non_negative(opts.skin) {
            return Err(WorldError::InvalidInput("skin"));
        }
        if !opts.max_slope.is_finite() {
            return Err(WorldError::InvalidInput("max slope"));
        }
        if !non_negative(opts.step_height) {
            return Err(WorldError::InvalidInput("step height"));
        }
        if !non_negative(opts.snap_distance) {
            return Err(WorldError::InvalidInput("snap distance"));
        }
        if !non_negative(opts.max_recovery) {
            return Err(WorldError::InvalidInput("max recovery"));
        }
        let collider = self.get(handle)?;
        let shape = collider.shape.clone();
        let object = collider.transform;
        let start = collider.world_transform();
        // A request that would carry the character beyond the coordinate range is refused
        // (as `set_transform` there would be), not answered by a move of nothing.
        check_motion_end(object.p, delta)?;
        check_motion_end(start.p, delta)?;
        // The request's part across `up`, the walk (for stepping up and sliding off a rim,
        // never against it). A request along `up` in a frame turned against the axes keeps a
        // rounding of a few epsilons of its length across `up`, pointing either way as the
        // frame turns: no walk. (Read as one, it made the snap refuse sliding a character off
        // a steep face onto the walkable floor under it, as going against the walk, in some
        // frames only: a 0.55-unit box 3.8e4 out, hung on the steep side of a crease 0.0033
        // beyond its skin from the walkable side, stayed there under gravity, `on_floor`
        // false, and the first call with no motion slid it down onto the walkable side.)
        let across = delta - up * delta.dot(up);
        let along = if across.length() <= 1.0e-6 * delta.length() {
            Vec2::ZERO
        } else {
            across
        };
        // The request's part along -up, which walkable floor under the character absorbs
        // (with `stop_on_slope`): only the rest, the walk, is solved against the planes.
        let downward = if opts.stop_on_slope && delta.dot(up) < 0.0 {
            up * delta.dot(up)
        } else {
            Vec2::ZERO
        };
        let lengths = Lengths::new(&shape, &start, up, &opts);
        let mover = Mover {
            shape: &shape,
            filter: opts.filter.also_excluding(handle),
            up,
            skin: lengths.skin,
            tolerance: lengths.tolerance,
            spacing: lengths.spacing,
            floor_cos: opts.max_slope.clamp(0.0, std::f32::consts::PI).cos(),
        };
        let mut result = MoveResult::default();
        let mut xf = start;
        let mut surfaces = Vec::new();
        result.recovery = self.recover(&mover, &mut xf, delta, lengths.max_recovery, &mut surfaces);

        // Planes from the surfaces the character touches (within the skin) at the start,
        // gathered by the recovery.
        let origin = xf.p;
        let reach = mover.plane_reach();
        let supported = surfaces
            .iter()
            .any(|s| mover.is_walkable(s.normal) && s.separation <= reach);
        // Beside an edge, within the skin of its corner, the character is above the floor's
        // top (the face it would be pushed out along) though it moves by the edge's side.
        let above_floor = surfaces
            .iter()
            .any(|s| mover.is_walkable(s.away.0) && s.away.1 <= reach);
        // Whether the character stood on the floor at the start (the probe `on_floor` uses),
        // measured only when absorbing, stepping or snapping needs it.
        let start_xf = Transform { p: origin, q: xf.q };
        let mut stood: Option<bool> = None;
        let mut stood_on_floor = |world: &World| -> Result<bool, WorldError> {
            if let Some(known) = stood {
                return Ok(known);
            }
            let known = supported
                || above_floor
                || world
                    .floor_under(&mover, &start_xf, 2.0 * mover.skin)?
                    .is_some();
            stood = Some(known);
            Ok(known)
        };
        // On walkable floor (stood on at the start, or landed on during the call) the floor
        // absorbs the request's downward part: the walk is solved, then as much of the
        // downward part added as the planes allow (see `MoveOptions::stop_on_slope`).
        //
        // Not when what a rounded character would come down on is too steep to stand on: a
        // rounded character resting on a ledge's corner has the corner within the skin along a
        // direction (from the corner to the character, at the gap it keeps) a little less
        // steep than the normal it meets the corner with when touching, which the probe meets.
        // Counted as on the floor by the nearer reading, it hung on a corner `on_floor` found
        // too steep: the fall absorbed, call after call. (A sharp character's surfaces are
        // faces, the same at any gap; its probe may meet a crease's vertex at the foot of a
        // slope it stands on.)
        let mut absorbing = downward != Vec2::ZERO
            && stood_on_floor(self)?
            && (rounding_of(&shape) <= 0.0
                || self
                    .probe_floor(&mover, &start_xf, mover.corner_probe())?
                    .is_none_or(|hit| mover.is_walkable(-hit.normal)));

        // No character climbs surfaces too steep to walk (see `held_normals`).
        let mut planes: Vec<Plane> = Vec::new();
        add_planes(&mut planes, &surfaces, Vec2::ZERO, &mover);

        // Solve, cast along the answer (for what is not touched yet), and solve again with the
        // surfaces around wherever the cast stopped.
        let scale = lengths.unit + delta.length();
        // How finely each coordinate of the character's position is placed (see
        // `planes::resolution`), where its spacing is more than the casts' tolerance: nearer
        // the origin a gap within the tolerance already counts as the skin (`settled`), and
        // what the floor absorbs is placed finer than anything measured, as it was (zero).
        let placing = if mover.spacing > mover.tolerance {
            Vec2::new(f32_spacing(origin.x), f32_spacing(origin.y))
        } else {
            Vec2::ZERO
        };
        for _ in 0..opts.max_iterations.max(1) {
            // What this round starts from: a round that ends where it began, with no plane
            // but exact copies of planes it had, is repeated identically by every later round
            // (exact copies change no solve), so the loop stops there rather than run on to
            // `max_iterations` (at `u32::MAX` rounds, each adding copies, a call never ended).
            let (round_start, round_absorbing) = (xf.p, absorbing);
            let planes_before = planes.clone();
            let made = xf.p - origin;
            let solved = if absorbing {
                solve_absorbing(delta - downward, downward, delta.length(), &planes, placing)
            } else {
                solve_planes(delta, &planes)
            };
            let step = solved - made;
            if step.length() <= 1.0e-7 * scale {
                break;
            }
            let target = cast_target(&surfaces, &mover);
            let hit =
                self.shape_cast(&shape, &xf, step, &mover.filter, mover.cast_options(target))?;
            let Some(hit) = hit else {
                // The last round (nothing in the way): its end, rounded, kept to the planes.
                let wanted = xf.p.as_dvec2() + step.as_dvec2();
                let bounds = (1.0e-6 * scale, mover.rounding());
                xf.p = placed_on_planes(origin, xf.p + step, wanted, &planes, bounds);
                break;
            };
            xf.p += step * hit.fraction;
            let made = xf.p - origin;

            surfaces.clear();
            self.surfaces_at(&mover, &xf, delta, &mut surfaces);
            absorbing |= downward != Vec2::ZERO && mover.is_walkable(-hit.normal);
            add_planes(&mut planes, &surfaces, made, &mover);
            // What the cast stopped at holds the character where it stopped, along the
            // normals the measured surfaces hold it along (see `held_normals`). When it was
            // measured there, its surface already does, with the face chosen between a seam's
            // pieces: the cast's own normal is the closest-point direction, which above a seam
            // leans back against the walk (a 3.5-unit box 1e5 out, its corner within a third
            // of a spacing of the seam's vertex, read a 5° slope and climbed 0.28; turned
            // scenes, whose seams are out of line by a spacing, read such slopes at every
            // seam).
            let measured = surfaces.iter().any(|s| s.collider == hit.collider);
            let hit_normals = held_normals(mover.up, -hit.normal, &mover).filter(|_| !measured);
            for (normal, _) in hit_normals {
                planes.push(Plane {
                    normal,
                    offset: normal.dot(made).min(0.0),
                    collider: hit.collider,
                    point: hit.point,
                    separation: target,
                });
            }
            let (kept, added) = planes.split_at(planes_before.len());
            if xf.p == round_start
                && absorbing == round_absorbing
                && kept == planes_before.as_slice()
                && added.iter().all(|plane| planes_before.contains(plane))
            {
                break;
            }
        }
        if absorbing {
            result.absorbed = downward;
        }

        // The planes the request pressed into and the character ended on stopped it. Far from
        // the world's origin the last bit of a motion may round away: a character within a few
        // ulps of its position from a plane has ended on it.
        let made = xf.p - origin;
        let rounding = (4.0 * f32::EPSILON * origin.abs().max_element()).max(4.0 * mover.spacing);
        let on_plane = 1.0e-3 * mover.skin.max(1.0e-3 * lengths.unit) + 1.0e-6 * scale + rounding;
        for plane in &planes {
            let pressed = plane.normal.dot(delta) < plane.offset - 1.0e-7 * scale;
            if !pressed || plane.normal.dot(made) > plane.offset + on_plane {
                continue;
            }
            let facing = plane.normal.dot(up);
            if facing <= -mover.floor_cos {
                result.on_ceiling = true;
            } else if facing < mover.floor_cos {
                result.on_wall = true;
            }
            let duplicate = result
                .hits
                .iter()
                .any(|h| h.collider == plane.collider && h.normal.dot(plane.normal) > 1.0 - 1.0e-6);
            if !duplicate {
                result.hits.push(MoveHit {
                    collider: plane.collider,
                    point: plane.point,
                    normal: plane.normal,
                });
            }
        }

        // A ceiling within that band of where the character ended, which the request presses
        // into, is touched whether or not it became a plane: far out a character resting
        // under a ceiling has a gap above its skin of up to a spacing or so, which a push
        // into the ceiling of less than that never closed (a 20-unit capsule 6.6e4 out
        // pushing 0.0024 into a ceiling slid along it, not `on_ceiling`, in one frame only).
        if !result.on_ceiling && delta.dot(up) > 0.0 {
            let band = mover.skin + on_plane;
            let mut ended = Vec::new();
            self.surfaces_near(
                &shape,
                &xf,
                band,
                (delta, Preference { motion: delta, up }),
                &mover.filter,
                &mut ended,
            );
            for surface in &ended {
                let ceiling = surface.normal.dot(up) <= -mover.floor_cos;
                if ceiling
                    && surface.separation <= band
                    && surface.normal.dot(delta) < -1.0e-7 * scale
                {
                    result.on_ceiling = true;
                    let normal = surface.normal;
                    let collider = surface.collider;
                    if !result
                        .hits
                        .iter()
                        .any(|h| h.collider == collider && h.normal.dot(normal) > 1.0 - 1.0e-6)
                    {
                        result.hits.push(MoveHit {
                            collider,
                            point: surface.point,
                            normal,
                        });
                    }
                }
            }
        }

        // Step up onto a ledge the wall belongs to.
        if lengths.step_height > 0.0 && result.on_wall && stood_on_floor(self)? {
            let made_along = made - up * made.dot(up);
            let direction = crate::math::unit_or(along, Vec2::ZERO);
            let missing = (along - made_along).dot(direction);
            if missing > 4.0 * mover.tolerance {
                if let Some((landing, rise)) =
                    self.step_up(&mover, &xf, direction * missing, lengths.step_height)?
                {
                    xf.p = landing;
                    result.step = rise;
                    result.on_wall = false;
                }
            }
        }

        // The floor under the character; snap down to it when walking off a slope or step.
        let mut floor = self.floor_under(&mover, &xf, 2.0 * mover.skin)?;
        if floor.is_none()
            && lengths.snap_distance > 0.0
            && delta.dot(up) <= 0.0
            && stood_on_floor(self)?
        {
            let drop = -up * (lengths.snap_distance + mover.skin);
            let cast = |target: f32| {
                self.shape_cast(&shape, &xf, drop, &mover.filter, mover.cast_options(target))
            };
            let mut hit = cast(mover.skin)?;
            // What the snap lands on is floor only as the probe reads it, touching: a rounded
            // character over a corner reads the corner less steep at the skin than touching.
            // Read at the skin, a corner between walkable at the skin and too steep touching
            // pulled the character back down every call after the solve slid it off (a
            // rounded box reported `on_floor` while it crept off the corner a little a call,
            // then fell). Touching is how `on_floor` reads it, so it slides off at once.
            if rounding_of(&shape) > 0.0 && hit.is_some_and(|h| mover.is_walkable(-h.normal)) {
                if let Some(touching) = cast(0.0)?.filter(|h| !mover.is_walkable(-h.normal)) {
                    hit = Some(touching);
                }
            }
            // The part of the drop kept back so the character rests a skin above the floor.
            let mut short_of = 0.0;
            let mut slid = None;
            if let Some(rim) = hit.filter(|h| !mover.is_walkable(-h.normal)) {
                // Its side within the skin of the edge it walked off: the corner, too steep to
                // stand on, stopped the cast. Cast down to touching instead (it passes beside
                // the corner), and stop a skin short of the floor.
                hit = cast(0.0)?;
                short_of = mover.skin / drop.length();
                if !hit.is_some_and(|h| mover.is_walkable(-h.normal)) {
                    // A rounded bottom meets the corner on its side however it is cast down:
                    // slide down off it instead, onto the floor below.
                    let limits = (lengths.snap_distance, along);
                    slid = self.slide_off_rim(&mover, &xf, drop, rim, limits)?;
                }
            }
            if let Some((offset, landing)) = slid {
                xf.p += offset;
                result.snap = -offset.dot(up);
                floor = Some((landing.collider, -landing.normal));
            } else if let Some(hit) = hit.filter(|h| mover.is_walkable(-h.normal)) {
                let fraction = (hit.fraction - short_of).max(0.0);
                xf.p += drop * fraction;
                result.snap = drop.length() * fraction;
                floor = Some((hit.collider, -hit.normal));
            }
        }
        if let Some((collider, normal)) = floor {
            result.on_floor = true;
            result.floor_collider = Some(collider);
            result.floor_normal = Some(normal);
        }

        result.moved = xf.p - start.p;
        let mut moved_object = object;
        moved_object.p += result.moved;
        self.set_transform(handle, moved_object)?;
        Ok(result)
    }

    /// Moves a character standing on `platform` along with it: call after moving the platform
    /// from `previous` (its object transform before) to where it is now. The character's object
    /// origin is carried as a point fixed to the platform (rotation included) with
    /// [`move_and_slide`](World::move_and_slide), so it is not carried into walls.
    ///
    /// ```
    /// use collide2d::{shape::{Polygon, Shape}, world::{Collider, MoveOptions, World}, Transform, Vec2};
    /// let mut world = World::new();
    /// let platform = world.insert(Collider::new(Shape::from(Polygon::rect(4.0, 0.5)?)))?;
    /// let hero = world.insert(
    ///     Collider::new(Shape::from(Polygon::rect(1.0, 1.0)?)).with_transform(Transform::new(Vec2::new(0.0, 0.76), 0.0)),
    /// )?;
    /// let before = world.get(platform)?.transform();
    /// world.set_transform(platform, Transform::new(Vec2::new(1.0, 0.0), 0.0))?;
    /// world.carry(hero, platform, before, MoveOptions::default())?;
    /// assert!((world.get(hero)?.transform().p.x - 1.0).abs() < 1e-4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn carry(
        &mut self,
        character: ColliderHandle,
        platform: ColliderHandle,
        previous: Transform,
        opts: MoveOptions,
    ) -> Result<MoveResult, WorldError> {
        super::collider::check_transform(&previous)?;
        let now = self.get(platform)?.transform();
        let point = self.get(character)?.transform().p;
        let delta = now.apply(previous.apply_inv(point)) - point;
        let opts = MoveOptions {
            filter: opts.filter.also_excluding(platform),
            ..opts
        };
        self.move_and_slide(character, delta, opts)
    }

    /// Step 1: pushes `xf` out of everything it overlaps or is closer to than [`Mover::recovery_gap`]
    /// (as a whole: a seam's corner near only along its hidden side is not), along each
    /// obstacle's `Surface::away` (out of the floor, not along the walk nor against it), at
    /// most `max_recovery` in all. Returns the push, and
    /// leaves in `surfaces` those within [`Mover::plane_reach`] of where `xf` ends.
    fn recover(
        &self,
        mover: &Mover,
        xf: &mut Transform,
        delta: Vec2,
        max_recovery: f32,
        surfaces: &mut Vec<Surface>,
    ) -> Vec2 {
        let mut total = Vec2::ZERO;
        let mut wanted = Vec::new();
        for _ in 0..3 {
            surfaces.clear();
            self.surfaces_at(mover, xf, delta, surfaces);
            wanted.clear();
            wanted.extend(
                surfaces
                    .iter()
                    .filter(|s| s.gap < mover.recovery_gap())
                    .map(|s| (s.away.0, mover.skin - s.away.1)),
            );
            let room = max_recovery - total.length();
            if wanted.is_empty() || room <= 0.0 {
                return total;
            }
            let mut push = solve_push(&wanted);
            if push.length() > room {
                push = crate::math::unit_or(push, Vec2::ZERO) * room;
            }
            xf.p += push;
            total += push;
        }
        surfaces.clear();
        self.surfaces_at(mover, xf, delta, surfaces);
        total
    }

    /// The surfaces within [`Mover::plane_reach`] of the character at `xf`, for a request `delta`.
    ///
    /// Of the faces of an obstacle that would each hold the character, the one resisting the
    /// request least is taken (between equals, the one facing up most). A character on walkable ground that the request presses into is
    /// held by that ground anyway, so then only the request's part along the ground (its most
    /// level piece: a rounded corner ahead reads as a slope) counts:
    /// walking slowly under stronger gravity over a seam between level tiles, the next tile's
    /// top face is taken, not the side face hidden under the seam (which resists the walk less
    /// than the top resists gravity, and stopped the character as a wall).
    fn surfaces_at(&self, mover: &Mover, xf: &Transform, delta: Vec2, out: &mut Vec<Surface>) {
        let reach = mover.plane_reach();
        let first = out.len();
        // Measured first as if on level ground when the request goes down (a walk under
        // gravity), and again only when the ground turns out to be missing or sloped.
        let level = delta - mover.up * delta.dot(mover.up);
        let guess = if delta.dot(mover.up) < 0.0 {
            level
        } else {
            delta
        };
        let prefer = |motion: Vec2| Preference {
            motion,
            up: mover.up,
        };
        let motions = (delta, prefer(guess));
        self.surfaces_near(mover.shape, xf, reach, motions, &mover.filter, out);
        let ground = out[first..]
            .iter()
            .filter(|s| mover.is_walkable(s.normal) && s.separation <= reach)
            .map(|s| s.normal)
            .filter(|normal| normal.dot(delta) < 0.0)
            .max_by(|a, b| a.dot(mover.up).total_cmp(&b.dot(mover.up)));
        let axis_motion = ground.map_or(delta, |normal| delta - normal * normal.dot(delta));
        if axis_motion != guess {
            out.truncate(first);
            let motions = (delta, prefer(axis_motion));
            self.surfaces_near(mover.shape, xf, reach, motions, &mover.filter, out);
        }
    }

    /// Step-up: lift by up to `height` (and the skin kept above the ledge), move by `forward`
    /// (at least twice the skin, so a slow walk stopped a skin short of a ledge gets over it),
    /// and come down onto walkable floor higher than where the character was. A character that
    /// comes down on the ledge's edge (a rounded bottom meets it on its side) is carried on
    /// until the middle of its base is a skin past the edge (at most half its width further),
    /// so it stands on the ledge instead of balancing on its rim and sliding back off. The
    /// landing must be on walkable floor and the ledge (measured from the floor the character
    /// stood on to the floor it lands on) at most `height` high. The landing place and the
    /// height gained, or `None`.
    fn step_up(
        &self,
        mover: &Mover,
        xf: &Transform,
        forward: Vec2,
        height: f32,
    ) -> Result<Option<(Vec2, f32)>, WorldError> {
        let Some(direction) = crate::math::try_unit(forward) else {
            return Ok(None);
        };
        let forward = direction * forward.length().max(2.0 * mover.skin);
        let cast_options = mover.cast_options(0.5 * mover.skin);
        // How far above the floor it stood on the character starts (the skin, give or take);
        // a character with no walkable floor under it within the step height does not step.
        let probe = height + 2.0 * mover.skin;
        let Some(start_gap) = self
            .shape_cast(
                mover.shape,
                xf,
                -mover.up * probe,
                &mover.filter,
                mover.cast_options(0.0),
            )?
            .filter(|h| mover.is_walkable(-h.normal))
            .map(|h| h.fraction * probe)
        else {
            return Ok(None);
        };
        let clearance = height + mover.skin;
        let lift = mover.up * clearance;
        let lifted = self
            .shape_cast(mover.shape, xf, lift, &mover.filter, cast_options)?
            .map_or(1.0, |h| h.fraction);
        let raised = Transform {
            p: xf.p + lift * lifted,
            q: xf.q,
        };
        let ahead = self
            .shape_cast(mover.shape, &raised, forward, &mover.filter, cast_options)?
            .map_or(1.0, |h| h.fraction);
        if forward.length() * ahead <= mover.skin {
            return Ok(None);
        }
        let mut over = Transform {
            p: raised.p + forward * ahead,
            q: xf.q,
        };
        let drop = -mover.up * (clearance * lifted + 2.0 * mover.skin);
        let come_down = |over: &Transform| {
            self.shape_cast(
                mover.shape,
                over,
                drop,
                &mover.filter,
                mover.cast_options(mover.skin),
            )
        };
        let Some(mut landing) = come_down(&over)? else {
            return Ok(None);
        };
        let walkable = mover.is_walkable(-landing.normal);
        // How far the surface it came down on leans back against the walk: a rounded bottom
        // on the ledge's rim, which it would slide back off.
        let lean = landing.normal.dot(direction);
        let round = rounding_of(mover.shape);
        if !walkable || (round > 0.0 && lean > 1.0e-3) {
            // On the ledge's edge: on until the centre of the rounding it meets the edge with
            // is over the ledge (it stands there, not on a slope it would slide back down),
            // else until the middle of its base is; a skin further either way.
            let aabb = mover.shape.aabb(&over);
            let middle = 0.5 * (aabb.min + aabb.max);
            let half_width = half_extent_along(mover.shape, &over, direction);
            let to_middle = (landing.point - middle).dot(direction) + mover.skin;
            let on_rounding = round * lean + mover.skin;
            let mut landed_on = None;
            for past in [on_rounding, to_middle] {
                if past <= 0.0 || past > half_width + mover.skin {
                    continue;
                }
                let further = direction * past;
                let free = self
                    .shape_cast(mover.shape, &over, further, &mover.filter, cast_options)?
                    .map_or(1.0, |h| h.fraction);
                if free < 1.0 {
                    break;
                }
                let beyond = Transform {
                    p: over.p + further,
                    q: over.q,
                };
                if let Some(again) = come_down(&beyond)? {
                    if mover.is_walkable(-again.normal) {
                        landed_on = Some((beyond, again));
                        break;
                    }
                }
            }
            // Not over the ledge: its height is not known (the rim is lower than the top).
            let Some((beyond, again)) = landed_on else {
                return Ok(None);
            };
            over = beyond;
            landing = again;
        }
        let landed = over.p + drop * landing.fraction;
        let at = Transform { p: landed, q: xf.q };
        if self.floor_under(mover, &at, 2.0 * mover.skin)?.is_none() {
            return Ok(None);
        }
        let rise = (landed - xf.p).dot(mover.up);
        // The ledge: from the floor it stood on (`start_gap` below it) to the one it lands on
        // (a skin below it).
        let ledge = rise + start_gap - mover.skin;
        let tolerance = mover.tolerance;
        let rounding = 4.0 * f32::EPSILON * xf.p.abs().max_element();
        Ok((rise > tolerance && ledge <= height + tolerance + rounding).then_some((landed, rise)))
    }

    /// Snapping down off a ledge's rim: the cast straight down by `drop` (along `-up`) from
    /// `xf` stopped on `rim`, a surface too steep to stand on (a rounded bottom meets the
    /// corner of the ledge it walked off on its side). The character slides down along that
    /// surface, away from it, and on down whenever the slide is free, until it comes to
    /// walkable floor (a skin above it), each part cast so it never passes into anything.
    ///
    /// The limits: it sinks at most `drop`'s length in all; it moves across `up` at most half
    /// its width, and never against the walk `along` (the request's part across `up`); the
    /// floor it lands on is at most `snap_distance` below the point it met the rim at (the
    /// ledge, measured from its top). What it met when it slid into another steep surface is
    /// slid off in turn (a few times at most). The offset from `xf` to where it lands, and the
    /// floor's hit; `None` when no walkable floor is reached within the limits (the character
    /// stays where the walk put it).
    fn slide_off_rim(
        &self,
        mover: &Mover,
        xf: &Transform,
        drop: Vec2,
        rim: WorldCastHit,
        (snap_distance, along): (f32, Vec2),
    ) -> Result<Option<(Vec2, WorldCastHit)>, WorldError> {
        let up = mover.up;
        let depth = drop.length();
        let across_up = Vec2::new(up.y, -up.x);
        let half_width = half_extent_along(mover.shape, xf, across_up);
        let mut offset = drop * rim.fraction;
        let (mut sunk, mut across_made) = (depth * rim.fraction, 0.0f32);
        // The surface slid along, or `None` to go straight down.
        let mut along_surface = Some(-rim.normal);
        for _ in 0..4 {
            let room = depth - sunk;
            if room <= mover.tolerance {
                return Ok(None);
            }
            let motion = match along_surface {
                Some(normal) => {
                    // The surface's downhill direction: `-up` less its part along the normal.
                    let Some(downhill) = crate::math::try_unit(normal * normal.dot(up) - up) else {
                        return Ok(None);
                    };
                    let sink = -downhill.dot(up);
                    let across = downhill - up * downhill.dot(up);
                    let across_length = crate::math::robust_length(across);
                    if sink <= 1.0e-6 || (across.dot(along) < 0.0 && across_length > 1.0e-6) {
                        return Ok(None);
                    }
                    let mut length = room / sink;
                    if across_length * length > half_width - across_made {
                        length = (half_width - across_made) / across_length;
                    }
                    if length <= mover.tolerance {
                        return Ok(None);
                    }
                    downhill * length
                }
                None => -up * room,
            };
            let at = Transform {
                p: xf.p + offset,
                q: xf.q,
            };
            let hit = self.shape_cast(
                mover.shape,
                &at,
                motion,
                &mover.filter,
                mover.cast_options(mover.skin),
            )?;
            let fraction = hit.map_or(1.0, |h| h.fraction);
            let made = motion * fraction;
            offset += made;
            sunk += -made.dot(up);
            across_made += crate::math::robust_length(made - up * made.dot(up));
            let Some(hit) = hit else {
                if along_surface.is_none() {
                    return Ok(None);
                }
                along_surface = None;
                continue;
            };
            if mover.is_walkable(-hit.normal) {
                let ledge = (rim.point - hit.point).dot(up);
                let rounding = 4.0 * f32::EPSILON * xf.p.abs().max_element();
                let highest = snap_distance + mover.skin + rounding;
                return Ok((ledge <= highest).then_some((offset, hit)));
            }
            let normal = -hit.normal;
            if normal.dot(up) < 0.0 {
                // Something overhanging: not a rim to slide off.
                return Ok(None);
            }
            along_surface = Some(normal);
        }
        Ok(None)
    }

    /// What the character meets first moving down (along `-up`) by `depth`, to touching.
    fn probe_floor(
        &self,
        mover: &Mover,
        xf: &Transform,
        depth: f32,
    ) -> Result<Option<WorldCastHit>, WorldError> {
        self.shape_cast(
            mover.shape,
            xf,
            -mover.up * depth,
            &mover.filter,
            mover.cast_options(0.0),
        )
    }

    /// The walkable surface under the character within `depth`: its collider and normal.
    fn floor_under(
        &self,
        mover: &Mover,
        xf: &Transform,
        depth: f32,
    ) -> Result<Option<(ColliderHandle, Vec2)>, WorldError> {
        let hit = self.probe_floor(mover, xf, depth)?;
        Ok(hit
            .filter(|h| mover.is_walkable(-h.normal))
            .map(|h| (h.collider, -h.normal)))
    }
}

/// Half the extent of `shape` at `xf` along the unit `direction`: half the distance between
/// its furthest points either way (its support points, rounding included). Its bounding box
/// read along a direction measures more for a shape turned against the axes: a capsule in a
/// world turned 45° (`up` turned alike) is twice as wide across `up` by its box as it is.
fn half_extent_along(shape: &Shape, xf: &Transform, direction: Vec2) -> f32 {
    let (low, high) = extent_along(shape, xf.rotate_inv(direction));
    0.5 * (high - low)
}

/// The least and largest of `p · direction` over the points `p` of `shape` in its own frame.
fn extent_along(shape: &Shape, direction: Vec2) -> (f32, f32) {
    let (core, radius): (&[Vec2], f32) = match shape {
        Shape::Circle(circle) => (std::slice::from_ref(circle.center_ref()), circle.radius()),
        Shape::Capsule(capsule) => (capsule.ends(), capsule.radius()),
        Shape::Polygon(polygon) => (polygon.vertices(), polygon.radius()),
        Shape::Segment(segment) => (segment.ends(), 0.0),
        Shape::Chain(chain) => (chain.vertices(), 0.0),
        Shape::Compound(compound) => {
            return compound.children().iter().fold(
                (f32::INFINITY, f32::NEG_INFINITY),
                |(low, high), (child_xf, child)| {
                    let (child_low, child_high) =
                        extent_along(child, child_xf.rotate_inv(direction));
                    let offset = child_xf.p.dot(direction);
                    (low.min(child_low + offset), high.max(child_high + offset))
                },
            );
        }
    };
    let (low, high) = core
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(low, high), p| {
            let along = p.dot(direction);
            (low.min(along), high.max(along))
        });
    (low - radius, high + radius)
}

/// Where to put the character that a move took from `origin` towards `wanted` (exact), which
/// the `f32` position `placed` rounds: `placed` itself when it keeps to every plane to within
/// `least` (the solve's own slack), else the representable position nearest `wanted` that
/// keeps to every plane, up to `rounding` (two spacings of its coordinates) around `placed`
/// (`placed` when none does, or when it goes against a plane by more than `rounding`: not a
/// matter of rounding). Only the last round's end is placed so: it ends the call, and a
/// round cast again from a position moved here would not end where it began.
///
/// Far from the origin a position rounds by up to half the spacing of each coordinate, and a
/// character walking along a surface it keeps a gap to (a plane of offset 0: a surface inside
/// the skin, approached no closer) in a frame turned against the axes rounds the same way call
/// after call: it sank into the skin a few hundredths of a spacing a call until the recovery
/// pushed it back out to the skin all at once (a 2.6-unit box 2.4e4 out, walking along a
/// floor turned 2.4 rad, lifted 0.019 in one call; a 6.9-unit polygon falling along a wall
/// 5.7e4 out moved 0.05 off it).
fn placed_on_planes(
    origin: Vec2,
    placed: Vec2,
    wanted: glam::DVec2,
    planes: &[Plane],
    (least, rounding): (f32, f32),
) -> Vec2 {
    let from = origin.as_dvec2();
    let against = |at: Vec2| {
        let made = at.as_dvec2() - from;
        planes
            .iter()
            .map(|plane| f64::from(plane.offset) - plane.normal.as_dvec2().dot(made))
            .fold(f64::NEG_INFINITY, f64::max)
    };
    let most = against(placed);
    if !(most > f64::from(least) && most <= f64::from(rounding)) {
        return placed;
    }
    // Whole spacings of each coordinate, up to `rounding` (at most 16 of them) either way.
    let (across_x, across_y) = (f32_spacing(placed.x), f32_spacing(placed.y));
    let reach = |spacing: f32| ((rounding / spacing).ceil() as i32).clamp(1, 16);
    let (reach_x, reach_y) = (reach(across_x), reach(across_y));
    let mut best = placed;
    let mut best_distance = f64::INFINITY;
    for i in -reach_x..=reach_x {
        for j in -reach_y..=reach_y {
            let at = Vec2::new(
                placed.x + i as f32 * across_x,
                placed.y + j as f32 * across_y,
            );
            if !at.is_finite()
                || at.abs().max_element() > crate::shape::MAX_COORDINATE
                || against(at) > 0.0
            {
                continue;
            }
            let distance = at.as_dvec2().distance_squared(wanted);
            if distance < best_distance {
                best = at;
                best_distance = distance;
            }
        }
    }
    best
}

/// The radius `shape` is rounded by (0 for a sharp one).
fn rounding_of(shape: &Shape) -> f32 {
    match shape {
        Shape::Circle(circle) => circle.radius(),
        Shape::Capsule(capsule) => capsule.radius(),
        Shape::Polygon(polygon) => polygon.radius(),
        _ => 0.0,
    }
}

/// The separation a cast stops at: the skin, or just below the smallest gap the character
/// already has (it rests a little inside the skin on one tile; the next tile, level with it or
/// a little higher, is then not a hit), never below a quarter of the skin.
///
/// Below it by twice the cast's tolerance, or far from the origin twice the spacing of the
/// character's coordinates where that is more (up to a twentieth of the skin): there a gap is
/// known to a spacing or so only, and a cast sliding along a ceiling (or a floor) it started a
/// hair inside the skin of stopped part way, where its own reading of the unchanged gap
/// rounded below the target (a 26-unit capsule 1.5e4 from the origin slid 2.58 of 3.09 along
/// a ceiling).
fn cast_target(surfaces: &[Surface], mover: &Mover) -> f32 {
    let (skin, tolerance) = (mover.skin, mover.tolerance);
    let smallest = surfaces
        .iter()
        .map(|s| s.separation)
        .fold(f32::INFINITY, f32::min);
    let known = tolerance.max(mover.spacing.min(0.05 * skin));
    (smallest - 2.0 * known).clamp(0.25 * skin, skin)
}

/// The normals a surface of normal `normal` holds the character along, each with the factor
/// its offset is divided by. Its own normal always (the character never moves into it); a
/// surface facing up but too steep to walk also holds it sideways, as a wall (pushing into it
/// slides along it sideways or down, never up: without the wall it would climb it, without its
/// own normal a walk past it would press into it a sliver a round instead of sliding down it).
///
/// The wall holds a character in the air too: walking into a too-steep slope (or a crease of
/// two) while falling, the walk's part into the slope would otherwise carry it up the slope
/// whenever the walk is more than the fall times the slope's tangent, out of any crease
/// narrower than it. Held, it gains no more height than the request's own upward part (a jump
/// along the slope rises by the jump, and only that).
fn held_normals(up: Vec2, normal: Vec2, mover: &Mover) -> impl Iterator<Item = (Vec2, f32)> {
    let facing = normal.dot(up);
    let wall = if facing > 0.0 && !mover.is_walkable(normal) {
        let across = normal - up * facing;
        crate::math::try_unit(across).map(|unit| (unit, crate::math::robust_length(across)))
    } else {
        None
    };
    wall.into_iter().chain(std::iter::once((normal, 1.0)))
}

/// Turns surfaces measured with the character displaced by `made` into planes on the total
/// displacement: approach to the skin, no closer, along every normal the surface holds the
/// character along ([`held_normals`]).
fn add_planes(planes: &mut Vec<Plane>, surfaces: &[Surface], made: Vec2, mover: &Mover) {
    for surface in surfaces {
        // A gap beyond the skin by no more than the casts' tolerance is the skin: closing it
        // moved a character at rest a spacing or a sliver every call, and the next call
        // measured much the same gap again (a 2.2-unit polygon on a floor turned
        // 1.8 rad, 1.5e-7 beyond its skin, crept 1.2e-7 a call for as long as it stood there;
        // a 0.09-unit capsule stopping on a slope moved 6e-8, then 3e-8, ...).
        let room = surface.separation - mover.skin;
        let room = if room <= mover.settled() { 0.0 } else { room };
        let offset = surface.normal.dot(made) - room;
        for (normal, scale) in held_normals(mover.up, surface.normal, mover) {
            add_plane(
                planes,
                Plane {
                    normal,
                    offset: (offset / scale).min(0.0),
                    collider: surface.collider,
                    point: surface.point,
                    separation: surface.separation,
                },
            );
        }
    }
}

/// Adds `plane`, or raises the offset of the same collider's plane along the same normal.
fn add_plane(planes: &mut Vec<Plane>, plane: Plane) {
    if let Some(same) = planes
        .iter_mut()
        .find(|p| p.normal.dot(plane.normal) > 1.0 - 1.0e-7 && p.collider == plane.collider)
    {
        if plane.offset > same.offset {
            same.offset = plane.offset;
        }
        return;
    }
    planes.push(plane);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Capsule, Circle, Compound, Polygon};

    #[test]
    fn half_extents_are_the_shapes_own_in_a_turned_frame() {
        // A capsule 1 tall, radius 0.3, turned 45°: 0.3 across its axis, 0.5 along it.
        let capsule = Shape::from(Capsule::vertical(1.0, 0.3).unwrap());
        let turn = std::f32::consts::FRAC_PI_4;
        let xf = Transform::new(Vec2::new(1.0e4, -3.0), turn);
        let across = xf.rotate(Vec2::X);
        let along = xf.rotate(Vec2::Y);
        assert!((half_extent_along(&capsule, &xf, across) - 0.3).abs() < 1.0e-5);
        assert!((half_extent_along(&capsule, &xf, along) - 0.5).abs() < 1.0e-5);
        // The bounding box read along the same direction is about twice as wide.
        let aabb = capsule.aabb(&xf);
        let boxed = 0.5 * (aabb.max - aabb.min).dot(across.abs());
        assert!(boxed > 1.9 * 0.3, "{boxed}");
        // A rounded box, a circle and a compound of two boxes side by side.
        let rounded = Shape::from(Polygon::rounded_rect(0.8, 1.0, 0.2).unwrap());
        assert!((half_extent_along(&rounded, &xf, across) - 0.4).abs() < 1.0e-5);
        let circle = Shape::from(Circle::with_radius(0.5).unwrap());
        assert!((half_extent_along(&circle, &xf, across) - 0.5).abs() < 1.0e-5);
        let child = Shape::from(Polygon::rect(1.0, 1.0).unwrap());
        let pair = Shape::from(
            Compound::new(vec![
                (Transform::new(Vec2::new(-0.5, 0.0), 0.0), child.clone()),
                (Transform::new(Vec2::new(0.5, 0.0), 0.0), child),
            ])
            .unwrap(),
        );
        assert!((half_extent_along(&pair, &xf, across) - 1.0).abs() < 1.0e-5);
        assert!((half_extent_along(&pair, &xf, along) - 0.5).abs() < 1.0e-5);
    }
}
