//! The board widget: a `gtk::Widget` drawn with Cairo in `snapshot`. It holds the
//! [`BoardModel`] view-model and only translates between GTK and it, split by concern as in
//! GNOME's image viewer: `input` (gestures), `rendering` (snapshot) and `animation`
//! (frame-clock ticks). The window sets what to show with [`CubefulBoard::set_display`] and
//! hears about the user's intentions through the `board-action` signal. How far the move in
//! progress has got is published as the properties `move-started` and `move-complete`, so the
//! window never looks into the view-model for it.

mod animation;
mod input;
mod rendering;

use std::cell::{Cell, RefCell};
use std::sync::OnceLock;

use cubeful_engine::{LegalMove, Position};
use gtk::glib;
use gtk::glib::subclass::Signal;
use gtk::prelude::*;
use gtk::subclass::prelude::*;
use serde_json::{json, Value};

use crate::board::{Action, BoardModel, Colours, Display, Geometry, Seat, Slot};

mod imp {
    use super::*;

    #[derive(Default, glib::Properties)]
    #[properties(wrapper_type = super::CubefulBoard)]
    pub struct CubefulBoard {
        /// A person is moving and has played at least one step (it can be taken back).
        #[property(get)]
        pub move_started: Cell<bool>,
        /// A person is moving and the steps played make a complete legal move.
        #[property(get)]
        pub move_complete: Cell<bool>,
        pub model: RefCell<BoardModel>,
        /// The running animation's tick callback, removed when idle.
        pub tick: RefCell<Option<gtk::TickCallbackId>>,
        /// Frame time (µs) of the previous tick.
        pub last_frame: Cell<Option<i64>>,
        /// Told when the running animation ends.
        pub animation_done: RefCell<Option<async_channel::Sender<()>>>,
        /// Where the current drag started, in widget coordinates.
        pub drag_start: Cell<(f64, f64)>,
        /// The size of the last allocation.
        pub allocated: Cell<(i32, i32)>,
        /// Every size the board had, in order (for tests: the board must not jump).
        pub sizes: RefCell<Vec<(i32, i32)>>,
        /// The bitmaps the board is painted from, for its current size, scale and colours.
        pub sprites: RefCell<Option<crate::board::sprites::Sprites>>,
    }

    #[glib::object_subclass]
    impl ObjectSubclass for CubefulBoard {
        const NAME: &'static str = "CubefulBoard";
        type Type = super::CubefulBoard;
        type ParentType = gtk::Widget;

        fn class_init(klass: &mut Self::Class) {
            klass.set_css_name("board");
            klass.set_accessible_role(gtk::AccessibleRole::Img);
        }
    }

    #[glib::derived_properties]
    impl ObjectImpl for CubefulBoard {
        fn constructed(&self) {
            self.parent_constructed();
            let obj = self.obj();
            obj.set_hexpand(true);
            obj.set_vexpand(true);
            self.setup_input();
        }

        fn signals() -> &'static [Signal] {
            static SIGNALS: OnceLock<Vec<Signal>> = OnceLock::new();
            SIGNALS.get_or_init(|| {
                vec![Signal::builder("board-action")
                    .param_types([glib::BoxedAnyObject::static_type()])
                    .build()]
            })
        }

        fn dispose(&self) {
            self.stop_animation();
        }
    }

    impl WidgetImpl for CubefulBoard {
        fn snapshot(&self, snapshot: &gtk::Snapshot) {
            self.render(snapshot);
        }

        fn size_allocate(&self, width: i32, height: i32, baseline: i32) {
            self.parent_size_allocate(width, height, baseline);
            if self.allocated.replace((width, height)) != (width, height) {
                self.sizes.borrow_mut().push((width, height));
                // Where things are on screen changed: listeners may want to know.
                self.emit(Action::Changed);
            }
        }

        fn measure(&self, orientation: gtk::Orientation, _for_size: i32) -> (i32, i32, i32, i32) {
            let (minimum, natural) = match orientation {
                gtk::Orientation::Horizontal => (346, 865),
                _ => (280, 700),
            };
            (minimum, natural, -1, -1)
        }
    }
}

glib::wrapper! {
    /// The backgammon board.
    pub struct CubefulBoard(ObjectSubclass<imp::CubefulBoard>)
        @extends gtk::Widget,
        @implements gtk::Buildable, gtk::ConstraintTarget;
}

impl Default for CubefulBoard {
    fn default() -> Self {
        glib::Object::new()
    }
}

impl CubefulBoard {
    /// A new, empty board.
    pub fn new() -> CubefulBoard {
        CubefulBoard::default()
    }

    /// Shows a new state of the match (a move in progress survives if the turn is the same).
    pub fn set_display(&self, display: Display) {
        self.imp().model.borrow_mut().set_display(display);
        self.queue_draw();
        self.imp().publish();
    }

    /// Edit mode: shows `draft` and turns clicks and drags into changes of it
    /// ([`Action::Edit`]); `None` shows the match again.
    pub fn set_edit(&self, draft: Option<crate::edit::Draft>) {
        self.imp().model.borrow_mut().set_edit(draft);
        self.queue_draw();
    }

    /// Changes the colours.
    pub fn set_colours(&self, colours: Colours) {
        self.imp().model.borrow_mut().set_colours(colours);
        self.queue_draw();
    }

    /// The layout at the widget's current size.
    pub fn geometry(&self) -> Geometry {
        Geometry::new(f64::from(self.width()), f64::from(self.height()))
    }

    /// Takes back the last step of the move in progress.
    pub fn undo(&self) {
        let action = self.imp().model.borrow_mut().undo();
        self.imp().emit(action);
    }

