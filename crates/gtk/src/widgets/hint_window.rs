//! The hint window (Ctrl+H), as in GNU Backgammon's manual §5.1: the ranked plays of the roll
//! with the chances of both sides, the equity and the difference to the best play; before the
//! roll, the cube decision: no double, double/take and double/pass equities and the proper
//! action; when a double is to be answered, take, drop and (where allowed) beaver with their
//! equities and the proper answer. Clicking a play shows it on the board. A hint that takes
//! long can be stopped, and asked again. The level menu ends with "Rollout": the decision is
//! rolled out (the controller's `hint_rollout`), with the trials shown as it goes and a Stop
//! button, and the result fills the same table. The window only displays the engine's hints
//! (`cubeful_engine::analysis::hint`); the main window's controller asks the job pool and
//! hands over the answer.

use std::cell::{Cell, RefCell};

use adw::prelude::*;
use adw::subclass::prelude::*;
use cubeful_engine::analysis::hint::{CubeHint, Hint, RankedPlay, TakeHint};
use cubeful_engine::cube::{CubeAction, CubeOption, Response};
use cubeful_engine::eval::Probabilities;
use cubeful_engine::search::Level;
use cubeful_engine::LegalMove;
use gtk::glib;

use crate::i18n::{gettext, gettext_f, ngettext_f};
use crate::widgets::{level_at, level_index, level_list};

type MoveHandler = Box<dyn Fn(&LegalMove)>;
type LevelHandler = Box<dyn Fn(Level)>;
type RolloutHandler = Box<dyn Fn(bool)>;
type Handler = Box<dyn Fn()>;

mod imp {
    use super::*;

    #[derive(Default, gtk::CompositeTemplate)]
    #[template(file = "hint_window.ui")]
    pub struct HintWindow {
        #[template_child]
        pub level_dropdown: TemplateChild<gtk::DropDown>,
        #[template_child]
        pub stack: TemplateChild<gtk::Stack>,
        #[template_child]
        pub spinner: TemplateChild<gtk::Spinner>,
        #[template_child]
        pub thinking_label: TemplateChild<gtk::Label>,
        #[template_child]
        pub rollout_progress: TemplateChild<gtk::ProgressBar>,
        #[template_child]
        pub moves_list: TemplateChild<gtk::ListBox>,
        #[template_child]
        pub cube_grid: TemplateChild<gtk::Grid>,
        #[template_child]
        pub stop_button: TemplateChild<gtk::Button>,
        #[template_child]
        pub again_button: TemplateChild<gtk::Button>,
        /// The plays listed, in row order.
        pub moves: RefCell<Vec<LegalMove>>,
        pub on_show_move: RefCell<Vec<MoveHandler>>,
        pub on_level: RefCell<Vec<LevelHandler>>,
        pub on_rollout: RefCell<Vec<RolloutHandler>>,
        /// The last level chosen that is not "Rollout".
        pub level: Cell<Option<Level>>,
        /// The trials done and the trial limit of the rollout under way.
        pub trials: Cell<Option<(u32, u32)>>,
        /// The hint shown is a rollout: the plays rolled out and the trials.
        pub rolled_out: Cell<Option<(usize, u32)>>,
        pub on_stop: RefCell<Vec<Handler>>,
        pub on_again: RefCell<Vec<Handler>>,
    }

