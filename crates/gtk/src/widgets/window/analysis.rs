//! The window's analysis: the analysis pane under the record pane (following the selected
//! action and the record's revision), the Analyse menu (match, game, move, statistics, equity
//! graph, stop), background analyses on the job pool with their progress, and the statistics
//! and equity graph windows.
//!
//! An analysis job carries a copy of the record (never the `Game`), cut to what is asked
//! (`analysis_view::analysis_request`). Each action's analysis comes back on its own channel as
//! soon as it is ready and is stored in the session's record at once
//! (`Controller::set_analysis`); the record pane and the board are refreshed at most every
//! [`REFRESH`] so that a fast analysis never floods the main loop. A result is stored only if
//! the action at that place of the record is still the one analysed (the user may have started
//! another match meanwhile).
//!
//! While an analysis runs, the window measures its responsiveness for the end-to-end test and
//! docs/BENCHMARKS.md: each frame's time on the main thread, from the frame clock's
//! `before-paint` to its `after-paint` (`longest_frame_ms`, `frames`, `frames_over_16ms` in the
//! debug state), and how late a 10 ms timer on the main loop fires (`longest_stall_ms`: the
//! longest time the main loop was kept from running, the timer's period included).

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use adw::prelude::*;
use adw::subclass::prelude::*;
use cubeful_engine::analysis::analyse::Analysed;
use cubeful_engine::game::record::{ActionAnalysis, MatchRecord, Replay};
use gtk::{gio, glib};

use super::{CubefulWindow, WindowAction};
use crate::analysis_view::{self, action_view, analysis_request, Depth, Scope};
use crate::equity_graph_data::GraphData;
use crate::i18n::{gettext, gettext_f};
use crate::jobs::{Job, JobHandle, JobId, JobKind, Output, Reply};
use crate::widgets::analysis_pane::AnalysisPane;
use crate::widgets::equity_graph::EquityGraph;
use crate::widgets::statistics_window::StatisticsWindow;

/// Analysis jobs have ids from here on, apart from the controller's.
const FIRST_ID: u64 = 1 << 60;

/// The record pane and the board follow stored results at most this often.
const REFRESH: Duration = Duration::from_millis(400);

/// The progress bar follows the analysis at most this often.
const PROGRESS: Duration = Duration::from_millis(200);

/// The period of the main-loop latency probe.
const PROBE: Duration = Duration::from_millis(10);

/// A running analysis.
#[derive(Debug)]
struct Running {
    handle: JobHandle,
    scope: Scope,
    depth: Depth,
    /// The record analysed (the copy handed to the job) and the index of its first game in
    /// the session's record.
    analysed: Rc<MatchRecord>,
    first_game: usize,
    done: u64,
    total: u64,
    /// The trials done and the trial limit of the rollout under way.
    trials: Option<(u32, u32)>,
    started: Instant,
    /// When the progress bar was last updated.
    shown: Option<Instant>,
}

/// The window's analysis state (a field of the window).
#[derive(Debug, Default)]
pub struct AnalysisState {
    pane: Option<AnalysisPane>,
    statistics: Option<StatisticsWindow>,
    graph: Option<EquityGraph>,
    running: Option<Running>,
    next_id: u64,
    /// The replay of the record at a revision, for the pane.
    replay: Option<(u64, Rc<Replay>)>,
    /// Results stored in the current or last run.
    stored: usize,
    /// A refresh of the record pane is scheduled.
    refresh_pending: bool,
    /// The longest delay of the main loop seen during the last analysis, in milliseconds.
    longest_stall_ms: f64,
    /// Frames painted during the last analysis, the longest one's main-thread time in
    /// milliseconds, and how many took longer than 16 ms.
    frames: u64,
    longest_frame_ms: f64,
    frames_over_16ms: u64,
    /// The last run ended: "finished", "stopped" or an error.
    last_end: Option<String>,
}

