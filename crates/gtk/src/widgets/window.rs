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
use cubeful_engine::{gnubg_id, match_id, position_id, xgid, LegalMove};
use gtk::{gio, glib};

use crate::board::{Action, AssemblyError, Button};
use crate::controller::{Controller, Effect, HintUpdate, MoveProgress, Paste, Preferences, State};
use crate::i18n::gettext;
use crate::jobs::{BearoffSource, JobPool};
use crate::match_model::{MatchModel, Published};
use crate::review::Nav;
use crate::session::MatchSetup;
use crate::settings::Settings;
use crate::widgets::board::CubefulBoard;
use crate::widgets::dice_dialog::DiceDialog;
use crate::widgets::hint_window::HintWindow;
use crate::widgets::id_bar::IdBar;
use crate::widgets::new_match_dialog::NewMatchDialog;
use crate::widgets::record_pane::RecordPane;
use crate::widgets::resign_dialog::ResignDialog;
use crate::widgets::result_dialog::ResultDialog;

/// Worker threads of the job pool: one for the bot and one for hints, and up to two more while
/// a cancelled search is still running.
const MIN_THREADS: usize = 2;
const MAX_THREADS: usize = 4;

mod files;

mod tutor;

mod analysis;

mod edit;

mod temperature;

mod clipboard;

mod seats;

mod imp {
    use super::*;

    #[derive(Debug, Default, gtk::CompositeTemplate, glib::Properties)]
    #[template(file = "window.ui")]
    #[properties(wrapper_type = super::CubefulWindow)]
    pub struct CubefulWindow {
        #[template_child]
        pub board: TemplateChild<CubefulBoard>,
        #[template_child]
        pub id_bar: TemplateChild<IdBar>,
        /// Edit mode's bar under the board (`window/edit.rs`).
        #[template_child]
        pub edit_slot: TemplateChild<adw::Bin>,
        #[template_child]
        pub paned: TemplateChild<gtk::Paned>,
        #[template_child]
        pub side_pane: TemplateChild<adw::Bin>,
        #[template_child]
        pub side_paned: TemplateChild<gtk::Paned>,
        #[template_child]
        pub record_slot: TemplateChild<adw::Bin>,
        #[template_child]
        pub analysis_slot: TemplateChild<adw::Bin>,
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

        /// The side pane beside the board (the record and the analysis) is shown while there
        /// is a match; true unless the user hides it.
        #[property(get, set = Self::set_show_side_pane)]
        pub show_side_pane: Cell<bool>,
        /// The record pane in the side pane.
        pub record_pane: RefCell<Option<RecordPane>>,
        /// What `render` last showed on the board (`None` after the board was shown
        /// something else, e.g. a candidate play), so that a change of the record that leaves
        /// the board as it is does not redraw it.
        pub rendered: RefCell<Option<crate::board::Display>>,
        /// What the window publishes about the match.
        pub model: MatchModel,

        pub controller: RefCell<Controller>,
        pub pool: RefCell<Option<JobPool>>,
        pub hint_window: RefCell<Option<HintWindow>>,
        /// Where to write the state for tests (`--debug-state`).
        pub debug_state: RefCell<Option<PathBuf>>,
        /// A write of the debug state is scheduled.
        pub debug_state_due: Cell<bool>,
        /// The last message shown as a toast (for the debug state).
        pub last_toast: RefCell<String>,
        /// Dice seed for tests (`--seed`).
        pub seed: Cell<Option<u64>>,
        /// The analysis pane, running analyses, statistics and graph (window/analysis.rs).
        pub analysis: RefCell<analysis::AnalysisState>,
        /// The match's file, the autosave, the open file dialogs (`window/files.rs`).
        pub files: RefCell<files::FilesState>,
        /// Edit mode's bar and action (`window/edit.rs`).
        pub edit: RefCell<edit::EditState>,
        /// The tutor's warning (window/tutor.rs).
        pub tutor: RefCell<tutor::TutorState>,
        /// The temperature map window and its job (window/temperature.rs).
        pub temperature: RefCell<temperature::TemperatureState>,
        /// The Recent submenu of the primary menu (filled by `window/files.rs`).
        #[template_child]
        pub recent_menu: TemplateChild<gio::Menu>,
    }

    impl CubefulWindow {
        fn set_show_side_pane(&self, show: bool) {
            self.show_side_pane.set(show);
            self.obj().update_side_pane();
        }
    }

