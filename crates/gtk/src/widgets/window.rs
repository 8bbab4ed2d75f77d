//! The main window: header bar, the board (with a side pane beside it, hidden until a pane
//! fills it), a status line with the buttons of the moment, the actions and the dialogs.
//!
//! The match flow is not here: the window hands every input to the GTK-free [`Controller`]
//! (a click, a shortcut, a dialog's answer, a reply of the [`JobPool`], the end of an
//! animation, a timer) and carries out the [`Effect`]s it answers with; then it shows the
//! controller's view of the match. What it shows is published in a [`MatchModel`] (GObject
//! properties and a list model) that the status labels bind to, and that panes bind to.

use std::cell::{Cell, RefCell};
use std::path::PathBuf;

use adw::prelude::*;
use adw::subclass::prelude::*;
use cubeful_engine::{gnubg_id, match_id, position_id, LegalMove};
use gtk::{gio, glib};

use crate::board::{Action, AssemblyError, Button};
use crate::controller::{Controller, Effect, HintUpdate, MoveProgress, Preferences, State};
use crate::i18n::gettext;
use crate::jobs::{BearoffSource, JobPool};
use crate::match_model::{MatchModel, Published};
use crate::session::MatchSetup;
use crate::settings::Settings;
use crate::widgets::board::CubefulBoard;
use crate::widgets::dice_dialog::DiceDialog;
use crate::widgets::hint_window::HintWindow;
use crate::widgets::new_match_dialog::NewMatchDialog;
use crate::widgets::resign_dialog::ResignDialog;
use crate::widgets::result_dialog::ResultDialog;

/// Worker threads of the job pool: one for the bot and one for hints, and up to two more while
/// a cancelled search is still running.
const MIN_THREADS: usize = 2;
const MAX_THREADS: usize = 4;

mod imp {
    use super::*;

    #[derive(Debug, Default, gtk::CompositeTemplate, glib::Properties)]
    #[template(file = "window.ui")]
    #[properties(wrapper_type = super::CubefulWindow)]
    pub struct CubefulWindow {
        #[template_child]
        pub board: TemplateChild<CubefulBoard>,
        #[template_child]
        pub paned: TemplateChild<gtk::Paned>,
        #[template_child]
        pub side_pane: TemplateChild<adw::Bin>,
        #[template_child]
        pub window_title: TemplateChild<adw::WindowTitle>,
        #[template_child]
        pub spinner: TemplateChild<gtk::Spinner>,
        #[template_child]
        pub toasts: TemplateChild<adw::ToastOverlay>,
        #[template_child]
        pub status: TemplateChild<gtk::Label>,
        #[template_child]
        pub last_event: TemplateChild<gtk::Label>,
        #[template_child]
        pub roll_button: TemplateChild<gtk::Button>,
        #[template_child]
        pub double_button: TemplateChild<gtk::Button>,
        #[template_child]
        pub finish_button: TemplateChild<gtk::Button>,
        #[template_child]
        pub take_button: TemplateChild<gtk::Button>,
        #[template_child]
        pub drop_button: TemplateChild<gtk::Button>,
        #[template_child]
        pub beaver_button: TemplateChild<gtk::Button>,
        #[template_child]
        pub accept_button: TemplateChild<gtk::Button>,
        #[template_child]
        pub reject_button: TemplateChild<gtk::Button>,
        #[template_child]
        pub next_button: TemplateChild<gtk::Button>,

        /// The side pane beside the board is shown.
        #[property(get, set = Self::set_show_side_pane)]
        pub show_side_pane: Cell<bool>,
        /// What the window publishes about the match.
        pub model: MatchModel,

        pub controller: RefCell<Controller>,
        pub pool: RefCell<Option<JobPool>>,
        pub hint_window: RefCell<Option<HintWindow>>,
        /// Where to write the state for tests (`--debug-state`).
        pub debug_state: RefCell<Option<PathBuf>>,
        /// Dice seed for tests (`--seed`).
        pub seed: Cell<Option<u64>>,
    }

    impl CubefulWindow {
        fn set_show_side_pane(&self, show: bool) {
            self.show_side_pane.set(show);
            self.side_pane
                .set_visible(show && self.side_pane.child().is_some());
        }
    }

    #[glib::object_subclass]
    impl ObjectSubclass for CubefulWindow {
        const NAME: &'static str = "CubefulWindow";
        type Type = super::CubefulWindow;
        type ParentType = adw::ApplicationWindow;

