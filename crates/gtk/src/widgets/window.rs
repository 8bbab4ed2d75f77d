//! The main window: header bar, the board, a status line with the buttons of the moment, and
//! the match flow. The flow is the engine's ([`Session`] wraps its `Game`); the window only
//! asks what happens next (the engine's [`Next`]), lets the human act through the board, the
//! buttons and the shortcuts, and sends the bot's decisions and the hints to the worker threads
//! ([`Engine`]), whose answers come back on a channel read by a future on the main loop.

use std::cell::{Cell, RefCell};
use std::path::PathBuf;

use adw::prelude::*;
use adw::subclass::prelude::*;
use cubeful_engine::game::flow::Next;
use cubeful_engine::game::{Action as GameAction, Decision};
use cubeful_engine::{gnubg_id, match_id, position_id, Dice, LegalMove, Player, Resignation};
use gtk::{gio, glib};

use crate::board::{Action, AssemblyError, Button, Seat, Slot};
use crate::i18n::{gettext, gettext_f, ngettext_f};
use crate::session::{error_text, seat_of, MatchSetup, Opponent, Session};
use crate::settings::Settings;
use crate::widgets::board::CubefulBoard;
use crate::widgets::hint_window::HintWindow;
use crate::widgets::new_match_dialog::NewMatchDialog;
use crate::worker::{Engine, Job, Reply};

mod imp {
    use super::*;

    #[derive(Debug, Default, gtk::CompositeTemplate)]
    #[template(file = "window.ui")]
    pub struct CubefulWindow {
        #[template_child]
        pub board: TemplateChild<CubefulBoard>,
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

        pub session: RefCell<Option<Session>>,
        pub engine: RefCell<Option<Engine>>,
        /// The bot job whose answer is awaited.
        pub pending_bot: Cell<Option<u64>>,
        /// The hint job whose answer is awaited.
        pub pending_hint: Cell<Option<u64>>,
        /// A bot move or forced move is being animated.
        pub animating: Cell<bool>,
        /// A dialog asking for the dice is open.
        pub asking_dice: Cell<bool>,
        /// The result dialog was shown for this match.
        pub result_shown: Cell<bool>,
        /// Counts state changes, so a delayed "next game" knows whether it is still wanted.
        pub generation: Cell<u64>,
        pub hint_window: RefCell<Option<HintWindow>>,
        /// Where to write the state for tests (`--debug-state`).
        pub debug_state: RefCell<Option<PathBuf>>,
        /// Dice seed for tests (`--seed`).
        pub seed: Cell<Option<u64>>,
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
            klass.install_action("win.roll", None, |w, _, _| w.roll());
            klass.install_action("win.finish-move", None, |w, _, _| w.imp().board.finish());
            klass.install_action("win.undo", None, |w, _, _| w.imp().board.undo());
            klass.install_action("win.double", None, |w, _, _| w.double());
            klass.install_action("win.take", None, |w, _, _| w.take_or_accept());
            klass.install_action("win.drop", None, |w, _, _| w.drop_or_reject());
            klass.install_action("win.beaver", None, |w, _, _| w.beaver());
            klass.install_action("win.resign", None, |w, _, _| w.show_resign());
            klass.install_action("win.hint", None, |w, _, _| w.show_hint());
        }

