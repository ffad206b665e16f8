//! The window: the sample list and controls on the left, the canvas on the right, and the
//! screenshot run that visits samples in turn and saves each as a PNG.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use collide2d::Vec2;
use egui::{Color32, Key, PointerButton, Sense};

use crate::camera::Camera;
use crate::painter::EguiDraw;
use crate::sample::{Category, Input, Keys, Sample};
use crate::samples::REGISTRY;
use crate::screenshot::Picture;

/// The fixed time step of animated samples, in seconds.
const STEP: f32 = 1.0 / 60.0;
/// Frames shown before a screenshot is taken, so layout and animations settle.
const SETTLE_FRAMES: u32 = 12;
/// Frames to wait for a requested screenshot before giving up on it.
const SCREENSHOT_TIMEOUT_FRAMES: u32 = 240;
/// Width of the side panel, in points.
const PANEL_WIDTH: f32 = 330.0;
/// Background of the canvas.
const BACKGROUND: Color32 = Color32::from_rgb(22, 24, 30);
/// Turning speed of Q/E, radians per second.
const TURN_SPEED: f32 = 1.5;

/// What a screenshot run reports when the window closes.
#[derive(Clone, Debug, Default)]
pub struct ScreenshotReport {
    /// Files written.
    pub written: Vec<PathBuf>,
    /// What went wrong, one line each.
    pub failures: Vec<String>,
}

/// A screenshot received from the renderer, waiting to be saved.
type ScreenshotSlot = Arc<Mutex<Option<Arc<egui::ColorImage>>>>;

/// The state of a screenshot run.
struct ScreenshotRun {
    queue: VecDeque<usize>,
    out_dir: PathBuf,
    frames: u32,
    started: bool,
    slot: Option<ScreenshotSlot>,
    report: Arc<Mutex<ScreenshotReport>>,
}

/// The testbed application.
pub struct TestbedApp {
    samples: Vec<Box<dyn Sample>>,
    selected: usize,
    camera: Option<Camera>,
    accumulated: f32,
    screenshot: Option<ScreenshotRun>,
}

impl TestbedApp {
    /// The interactive testbed, starting on the sample at `selected`.
    pub fn new(selected: usize) -> TestbedApp {
        let samples: Vec<Box<dyn Sample>> = REGISTRY.iter().map(|make| make()).collect();
        TestbedApp {
            selected: selected.min(samples.len().saturating_sub(1)),
            samples,
            camera: None,
            accumulated: 0.0,
            screenshot: None,
        }
    }

    /// A run that shows each sample of `queue` (registry indices) in turn, saves
    /// `<out_dir>/<name>.png` and closes the window, filling `report`.
    pub fn screenshots(
        queue: Vec<usize>,
        out_dir: PathBuf,
        report: Arc<Mutex<ScreenshotReport>>,
    ) -> TestbedApp {
        let mut app = TestbedApp::new(queue.first().copied().unwrap_or(0));
        app.screenshot = Some(ScreenshotRun {
            queue: queue.into(),
            out_dir,
            frames: 0,
            started: false,
            slot: None,
            report,
        });
        app
    }

    fn select(&mut self, index: usize) {
        self.selected = index;
        self.camera = None;
        self.accumulated = 0.0;
    }

    fn reset_sample(&mut self) {
        self.samples[self.selected] = REGISTRY[self.selected]();
        self.camera = None;
    }

    /// Advances the screenshot run by one frame.
    fn drive_screenshots(&mut self, ctx: &egui::Context) {
        let Some(mut run) = self.screenshot.take() else {
            return;
        };
        ctx.request_repaint();
        if !run.started {
            match run.queue.front() {
                Some(&index) => {
                    self.select(index);
                    self.samples[index] = REGISTRY[index]();
                    run.started = true;
                    run.frames = 0;
                    run.slot = None;
                }
                None => {
                    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                    self.screenshot = Some(run);
                    return;
                }
            }
        }
        run.frames += 1;
        if run.frames == SETTLE_FRAMES {
            let slot: ScreenshotSlot = Arc::default();
            let writer = Arc::clone(&slot);
            ctx.request_screenshot(move |image| {
                if let Ok(mut received) = writer.lock() {
                    *received = Some(image);
                }
            });
            run.slot = Some(slot);
        }
        let received = run
            .slot
            .as_ref()
            .and_then(|slot| slot.lock().ok().and_then(|mut image| image.take()));
        let name = self.samples[self.selected].name();
        if let Some(image) = received {
            let path = run.out_dir.join(format!("{name}.png"));
            let outcome = save_screenshot(&image, &path);
            if let Ok(mut report) = run.report.lock() {
                match outcome {
                    Ok(()) => report.written.push(path),
                    Err(message) => report.failures.push(message),
                }
            }
            run.queue.pop_front();
            run.started = false;
        } else if run.frames > SETTLE_FRAMES + SCREENSHOT_TIMEOUT_FRAMES {
            if let Ok(mut report) = run.report.lock() {
                report
                    .failures
                    .push(format!("{name}: the screenshot never arrived"));
            }
            run.queue.pop_front();
            run.started = false;
        }
        self.screenshot = Some(run);
    }