        fn class_init(klass: &mut Self::Class) {
            CubefulBoard::ensure_type();
            klass.bind_template();
            klass.install_action("win.new-match", None, |w, _, _| w.show_new_match());
            klass.install_action("win.roll", None, |w, _, _| w.control(Controller::roll));
            klass.install_action("win.finish-move", None, |w, _, _| w.imp().board.finish());
            klass.install_action("win.undo", None, |w, _, _| w.imp().board.undo());
            klass.install_action("win.double", None, |w, _, _| w.control(Controller::double));
            klass.install_action("win.take", None, |w, _, _| w.control(Controller::take));
            klass.install_action("win.drop", None, |w, _, _| {
                w.control(Controller::drop_double)
            });
            klass.install_action("win.beaver", None, |w, _, _| w.control(Controller::beaver));
            klass.install_action("win.resign", None, |w, _, _| w.show_resign());
            klass.install_action("win.hint", None, |w, _, _| w.show_hint());
            klass.install_property_action("win.show-side-pane", "show-side-pane");
        }

        fn instance_init(obj: &glib::subclass::InitializingObject<Self>) {
            obj.init_template();
        }
    }

    #[glib::derived_properties]
    impl ObjectImpl for CubefulWindow {
        fn constructed(&self) {
            self.parent_constructed();
            let obj = self.obj();
            self.board.connect_board_action(glib::clone!(
                #[weak]
                obj,
                move |_, action| obj.on_board_action(action)
            ));
            // The move in progress changes the status line and Finish/Undo.
            for property in ["move-started", "move-complete"] {
                self.board.connect_notify_local(
                    Some(property),
                    glib::clone!(
                        #[weak]
                        obj,
                        move |_, _| obj.publish()
                    ),
                );
            }
            obj.bind_labels();
            obj.start_engine();
            obj.render();
        }
    }

    impl WidgetImpl for CubefulWindow {}
    impl WindowImpl for CubefulWindow {
        fn close_request(&self) -> glib::Propagation {
            self.obj().save_window_size();
            // Dropping the pool cancels the queued jobs: the workers stop after the job they
            // are on, and nobody waits for them.
            self.pool.replace(None);
            if let Some(hint) = self.hint_window.take() {
                hint.destroy();
            }
            self.parent_close_request()
        }
    }
    impl ApplicationWindowImpl for CubefulWindow {}
    impl AdwApplicationWindowImpl for CubefulWindow {}
}

glib::wrapper! {
    /// The main window.
    pub struct CubefulWindow(ObjectSubclass<imp::CubefulWindow>)
        @extends adw::ApplicationWindow, gtk::ApplicationWindow, gtk::Window, gtk::Widget,
        @implements gio::ActionGroup, gio::ActionMap, gtk::Buildable,
                    gtk::ConstraintTarget, gtk::Native, gtk::Root, gtk::ShortcutManager;
}

impl CubefulWindow {
    /// A new window for `app`.
    pub fn new(app: &crate::application::CubefulApplication) -> CubefulWindow {
        let window: CubefulWindow = glib::Object::builder().property("application", app).build();
        let settings = app.settings();
        window.set_default_size(settings.window.width, settings.window.height);
        if settings.window.maximized {
            window.maximize();
        }
        window.imp().board.set_colours(settings.colours.colours());
        window.control(|c| c.set_preferences(Preferences::from(&settings)));
        window
    }

    fn app(&self) -> Option<crate::application::CubefulApplication> {
        self.application().and_downcast()
    }

    fn settings(&self) -> Settings {
        self.app().map(|a| a.settings()).unwrap_or_default()
    }

    /// Sets the options of the command line.
    pub fn set_test_options(&self, debug_state: Option<PathBuf>, seed: Option<u64>) {
        self.imp().debug_state.replace(debug_state);
        self.imp().seed.set(seed);
        self.render();
    }

    /// Applies changed settings (colours, level, the flow's preferences).
    pub fn apply_settings(&self, settings: &Settings) {
        let imp = self.imp();
        imp.board.set_colours(settings.colours.colours());
        imp.controller.borrow_mut().set_bot_level(settings.level());
        self.control(|c| c.set_preferences(Preferences::from(settings)));
    }

    /// Shows a short message over the board.
    pub fn toast(&self, text: &str) {
        let toast = adw::Toast::new(text);
        toast.set_timeout(6);
        self.imp().toasts.add_toast(toast);
    }