    /// Finishes the move in progress, as clicking the dice does.
    pub fn finish(&self) {
        let action = self.imp().model.borrow_mut().finish();
        self.imp().emit(action);
    }

    /// Shows `mv` (a legal play of the roll being played) as the move in progress.
    pub fn show_move(&self, mv: &LegalMove) {
        if self.imp().model.borrow_mut().show_move(mv) {
            self.imp().emit(Action::Changed);
        }
    }

    /// Shows `mv`, played from `start` (mover's view) by the player at `seat`, checker by
    /// checker. Resolves when the animation is over (at once for an empty move).
    pub async fn animate_move(&self, seat: Seat, start: Position, mv: LegalMove) {
        let imp = self.imp();
        imp.stop_animation();
        if !imp.model.borrow_mut().animate(seat, start, &mv) {
            return;
        }
        let (tx, rx) = async_channel::bounded(1);
        imp.animation_done.replace(Some(tx));
        imp.start_animation();
        let _ = rx.recv().await;
    }

    /// True while a move is being animated.
    pub fn is_animating(&self) -> bool {
        self.imp().model.borrow().is_animating()
    }

    /// Ends the running animation at once (its `animate_move` resolves).
    pub fn stop_animation(&self) {
        self.imp().stop_animation();
        self.queue_draw();
    }

    /// The seat and values of the dice shown.
    pub fn dice(&self) -> Option<(Seat, cubeful_engine::Dice)> {
        self.imp().model.borrow().display().dice
    }

    /// The sizes the board was given so far, oldest first, each listed when it changed.
    pub fn sizes(&self) -> Vec<(i32, i32)> {
        self.imp().sizes.borrow().clone()
    }

    /// For end-to-end tests (`--debug-state`): the move in progress, a legal next step and
    /// where to click, in the coordinates of the window's surface (`to_window` maps board
    /// coordinates there).
    pub fn debug_state(&self, to_window: impl Fn(f64, f64) -> Option<(f64, f64)>) -> Value {
        let geom = self.geometry();
        let model = self.imp().model.borrow();
        let mut step = Value::Null;
        if let (Some(seat), Some(assembly)) = (model.moving_seat(), model.assembly()) {
            // A legal next step: the first checker (from the back) with a target.
            let mut assembly = assembly.clone();
            'find: for from in (1..=25u8).rev() {
                if !assembly.has_checker(from) {
                    continue;
                }
                for (to, path) in assembly.targets(from) {
                    if path.len() != 1 {
                        continue;
                    }
                    let from_slot = Slot::from_mover(seat, from);
                    let to_slot = Slot::from_mover(seat, to);
                    let height = model.scene(&geom).count(from_slot, seat);
                    let (fx, fy) = geom.checker(from_slot, height.saturating_sub(1).min(4));
                    let (tx, ty) = match to_slot {
                        Slot::Point(p) => geom.point(p).centre(),
                        Slot::Tray(s) => geom.tray(s).centre(),
                        Slot::Bar(_) => continue,
                    };
                    step = json!({
                        "from": from, "to": to,
                        "from_xy": to_window(fx, fy), "to_xy": to_window(tx, ty),
                    });
                    break 'find;
                }
            }
        }
        let dice = model.display().dice;
        let dice_seat = dice.map(|(s, _)| s).unwrap_or(Seat::Bottom);
        let (dx, dy) = geom.dice(dice_seat)[0].centre();
        let (rx, ry) = geom.half(Seat::Bottom).centre();
        let partial: Vec<String> = model
            .assembly()
            .map(|a| {
                a.played()
                    .iter()
                    .map(|p| format!("{}/{}", p.step.from, p.step.to))
                    .collect()
            })
            .unwrap_or_default();
        let seat_name = |s: Seat| match s {
            Seat::Bottom => "bottom",
            Seat::Top => "top",
        };
        json!({
            "partial": partial,
            "can_finish": self.move_complete(),
            "step": step,
            "dice": dice.map(|(s, d)| json!({"seat": seat_name(s), "values": [d.first(), d.second()]})),
            "dice_xy": to_window(dx, dy),
            "roll_xy": to_window(rx, ry + geom.unit * 2.5),
            "sizes": self.sizes(),
        })
    }

    /// Calls `f` with every action the user asks for on the board.
    pub fn connect_board_action<F: Fn(&Self, &Action) + 'static>(
        &self,
        f: F,
    ) -> glib::SignalHandlerId {
        self.connect_closure(
            "board-action",
            false,
            glib::closure_local!(move |board: &CubefulBoard, boxed: glib::BoxedAnyObject| {
                f(board, &boxed.borrow::<Action>());
            }),
        )
    }
}

impl imp::CubefulBoard {
    /// Tells the window about `action` (and redraws for any change).
    pub(super) fn emit(&self, action: Action) {
        let obj = self.obj();
        obj.queue_draw();
        self.publish();
        if action != Action::Nothing {
            obj.emit_by_name::<()>("board-action", &[&glib::BoxedAnyObject::new(action)]);
        }
    }

    /// Updates the properties that tell how far the move in progress has got.
    pub(super) fn publish(&self) {
        let (started, complete) = {
            let model = self.model.borrow();
            let assembly = model.assembly();
            (
                assembly.is_some_and(|a| !a.played().is_empty()),
                assembly.is_some_and(|a| a.is_complete()),
            )
        };
        let obj = self.obj();
        if self.move_started.replace(started) != started {
            obj.notify_move_started();
        }
        if self.move_complete.replace(complete) != complete {
            obj.notify_move_complete();
        }
    }
}