    fn side_panel(&mut self, ui: &mut egui::Ui) {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.heading("collide2d testbed");
            let mut chosen = None;
            for category in Category::ALL {
                ui.add_space(4.0);
                ui.strong(category.title());
                for (index, sample) in self.samples.iter().enumerate() {
                    if sample.category() == category
                        && ui
                            .selectable_label(index == self.selected, sample.name())
                            .clicked()
                    {
                        chosen = Some(index);
                    }
                }
            }
            if let Some(index) = chosen {
                self.select(index);
            }
            ui.separator();
            ui.horizontal(|ui| {
                if ui.button("reset sample").clicked() {
                    self.reset_sample();
                }
                if ui.button("reset view").clicked() {
                    self.camera = None;
                }
            });
            let sample = &mut self.samples[self.selected];
            ui.label(sample.help());
            ui.separator();
            sample.ui(ui);
            ui.separator();
            ui.small("right or middle drag pans, the wheel zooms; drag shapes with the left button, Q/E or the wheel while dragging turns them");
        });
    }

    fn canvas(&mut self, ui: &mut egui::Ui) {
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        let rect = response.rect;
        let canvas_center = Vec2::new(rect.center().x, rect.center().y);
        let sample = &mut self.samples[self.selected];
        let camera = self.camera.get_or_insert_with(|| {
            let view = sample.view();
            Camera::fitting(
                view.center,
                Vec2::new(view.half_width, view.half_height),
                Vec2::new(rect.width(), rect.height()),
            )
        });
        let screenshot_run = self.screenshot.is_some();
        let mut keep_repainting = false;
        if screenshot_run {
            // Fixed steps and no input: every run gives the same pictures.
            if sample.is_animating() {
                sample.step();
            }
        } else {
            if response.dragged_by(PointerButton::Secondary)
                || response.dragged_by(PointerButton::Middle)
            {
                let delta = response.drag_delta();
                camera.pan_by_pixels(Vec2::new(delta.x, delta.y));
            }
            // Read the response before locking the input state: it locks it too.
            let hover = response.hover_pos();
            let hovered = response.hovered();
            let (input, keys_held, scroll, dt) = ui.input(|i| {
                let held = i.pointer.primary_down();
                let mouse = if held { i.pointer.latest_pos() } else { hover };
                let turn_keys = f32::from(u8::from(i.key_down(Key::Q)))
                    - f32::from(u8::from(i.key_down(Key::E)));
                let keys = Keys {
                    left: i.key_down(Key::ArrowLeft) || i.key_down(Key::A),
                    right: i.key_down(Key::ArrowRight) || i.key_down(Key::D),
                    jump: i.key_pressed(Key::ArrowUp)
                        || i.key_pressed(Key::W)
                        || i.key_pressed(Key::Space),
                    down: i.key_down(Key::ArrowDown) || i.key_down(Key::S),
                };
                let input = Input {
                    mouse: mouse
                        .map(|p| camera.screen_to_world(Vec2::new(p.x, p.y), canvas_center)),
                    pressed: hovered && i.pointer.primary_pressed(),
                    held,
                    released: i.pointer.primary_released(),
                    rotate: turn_keys * TURN_SPEED * i.stable_dt.min(0.1),
                    pick_radius: camera.pixels_to_world(6.0),
                    keys,
                };
                let keys_held = turn_keys != 0.0 || keys.left || keys.right || keys.down;
                let scroll = if hovered {
                    i.smooth_scroll_delta.y
                } else {
                    0.0
                };
                (input, keys_held, scroll, i.stable_dt.min(0.1))
            });
            let mut input = input;
            if scroll != 0.0 {
                if input.held && input.mouse.is_some() {
                    input.rotate += scroll * 0.004;
                } else if let Some(pointer) = hover {
                    let pointer = Vec2::new(pointer.x, pointer.y);
                    camera.zoom_about(pointer, canvas_center, (scroll * 0.002).exp());
                }
            }
            sample.input(&input);
            if sample.is_animating() {
                self.accumulated += dt;
                let mut steps = 0;
                while self.accumulated >= STEP && steps < 4 {
                    sample.step();
                    self.accumulated -= STEP;
                    steps += 1;
                }
                if steps == 4 {
                    self.accumulated = 0.0;
                }
                keep_repainting = true;
            } else {
                self.accumulated = 0.0;
            }
            keep_repainting |= keys_held;
        }
        painter.rect_filled(rect, 0.0, BACKGROUND);
        let mut draw = EguiDraw::new(&painter, *camera);
        sample.draw(&mut draw);
        painter.text(
            rect.left_top() + egui::vec2(10.0, 8.0),
            egui::Align2::LEFT_TOP,
            sample.name(),
            egui::FontId::proportional(18.0),
            Color32::from_gray(220),
        );
        if keep_repainting {
            // About 60 frames a second, not as fast as the renderer can go.
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs_f32(STEP));
        }
    }
}