    /// Puts `child` in the side pane beside the board (`None` empties it and hides the pane).
    /// The pane is shown while the `show-side-pane` property is true.
    pub fn set_side_pane(&self, child: Option<&gtk::Widget>) {
        let imp = self.imp();
        imp.side_pane.set_child(child);
        imp.side_pane
            .set_visible(child.is_some() && imp.show_side_pane.get());
    }

    /// The divider between the board and the side pane.
    pub fn paned(&self) -> gtk::Paned {
        self.imp().paned.get()
    }

    /// What the window publishes about the match (for panes to bind to).
    pub fn model(&self) -> MatchModel {
        self.imp().model.clone()
    }

    fn start_engine(&self) {
        let bearoff = directories::ProjectDirs::from("org", "Cubeful", "cubeful")
            .map(|d| BearoffSource::Folder(d.cache_dir().join("bearoff")))
            .unwrap_or(BearoffSource::Generate);
        let (pool, replies) = JobPool::start(bearoff, MIN_THREADS, MAX_THREADS);
        self.imp().pool.replace(Some(pool));
        glib::spawn_future_local(glib::clone!(
            #[weak(rename_to = window)]
            self,
            async move {
                while let Ok(reply) = replies.recv().await {
                    window.control(|c| c.reply(reply));
                }
            }
        ));
    }

    /// The status labels and the title follow the published state.
    fn bind_labels(&self) {
        let imp = self.imp();
        let model = &imp.model;
        model
            .bind_property("status", &*imp.status, "label")
            .sync_create()
            .build();
        model
            .bind_property("last-event", &*imp.last_event, "label")
            .sync_create()
            .build();
        model
            .bind_property("subtitle", &*imp.window_title, "subtitle")
            .sync_create()
            .build();
        model
            .bind_property("thinking", &*imp.spinner, "spinning")
            .sync_create()
            .build();
    }

    // ------------------------------------------------------------------------------------
    // The controller
    // ------------------------------------------------------------------------------------

    /// Hands an input to the controller and carries out what it answers.
    fn control(&self, f: impl FnOnce(&mut Controller) -> Vec<Effect>) {
        let effects = f(&mut self.imp().controller.borrow_mut());
        self.run(effects);
    }

    /// Carries out the controller's effects, then shows the new state.
    fn run(&self, effects: Vec<Effect>) {
        for effect in effects {
            match effect {
                Effect::Submit(job) => {
                    if let Some(pool) = self.imp().pool.borrow().as_ref() {
                        pool.submit(job);
                    }
                }
                Effect::Animate {
                    token,
                    seat,
                    start,
                    mv,
                } => {
                    glib::spawn_future_local(glib::clone!(
                        #[weak(rename_to = window)]
                        self,
                        async move {
                            let board = window.imp().board.get();
                            board.animate_move(seat, start, mv).await;
                            window.control(|c| c.animation_done(token));
                        }
                    ));
                }
                Effect::StopAnimation => self.imp().board.stop_animation(),
                Effect::AskDice { name } => self.ask_dice(name.as_deref()),
                Effect::ShowResult { winner, text } => {
                    let dialog = ResultDialog::new(self, &winner, &text);
                    dialog.connect_new_match(glib::clone!(
                        #[weak(rename_to = window)]
                        self,
                        move || window.show_new_match()
                    ));
                    dialog.present();
                }
                Effect::Timer { token, delay } => {
                    glib::timeout_add_local_once(
                        delay,
                        glib::clone!(
                            #[weak(rename_to = window)]
                            self,
                            move || window.control(|c| c.timer(token))
                        ),
                    );
                }
                Effect::Toast(text) => self.toast(&text),
                Effect::ShowNewMatch => self.show_new_match(),
                Effect::Hint(update) => self.update_hint_window(update),
            }
        }
        self.render();
    }

    /// Shows the controller's state: the board (unless a move is being shown), then the
    /// published state and the actions.
    fn render(&self) {
        let imp = self.imp();
        let display = {
            let c = imp.controller.borrow();
            (!c.is_animating()).then(|| c.display())
        };
        if let Some(display) = display {
            imp.board.set_display(display);
        }
        self.publish();
    }

    /// How far the move on the board has got.
    fn move_progress(&self) -> MoveProgress {
        let board = &self.imp().board;
        MoveProgress {
            started: board.move_started(),
            complete: board.move_complete(),
        }
    }

