//! What every sample provides, and the input the testbed hands it each frame.

use collide2d::debug::DebugDraw;
use collide2d::Vec2;

/// The groups of the sample list, in display order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// Stateless pair queries: manifolds, containment.
    Shapes,
    /// Rays and moving shapes.
    Casts,
    /// Spatial indexes.
    BroadPhase,
    /// The collision world: layers, events, characters.
    World,
}

impl Category {
    /// Every category, in display order.
    pub const ALL: [Category; 4] = [
        Category::Shapes,
        Category::Casts,
        Category::BroadPhase,
        Category::World,
    ];

    /// The heading shown in the sample list.
    pub fn title(self) -> &'static str {
        match self {
            Category::Shapes => "Shapes",
            Category::Casts => "Casts",
            Category::BroadPhase => "Broad phase",
            Category::World => "World",
        }
    }
}

/// Keys a sample may react to this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Keys {
    /// Left arrow or A held.
    pub left: bool,
    /// Right arrow or D held.
    pub right: bool,
    /// Up arrow, W or space pressed this frame.
    pub jump: bool,
    /// Down arrow or S held.
    pub down: bool,
}

/// The mouse and keyboard as a sample sees them, in world units.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Input {
    /// The mouse position in the world, when it is over the canvas.
    pub mouse: Option<Vec2>,
    /// The primary button went down this frame.
    pub pressed: bool,
    /// The primary button is held.
    pub held: bool,
    /// The primary button went up this frame.
    pub released: bool,
    /// Rotation asked for this frame, in radians counter-clockwise (Q/E keys, or the wheel
    /// while dragging).
    pub rotate: f32,
    /// How far from a thin shape (a segment, a chain) the mouse still picks it, in world units.
    pub pick_radius: f32,
    /// Movement keys.
    pub keys: Keys,
}

/// Where the camera starts for a sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// The world point at the centre of the canvas.
    pub center: Vec2,
    /// World units shown left and right of the centre (at least).
    pub half_width: f32,
    /// World units shown above and below the centre (at least).
    pub half_height: f32,
}

/// One page of the testbed. Samples are deterministic: the same inputs and the same number of
/// steps give the same picture, so screenshots can be compared by eye between versions.
pub trait Sample {
    /// The name in the list and on the command line (`--screenshot <name>`); unique.
    fn name(&self) -> &'static str;
    /// The group in the list.
    fn category(&self) -> Category;
    /// One line on what the sample shows and how to use it.
    fn help(&self) -> &'static str;
    /// The initial camera.
    fn view(&self) -> View;
    /// Controls for the side panel.
    fn ui(&mut self, ui: &mut egui::Ui);
    /// Reacts to the mouse and keys (called every frame the canvas is shown).
    fn input(&mut self, input: &Input) {
        let _ = input;
    }
    /// Advances one fixed time step (1/60 s) when the sample animates.
    fn step(&mut self) {}
    /// Draws the current state in world coordinates.
    fn draw(&mut self, draw: &mut dyn DebugDraw);
    /// Whether the sample changes on its own, so the window must keep repainting.
    fn is_animating(&self) -> bool {
        false
    }
}