    impl std::fmt::Debug for HintWindow {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("HintWindow").finish_non_exhaustive()
        }
    }

    #[glib::object_subclass]
    impl ObjectSubclass for HintWindow {
        const NAME: &'static str = "CubefulHintWindow";
        type Type = super::HintWindow;
        type ParentType = adw::Window;

        fn class_init(klass: &mut Self::Class) {
            klass.bind_template();
            crate::widgets::close_on_escape(klass);
        }

        fn instance_init(obj: &glib::subclass::InitializingObject<Self>) {
            obj.init_template();
        }
    }

    impl ObjectImpl for HintWindow {
        fn constructed(&self) {
            self.parent_constructed();
            let obj = self.obj();
            let levels = level_list();
            levels.append(&gettext("Rollout"));
            self.level_dropdown.set_model(Some(&levels));
            // Closed while on "Rollout": it opens again at the last level.
            // (Once the closing is done, so that nothing is asked any more.)
            obj.connect_visible_notify(|obj| {
                if !obj.is_visible() && obj.is_rollout() {
                    glib::idle_add_local_once(glib::clone!(
                        #[weak]
                        obj,
                        move || {
                            if !obj.is_visible() {
                                let level = obj.level();
                                obj.imp().level_dropdown.set_selected(level_index(level));
                            }
                        }
                    ));
                }
            });
            self.stop_button.connect_clicked(glib::clone!(
                #[weak]
                obj,
                move |_| {
                    for f in obj.imp().on_stop.borrow().iter() {
                        f();
                    }
                }
            ));
            self.again_button.connect_clicked(glib::clone!(
                #[weak]
                obj,
                move |_| {
                    for f in obj.imp().on_again.borrow().iter() {
                        f();
                    }
                }
            ));
            self.moves_list.connect_row_activated(glib::clone!(
                #[weak]
                obj,
                move |_, row| {
                    let index = row.index();
                    let mv = usize::try_from(index)
                        .ok()
                        .and_then(|i| obj.imp().moves.borrow().get(i).copied());
                    if let Some(mv) = mv {
                        for f in obj.imp().on_show_move.borrow().iter() {
                            f(&mv);
                        }
                    }
                }
            ));
        }
    }

    impl WidgetImpl for HintWindow {}
    impl WindowImpl for HintWindow {}
    impl AdwWindowImpl for HintWindow {}
}

glib::wrapper! {
    /// The hint window.
    pub struct HintWindow(ObjectSubclass<imp::HintWindow>)
        @extends adw::Window, gtk::Window, gtk::Widget,
        @implements gtk::Buildable, gtk::ConstraintTarget, gtk::Native,
                    gtk::Root, gtk::ShortcutManager;
}

impl HintWindow {
    /// A hint window beside `parent`, evaluating at `level`.
    pub fn new(parent: &impl IsA<gtk::Window>, level: Level) -> HintWindow {
        let window: HintWindow = glib::Object::builder()
            .property("transient-for", parent)
            .build();
        let imp = window.imp();
        imp.level.set(Some(level));
        imp.level_dropdown.set_selected(level_index(level));
        imp.level_dropdown.connect_selected_notify(glib::clone!(
            #[weak]
            window,
            move |dropdown| {
                let imp = window.imp();
                let rollout = dropdown.selected() as usize == Level::ALL.len();
                for f in imp.on_rollout.borrow().iter() {
                    f(rollout);
                }
                if !rollout {
                    let level = level_at(dropdown.selected());
                    imp.level.set(Some(level));
                    for f in imp.on_level.borrow().iter() {
                        f(level);
                    }
                }
            }
        ));
        window.set_nothing();
        window
    }

    /// The level chosen for hints (the last one chosen while "Rollout" is).
    pub fn level(&self) -> Level {
        let imp = self.imp();
        imp.level
            .get()
            .unwrap_or_else(|| level_at(imp.level_dropdown.selected()))
    }

    /// "Rollout" is chosen in the level menu.
    pub fn is_rollout(&self) -> bool {
        self.imp().level_dropdown.selected() as usize == Level::ALL.len()
    }

    /// Chooses "Rollout" (`true`) or the last level in the level menu.
    pub fn set_rollout(&self, on: bool) {
        let index = if on {
            Level::ALL.len() as u32
        } else {
            level_index(self.level())
        };
        self.imp().level_dropdown.set_selected(index);
    }