    /// Publishes the state of the match and enables the actions that make sense now.
    fn publish(&self) {
        let imp = self.imp();
        let progress = self.move_progress();
        let (published, controls) = {
            let c = imp.controller.borrow();
            let published = Published {
                status: c.status(progress),
                subtitle: c.subtitle(),
                last_event: c.last_event(),
                busy: c.is_busy(),
                thinking: matches!(c.state(), State::BotThinking { .. }),
                has_match: c.session().is_some(),
                log: c.session().map(|s| s.log().to_vec()).unwrap_or_default(),
            };
            (published, c.controls(progress))
        };
        imp.model.update(&published);
        self.action_set_enabled("win.roll", controls.roll);
        self.action_set_enabled("win.double", controls.double);
        self.action_set_enabled("win.take", controls.take);
        self.action_set_enabled("win.drop", controls.drop);
        self.action_set_enabled("win.beaver", controls.beaver);
        self.action_set_enabled("win.finish-move", controls.finish_move);
        self.action_set_enabled("win.undo", controls.undo);
        self.action_set_enabled("win.resign", controls.resign);
        self.action_set_enabled("win.hint", controls.hint);
        let b = controls.buttons;
        imp.roll_button.set_visible(b.roll);
        imp.double_button.set_visible(b.double);
        imp.finish_button.set_visible(b.finish_move);
        imp.take_button.set_visible(b.answer_double);
        imp.drop_button.set_visible(b.answer_double);
        imp.beaver_button.set_visible(b.beaver);
        imp.accept_button.set_visible(b.answer_resignation);
        imp.reject_button.set_visible(b.answer_resignation);
        imp.next_button.set_visible(b.next_game);
        self.write_debug_state();
    }

    // ------------------------------------------------------------------------------------
    // Dialogs
    // ------------------------------------------------------------------------------------