    #[glib::object_subclass]
    impl ObjectSubclass for CubefulWindow {
        const NAME: &'static str = "CubefulWindow";
        type Type = super::CubefulWindow;
        type ParentType = adw::ApplicationWindow;

        fn class_init(klass: &mut Self::Class) {
            CubefulBoard::ensure_type();
            IdBar::ensure_type();
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
            klass.install_action("win.temperature-map", None, |w, _, _| {
                w.show_temperature_map()
            });
            klass.install_action("win.paste-position", None, |w, _, _| w.paste_position());
            klass.install_property_action("win.show-side-pane", "show-side-pane");
            for (name, nav) in [
                ("win.review-previous", Nav::Previous),
                ("win.review-next", Nav::Next),
                ("win.review-previous-marked", Nav::PreviousMarked),
                ("win.review-next-marked", Nav::NextMarked),
                ("win.review-first", Nav::First),
                ("win.review-last", Nav::Last),
                ("win.review-previous-game", Nav::PreviousGame),
                ("win.review-next-game", Nav::NextGame),
            ] {
                klass.install_action(name, None, move |w, _, _| w.navigate(nav));
            }
            klass.install_action("win.review-live", None, |w, _, _| w.select_live());
            klass.add_binding_action(
                gtk::gdk::Key::Escape,
                gtk::gdk::ModifierType::empty(),
                "win.review-live",
            );
            klass.install_action("win.play-on", None, |w, _, _| w.confirm_play_on());
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
            // An ID typed or pasted into the bar under the board sets it up, as Ctrl+V does.
            self.id_bar.connect_entered(glib::clone!(
                #[weak]
                obj,
                move |text| obj.paste_text(&text)
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
            obj.set_up_record_pane();
            obj.set_up_analysis();
            self.show_side_pane.set(true);
            obj.start_engine();
            obj.files_setup();
            obj.edit_setup();
            obj.clipboard_setup();
            obj.render();
        }
    }

    impl WidgetImpl for CubefulWindow {}
    impl WindowImpl for CubefulWindow {
        fn close_request(&self) -> glib::Propagation {
            if self.obj().files_close_request() {
                return glib::Propagation::Stop;
            }
            self.obj().save_window_size();
            self.obj().stop_analysis();
            // Dropping the pool cancels the queued jobs: the workers stop after the job they
            // are on, and nobody waits for them.
            self.pool.replace(None);
            if let Some(hint) = self.hint_window.take() {
                hint.destroy();
            }
            self.obj().close_temperature_map();
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

/// What a window action without a parameter does.
pub(super) type WindowAction = fn(&CubefulWindow);

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
        window.set_analysis_level(settings.analysis_plies);
        window.apply_turn_board(&settings);
        window.control(|c| c.set_preferences(Preferences::from(&settings)));
        window.tutor_setup(&settings);
        window
    }

    /// Adds window actions (`win.NAME`) without a parameter, each calling its function on the
    /// window (enabled and disabled later through `lookup_action`).
    fn add_plain_actions(&self, actions: &[(&str, WindowAction)]) {
        for &(name, f) in actions {
            let action = gio::SimpleAction::new(name, None);
            action.connect_activate(glib::clone!(
                #[weak(rename_to = window)]
                self,
                move |_, _| f(&window)
            ));
            self.add_action(&action);
        }
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
        self.apply_turn_board(settings);
        self.control(|c| c.set_preferences(Preferences::from(settings)));
        self.tutor_apply_settings(settings);
    }

    /// Shows a short message over the board.
    pub fn toast(&self, text: &str) {
        let toast = adw::Toast::new(text);
        toast.set_timeout(6);
        self.imp().toasts.add_toast(toast);
        self.imp().last_toast.replace(text.to_string());
        self.write_debug_state();
    }

    /// The slot below the record pane in the side pane, for the analysis of the selected
    /// action (filled by the analysis code).
    pub fn analysis_slot(&self) -> adw::Bin {
        self.imp().analysis_slot.get()
    }

    /// The divider between the board and the side pane.
    pub fn paned(&self) -> gtk::Paned {
        self.imp().paned.get()
    }

    /// The divider between the record pane and the analysis slot below it.
    pub fn side_paned(&self) -> gtk::Paned {
        self.imp().side_paned.get()
    }

    /// Shows the side pane while there is a match and the user has not hidden it.
    fn update_side_pane(&self) {
        let imp = self.imp();
        let has_match = imp.controller.borrow().session().is_some();
        let visible = has_match && imp.show_side_pane.get();
        if visible && !imp.side_pane.is_visible() {
            // The board takes all the room the pane does not need (the position is clamped
            // to leave the pane its minimum width); the divider can be dragged from there.
            imp.paned.set_position(100_000);
        }
        imp.side_pane.set_visible(visible);
    }

    /// Selects action `entry` of game `game` of the record (both from 0): the board shows the
    /// position of that action, read-only, and the record pane highlights it. Selecting the
    /// last action of the game in progress returns to the live position. Out-of-range numbers
    /// are ignored.
    pub fn select_action(&self, game: usize, entry: usize) {
        self.control(|c| c.select(Some((game, entry))));
    }

    /// Returns from the action selected in the record to the game in progress.
    pub fn select_live(&self) {
        self.control(|c| c.select(None));
    }

    /// Moves the selection in the record (Page Up/Down, Ctrl+Page Up/Down, Home/End…).
    pub fn navigate(&self, nav: Nav) {
        self.control(|c| c.navigate(nav));
    }

    /// Asks whether to cut the record after the selected action, and if so plays on from
    /// there.
    pub fn confirm_play_on(&self) {
        if !self.imp().controller.borrow().is_reviewing() {
            return;
        }
        let dialog = adw::MessageDialog::new(
            Some(self),
            Some(&gettext("Play On From Here?")),
            Some(&gettext(
                "The rest of the match record after this position is thrown away, and play goes on from here.",
            )),
        );
        dialog.add_responses(&[
            ("cancel", &gettext("_Cancel")),
            ("play", &gettext("_Play On")),
        ]);
        dialog.set_response_appearance("play", adw::ResponseAppearance::Destructive);
        dialog.set_default_response(Some("cancel"));
        dialog.set_close_response("cancel");
        dialog.connect_response(
            Some("play"),
            glib::clone!(
                #[weak(rename_to = window)]
                self,
                move |_, _| window.control(Controller::play_on_from_here)
            ),
        );
        dialog.present();
    }

    /// Shows the record and the selection in the record pane and the match model.
    fn publish_record(&self) {
        let imp = self.imp();
        let (view, selection, revision, names) = {
            let c = imp.controller.borrow();
            let names = c
                .session()
                .map(|s| {
                    let n = &s.setup().names;
                    // Player 0 sits at the top (seat 1), player 1 at the bottom (seat 0).
                    [n[1].clone(), n[0].clone()]
                })
                .unwrap_or_default();
            (c.record_view(), c.selection(), c.record_revision(), names)
        };
        if imp.model.record_revision() != revision {
            imp.model.set_record_revision(revision);
        }
        imp.model.set_selection(selection);
        if let Some(pane) = imp.record_pane.borrow().as_ref() {
            pane.show(&view, selection, [&names[0], &names[1]]);
            if imp.debug_state.borrow().is_some() {
                // Once the rows are laid out, tests see where the cells are.
                glib::timeout_add_local_once(
                    std::time::Duration::from_millis(300),
                    glib::clone!(
                        #[weak(rename_to = window)]
                        self,
                        move || window.write_debug_state()
                    ),
                );
            }
        }
        self.update_side_pane();
        let reviewing = selection.is_some();
        let has_actions = view.games().iter().any(|g| !g.cells.is_empty());
        for name in [
            "win.review-previous",
            "win.review-previous-marked",
            "win.review-first",
            "win.review-previous-game",
        ] {
            self.action_set_enabled(name, has_actions);
        }
        for name in [
            "win.review-next",
            "win.review-next-marked",
            "win.review-last",
            "win.review-next-game",
            "win.review-live",
            "win.play-on",
        ] {
            self.action_set_enabled(name, reviewing);
        }
    }

    /// Says that the record of the match changed behind the window's back (an analysis was
    /// stored, a file was loaded): `record-revision` is bumped and the record pane and the
    /// board are refreshed.
    pub fn record_changed(&self) {
        self.imp().controller.borrow_mut().record_changed();
        self.render_board(true);
        self.publish();
    }

    /// What the window publishes about the match (for panes to bind to).
    pub fn model(&self) -> MatchModel {
        self.imp().model.clone()
    }

    /// Creates the record pane in the side pane and connects its selection to the controller.
    fn set_up_record_pane(&self) {
        let pane = RecordPane::new();
        pane.connect_selected(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move |selection| match selection {
                Some((game, entry)) => window.select_action(game, entry),
                None => window.select_live(),
            }
        ));
        self.imp().record_slot.set_child(Some(&pane));
        self.imp().record_pane.replace(Some(pane));
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
                    let Some(reply) = window.temperature_reply(reply) else {
                        continue;
                    };
                    let Some(reply) = window.analysis_reply(reply) else {
                        continue;
                    };
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
    /// Sets the board from the Position ID, GNU Backgammon ID or XGID on the clipboard.
    fn paste_position(&self) {
        let clipboard = self.clipboard();
        glib::spawn_future_local(glib::clone!(
            #[weak(rename_to = window)]
            self,
            async move {
                match clipboard.read_text_future().await {
                    Ok(Some(text)) => window.paste_text(&text),
                    _ => window.toast(&gettext(
                        "The clipboard holds no text to read a position from.",
                    )),
                }
            }
        ));
    }

    /// Sets the board from `text` (a Position ID, GNU Backgammon ID or XGID). A new match
    /// from it first asks what to do with an unsaved match in progress.
    pub fn paste_text(&self, text: &str) {
        if self.imp().controller.borrow().is_editing() {
            self.edit_paste(text);
            return;
        }
        self.refresh_match_defaults();
        let plan = self.imp().controller.borrow().plan_paste(text);
        match plan {
            Err(sentence) => self.toast(&sentence),
            Ok(paste @ Paste::SetUp(_)) => self.control(|c| c.paste(paste)),
            Ok(paste @ Paste::NewSession(_)) => self.files_when_saved(Box::new(move |window| {
                window.files_new_match();
                window.control(|c| c.paste(paste));
            })),
        }
    }

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
                Effect::Tutor(update) => self.tutor_update(update),
            }
        }
        self.files_after_step();
        self.render();
    }