        fn instance_init(obj: &glib::subclass::InitializingObject<Self>) {
            obj.init_template();
        }
    }

    impl ObjectImpl for CubefulWindow {
        fn constructed(&self) {
            self.parent_constructed();
            let obj = self.obj();
            self.board.connect_board_action(glib::clone!(
                #[weak]
                obj,
                move |_, action| obj.on_board_action(action)
            ));
            obj.start_engine();
            obj.refresh();
        }
    }

    impl WidgetImpl for CubefulWindow {}
    impl WindowImpl for CubefulWindow {
        fn close_request(&self) -> glib::Propagation {
            self.obj().save_window_size();
            // Dropping the engine closes the job channels: the workers stop after the job
            // they are on, and nobody waits for them.
            self.engine.replace(None);
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
        self.refresh();
    }

    /// Applies changed settings (colours, level, names).
    pub fn apply_settings(&self, settings: &Settings) {
        let imp = self.imp();
        imp.board.set_colours(settings.colours.colours());
        if let Some(session) = imp.session.borrow_mut().as_mut() {
            session.set_bot_level(settings.level());
        }
        self.refresh();
    }

    /// Shows a short message over the board.
    pub fn toast(&self, text: &str) {
        let toast = adw::Toast::new(text);
        toast.set_timeout(6);
        self.imp().toasts.add_toast(toast);
    }

    fn start_engine(&self) {
        let cache = directories::ProjectDirs::from("org", "Cubeful", "cubeful")
            .map(|d| d.cache_dir().join("bearoff"));
        let (engine, replies) = Engine::start(cache);
        self.imp().engine.replace(Some(engine));
        glib::spawn_future_local(glib::clone!(
            #[weak(rename_to = window)]
            self,
            async move {
                while let Ok(reply) = replies.recv().await {
                    window.on_reply(reply);
                }
            }
        ));
    }

    // ------------------------------------------------------------------------------------
    // Starting matches
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
        let imp = self.imp();
        if setup.seed.is_none() {
            setup.seed = imp.seed.get();
        }
        match Session::new(setup) {
            Ok(session) => {
                imp.session.replace(Some(session));
                imp.pending_bot.set(None);
                imp.result_shown.set(false);
                self.bump();
                self.refresh();
            }
            Err(e) => self.toast(&error_text(&e)),
        }
    }

    /// Marks a change of state: delayed actions scheduled before it are dropped.
    fn bump(&self) {
        let imp = self.imp();
        imp.generation.set(imp.generation.get() + 1);
    }

    // ------------------------------------------------------------------------------------
    // The human's actions
    // ------------------------------------------------------------------------------------

    fn decision(&self) -> Option<Decision> {
        self.imp()
            .session
            .borrow()
            .as_ref()
            .map(|s| s.game().decision())
    }

    /// What happens next (the engine's flow), with the next game started by itself if the
    /// preferences say so.
    fn next(&self) -> Option<Next> {
        let auto_next_game = self.settings().auto_next_game;
        self.imp()
            .session
            .borrow()
            .as_ref()
            .map(|s| s.next(auto_next_game))
    }

    /// Runs `f` on the session and reports a refusal; refreshes after success.
    fn act_with(
        &self,
        f: impl FnOnce(
            &mut Session,
        )
            -> Result<Vec<cubeful_engine::game::Event>, cubeful_engine::game::GameError>,
    ) -> bool {
        let result = {
            let mut session = self.imp().session.borrow_mut();
            let Some(session) = session.as_mut() else {
                return false;
            };
            f(session)
        };
        match result {
            Ok(_) => {
                self.bump();
                self.refresh();
                true
            }
            Err(e) => {
                self.toast(&error_text(&e));
                false
            }
        }
    }

    /// Roll (Ctrl+R, or a click on the board): the human's roll, the opening roll, or the
    /// next game.
    pub fn roll(&self) {
        match self.next() {
            None => self.show_new_match(),
            Some(Next::NextGame | Next::GameOver) => {
                self.act_with(|s| s.next_game());
            }
            Some(Next::OpeningRoll) => {
                self.act_with(|s| s.opening_roll());
            }
            Some(Next::EnterDice(p)) => self.ask_dice(p),
            Some(Next::BotDecides(Decision::Roll { player, .. })) => {
                // With manual dice the bot's roll is entered by hand (asked again if the
                // dialog was cancelled).
                let waiting = self.imp().pending_bot.get().is_none() && self.manual_dice();
                if waiting {
                    self.ask_dice(Some(player));
                }
            }
            Some(Next::HumanDecides(Decision::Roll { player, .. }) | Next::AutoRoll(player)) => {
                if self.manual_dice() {
                    self.ask_dice(Some(player));
                } else {
                    self.act_with(|s| s.act(player, GameAction::Roll));
                }
            }
            _ => {}
        }
    }

    /// Double (Ctrl+D, or a click on the cube before the roll).
    pub fn double(&self) {
        if let Some(Decision::Roll { player, .. }) = self.decision() {
            if self.is_human(player) {
                self.act_with(|s| s.act(player, GameAction::Double));
            }
        }
    }

    /// Take a double or accept a resignation (Ctrl+T).
    pub fn take_or_accept(&self) {
        match self.decision() {
            Some(Decision::AnswerDouble { player, .. }) if self.is_human(player) => {
                self.act_with(|s| s.act(player, GameAction::Take));
            }
            Some(Decision::AnswerResignation { player, .. }) if self.is_human(player) => {
                self.act_with(|s| s.act(player, GameAction::AcceptResignation));
            }
            _ => {}
        }
    }

    /// Drop a double or reject a resignation (Ctrl+P).
    pub fn drop_or_reject(&self) {
        match self.decision() {
            Some(Decision::AnswerDouble { player, .. }) if self.is_human(player) => {
                self.act_with(|s| s.act(player, GameAction::Drop));
            }
            Some(Decision::AnswerResignation { player, .. }) if self.is_human(player) => {
                self.act_with(|s| s.act(player, GameAction::RejectResignation));
            }
            _ => {}
        }
    }

    /// Beaver a double (Ctrl+B).
    pub fn beaver(&self) {
        if let Some(Decision::AnswerDouble { player, .. }) = self.decision() {
            if self.is_human(player) {
                self.act_with(|s| s.act(player, GameAction::Beaver));
            }
        }
    }

    fn manual_dice(&self) -> bool {
        self.imp()
            .session
            .borrow()
            .as_ref()
            .is_some_and(|s| s.setup().manual_dice)
    }

    fn is_human(&self, player: Player) -> bool {
        self.imp()
            .session
            .borrow()
            .as_ref()
            .is_some_and(|s| !s.is_bot(player))
            && !self.imp().animating.get()
    }

    /// Asks which resignation to offer.
    pub fn show_resign(&self) {
        let Some(player) = self
            .imp()
            .session
            .borrow()
            .as_ref()
            .and_then(Session::human_to_act)
        else {
            return;
        };
        let dialog = adw::MessageDialog::new(
            Some(self),
            Some(&gettext("Resign?")),
            Some(&gettext("Offer your opponent to end the game now.")),
        );
        dialog.add_responses(&[
            ("cancel", &gettext("_Cancel")),
            ("single", &gettext("_Single Game")),
            ("gammon", &gettext("_Gammon")),
            ("backgammon", &gettext("_Backgammon")),
        ]);
        dialog.set_response_appearance("single", adw::ResponseAppearance::Destructive);
        dialog.set_default_response(Some("cancel"));
        dialog.set_close_response("cancel");
        dialog.connect_response(
            None,
            glib::clone!(
                #[weak(rename_to = window)]
                self,
                move |_, response| {
                    let r = match response {
                        "single" => Resignation::Single,
                        "gammon" => Resignation::Gammon,
                        "backgammon" => Resignation::Backgammon,
                        _ => return,
                    };
                    window.act_with(|s| s.act(player, GameAction::Resign(r)));
                }
            ),
        );
        dialog.present();
    }

    /// Asks for the dice of a roll (manual dice); `None` for the opening roll.
    fn ask_dice(&self, player: Option<Player>) {
        let imp = self.imp();
        if imp.asking_dice.get() {
            return;
        }
        imp.asking_dice.set(true);
        let body = match player {
            None => {
                gettext("Enter the opening roll: the top player's die, then the bottom player's.")
            }
            Some(p) => {
                let name = imp
                    .session
                    .borrow()
                    .as_ref()
                    .map(|s| s.name(p).to_string())
                    .unwrap_or_default();
                gettext_f("Enter the dice {} rolled.", &[&name])
            }
        };
        let dialog =
            adw::MessageDialog::new(Some(self), Some(&gettext("Manual Dice")), Some(&body));
        let row = gtk::Box::new(gtk::Orientation::Horizontal, 12);
        row.set_halign(gtk::Align::Center);
        let spin = || {
            let s = gtk::SpinButton::with_range(1.0, 6.0, 1.0);
            s.set_value(1.0);
            s
        };
        let (a, b) = (spin(), spin());
        row.append(&a);
        row.append(&b);
        dialog.set_extra_child(Some(&row));
        dialog.add_responses(&[("cancel", &gettext("_Cancel")), ("roll", &gettext("_Roll"))]);
        dialog.set_response_appearance("roll", adw::ResponseAppearance::Suggested);
        dialog.set_default_response(Some("roll"));
        dialog.set_close_response("cancel");
        dialog.connect_response(
            None,
            glib::clone!(
                #[weak(rename_to = window)]
                self,
                move |_, response| {
                    window.imp().asking_dice.set(false);
                    if response != "roll" {
                        return;
                    }
                    let dice = Dice::new(a.value() as u8, b.value() as u8);
                    match dice {
                        Ok(dice) => {
                            let p = player.unwrap_or(Player::One);
                            window.act_with(|s| s.roll_dice(p, dice));
                        }
                        Err(_) => window.toast(&gettext("A die shows 1 to 6.")),
                    }
                }
            ),
        );
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
                move |mv| window.imp().board.show_move(mv)
            ));
            w.connect_level_changed(glib::clone!(
                #[weak(rename_to = window)]
                self,
                move |level| {
                    if let Some(app) = window.app() {
                        app.update_settings(|s| s.hint_level = level.name().to_string());
                    }
                    window.request_hint();
                }
            ));
            imp.hint_window.replace(Some(w.clone()));
            w
        });
        hint.present();
        self.request_hint();
    }

    /// Asks the hint worker about the human's decision, if the hint window is open.
    fn request_hint(&self) {
        let imp = self.imp();
        let Some(hint) = imp.hint_window.borrow().clone() else {
            return;
        };
        if !hint.is_visible() {
            return;
        }
        let job = {
            let session = imp.session.borrow();
            match session.as_ref() {
                Some(s) if s.human_to_act().is_some() => Some(Job::Hint {
                    game: Box::new(s.game().clone()),
                    level: hint.level(),
                }),
                _ => None,
            }
        };
        match job {
            Some(job) => {
                let id = imp.engine.borrow_mut().as_mut().map(|e| e.submit(job));
                imp.pending_hint.set(id);
                hint.set_thinking();
            }
            None => {
                imp.pending_hint.set(None);
                hint.set_nothing();
            }
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
                    AssemblyError::NoChecker => return,
                    AssemblyError::NoDiceLeft => {
                        gettext("All dice are played: click the dice to finish.")
                    }
                    AssemblyError::Illegal => gettext("That checker cannot move there."),
                    AssemblyError::NothingToUndo => return,
                };
                self.toast(&text);
            }
            Action::Incomplete => self.toast(&gettext(
                "The move is not complete: play all the dice you can.",
            )),
            Action::Roll => self.roll(),
            Action::FinishMove(mv) => self.finish_move(mv),
            Action::Cube(button) => match (button, self.decision()) {
                (Button::Primary, Some(Decision::Roll { .. })) => self.double(),
                (Button::Primary, Some(Decision::AnswerDouble { .. })) => self.take_or_accept(),
                (Button::Secondary, Some(Decision::AnswerDouble { .. })) => self.drop_or_reject(),
                _ => {}
            },
            Action::Resignation(Button::Primary) => self.take_or_accept(),
            Action::Resignation(Button::Secondary) => self.drop_or_reject(),
        }
        self.update_actions();
    }

    fn finish_move(&self, mv: &LegalMove) {
        let Some((player, _)) = self
            .imp()
            .session
            .borrow()
            .as_ref()
            .and_then(Session::human_move)
        else {
            return;
        };
        self.act_with(|s| s.act(player, GameAction::Move(mv.mv)));
    }

    // ------------------------------------------------------------------------------------
    // The flow
    // ------------------------------------------------------------------------------------

    /// Shows the current state everywhere and starts whatever comes next.
    pub fn refresh(&self) {
        let imp = self.imp();
        if !imp.animating.get() {
            let display = imp
                .session
                .borrow()
                .as_ref()
                .map(|s| s.display(imp.pending_bot.get().is_some()))
                .unwrap_or_else(idle_display);
            imp.board.set_display(display);
        }
        let (status, subtitle, last) = match imp.session.borrow().as_ref() {
            Some(s) => (
                s.status(),
                board_subtitle(s),
                s.log().last().cloned().unwrap_or_default(),
            ),
            None => (
                gettext("Start a new match with Ctrl+N."),
                String::new(),
                String::new(),
            ),
        };
        imp.status.set_text(&status);
        imp.last_event.set_text(&last);
        imp.last_event.set_visible(!last.is_empty());
        imp.window_title.set_subtitle(&subtitle);
        imp.spinner.set_spinning(imp.pending_bot.get().is_some());
        self.update_actions();
        self.write_debug_state();
        self.request_hint();
        self.proceed();
    }

    /// Starts the next step that does not wait for the human.
    fn proceed(&self) {
        let imp = self.imp();
        if imp.animating.get() {
            return;
        }
        let Some(next) = self.next() else {
            return;
        };
        let settings = self.settings();
        match next {
            Next::BotDecides(_) => {
                // Not while waiting for the bot's hand-entered dice.
                if imp.pending_bot.get().is_some() || imp.asking_dice.get() {
                    return;
                }
                let job = imp.session.borrow().as_ref().and_then(|s| {
                    s.bot_level().map(|level| Job::Bot {
                        game: Box::new(s.game().clone()),
                        level,
                    })
                });
                if let Some(job) = job {
                    let id = imp.engine.borrow_mut().as_mut().map(|e| e.submit(job));
                    imp.pending_bot.set(id);
                    imp.spinner.set_spinning(true);
                    if let Some(d) = imp.session.borrow().as_ref().map(|s| s.display(true)) {
                        imp.board.set_display(d);
                    }
                    self.write_debug_state();
                }
            }
            Next::HumanDecides(Decision::Move { player, .. }) => {
                if !settings.auto_forced_moves {
                    return;
                }
                let forced = imp
                    .board
                    .model()
                    .assembly()
                    .filter(|a| a.played().is_empty())
                    .and_then(|a| a.forced());
                if let Some(mv) = forced {
                    if !mv.mv.is_empty() {
                        self.play_animated(player, mv);
                    }
                }
            }
            Next::EnterDice(p) => self.ask_dice(p),
            Next::AutoRoll(player) => {
                self.act_with(|s| s.act(player, GameAction::Roll));
            }
            Next::NextGame => {
                // The next game starts by itself (the preference), after a moment to read the
                // result.
                let generation = imp.generation.get();
                glib::timeout_add_local_once(
                    std::time::Duration::from_millis(1500),
                    glib::clone!(
                        #[weak(rename_to = window)]
                        self,
                        move || {
                            if window.imp().generation.get() == generation {
                                window.act_with(|s| s.next_game());
                            }
                        }
                    ),
                );
            }
            Next::MatchOver(winner) => {
                if !imp.result_shown.replace(true) {
                    self.show_result(winner);
                }
            }
            Next::HumanDecides(_) | Next::OpeningRoll | Next::GameOver => {}
        }
    }

    /// Plays `mv` for `player` and shows it checker by checker (if animations are on).
    fn play_animated(&self, player: Player, mv: LegalMove) {
        let imp = self.imp();
        let before = match imp.session.borrow().as_ref() {
            Some(s) => s.game().position(),
            None => return,
        };
        let result = imp
            .session
            .borrow_mut()
            .as_mut()
            .map(|s| s.act(player, GameAction::Move(mv.mv)));
        match result {
            Some(Ok(_)) => {}
            Some(Err(e)) => {
                self.toast(&error_text(&e));
                return;
            }
            None => return,
        }
        self.bump();
        if !self.settings().animate {
            self.refresh();
            return;
        }
        imp.animating.set(true);
        self.update_actions();
        glib::spawn_future_local(glib::clone!(
            #[weak(rename_to = window)]
            self,
            async move {
                let board = window.imp().board.get();
                board.animate_move(seat_of(player), before, mv).await;
                window.imp().animating.set(false);
                window.refresh();
            }
        ));
    }

    fn on_reply(&self, reply: Reply) {
        let imp = self.imp();
        match reply {
            Reply::Bot { id, action } => {
                if imp.pending_bot.get() != Some(id) {
                    return; // stale: the match changed meanwhile
                }
                imp.pending_bot.set(None);
                imp.spinner.set_spinning(false);
                let Some((player, action)) = action else {
                    self.refresh();
                    return;
                };
                match action {
                    GameAction::Move(mv) => {
                        if let Some(d) = imp.session.borrow().as_ref().map(|s| s.display(false)) {
                            imp.board.set_display(d);
                        }
                        let position = imp
                            .session
                            .borrow()
                            .as_ref()
                            .map(|s| s.game().position())
                            .unwrap_or_else(cubeful_engine::Position::starting);
                        self.play_animated(player, LegalMove { mv, position });
                    }
                    GameAction::Roll if self.manual_dice() => {
                        self.ask_dice(Some(player));
                        self.refresh();
                    }
                    action => {
                        self.act_with(|s| s.act(player, action));
                    }
                }
            }
            Reply::Hint { id, hint } => {
                if imp.pending_hint.get() != Some(id) {
                    return;
                }
                imp.pending_hint.set(None);
                if let Some(w) = imp.hint_window.borrow().as_ref() {
                    let names = imp
                        .session
                        .borrow()
                        .as_ref()
                        .map(|s| {
                            // Hints are from the side of the player who decides (the player
                            // doubled, when a double is to be answered).
                            let p = s.game().to_act().unwrap_or_else(|| s.game().on_roll());
                            (s.name(p).to_string(), s.name(p.other()).to_string())
                        })
                        .unwrap_or_default();
                    match hint {
                        Some(hint) => w.set_hint(&hint, &names.0, &names.1),
                        None => w.set_nothing(),
                    }
                }
            }
        }
    }

    /// The match is over: say who won and offer a new match.
    fn show_result(&self, winner: Player) {
        let text = self
            .imp()
            .session
            .borrow()
            .as_ref()
            .and_then(|s| s.log().last().cloned())
            .unwrap_or_default();
        let name = self
            .imp()
            .session
            .borrow()
            .as_ref()
            .map(|s| s.name(winner).to_string())
            .unwrap_or_default();
        let dialog = adw::MessageDialog::new(
            Some(self),
            Some(&gettext_f("{} won the match", &[&name])),
            Some(&text),
        );
        dialog.add_responses(&[
            ("close", &gettext("_Close")),
            ("new", &gettext("_New Match")),
        ]);
        dialog.set_response_appearance("new", adw::ResponseAppearance::Suggested);
        dialog.set_default_response(Some("new"));
        dialog.set_close_response("close");
        dialog.connect_response(
            Some("new"),
            glib::clone!(
                #[weak(rename_to = window)]
                self,
                move |_, _| window.show_new_match()
            ),
        );
        dialog.present();
    }

    /// Enables the actions that make sense now and shows the matching buttons.
    fn update_actions(&self) {
        let imp = self.imp();
        let decision = self.decision();
        let next = self.next();
        let idle = !imp.animating.get() && imp.pending_bot.get().is_none();
        let human = |p: Player| idle && self.is_human(p);
        let (can_roll, can_double, answer_double, may_beaver, answer_resign, moving, next_game) =
            match decision {
                Some(Decision::Roll { player, may_double }) if human(player) => {
                    (true, may_double, false, false, false, false, false)
                }
                Some(Decision::OpeningRoll) => (idle, false, false, false, false, false, false),
                Some(Decision::Move { player, .. }) if human(player) => {
                    (false, false, false, false, false, true, false)
                }
                Some(Decision::AnswerDouble {
                    player, may_beaver, ..
                }) if human(player) => (false, false, true, may_beaver, false, false, false),
                Some(Decision::AnswerResignation { player, .. }) if human(player) => {
                    (false, false, false, false, true, false, false)
                }
                Some(Decision::NewGame) => (false, false, false, false, false, false, idle),
                _ => (false, false, false, false, false, false, false),
            };
        let complete = imp
            .board
            .model()
            .assembly()
            .is_some_and(|a| a.is_complete());
        let partial = imp
            .board
            .model()
            .assembly()
            .is_some_and(|a| !a.played().is_empty());
        let resign = idle && matches!(next, Some(Next::HumanDecides(_))) && !answer_resign;
        let bot_dice = idle
            && matches!(next, Some(Next::BotDecides(Decision::Roll { .. })))
            && self.manual_dice();
        self.action_set_enabled(
            "win.roll",
            can_roll || next_game || bot_dice || next.is_none(),
        );
        self.action_set_enabled("win.double", can_double);
        self.action_set_enabled("win.take", answer_double || answer_resign);
        self.action_set_enabled("win.drop", answer_double || answer_resign);
        self.action_set_enabled("win.beaver", may_beaver);
        self.action_set_enabled("win.finish-move", moving && complete);
        self.action_set_enabled("win.undo", moving && partial);
        self.action_set_enabled("win.resign", resign);
        self.action_set_enabled("win.hint", imp.session.borrow().is_some());
        imp.roll_button.set_visible(can_roll);
        imp.double_button.set_visible(can_double);
        imp.finish_button.set_visible(moving);
        imp.take_button.set_visible(answer_double);
        imp.drop_button.set_visible(answer_double);
        imp.beaver_button.set_visible(may_beaver);
        imp.accept_button.set_visible(answer_resign);
        imp.reject_button.set_visible(answer_resign);
        imp.next_button.set_visible(next_game);
    }

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
    /// move in progress, and where to click (window coordinates).
    fn write_debug_state(&self) {
        let imp = self.imp();
        let Some(path) = imp.debug_state.borrow().clone() else {
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
        let geom = board.geometry();
        // Board coordinates → window surface coordinates.
        let to_window = |x: f64, y: f64| -> Option<(f64, f64)> {
            let p = board.compute_point(self, &gtk::graphene::Point::new(x as f32, y as f32))?;
            let (sx, sy) = self.surface_transform();
            Some((f64::from(p.x()) + sx, f64::from(p.y()) + sy))
        };
        let model = board.model();
        let mut step = serde_json::Value::Null;
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
        let dice_seat = model.display().dice.map(|(s, _)| s).unwrap_or(Seat::Bottom);
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
        let can_finish = model.assembly().is_some_and(|a| a.is_complete());
        drop(model);
        let session = imp.session.borrow();
        let game = session.as_ref().map(|s| {
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
        json!({
            "game": game,
            "busy": imp.pending_bot.get().is_some() || imp.animating.get(),
            "partial": partial,
            "can_finish": can_finish,
            "step": step,
            "dice_xy": to_window(dx, dy),
            "roll_xy": to_window(rx, ry + geom.unit * 2.5),
        })
    }
}

/// The board before any match: the starting position and an invitation.
fn idle_display() -> crate::board::Display {
    crate::board::Display {
        roll: Some(Seat::Bottom),
        prompt: Some((Seat::Bottom, gettext("Click to start a new match"))),
        idle: true,
        ..crate::board::Display::default()
    }
}

/// "Match to 5 points · Ann 2, Cubeful 1" for the window subtitle.
fn board_subtitle(s: &Session) -> String {
    let score = s.game().score();
    let names = &s.setup().names;
    let scores = gettext_f(
        "{} {} – {} {}",
        &[
            &names[0],
            &score[Player::One.index()].to_string(),
            &score[Player::Zero.index()].to_string(),
            &names[1],
        ],
    );
    let length = s.setup().length;
    let kind = if length == 0 {
        gettext("Money session")
    } else {
        ngettext_f(
            "Match to {} point",
            "Match to {} points",
            u32::from(length),
            &[&length.to_string()],
        )
    };
    let opponent = match s.setup().opponent {
        Opponent::Bot(level) => crate::widgets::level_name(level),
        Opponent::Human => gettext("two players"),
    };
    format!("{kind} · {scores} · {opponent}")
}