    /// Calls `f` with `true` when the user picks "Rollout", `false` when he picks a level
    /// (before the level's own handlers).
    pub fn connect_rollout_changed<F: Fn(bool) + 'static>(&self, f: F) {
        self.imp().on_rollout.borrow_mut().push(Box::new(f));
    }

    /// Calls `f` with a play the user clicked.
    pub fn connect_show_move<F: Fn(&LegalMove) + 'static>(&self, f: F) {
        self.imp().on_show_move.borrow_mut().push(Box::new(f));
    }

    /// Calls `f` when the user picks another level.
    pub fn connect_level_changed<F: Fn(Level) + 'static>(&self, f: F) {
        self.imp().on_level.borrow_mut().push(Box::new(f));
    }

    /// Calls `f` when the user stops the hint being worked on.
    pub fn connect_stop<F: Fn() + 'static>(&self, f: F) {
        self.imp().on_stop.borrow_mut().push(Box::new(f));
    }

    /// Calls `f` when the user asks again after stopping.
    pub fn connect_ask_again<F: Fn() + 'static>(&self, f: F) {
        self.imp().on_again.borrow_mut().push(Box::new(f));
    }

    /// The user stopped the hint.
    pub fn set_stopped(&self) {
        let imp = self.imp();
        imp.spinner.set_spinning(false);
        imp.stack.set_visible_child_name("stopped");
    }

    /// The engine is working on it.
    pub fn set_thinking(&self) {
        let imp = self.imp();
        imp.spinner.set_spinning(true);
        let rollout = self.is_rollout();
        imp.trials.set(rollout.then_some((0, 0)));
        imp.rolled_out.set(None);
        imp.thinking_label.set_label(&if rollout {
            gettext("Rolling out…")
        } else {
            gettext("Thinking…")
        });
        imp.rollout_progress.set_visible(rollout);
        imp.rollout_progress.set_fraction(0.0);
        imp.rollout_progress
            .set_text(Some(&gettext("Starting the rollout…")));
        imp.stack.set_visible_child_name("thinking");
    }

    /// The rollout under way has played `trials` of `target` trials.
    pub fn set_progress(&self, trials: u32, target: u32) {
        let imp = self.imp();
        imp.trials.set(Some((trials, target)));
        let fraction = if target == 0 {
            0.0
        } else {
            f64::from(trials) / f64::from(target)
        };
        imp.rollout_progress.set_visible(true);
        imp.rollout_progress.set_fraction(fraction.clamp(0.0, 1.0));
        imp.rollout_progress.set_text(Some(&gettext_f(
            "{} of {} trials",
            &[&trials.to_string(), &target.to_string()],
        )));
    }

    /// This decision is not rolled out.
    pub fn set_no_rollout(&self) {
        let imp = self.imp();
        imp.spinner.set_spinning(false);
        imp.trials.set(None);
        imp.stack.set_visible_child_name("no_rollout");
    }

    /// Shows a hint whose figures come from a rollout of `trials` trials (of its first
    /// `rolled` plays, for a play list).
    pub fn set_rolled_out(
        &self,
        hint: &Hint,
        mover: &str,
        opponent: &str,
        rolled: usize,
        trials: u32,
    ) {
        self.imp().rolled_out.set(Some((rolled, trials)));
        self.show_hint(hint, mover, opponent);
    }

    /// What the window shows, for the debug state: its page, whether "Rollout" is chosen, the
    /// rollout under way (`running`, trials done and limit), a rollout shown, and the rows.
    pub fn debug_state(&self) -> serde_json::Value {
        let imp = self.imp();
        let page = imp
            .stack
            .visible_child_name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        let running = self.is_visible() && page == "thinking" && imp.trials.get().is_some();
        // Where the level menu and the Stop button are (this window's coordinates).
        let (sx, sy) = self.surface_transform();
        let centre = |w: &gtk::Widget| -> Option<[f64; 2]> {
            let b = w.compute_bounds(self)?;
            Some([
                f64::from(b.x() + b.width() / 2.0) + sx,
                f64::from(b.y() + b.height() / 2.0) + sy,
            ])
        };
        let stop_xy = (page == "thinking")
            .then(|| centre(imp.stop_button.upcast_ref()))
            .flatten();
        serde_json::json!({
            "level_xy": centre(imp.level_dropdown.upcast_ref()),
            "stop_xy": stop_xy,
            "open": self.is_visible(),
            "page": page,
            "rollout": self.is_rollout(),
            "running": running,
            "trials": imp.trials.get().map(|(d, t)| [d, t]),
            "rolled_out": imp.rolled_out.get().map(|(r, t)| serde_json::json!({ "plays": r, "trials": t })),
            "moves": imp.moves.borrow().len(),
        })
    }

    /// There is nothing to give a hint about.
    pub fn set_nothing(&self) {
        let imp = self.imp();
        imp.spinner.set_spinning(false);
        imp.stack.set_visible_child_name("nothing");
    }

    /// Shows a finished hint. `mover` and `opponent` name the player the hint is for (the
    /// player who decides) and the other one.
    pub fn set_hint(&self, hint: &Hint, mover: &str, opponent: &str) {
        self.imp().rolled_out.set(None);
        self.show_hint(hint, mover, opponent);
    }

    fn show_hint(&self, hint: &Hint, mover: &str, opponent: &str) {
        let imp = self.imp();
        imp.spinner.set_spinning(false);
        imp.trials.set(None);
        match hint {
            Hint::Moves(plays) => {
                self.fill_moves(&plays.moves, mover, opponent);
                imp.stack.set_visible_child_name("moves");
            }
            Hint::Cube(cube) => {
                self.fill_cube(cube, mover, opponent);
                imp.stack.set_visible_child_name("cube");
            }
            Hint::Take(take) => {
                self.fill_take(take, mover, opponent);
                imp.stack.set_visible_child_name("cube");
            }
            // Answers to resignations are not shown here.
            Hint::Resignation(_) => self.set_nothing(),
        }
    }

    /// How row `row` of the hint shown was scored: "2-ply", or "rollout, 1296 trials".
    fn depth_text(&self, row: usize, plies: u8) -> String {
        match self.imp().rolled_out.get() {
            Some((rolled, trials)) if row < rolled.max(1) => rollout_text(trials),
            _ => plies_text(plies),
        }
    }

    fn fill_moves(&self, moves: &[RankedPlay], mover: &str, opponent: &str) {
        let imp = self.imp();
        while let Some(row) = imp.moves_list.row_at_index(0) {
            imp.moves_list.remove(&row);
        }
        for (i, m) in moves.iter().enumerate() {
            let grid = gtk::Grid::builder()
                .column_spacing(12)
                .row_spacing(2)
                .margin_top(6)
                .margin_bottom(6)
                .margin_start(12)
                .margin_end(12)
                .build();
            let rank = label(&format!("{}.", i + 1), &["numeric", "dim-label"]);
            rank.set_width_chars(3);
            let text = if m.text.is_empty() {
                gettext("Cannot move")
            } else {
                m.text.clone()
            };
            let mv = label(&text, &["heading"]);
            mv.set_hexpand(true);
            let equity = label(&format!("{:+.3}", m.equity), &["numeric"]);
            equity.set_width_chars(7);
            equity.set_xalign(1.0);
            let diff = if i == 0 {
                String::new()
            } else {
                format!("{:+.3}", m.difference)
            };
            let diff = label(&diff, &["numeric", "dim-label"]);
            diff.set_width_chars(7);
            diff.set_xalign(1.0);
            let chances = label(
                &format!(
                    "{} · {}",
                    chances_text(mover, &m.probabilities),
                    self.depth_text(i, m.plies)
                ),
                &["caption", "dim-label", "numeric"],
            );
            let theirs = label(
                &chances_text(opponent, &m.probabilities.invert()),
                &["caption", "dim-label", "numeric"],
            );
            grid.attach(&rank, 0, 0, 1, 1);
            grid.attach(&mv, 1, 0, 1, 1);
            grid.attach(&equity, 2, 0, 1, 1);
            grid.attach(&diff, 3, 0, 1, 1);
            grid.attach(&chances, 1, 1, 3, 1);
            grid.attach(&theirs, 1, 2, 3, 1);
            let row = gtk::ListBoxRow::builder().child(&grid).build();
            row.set_tooltip_text(Some(&gettext("Show this move on the board")));
            imp.moves_list.append(&row);
        }
        imp.moves.replace(moves.iter().map(|m| m.mv).collect());
    }

    fn fill_cube(&self, cube: &CubeHint, mover: &str, opponent: &str) {
        let imp = self.imp();
        let grid = &imp.cube_grid;
        while let Some(child) = grid.first_child() {
            grid.remove(&child);
        }
        let d = &cube.decision;
        let title = label(
            &gettext_f(
                "Cube decision of {} · {}",
                &[mover, &self.depth_text(0, cube.plies)],
            ),
            &["title-4"],
        );
        grid.attach(&title, 0, 0, 3, 1);
        let best = d.optimal;
        for (i, option) in d.ordering().iter().enumerate() {
            let row = i as i32 + 1;
            let equity = d.equity(*option);
            grid.attach(
                &label(
                    &format!("{}. {}", i + 1, option_text(*option, d.centered)),
                    &[],
                ),
                0,
                row,
                1,
                1,
            );
            let e = label(&format!("{equity:+.3}"), &["numeric"]);
            e.set_xalign(1.0);
            grid.attach(&e, 1, row, 1, 1);
            let diff = if (equity - best).abs() < 5e-4 {
                String::new()
            } else {
                format!("({:+.3})", equity - best)
            };
            let diff = label(&diff, &["numeric", "dim-label"]);
            diff.set_xalign(1.0);
            grid.attach(&diff, 2, row, 1, 1);
        }
        let action = label(
            &gettext_f("Proper cube action: {}", &[&cube_action_text(d.action)]),
            &["heading"],
        );
        action.set_margin_top(12);
        grid.attach(&action, 0, 4, 3, 1);
        let mine = label(
            &chances_text(mover, &cube.probabilities),
            &["caption", "dim-label", "numeric"],
        );
        grid.attach(&mine, 0, 5, 3, 1);
        let theirs = label(
            &chances_text(opponent, &cube.probabilities.invert()),
            &["caption", "dim-label", "numeric"],
        );
        grid.attach(&theirs, 0, 6, 3, 1);
    }

    /// The answer to a double, from the side of the player answering (`mover`).
    fn fill_take(&self, take: &TakeHint, mover: &str, opponent: &str) {
        let imp = self.imp();
        let grid = &imp.cube_grid;
        while let Some(child) = grid.first_child() {
            grid.remove(&child);
        }
        let title = label(
            &gettext_f(
                "Cube decision of {} · {}",
                &[mover, &self.depth_text(0, take.plies)],
            ),
            &["title-4"],
        );
        grid.attach(&title, 0, 0, 3, 1);
        let ranked = take.ranked();
        let best = ranked[0].1;
        let mut row = 1;
        for (i, (answer, equity)) in ranked.iter().enumerate() {
            grid.attach(
                &label(&format!("{}. {}", i + 1, answer_text(*answer)), &[]),
                0,
                row,
                1,
                1,
            );
            let e = label(&format!("{equity:+.3}"), &["numeric"]);
            e.set_xalign(1.0);
            grid.attach(&e, 1, row, 1, 1);
            let diff = if i == 0 {
                String::new()
            } else {
                format!("({:+.3})", equity - best)
            };
            let diff = label(&diff, &["numeric", "dim-label"]);
            diff.set_xalign(1.0);
            grid.attach(&diff, 2, row, 1, 1);
            row += 1;
        }
        let action = label(
            &gettext_f("Proper cube action: {}", &[&answer_text(take.response)]),
            &["heading"],
        );
        action.set_margin_top(12);
        grid.attach(&action, 0, row, 3, 1);
        let chances = take.answerer_probabilities();
        let mine = label(
            &chances_text(mover, &chances),
            &["caption", "dim-label", "numeric"],
        );
        grid.attach(&mine, 0, row + 1, 3, 1);
        let theirs = label(
            &chances_text(opponent, &chances.invert()),
            &["caption", "dim-label", "numeric"],
        );
        grid.attach(&theirs, 0, row + 2, 3, 1);
    }
}