    /// Shows the controller's state: the board (unless a move is being shown), then the
    /// published state and the actions.
    fn render(&self) {
        self.render_board(false);
        self.publish();
    }

    /// Shows the controller's display on the board (unless a move is being shown); with
    /// `unless_same`, not if the board shows that display already (it is not redrawn).
    fn render_board(&self, unless_same: bool) {
        let imp = self.imp();
        let display = {
            let c = imp.controller.borrow();
            (!c.is_animating()).then(|| c.display())
        };
        let Some(display) = display else {
            imp.rendered.replace(None);
            return;
        };
        if unless_same && imp.rendered.borrow().as_ref() == Some(&display) {
            return;
        }
        imp.rendered.replace(Some(display.clone()));
        self.seat_colours();
        imp.board.set_display(display);
        self.show_ids();
    }

    /// Shows the identifiers of the position on the board under it.
    fn show_ids(&self) {
        let shown = self.imp().controller.borrow().shown_state();
        let (gnubg, xgid) = match shown {
            Some((position, state)) => (
                gnubg_id::encode(&position, &state),
                xgid::encode(&position, &state),
            ),
            None => (String::new(), String::new()),
        };
        self.imp().id_bar.set_ids(&gnubg, &xgid);
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
        self.publish_record();
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
        self.edit_sync();
        self.temperature_follow();
        self.write_debug_state();
    }