impl CubefulWindow {
    fn analysis_state(&self) -> std::cell::RefMut<'_, AnalysisState> {
        self.imp().analysis.borrow_mut()
    }

    /// Creates the analysis pane in the analysis slot and the Analyse actions.
    pub(super) fn set_up_analysis(&self) {
        let pane = AnalysisPane::new();
        pane.connect_candidate_activated(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move |index| window.preview_candidate(index)
        ));
        // The level is remembered in the settings when it is changed.
        pane.level_selector().connect_selected_notify(glib::clone!(
            #[weak(rename_to = window)]
            self,
            #[weak]
            pane,
            move |_| {
                let plies = pane.level_plies();
                if let Some(app) = window.app() {
                    if app.settings().analysis_plies != plies {
                        app.update_settings(|s| s.analysis_plies = plies);
                    }
                }
                window.write_debug_state();
            }
        ));
        // Once laid out, tests can find its controls.
        pane.connect_map(glib::clone!(
            #[weak(rename_to = window)]
            self,
            move |_| {
                glib::idle_add_local_once(glib::clone!(
                    #[weak]
                    window,
                    move || window.write_debug_state()
                ));
            }
        ));
        self.analysis_slot().set_child(Some(&pane));
        self.analysis_state().pane = Some(pane);
        let actions: [(&str, WindowAction); 7] = [
            ("analyse-match", |w| w.start_analysis_of(None)),
            ("analyse-game", |w| {
                let game = w.target().map(|(g, _)| g);
                if let Some(g) = game {
                    w.start_analysis_of(Some(Scope::Game(g)));
                }
            }),
            ("analyse-move", |w| {
                if let Some((game, entry)) = w.target() {
                    let plies = w.pane_plies();
                    w.start_analysis(Scope::Action { game, entry }, Depth::Plies(plies));
                }
            }),
            ("rollout-move", |w| {
                if let Some((game, entry)) = w.target() {
                    w.start_analysis(Scope::Action { game, entry }, Depth::Rollout);
                }
            }),
            ("analyse-stop", |w| w.stop_analysis()),
            ("statistics", |w| w.show_statistics()),
            ("equity-graph", |w| w.show_equity_graph()),
        ];
        self.add_plain_actions(&actions);
        let model = self.model();
        for property in ["selected-game", "selected-entry", "record-revision"] {
            model.connect_notify_local(
                Some(property),
                glib::clone!(
                    #[weak(rename_to = window)]
                    self,
                    move |_, _| window.refresh_analysis()
                ),
            );
        }
        self.refresh_analysis();
    }

    /// Chooses the analysis pane's level (`plies`, from the settings).
    pub(super) fn set_analysis_level(&self, plies: u8) {
        let pane = self.analysis_state().pane.clone();
        if let Some(pane) = pane {
            pane.set_level_plies(plies);
        }
    }

    fn pane_plies(&self) -> u8 {
        self.analysis_state()
            .pane
            .as_ref()
            .map_or(2, AnalysisPane::level_plies)
    }

    /// The action the Game and Move commands are about: the selected one, or the last of the
    /// record.
    fn target(&self) -> Option<(usize, usize)> {
        let c = self.imp().controller.borrow();
        if let Some(selection) = c.selection() {
            return Some(selection);
        }
        let record = c.session()?.game().record();
        let game = record.games.len().checked_sub(1)?;
        let entry = record.games[game].entries.len().checked_sub(1)?;
        Some((game, entry))
    }

    /// The replay of the session's record (made again when the record changed).
    fn replay(&self) -> Option<Rc<Replay>> {
        let revision = self.model().record_revision();
        if let Some((r, replay)) = self.analysis_state().replay.as_ref() {
            if *r == revision {
                return Some(replay.clone());
            }
        }
        let replay = {
            let c = self.imp().controller.borrow();
            let record = c.session()?.game().record();
            Rc::new(record.replay_lenient().ok()?.replay)
        };
        self.analysis_state().replay = Some((revision, replay.clone()));
        Some(replay)
    }

    /// Shows the analysis of the selected action, the statistics and the graph again, and
    /// enables the commands that make sense now.
    fn refresh_analysis(&self) {
        let replay = self.replay();
        let selection = self.imp().controller.borrow().selection();
        let view = match (&replay, selection) {
            (Some(replay), Some((game, entry))) => {
                let c = self.imp().controller.borrow();
                c.session()
                    .and_then(|s| action_view(s.game().record(), replay, game, entry))
            }
            _ => None,
        };
        let (pane, statistics, graph, running) = {
            let s = self.analysis_state();
            (
                s.pane.clone(),
                s.statistics.clone(),
                s.graph.clone(),
                s.running.is_some(),
            )
        };
        if let Some(pane) = &pane {
            pane.show(view.as_ref());
        }
        if let Some(w) = statistics.filter(|w| w.is_visible()) {
            if let Some(s) = self.imp().controller.borrow().session() {
                w.set_record(s.game().record());
            }
        }
        if let Some(g) = graph.filter(|g| g.is_visible()) {
            self.fill_graph(&g);
        }
        let has_actions = self.imp().controller.borrow().session().is_some_and(|s| {
            s.game()
                .record()
                .games
                .iter()
                .any(|g| !g.entries.is_empty())
        });
        for name in [
            "analyse-match",
            "analyse-game",
            "analyse-move",
            "rollout-move",
        ] {
            self.enable(name, has_actions && !running);
        }
        self.enable("analyse-stop", running);
        self.enable("statistics", has_actions);
        self.enable("equity-graph", has_actions);
    }

    fn enable(&self, name: &str, enabled: bool) {
        if let Some(action) = self.lookup_action(name).and_downcast::<gio::SimpleAction>() {
            action.set_enabled(enabled);
        }
    }

    /// Shows candidate `index` of the selected checker play on the board (until the board is
    /// shown again for another reason).
    fn preview_candidate(&self, index: usize) {
        let Some(replay) = self.replay() else {
            return;
        };
        let display = {
            let c = self.imp().controller.borrow();
            let (Some(session), Some((game, entry))) = (c.session(), c.selection()) else {
                return;
            };
            let record = session.game().record();
            let Some(entry_data) = record.games.get(game).and_then(|g| g.entries.get(entry)) else {
                return;
            };
            let Some(mv) = entry_data
                .analysis
                .as_ref()
                .and_then(|a| a.moves.as_ref())
                .and_then(|m| m.candidates.get(index))
                .map(|c| c.mv)
            else {
                return;
            };
            let Some(after) = analysis_view::position_after(&replay, game, entry, &mv) else {
                return;
            };
            let Some(mut display) = c.record_view().display(game, entry, &session.setup().names)
            else {
                return;
            };
            let mover = entry_data.action.player();
            display.position = match mover {
                cubeful_engine::Player::One => after,
                cubeful_engine::Player::Zero => after.swap(),
            };
            display.last_move = (!mv.is_empty())
                .then(|| crate::review::last_move(crate::session::seat_of(mover), &mv));
            display
        };
        self.imp().rendered.replace(None);
        self.imp().board.set_display(display);
    }

    // ------------------------------------------------------------------------------------
    // Running analyses
    // ------------------------------------------------------------------------------------

    /// Analyses the match (`None`) or `scope` at the pane's level.
    fn start_analysis_of(&self, scope: Option<Scope>) {
        let plies = self.pane_plies();
        self.start_analysis(scope.unwrap_or(Scope::Match), Depth::Plies(plies));
    }

    /// Starts analysing `scope` at `depth` on the job pool (one analysis at a time).
    pub fn start_analysis(&self, scope: Scope, depth: Depth) {
        if self.analysis_state().running.is_some() {
            self.toast(&gettext("An analysis is running already."));
            return;
        }
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .saturating_sub(1)
            .max(1);
        let request = {
            let c = self.imp().controller.borrow();
            c.session()
                .and_then(|s| analysis_request(s.game().record(), scope, depth, threads))
        };
        let Some((record, settings, first_game)) = request else {
            return;
        };
        let analysed = Rc::new(record.clone());
        let (results, incoming) = async_channel::unbounded::<Analysed>();
        let id = {
            let mut s = self.analysis_state();
            s.next_id += 1;
            JobId(FIRST_ID + s.next_id)
        };
        let job = Job::new(
            id,
            JobKind::Analysis {
                record: Box::new(record),
                settings: Box::new(settings),
                threads,
                results,
            },
        );
        {
            let mut s = self.analysis_state();
            s.running = Some(Running {
                handle: job.handle(),
                scope,
                depth,
                analysed,
                first_game,
                done: 0,
                total: 0,
                trials: None,
                started: Instant::now(),
                shown: None,
            });
            s.stored = 0;
            s.longest_stall_ms = 0.0;
            s.frames = 0;
            s.longest_frame_ms = 0.0;
            s.frames_over_16ms = 0;
            s.last_end = None;
        }
        if let Some(pool) = self.imp().pool.borrow().as_ref() {
            pool.submit(job);
        }
        glib::spawn_future_local(glib::clone!(
            #[weak(rename_to = window)]
            self,
            async move {
                while let Ok(result) = incoming.recv().await {
                    window.store_result(id, &result);
                }
            }
        ));
        self.start_probe(id);
        self.show_progress();
        self.refresh_analysis();
    }

    /// Stops the running analysis (what was analysed so far stays).
    pub fn stop_analysis(&self) {
        if let Some(r) = self.analysis_state().running.as_ref() {
            r.handle.cancel();
        }
    }

    fn is_running(&self, id: JobId) -> bool {
        self.analysis_state()
            .running
            .as_ref()
            .is_some_and(|r| r.handle.id == id)
    }

    /// Stores one action's analysis in the session's record, if the action is still there.
    fn store_result(&self, id: JobId, result: &Analysed) {
        let target = {
            let s = self.analysis_state();
            let Some(r) = s.running.as_ref().filter(|r| r.handle.id == id) else {
                return;
            };
            let Some(action) = r
                .analysed
                .games
                .get(result.game)
                .and_then(|g| g.entries.get(result.entry))
                .map(|e| e.action.clone())
            else {
                return;
            };
            (r.first_game + result.game, result.entry, action)
        };
        let (game, entry, action) = target;
        let stored = {
            let mut c = self.imp().controller.borrow_mut();
            let same = c
                .session()
                .and_then(|s| s.game().record().games.get(game))
                .and_then(|g| g.entries.get(entry))
                .is_some_and(|e| e.action == action);
            let analysis = (result.analysis != ActionAnalysis::default())
                .then(|| Box::new(result.analysis.clone()));
            let already = c
                .session()
                .and_then(|s| s.game().record().games.get(game))
                .and_then(|g| g.entries.get(entry))
                .is_some_and(|e| e.analysis == analysis);
            same && !already && c.set_analysis(game, entry, analysis)
        };
        if stored {
            self.analysis_state().stored += 1;
            self.schedule_refresh();
        }
    }

    /// Refreshes the record pane and the board soon (at most every [`REFRESH`]).
    fn schedule_refresh(&self) {
        {
            let mut s = self.analysis_state();
            if s.refresh_pending {
                return;
            }
            s.refresh_pending = true;
        }
        glib::timeout_add_local_once(
            REFRESH,
            glib::clone!(
                #[weak(rename_to = window)]
                self,
                move || {
                    window.analysis_state().refresh_pending = false;
                    window.record_changed();
                }
            ),
        );
    }

    /// Measures how late the main loop runs a timer, and how long each frame takes, while
    /// analysis `id` runs.
    fn start_probe(&self, id: JobId) {
        let clock = self.frame_clock();
        let handlers = clock.as_ref().map(|clock| {
            let started: Rc<Cell<Option<Instant>>> = Rc::default();
            let before = clock.connect_before_paint(glib::clone!(
                #[strong]
                started,
                move |_| started.set(Some(Instant::now()))
            ));
            let after = clock.connect_after_paint(glib::clone!(
                #[weak(rename_to = window)]
                self,
                move |_| {
                    if let Some(t) = started.take() {
                        let ms = t.elapsed().as_secs_f64() * 1000.0;
                        let mut s = window.analysis_state();
                        s.frames += 1;
                        s.longest_frame_ms = s.longest_frame_ms.max(ms);
                        if ms > 16.0 {
                            s.frames_over_16ms += 1;
                        }
                    }
                }
            ));
            [before, after]
        });
        let mut handlers = clock.zip(handlers);
        let last = Cell::new(Instant::now());
        glib::timeout_add_local(
            PROBE,
            glib::clone!(
                #[weak(rename_to = window)]
                self,
                #[upgrade_or]
                glib::ControlFlow::Break,
                move || {
                    let now = Instant::now();
                    let late = now.duration_since(last.get()).as_secs_f64() * 1000.0;
                    last.set(now);
                    let running = window.is_running(id);
                    let mut s = window.analysis_state();
                    if late > s.longest_stall_ms {
                        s.longest_stall_ms = late;
                    }
                    if running {
                        glib::ControlFlow::Continue
                    } else {
                        if let Some((clock, ids)) = handlers.take() {
                            for id in ids {
                                clock.disconnect(id);
                            }
                        }
                        glib::ControlFlow::Break
                    }
                }
            ),
        );
    }

    /// A reply of the job pool: analysis replies are handled here (`None` comes back), the
    /// others are given back for the controller.
    pub(super) fn analysis_reply(&self, reply: Reply) -> Option<Reply> {
        if reply.id().0 < FIRST_ID {
            return Some(reply);
        }
        let id = reply.id();
        if !self.is_running(id) {
            return None;
        }
        match reply {
            Reply::Progress {
                done,
                total,
                trials,
                ..
            } => {
                let show = {
                    let mut s = self.analysis_state();
                    let r = s.running.as_mut()?;
                    r.done = done;
                    r.total = total;
                    r.trials = trials;
                    let due = r.shown.is_none_or(|t| t.elapsed() >= PROGRESS) || done == total;
                    if due {
                        r.shown = Some(Instant::now());
                    }
                    due
                };
                if show {
                    self.show_progress();
                }
            }
            Reply::Done { output, .. } => {
                let end = match output {
                    Output::Analysis(Ok(outcome)) => {
                        // Anything still on its way is in the outcome.
                        for a in &outcome.analysed {
                            self.store_result(id, a);
                        }
                        if outcome.cancelled {
                            gettext("Analysis stopped.")
                        } else {
                            gettext("Analysis finished.")
                        }
                    }
                    Output::Analysis(Err(e)) => {
                        gettext_f("The match cannot be analysed: {}", &[&e.to_string()])
                    }
                    _ => gettext("Analysis finished."),
                };
                self.end_analysis(end);
            }
            Reply::Cancelled { .. } => self.end_analysis(gettext("Analysis stopped.")),
        }
        None
    }

    fn end_analysis(&self, text: String) {
        let stored = {
            let mut s = self.analysis_state();
            s.running = None;
            s.last_end = Some(text.clone());
            s.stored
        };
        self.show_progress();
        self.toast(&text);
        let _ = stored;
        self.record_changed();
        self.refresh_analysis();
    }

    /// Shows the running analysis' progress in the pane (or hides the bar).
    fn show_progress(&self) {
        let (pane, progress) = {
            let s = self.analysis_state();
            (
                s.pane.clone(),
                s.running.as_ref().map(|r| {
                    let what = match (r.scope, r.depth) {
                        (_, Depth::Rollout) => gettext("Rolling out"),
                        (Scope::Match, _) => gettext("Analysing the match"),
                        (Scope::Game(_), _) => gettext("Analysing the game"),
                        (Scope::Action { .. }, _) => gettext("Analysing the decision"),
                    };
                    let fraction = match r.trials {
                        // One position rolled out: the bar follows its trials.
                        Some((trials, limit)) if r.total <= 1 && limit > 0 => {
                            Some(f64::from(trials) / f64::from(limit))
                        }
                        _ => (r.total > 1).then(|| r.done as f64 / r.total as f64),
                    };
                    let text = if let (Some((trials, limit)), true) = (r.trials, r.total <= 1) {
                        gettext_f(
                            "{}: {} of {} trials",
                            &[&what, &trials.to_string(), &limit.to_string()],
                        )
                    } else if r.total > 1 {
                        gettext_f(
                            "{}: {} of {}",
                            &[&what, &r.done.to_string(), &r.total.to_string()],
                        )
                    } else {
                        let secs = r.started.elapsed().as_secs().to_string();
                        gettext_f("{} ({} s)", &[&what, &secs])
                    };
                    (fraction, text)
                }),
            )
        };
        if let Some(pane) = pane {
            match &progress {
                Some((fraction, text)) => pane.set_progress(Some((*fraction, text))),
                None => pane.set_progress(None),
            }
        }
        // Until a rollout reports its trials there is nothing to count: keep the bar moving.
        let pulsing = self
            .analysis_state()
            .running
            .as_ref()
            .is_some_and(|r| r.total <= 1 && r.trials.is_none());
        if pulsing {
            glib::timeout_add_local_once(
                Duration::from_millis(500),
                glib::clone!(
                    #[weak(rename_to = window)]
                    self,
                    move || {
                        let still = window
                            .analysis_state()
                            .running
                            .as_ref()
                            .is_some_and(|r| r.total <= 1 && r.trials.is_none());
                        if still {
                            window.show_progress();
                        }
                    }
                ),
            );
        }
    }

    // ------------------------------------------------------------------------------------
    // Statistics and the equity graph
    // ------------------------------------------------------------------------------------

    /// Opens (or raises) the statistics window.
    pub fn show_statistics(&self) {
        let existing = self.analysis_state().statistics.clone();
        let w = existing.unwrap_or_else(|| {
            let w = StatisticsWindow::new(self);
            w.connect_visible_notify(glib::clone!(
                #[weak(rename_to = window)]
                self,
                move |_| window.write_debug_state()
            ));
            self.analysis_state().statistics = Some(w.clone());
            w
        });
        if let Some(s) = self.imp().controller.borrow().session() {
            w.set_record(s.game().record());
        }
        w.present();
        self.write_debug_state();
    }

    /// Opens (or raises) the equity graph.
    pub fn show_equity_graph(&self) {
        let existing = self.analysis_state().graph.clone();
        let g = existing.unwrap_or_else(|| {
            let g = EquityGraph::new(self);
            g.connect_select(glib::clone!(
                #[weak(rename_to = window)]
                self,
                move |game, entry| window.select_action(game, entry)
            ));
            g.connect_visible_notify(glib::clone!(
                #[weak(rename_to = window)]
                self,
                move |_| window.write_debug_state()
            ));
            self.analysis_state().graph = Some(g.clone());
            g
        });
        self.fill_graph(&g);
        g.present();
        self.write_debug_state();
    }

    fn fill_graph(&self, graph: &EquityGraph) {
        let Some(replay) = self.replay() else {
            return;
        };
        let (data, name, selection) = {
            let c = self.imp().controller.borrow();
            let Some(s) = c.session() else {
                return;
            };
            let record = s.game().record();
            (
                GraphData::new(record, &replay),
                analysis_view::player_name(record, cubeful_engine::Player::Zero),
                c.selection(),
            )
        };
        graph.set_data(data, &name);
        graph.set_current(selection);
    }

    /// The analysis part of the debug state (`--debug-state`).
    pub(super) fn analysis_debug_state(&self) -> serde_json::Value {
        use serde_json::json;
        let s = self.analysis_state();
        let c = self.imp().controller.borrow();
        let analysed = c.session().map_or(0, |s| {
            s.game()
                .record()
                .games
                .iter()
                .flat_map(|g| &g.entries)
                .filter(|e| e.analysis.is_some())
                .count()
        });
        let pane = s.pane.as_ref();
        let items = pane.map(|p| p.items());
        let played = items.as_ref().and_then(|items| {
            (0..items.n_items()).find(|&i| {
                items
                    .item(i)
                    .and_downcast::<crate::widgets::analysis_pane::CandidateItem>()
                    .is_some_and(|c| c.played())
            })
        });
        // Where the level selector and the Stop button are (window coordinates; null while
        // not shown), for tests to click them.
        let centre = |w: gtk::Widget| {
            if !w.is_mapped() {
                return None;
            }
            let point = gtk::graphene::Point::new(w.width() as f32 / 2.0, w.height() as f32 / 2.0);
            let p = w.compute_point(self, &point)?;
            let (sx, sy) = self.surface_transform();
            Some([f64::from(p.x()) + sx, f64::from(p.y()) + sy])
        };
        let level_xy = pane.and_then(|p| centre(p.level_selector().upcast()));
        let stop_xy = pane.and_then(|p| centre(p.stop_button().upcast()));
        json!({
            "level_xy": level_xy,
            "stop_xy": stop_xy,
            "running": s.running.is_some(),
            "done": s.running.as_ref().map(|r| r.done),
            "total": s.running.as_ref().map(|r| r.total),
            "stored": s.stored,
            "last_end": s.last_end,
            "analysed_entries": analysed,
            "longest_stall_ms": s.longest_stall_ms,
            "frames": s.frames,
            "longest_frame_ms": s.longest_frame_ms,
            "frames_over_16ms": s.frames_over_16ms,
            "pane_heading": pane.map(AnalysisPane::heading),
            "pane_candidates": items.as_ref().map(|i| i.n_items()),
            "pane_played": played,
            "pane_level": pane.map(AnalysisPane::level_plies),
            "statistics_visible": s.statistics.as_ref().is_some_and(|w| w.is_visible()),
            "statistics_rows": s.statistics.as_ref().map(|w| w.rows()),
            "graph_visible": s.graph.as_ref().is_some_and(|g| g.is_visible()),
            "graph_points": s.graph.as_ref().map(|g| g.points()),
        })
    }
}
