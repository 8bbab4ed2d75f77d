//! The board widget: a `gtk::Widget` drawn with Cairo in `snapshot`. It holds the
//! [`BoardModel`] view-model and only translates between GTK and it, split by concern as in
//! GNOME's image viewer: `input` (gestures), `rendering` (snapshot) and `animation`
//! (frame-clock ticks). The window sets what to show with [`CubefulBoard::set_display`] and
//! hears about the user's intentions through the `board-action` signal.

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

use crate::board::{Action, BoardModel, Colours, Display, Geometry, Seat};

mod imp {
    use super::*;

    #[derive(Default)]
    pub struct CubefulBoard {
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
    }

    /// Changes the colours.
    pub fn set_colours(&self, colours: Colours) {
        self.imp().model.borrow_mut().set_colours(colours);
        self.queue_draw();
    }

    /// The view-model (read only).
    pub fn model(&self) -> std::cell::Ref<'_, BoardModel> {
        self.imp().model.borrow()
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
        if action != Action::Nothing {
            obj.emit_by_name::<()>("board-action", &[&glib::BoxedAnyObject::new(action)]);
        }
    }
}