/// Checks a screenshot is not blank and writes it.
fn save_screenshot(image: &egui::ColorImage, path: &std::path::Path) -> Result<(), String> {
    let [width, height] = image.size;
    let picture = Picture {
        width: width as u32,
        height: height as u32,
        rgb: image
            .pixels
            .iter()
            .flat_map(|p| [p.r(), p.g(), p.b()])
            .collect(),
    };
    if picture.is_blank() {
        return Err(format!(
            "{}: blank ({} colours)",
            path.display(),
            picture.distinct_colors()
        ));
    }
    picture.save_png(path)
}

impl eframe::App for TestbedApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.drive_screenshots(&ctx);
        egui::Panel::left("samples")
            .resizable(false)
            .exact_size(PANEL_WIDTH)
            .show(ui, |ui| self.side_panel(ui));
        egui::CentralPanel::no_frame().show(ui, |ui| self.canvas(ui));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recorder::Recorder;
    use egui::{Event, Modifiers, Pos2, RawInput, Rect};

    /// One frame of the canvas alone, on an 800 × 600 screen.
    fn frame(ctx: &egui::Context, app: &mut TestbedApp, events: Vec<Event>) {
        let input = RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, egui::vec2(800.0, 600.0))),
            events,
            ..RawInput::default()
        };
        let output = ctx.run_ui(input, |ui| {
            egui::CentralPanel::no_frame().show(ui, |ui| app.canvas(ui));
        });
        output.drop_without_applying_deltas();
    }

    /// Where the sample put the label `text`.
    fn label_position(app: &mut TestbedApp, text: &str) -> Vec2 {
        let mut recorder = Recorder::default();
        app.samples[app.selected].draw(&mut recorder);
        recorder
            .labels
            .iter()
            .find(|(_, t)| t == text)
            .map(|(p, _)| *p)
            .expect("the label is drawn")
    }

    #[test]
    fn dragging_on_the_canvas_moves_the_shape_under_the_mouse() {
        let ctx = egui::Context::default();
        let mut app = TestbedApp::new(0);
        assert_eq!(app.samples[0].name(), "shape-pair");
        frame(&ctx, &mut app, vec![]);
        let camera = app.camera.expect("the first frame places the camera");
        let canvas_center = Vec2::new(400.0, 300.0);
        let before = label_position(&mut app, "A");
        let grab = camera.world_to_screen(before, canvas_center);
        let from = Pos2::new(grab.x, grab.y);
        let to = from + egui::vec2(60.0, -30.0);
        let button = |pos, pressed| Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        };
        frame(&ctx, &mut app, vec![Event::PointerMoved(from)]);
        frame(&ctx, &mut app, vec![button(from, true)]);
        frame(
            &ctx,
            &mut app,
            vec![Event::PointerMoved(from.lerp(to, 0.5))],
        );
        frame(&ctx, &mut app, vec![Event::PointerMoved(to)]);
        frame(&ctx, &mut app, vec![button(to, false)]);
        let after = label_position(&mut app, "A");
        let expected = camera.screen_to_world(Vec2::new(to.x, to.y), canvas_center);
        assert!(
            after.distance(expected) < 1e-3,
            "A went from {before:?} to {after:?}, not {expected:?}"
        );
        assert_eq!(app.camera, Some(camera), "dragging a shape does not pan");
    }

    #[test]
    fn the_wheel_zooms_about_the_mouse() {
        let ctx = egui::Context::default();
        let mut app = TestbedApp::new(0);
        frame(&ctx, &mut app, vec![]);
        let before = app.camera.expect("placed");
        let mouse = Pos2::new(650.0, 120.0);
        frame(&ctx, &mut app, vec![Event::PointerMoved(mouse)]);
        for _ in 0..30 {
            frame(
                &ctx,
                &mut app,
                vec![Event::MouseWheel {
                    unit: egui::MouseWheelUnit::Point,
                    delta: egui::vec2(0.0, 20.0),
                    phase: egui::TouchPhase::Move,
                    source: egui::MouseWheelSource::Wheel,
                    modifiers: Modifiers::NONE,
                }],
            );
        }
        let after = app.camera.expect("placed");
        assert!(after.pixels_per_unit > before.pixels_per_unit);
        let canvas_center = Vec2::new(400.0, 300.0);
        let mouse = Vec2::new(mouse.x, mouse.y);
        let anchor_before = before.screen_to_world(mouse, canvas_center);
        let anchor_after = after.screen_to_world(mouse, canvas_center);
        assert!(anchor_before.distance(anchor_after) < 1e-3);
    }
}