fn label(text: &str, classes: &[&str]) -> gtk::Label {
    let l = gtk::Label::new(Some(text));
    l.set_xalign(0.0);
    for c in classes {
        l.add_css_class(c);
    }
    l
}

fn percent(p: f32) -> String {
    format!("{:.1}%", p * 100.0)
}

/// "Ann: wins 52.1% (gammon 14.3%, backgammon 0.6%)".
pub fn chances_text(name: &str, p: &Probabilities) -> String {
    gettext_f(
        "{}: wins {} (gammon {}, backgammon {})",
        &[
            name,
            &percent(p.win),
            &percent(p.win_gammon),
            &percent(p.win_backgammon),
        ],
    )
}

/// "2-ply".
pub fn plies_text(plies: u8) -> String {
    gettext_f("{}-ply", &[&plies.to_string()])
}

/// "Rollout, 1296 trials".
pub fn rollout_text(trials: u32) -> String {
    ngettext_f(
        "Rollout, {} trial",
        "Rollout, {} trials",
        trials,
        &[&trials.to_string()],
    )
}

/// The translated name of a cube alternative.
pub fn option_text(option: CubeOption, centred: bool) -> String {
    match (option, centred) {
        (CubeOption::NoDouble, true) => gettext("No double"),
        (CubeOption::NoDouble, false) => gettext("No redouble"),
        (CubeOption::DoubleTake, true) => gettext("Double, take"),
        (CubeOption::DoubleTake, false) => gettext("Redouble, take"),
        (CubeOption::DoublePass, true) => gettext("Double, pass"),
        (CubeOption::DoublePass, false) => gettext("Redouble, pass"),
    }
}