    // ------------------------------------------------------------------------------------
    // Dialogs
    // ------------------------------------------------------------------------------------

    /// Opens the new-match dialog (Ctrl+N).
    pub fn show_new_match(&self) {
        if self.files_hold_new_match() {
            return;
        }
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

    /// Gives the controller the setup of a match made without the new-match dialog (from a
    /// pasted ID or the position editor, with no match in progress): the settings' players,
    /// level and rules, and the dice of `--seed`.
    pub(super) fn refresh_match_defaults(&self) {
        let mut defaults = MatchSetup::from_settings(&self.settings());
        defaults.seed = self.imp().seed.get();
        self.imp()
            .controller
            .borrow_mut()
            .set_match_defaults(defaults);
    }

    /// Starts a match.
    pub fn start_match(&self, mut setup: MatchSetup) {
        if setup.seed.is_none() {
            setup.seed = self.imp().seed.get();
        }
        self.files_new_match();
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
            w.connect_rollout_changed(glib::clone!(
                #[weak(rename_to = window)]
                self,
                move |on| window.control(|c| c.set_hint_rollout(on))
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
            HintUpdate::Progress { trials, target } => w.set_progress(trials, target),
            HintUpdate::RolledOut {
                hint,
                mover,
                opponent,
                rolled,
                trials,
            } => w.set_rolled_out(&hint, &mover, &opponent, rolled, trials),
            HintUpdate::NoRollout => w.set_no_rollout(),
        }
    }

    // ------------------------------------------------------------------------------------
    // The board
    // ------------------------------------------------------------------------------------

    fn on_board_action(&self, action: &Action) {
        match action {
            Action::Nothing => {}
            // (The write waits for the whole window to be laid out, so tests see where what
            // is beside and under the board is too.)
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
            Action::Edit(op) => self.edit_op(*op),
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
    /// coordinates). The write waits until the main loop is idle, so that the file never
    /// shows a step half done (the board redrawn but the status line not yet, say) and what
    /// changed has been laid out; several calls in one step make one write.
    fn write_debug_state(&self) {
        let imp = self.imp();
        if imp.debug_state.borrow().is_none() || imp.debug_state_due.replace(true) {
            return;
        }
        glib::idle_add_local_once(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move || {
                window.imp().debug_state_due.set(false);
                window.write_debug_state_now();
            }
        ));
    }

    fn write_debug_state_now(&self) {
        let Some(path) = self.imp().debug_state.borrow().clone() else {
            return;
        };
        let value = self.debug_state();
        let _ = cubeful_engine::files::write_atomically(&path, value.to_string().as_bytes());
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
        state["toast"] = json!(imp.last_toast.borrow().as_str());
        let (sx, sy) = self.surface_transform();
        let (gnubg, xgid_text) = imp.id_bar.ids();
        state["ids"] = json!({
            "gnubg_id": gnubg,
            "xgid": xgid_text,
            "copy_xy": imp.id_bar.copy_buttons(self).map(|b| b.map(|(x, y)| [x + sx, y + sy])),
            "entry_xy": imp.id_bar.entries(self).map(|b| b.map(|(x, y)| [x + sx, y + sy])),
        });
        state["files"] = self.files_debug_state();
        let view = c.record_view();
        let pane = imp.record_pane.borrow();
        state["record"] = json!({
            "games": view.games().len(),
            "rows": view.games().iter().map(|g| g.rows.len()).collect::<Vec<_>>(),
            "marked": view.marked_count(),
            "selected_game": imp.model.selected_game(),
            "selected_entry": imp.model.selected_entry(),
            "selected_text": c.selection().and_then(|(g, e)| view.cell(g, e)).map(|cell| cell.text.clone()),
            "reviewing": c.is_reviewing(),
            "revision": imp.model.record_revision(),
            "pane_game": pane.as_ref().and_then(|p| p.shown_game()),
            "pane_rows": pane.as_ref().map(|p| p.rows().n_items()),
            "side_pane_visible": imp.side_pane.is_visible(),
            // The cells on screen and where to click them (window coordinates).
            "cells": pane.as_ref().map(|p| {
                let (sx, sy) = self.surface_transform();
                p.visible_cells(self)
                    .into_iter()
                    .map(|c| {
                        let ((g, e), (x, y)) = (c.action, c.centre);
                        json!({ "game": g, "entry": e, "xy": [x + sx, y + sy], "selected": c.selected })
                    })
                    .collect::<Vec<_>>()
            }),
        });
        state["analysis"] = self.analysis_debug_state();
        self.edit_debug_state(&mut state);
        state["tutor"] = self.tutor_debug_state();
        state["temperature"] = self.temperature_debug_state();
        state["hint"] = imp.hint_window.borrow().as_ref().map_or_else(
            || json!({ "open": false }),
            crate::widgets::hint_window::HintWindow::debug_state,
        );
        let display = c.display();
        state["shown"] = json!({
            "position_id": position_id::encode(&display.position),
            "dice": display.dice.map(|(_, d)| [d.first(), d.second()]),
            "last_move_to": display.last_move.as_ref().map(|m| m.to.len()),
        });
        // Who sits at the bottom (the board turns for two people: window/seats.rs).
        state["bottom_player"] = json!(c.bottom_player().index());
        state
    }
}