    /// Opens the new-match dialog (Ctrl+N).
    pub fn show_new_match(&self) {
        let dialog = NewMatchDialog::new(self, &self.settings());
        dialog.connect_start(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move |setup, remembered| {
                if let Some(app) = window.app() {
                    app.update_settings(|s| remembered.store(s));
                }
                window.start_match(setup.clone());
            }
        ));
        dialog.present();
    }

    /// Starts a match.
    pub fn start_match(&self, mut setup: MatchSetup) {
        if setup.seed.is_none() {
            setup.seed = self.imp().seed.get();
        }
        self.control(|c| c.new_match(setup));
    }

    /// Asks which resignation to offer.
    pub fn show_resign(&self) {
        if self.imp().controller.borrow().resigner().is_none() {
            return;
        }
        let dialog = ResignDialog::new(self);
        dialog.connect_chosen(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move |r| window.control(|c| c.resign(r))
        ));
        dialog.present();
    }

    /// Asks for the dice of `name`'s roll (manual dice); `None` for the opening roll.
    fn ask_dice(&self, name: Option<&str>) {
        let dialog = DiceDialog::new(self, name);
        dialog.connect_answered(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move |dice| window.control(|c| c.dice_entered(dice))
        ));
        dialog.present();
    }

    /// Opens (or raises) the hint window (Ctrl+H) and asks for a hint.
    pub fn show_hint(&self) {
        let imp = self.imp();
        let existing = imp.hint_window.borrow().clone();
        let hint = existing.unwrap_or_else(|| {
            let w = HintWindow::new(self, self.settings().hint_level());
            w.connect_show_move(glib::clone!(
                #[weak(rename_to = window)]
                self,
                move |mv: &LegalMove| window.imp().board.show_move(mv)
            ));
            w.connect_level_changed(glib::clone!(
                #[weak(rename_to = window)]
                self,
                move |level| {
                    if let Some(app) = window.app() {
                        app.update_settings(|s| s.hint_level = level.name().to_string());
                    }
                    window.control(|c| c.set_hint_level(level));
                }
            ));
            w.connect_stop(glib::clone!(
                #[weak(rename_to = window)]
                self,
                move || window.control(Controller::stop_hint)
            ));
            w.connect_ask_again(glib::clone!(
                #[weak(rename_to = window)]
                self,
                #[weak]
                w,
                move || {
                    let level = w.level();
                    window.control(|c| c.open_hint(level));
                }
            ));
            // Closed (hidden): its hint is not wanted any more.
            w.connect_visible_notify(glib::clone!(
                #[weak(rename_to = window)]
                self,
                move |w| {
                    if !w.is_visible() {
                        window.imp().controller.borrow_mut().close_hint();
                    }
                }
            ));
            imp.hint_window.replace(Some(w.clone()));
            w
        });
        hint.present();
        let level = hint.level();
        self.control(|c| c.open_hint(level));
    }

    fn update_hint_window(&self, update: HintUpdate) {
        let Some(w) = self.imp().hint_window.borrow().clone() else {
            return;
        };
        match update {
            HintUpdate::Thinking => w.set_thinking(),
            HintUpdate::Nothing => w.set_nothing(),
            HintUpdate::Stopped => w.set_stopped(),
            HintUpdate::Ready {
                hint,
                mover,
                opponent,
            } => w.set_hint(&hint, &mover, &opponent),
        }
    }

    // ------------------------------------------------------------------------------------
    // The board
    // ------------------------------------------------------------------------------------

    fn on_board_action(&self, action: &Action) {
        match action {
            Action::Nothing => {}
            Action::Changed => self.write_debug_state(),
            Action::Refused(e) => {
                let text = match e {
                    AssemblyError::NoChecker | AssemblyError::NothingToUndo => return,
                    AssemblyError::NoDiceLeft => {
                        gettext("All dice are played: click the dice to finish.")
                    }
                    AssemblyError::Illegal => gettext("That checker cannot move there."),
                };
                self.toast(&text);
            }
            Action::Incomplete => self.toast(&gettext(
                "The move is not complete: play all the dice you can.",
            )),
            Action::Roll => self.control(Controller::roll),
            Action::FinishMove(mv) => self.control(|c| c.finish_move(mv)),
            Action::Cube(button) => {
                let primary = *button == Button::Primary;
                self.control(|c| c.cube_clicked(primary));
            }
            Action::Resignation(Button::Primary) => self.control(Controller::take),
            Action::Resignation(Button::Secondary) => self.control(Controller::drop_double),
        }
    }

    // ------------------------------------------------------------------------------------
    // Settings and tests
    // ------------------------------------------------------------------------------------

    /// Remembers the window size in the settings.
    fn save_window_size(&self) {
        let (width, height) = self.default_size();
        let maximized = self.is_maximized();
        if let Some(app) = self.app() {
            app.update_settings(|s| {
                s.window.maximized = maximized;
                if !maximized && width > 0 && height > 0 {
                    s.window.width = width;
                    s.window.height = height;
                }
            });
        }
    }

    /// Writes the state for end-to-end tests (`--debug-state FILE`): IDs, whose turn, the
    /// move in progress, the dice shown, the board's sizes so far, and where to click (window
    /// coordinates).
    fn write_debug_state(&self) {
        let Some(path) = self.imp().debug_state.borrow().clone() else {
            return;
        };
        let value = self.debug_state();
        let tmp = path.with_extension("tmp");
        if std::fs::write(&tmp, value.to_string()).is_ok() {
            let _ = std::fs::rename(&tmp, &path);
        }
    }

    fn debug_state(&self) -> serde_json::Value {
        use serde_json::json;
        let imp = self.imp();
        let board = &imp.board;
        // Board coordinates → window surface coordinates.
        let to_window = |x: f64, y: f64| -> Option<(f64, f64)> {
            let p = board.compute_point(self, &gtk::graphene::Point::new(x as f32, y as f32))?;
            let (sx, sy) = self.surface_transform();
            Some((f64::from(p.x()) + sx, f64::from(p.y()) + sy))
        };
        let mut state = board.debug_state(to_window);
        let c = imp.controller.borrow();
        let game = c.session().map(|s| {
            let g = s.game();
            let decision = g.decision();
            json!({
                "position_id": position_id::encode(&g.position()),
                "match_id": match_id::encode(&g.match_state()),
                "gnubg_id": gnubg_id::encode(&g.position(), &g.match_state()),
                "on_roll": g.on_roll().index(),
                "decision": format!("{decision:?}"),
                "human_to_act": s.human_to_act().map(|p| p.index()),
                "dice": g.dice().map(|d| [d.first(), d.second()]),
                "score": g.score(),
                "status": s.status(),
                "log": s.log(),
            })
        });
        state["game"] = game.unwrap_or(serde_json::Value::Null);
        state["busy"] = json!(c.is_busy());
        state["state"] = json!(format!("{:?}", c.state()));
        state["status"] = json!(imp.model.status());
        state
    }
}