/// The translated name of an answer to a double.
pub fn answer_text(answer: Response) -> String {
    match answer {
        Response::Take => gettext("Take"),
        Response::Pass => gettext("Drop"),
        Response::Beaver => gettext("Beaver"),
    }
}

/// The translated text of a proper cube action.
pub fn cube_action_text(action: CubeAction) -> String {
    match action {
        CubeAction::DoubleTake => gettext("Double, take"),
        CubeAction::DoublePass => gettext("Double, pass"),
        CubeAction::NoDoubleTake => gettext("No double, take"),
        CubeAction::TooGoodTake => gettext("Too good to double, take"),
        CubeAction::TooGoodPass => gettext("Too good to double, pass"),
        CubeAction::DoubleBeaver => gettext("Double, beaver"),
        CubeAction::NoDoubleBeaver => gettext("No double, beaver"),
        CubeAction::RedoubleTake => gettext("Redouble, take"),
        CubeAction::RedoublePass => gettext("Redouble, pass"),
        CubeAction::NoRedoubleTake => gettext("No redouble, take"),
        CubeAction::TooGoodRedoubleTake => gettext("Too good to redouble, take"),
        CubeAction::TooGoodRedoublePass => gettext("Too good to redouble, pass"),
        CubeAction::NoRedoubleBeaver => gettext("No redouble, beaver"),
        CubeAction::NoDoubleDeadCube => gettext("Never double, take (dead cube)"),
        CubeAction::NoRedoubleDeadCube => gettext("Never redouble, take (dead cube)"),
        CubeAction::NotAvailable => gettext("Double not available"),
        CubeAction::OptionalDoubleTake => gettext("Optional double, take"),
        CubeAction::OptionalRedoubleTake => gettext("Optional redouble, take"),
        CubeAction::OptionalDoubleBeaver => gettext("Optional double, beaver"),
        CubeAction::OptionalDoublePass => gettext("Optional double, pass"),
        CubeAction::OptionalRedoublePass => gettext("Optional redouble, pass"),
    }
}
