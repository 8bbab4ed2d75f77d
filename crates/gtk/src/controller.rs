//! The match controller: the flow of a match in the window, without GTK.
//!
//! The engine decides who acts next ([`Session::next`], the engine's `game::flow::next`); the
//! controller keeps track of what the window is doing about it, in one [`State`]: waiting for
//! a person, waiting for the bot's job, showing a move, waiting for dice entered by hand,
//! pausing before the next game, or the game or the match is over. The window calls one method
//! per input (a click, a shortcut, a dialog's answer, a worker's reply, the end of an
//! animation, a timer) and carries out the [`Effect`]s it gets back: submit a job, animate a
//! move, open a dialog, start a timer, show a toast, update the hint window. Then it shows the
//! controller's [`Controller::display`], [`Controller::status`] and [`Controller::controls`].
//!
//! Whatever arrives late is recognised and dropped: a worker's answer by its job id, the end
//! of an animation and a timer by a token that only the current state holds. The tests below
//! play matches through the controller, with the engine's jobs run in place of the pool.
//!
//! The hint is the controller's business too: while the hint window is open, the controller
//! asks for a hint whenever the question changes (another position, decision or level),
//! cancels the hint nobody wants any more, and passes the answer on.

use std::time::Duration;

use cubeful_engine::analysis::hint::{Hint, Query};
use cubeful_engine::analysis::resign::rejected_offer;
use cubeful_engine::formats::ids::{identify, IdentifyError};
use cubeful_engine::game::flow::Next;
use cubeful_engine::game::record::RecordAction;
use cubeful_engine::game::{Action, Decision, Event, GameError};
use cubeful_engine::rules::assembly::MoveAssembly;
use cubeful_engine::rules::movegen::play_steps;
use cubeful_engine::search::Level;
use cubeful_engine::{Dice, LegalMove, MatchState, Move, Player, Position, Resignation};

use std::cell::RefCell;
use std::rc::Rc;

use crate::board::{Display, Seat};
use crate::i18n::{gettext, gettext_f, ngettext_f};
use crate::jobs::{Job, JobHandle, JobId, JobKind, Output, Reply};
use crate::review::{Nav, RecordView, Selection};
use crate::session::{error_text, level_name, player_at, MatchSetup, Opponent, Session};
use crate::settings::Settings;

pub mod tutor;

/// How long a finished game stays on the board before the next one starts by itself.
pub const NEXT_GAME_DELAY: Duration = Duration::from_millis(1500);

/// The user's preferences that change the flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preferences {
    /// Show the bot's moves and forced moves checker by checker.
    pub animate: bool,
    /// Play a person's move by itself when the roll leaves no choice.
    pub auto_forced_moves: bool,
    /// Start the next game of a match by itself, after [`NEXT_GAME_DELAY`].
    pub auto_next_game: bool,
}

impl Default for Preferences {
    fn default() -> Preferences {
        Preferences::from(&Settings::default())
    }
}

impl From<&Settings> for Preferences {
    fn from(s: &Settings) -> Preferences {
        Preferences {
            animate: s.animate,
            auto_forced_moves: s.auto_forced_moves,
            auto_next_game: s.auto_next_game,
        }
    }
}

/// What the window is doing about the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// No match has been started.
    NoMatch,
    /// Waiting for a person: a decision of a human player, or a click for the opening roll.
    HumanToAct,
    /// The bot is deciding; its job.
    BotThinking { job: JobId },
    /// A move just played (the bot's, or a forced one) is being shown; the token identifies
    /// the animation.
    Animating { token: u64 },
    /// The dice are entered by hand: the roll of `player` (`None`: the opening roll).
    /// `asking`: the dialog is open; otherwise it opens again on Roll.
    EnterDice {
        player: Option<Player>,
        asking: bool,
    },
    /// A game is over; the next one starts by itself when the timer with this token fires.
    NextGameSoon { token: u64 },
    /// A game is over; the next one starts when the user asks.
    GameOver,
    /// The match is over.
    MatchOver { winner: Player },
    /// An earlier action of the record is being reviewed: the flow waits (the bot does not
    /// start a decision, the next game does not start) until the live position is selected
    /// again.
    Paused,
    /// A person's action waits for the tutor (`controller/tutor.rs`): its judgement by this
    /// job, then the person's word about a warning. Nothing else can be committed.
    Tutoring { job: JobId },
}

/// How far the person moving has got, as the board reports it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveProgress {
    /// At least one step is played (it can be taken back).
    pub started: bool,
    /// The steps played make a complete legal move (the dice may be clicked).
    pub complete: bool,
}

/// What the hint window should show.
#[derive(Clone, Debug, PartialEq)]
pub enum HintUpdate {
    /// The engine is working on it.
    Thinking,
    /// There is nothing to give a hint about.
    Nothing,
    /// The user stopped the hint.
    Stopped,
    /// The hint, for `mover` (the player who decides) against `opponent`.
    Ready {
        hint: Hint,
        mover: String,
        opponent: String,
    },
    /// The rollout of the hint has played `trials` of `target` trials.
    Progress { trials: u32, target: u32 },
    /// The hint rolled out: [`HintUpdate::Ready`] from a rollout of `trials` trials (of the
    /// first `rolled` plays of a play list).
    RolledOut {
        hint: Hint,
        mover: String,
        opponent: String,
        rolled: usize,
        trials: u32,
    },
    /// This decision is not rolled out (a resignation, a beaver chain, no double possible).
    NoRollout,
}

/// Something the window has to do.
#[derive(Debug)]
pub enum Effect {
    /// Give this job to the pool.
    Submit(Job),
    /// Show `mv`, played from `start` (mover's view) by the player at `seat`, checker by
    /// checker; then call [`Controller::animation_done`] with `token`.
    Animate {
        token: u64,
        seat: Seat,
        start: Position,
        mv: LegalMove,
    },
    /// End the running animation at once (its end is not reported).
    StopAnimation,
    /// Ask for the dice of `name`'s roll (`None`: the opening roll); then call
    /// [`Controller::dice_entered`].
    AskDice { name: Option<String> },
    /// Tell that `winner` won the match (`text`: how the last game ended).
    ShowResult { winner: String, text: String },
    /// Call [`Controller::timer`] with `token` after `delay`.
    Timer { token: u64, delay: Duration },
    /// Show a short message.
    Toast(String),
    /// Open the new-match dialog.
    ShowNewMatch,
    /// Update the hint window.
    Hint(HintUpdate),
    /// Show or close the tutor's warning.
    Tutor(tutor::TutorUpdate),
}

/// What a pasted identifier does (see [`Controller::plan_paste`]).
#[derive(Debug)]
pub enum Paste {
    /// Play goes on in this new match or session (the one in progress is dropped).
    NewSession(Box<Session>),
    /// The checkers of the game in progress are put here (seen from the player on roll).
    SetUp(Position),
}

/// Which actions may be taken now, and which buttons to show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Controls {
    /// Roll: the human's roll, the opening roll, dice for the bot, the next game, or a new
    /// match when there is none.
    pub roll: bool,
    pub double: bool,
    /// Take a double or accept a resignation.
    pub take: bool,
    /// Drop a double or reject a resignation.
    pub drop: bool,
    pub beaver: bool,
    pub finish_move: bool,
    pub undo: bool,
    pub resign: bool,
    pub hint: bool,
    /// The buttons shown beside the status line.
    pub buttons: Buttons,
}

/// The buttons shown beside the status line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Buttons {
    pub roll: bool,
    pub double: bool,
    pub finish_move: bool,
    /// Take and Drop.
    pub answer_double: bool,
    pub beaver: bool,
    /// Accept and Reject.
    pub answer_resignation: bool,
    pub next_game: bool,
}

/// What the hint window was last told about.
#[derive(Clone, Copy, Debug, PartialEq)]
enum HintView {
    /// Not known (just opened): tell it.
    Unknown,
    /// Nothing to give a hint about.
    Nothing,
    /// This question at this level: asked, answered or stopped.
    Asked(Query, Level),
}

/// The open hint window's request.
#[derive(Clone, Debug)]
struct HintRequest {
    level: Level,
    view: HintView,
    /// The job whose answer is awaited.
    job: Option<JobHandle>,
    /// The decision is rolled out instead (`hint_rollout`).
    rollout: bool,
}

/// The match flow of the window.
#[derive(Debug)]
pub struct Controller {
    session: Option<Session>,
    state: State,
    prefs: Preferences,
    /// The id of the next job.
    next_job: u64,
    /// The next animation or timer token.
    next_token: u64,
    /// The bot's job, while [`State::BotThinking`].
    bot_job: Option<JobHandle>,
    /// `None` while the hint window is closed.
    hint: Option<HintRequest>,
    /// The action of the record shown on the board (read-only); `None`: the live position.
    review: Selection,
    /// Bumped when the record changes in a way its shape does not show (an analysis).
    record_version: u64,
    /// The record as the pane shows it, for the record it was made from.
    view: RefCell<Option<(RecordKey, Rc<RecordView>)>>,
    /// The tutor: its settings and the action waiting for it (`controller/tutor.rs`).
    tutor: tutor::Tutor,
    /// Two people at one board: the board turns to the player on roll (`controller/seats.rs`).
    turn_board: bool,
    /// The position being edited, in edit mode (`controller/edit.rs`).
    edit: Option<crate::edit::Draft>,
    /// The players and rules of a match that starts without the new-match dialog (a pasted
    /// position when no match is in progress): the user's remembered choices.
    defaults: MatchSetup,
}

/// What identifies a state of the record: the explicit version and the record's shape.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RecordKey {
    version: u64,
    games: usize,
    entries: usize,
    finished: bool,
    /// The last action (a roll becomes a move in place).
    last: Option<RecordAction>,
}

impl Default for Controller {
    fn default() -> Controller {
        Controller::new(Preferences::default())
    }
}

impl Controller {
    /// No match yet.
    pub fn new(prefs: Preferences) -> Controller {
        Controller {
            session: None,
            state: State::NoMatch,
            prefs,
            next_job: 1,
            next_token: 1,
            bot_job: None,
            hint: None,
            review: None,
            record_version: 0,
            view: RefCell::new(None),
            tutor: tutor::Tutor::default(),
            turn_board: Settings::default().turn_board,
            edit: None,
            defaults: MatchSetup::default(),
        }
    }

    /// The players and rules of a match that starts without the new-match dialog (see
    /// [`MatchSetup::from_settings`]).
    pub fn set_match_defaults(&mut self, setup: MatchSetup) {
        self.defaults = setup;
    }

    /// The state of the flow.
    pub fn state(&self) -> State {
        self.state
    }

    /// The match being played.
    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    /// The preferences in use.
    pub fn preferences(&self) -> Preferences {
        self.prefs
    }

    /// The bot is thinking or a move is being shown: nobody may act.
    pub fn is_busy(&self) -> bool {
        matches!(
            self.state,
            State::BotThinking { .. } | State::Animating { .. }
        )
    }

    /// A move is being shown (the board keeps its scene until it is over).
    pub fn is_animating(&self) -> bool {
        matches!(self.state, State::Animating { .. })
    }

    // ------------------------------------------------------------------------------------
    // Starting matches, preferences
    // ------------------------------------------------------------------------------------

    /// Starts a new match (whatever was going on is dropped).
    pub fn new_match(&mut self, setup: MatchSetup) -> Vec<Effect> {
        match Session::new(setup) {
            Ok(session) => self.resume(session),
            Err(e) => vec![Effect::Toast(error_text(&e))],
        }
    }

    /// Goes on with `session` (whatever was going on is dropped).
    pub fn resume(&mut self, session: Session) -> Vec<Effect> {
        let mut fx = Vec::new();
        self.drop_work(&mut fx);
        // A match that is over already (a finished match opened) is not announced again.
        if let Some(winner) = session.game().match_winner() {
            self.state = State::MatchOver { winner };
        }
        self.session = Some(session);
        self.seat_players();
        self.review = None;
        // Another match (a new one, a file opened, play from a set-up) ends edit mode.
        self.edit = None;
        self.record_version += 1;
        self.proceed(&mut fx);
        self.update_hint(&mut fx);
        fx
    }

    /// Changes the preferences; a change that matters now (an automatic next game, a forced
    /// move) takes effect at once.
    pub fn set_preferences(&mut self, prefs: Preferences) -> Vec<Effect> {
        let mut fx = Vec::new();
        let changed = prefs != self.prefs;
        self.prefs = prefs;
        if changed
            && matches!(
                self.state,
                State::HumanToAct | State::GameOver | State::NextGameSoon { .. }
            )
        {
            self.proceed(&mut fx);
            self.update_hint(&mut fx);
        }
        fx
    }

    /// Changes the bot's level from its next decision on.
    pub fn set_bot_level(&mut self, level: Level) {
        if let Some(s) = self.session.as_mut() {
            s.set_bot_level(level);
        }
    }

    // ------------------------------------------------------------------------------------
    // What people do
    // ------------------------------------------------------------------------------------

    /// Roll (a click on the board, Ctrl+R): a new match when there is none, the next game,
    /// the opening roll, the human's roll, or the dice dialog again.
    pub fn roll(&mut self) -> Vec<Effect> {
        // While editing, a click on the dice cycles the draft's dice (the board's edit mode):
        // nothing is rolled and no dice dialog opens.
        if self.review.is_some() || self.is_editing() {
            return Vec::new();
        }
        let mut fx = Vec::new();
        match self.state {
            State::NoMatch => fx.push(Effect::ShowNewMatch),
            State::GameOver | State::NextGameSoon { .. } => {
                self.act(&mut fx, |s| s.next_game());
            }
            State::EnterDice {
                player,
                asking: false,
            } => self.ask_dice(&mut fx, player),
            State::HumanToAct => match self.next() {
                Some(Next::OpeningRoll) => {
                    self.act(&mut fx, |s| s.opening_roll());
                }
                Some(Next::HumanDecides(Decision::Roll { player, .. })) => {
                    if let Some(tutored) = self.tutor_check(player, Action::Roll) {
                        return tutored;
                    }
                    if self.manual_dice() {
                        self.ask_dice(&mut fx, Some(player));
                    } else {
                        self.act(&mut fx, |s| s.act(player, Action::Roll));
                    }
                }
                _ => {}
            },
            _ => {}
        }
        self.update_hint(&mut fx);
        fx
    }

    /// Double (a click on the cube before the roll, Ctrl+D).
    pub fn double(&mut self) -> Vec<Effect> {
        if self.review.is_some() {
            return Vec::new();
        }
        match self.human_decision() {
            Some(Decision::Roll { player, .. }) => self.human_act(player, Action::Double),
            _ => Vec::new(),
        }
    }

    /// Take a double or accept a resignation (Ctrl+T).
    pub fn take(&mut self) -> Vec<Effect> {
        if self.review.is_some() {
            return Vec::new();
        }
        match self.human_decision() {
            Some(Decision::AnswerDouble { player, .. }) => self.human_act(player, Action::Take),
            Some(Decision::AnswerResignation { player, .. }) => {
                self.human_act(player, Action::AcceptResignation)
            }
            _ => Vec::new(),
        }
    }

    /// Drop a double or reject a resignation (Ctrl+P).
    pub fn drop_double(&mut self) -> Vec<Effect> {
        if self.review.is_some() {
            return Vec::new();
        }
        match self.human_decision() {
            Some(Decision::AnswerDouble { player, .. }) => self.human_act(player, Action::Drop),
            Some(Decision::AnswerResignation { player, .. }) => {
                self.human_act(player, Action::RejectResignation)
            }
            _ => Vec::new(),
        }
    }

    /// Beaver a double (Ctrl+B).
    pub fn beaver(&mut self) -> Vec<Effect> {
        if self.review.is_some() {
            return Vec::new();
        }
        match self.human_decision() {
            Some(Decision::AnswerDouble { player, .. }) => self.human_act(player, Action::Beaver),
            _ => Vec::new(),
        }
    }

    /// A click on the cube: a double before the roll; take (`primary`) or drop an offered
    /// double.
    pub fn cube_clicked(&mut self, primary: bool) -> Vec<Effect> {
        if self.review.is_some() {
            return Vec::new();
        }
        match (self.human_decision(), primary) {
            (Some(Decision::Roll { .. }), true) => self.double(),
            (Some(Decision::AnswerDouble { .. }), true) => self.take(),
            (Some(Decision::AnswerDouble { .. }), false) => self.drop_double(),
            _ => Vec::new(),
        }
    }

    /// The person who may offer to resign now, if one may.
    pub fn resigner(&self) -> Option<Player> {
        match self.human_decision() {
            Some(Decision::AnswerResignation { .. }) | None => None,
            Some(d) => d.player(),
        }
    }

    /// The person to act offers to resign `resignation`.
    pub fn resign(&mut self, resignation: Resignation) -> Vec<Effect> {
        if self.review.is_some() {
            return Vec::new();
        }
        match self.resigner() {
            Some(player) => self.human_act(player, Action::Resign(resignation)),
            None => Vec::new(),
        }
    }

    /// The person moving plays `mv` (finished on the board).
    pub fn finish_move(&mut self, mv: &LegalMove) -> Vec<Effect> {
        if self.review.is_some() {
            return Vec::new();
        }
        match self.human_decision() {
            Some(Decision::Move { player, .. }) => self.human_act(player, Action::Move(mv.mv)),
            _ => Vec::new(),
        }
    }

    /// The dice dialog was answered: the dice entered, or `None` when it was cancelled.
    pub fn dice_entered(&mut self, dice: Option<Dice>) -> Vec<Effect> {
        let mut fx = Vec::new();
        let State::EnterDice {
            player,
            asking: true,
        } = self.state
        else {
            return fx;
        };
        let rolled = match dice {
            // The opening roll is entered as the top player's die, then the bottom player's.
            Some(dice) => self.act(&mut fx, |s| {
                s.roll_dice(player.unwrap_or(Player::One), dice)
            }),
            None => false,
        };
        if !rolled {
            // A person's own roll goes back to his decision; the bot's roll and the opening
            // roll wait for Roll to ask again.
            self.state = match player {
                Some(p) if !self.is_bot(p) => State::HumanToAct,
                _ => State::EnterDice {
                    player,
                    asking: false,
                },
            };
        }
        self.update_hint(&mut fx);
        fx
    }

    // ------------------------------------------------------------------------------------
    // What comes back
    // ------------------------------------------------------------------------------------

    /// A message from the job pool.
    pub fn reply(&mut self, reply: Reply) -> Vec<Effect> {
        if let Some(fx) = self.tutor_reply(&reply) {
            return fx;
        }
        let mut fx = Vec::new();
        match reply {
            Reply::Done {
                id,
                output: Output::Bot(action),
            } => {
                if self.state != (State::BotThinking { job: id }) {
                    return fx; // stale: the match changed meanwhile
                }
                self.bot_job = None;
                match action {
                    Some((player, Action::Move(mv))) => self.play(&mut fx, player, mv),
                    Some((player, Action::Roll)) if self.manual_dice() => {
                        self.ask_dice(&mut fx, Some(player));
                    }
                    Some((player, action)) => {
                        if !self.act(&mut fx, |s| s.act(player, action)) {
                            self.state = State::HumanToAct;
                        }
                    }
                    // Nothing to decide after all: wait for whatever the user does.
                    None => self.state = State::HumanToAct,
                }
                self.update_hint(&mut fx);
            }
            Reply::Done {
                id,
                output: Output::Hint(hint),
            } => {
                let Some(request) = self.hint.as_mut() else {
                    return fx;
                };
                if request.job.as_ref().map(|j| j.id) != Some(id) {
                    return fx;
                }
                request.job = None;
                let (mover, opponent) = self.hint_names();
                fx.push(Effect::Hint(HintUpdate::Ready {
                    hint,
                    mover,
                    opponent,
                }));
            }
            // The hint's rollout: its trials and its answer.
            reply @ (Reply::Progress { .. }
            | Reply::Done {
                output: Output::Task(_),
                ..
            }) if self.is_hint_rollout(reply.id()) => {
                self.hint_rollout_reply(&mut fx, reply);
            }
            // No background tasks yet; their progress has nothing to show.
            Reply::Done {
                output: Output::Task(_) | Output::Analysis(_),
                ..
            }
            | Reply::Progress { .. }
            | Reply::Cancelled { .. } => {}
        }
        fx
    }

    /// The animation with `token` is over.
    pub fn animation_done(&mut self, token: u64) -> Vec<Effect> {
        let mut fx = Vec::new();
        if self.state == (State::Animating { token }) {
            self.proceed(&mut fx);
            self.update_hint(&mut fx);
        }
        fx
    }

    /// The timer with `token` fired.
    pub fn timer(&mut self, token: u64) -> Vec<Effect> {
        let mut fx = Vec::new();
        if self.state == (State::NextGameSoon { token }) {
            self.act(&mut fx, |s| s.next_game());
            self.update_hint(&mut fx);
        }
        fx
    }

    // ------------------------------------------------------------------------------------
    // Hints
    // ------------------------------------------------------------------------------------

    /// The hint window was opened (or raised, Ctrl+H) at `level`: it gets a hint about the
    /// decision at hand, asked again if it had been stopped.
    pub fn open_hint(&mut self, level: Level) -> Vec<Effect> {
        let mut fx = Vec::new();
        let request = self.hint.get_or_insert(HintRequest {
            level,
            view: HintView::Unknown,
            job: None,
            rollout: false,
        });
        request.level = level;
        if request.job.is_none() {
            // Asked again: answered or stopped, it is asked anew.
            request.view = HintView::Unknown;
        }
        self.update_hint(&mut fx);
        fx
    }

    /// The hint window was closed: its hint is not wanted any more.
    pub fn close_hint(&mut self) {
        if let Some(job) = self.hint.take().and_then(|r| r.job) {
            job.cancel();
        }
    }

    /// The hint window's level changed.
    pub fn set_hint_level(&mut self, level: Level) -> Vec<Effect> {
        let mut fx = Vec::new();
        if let Some(request) = self.hint.as_mut() {
            request.level = level;
            self.update_hint(&mut fx);
        }
        fx
    }

    /// The user stopped the hint being worked on.
    pub fn stop_hint(&mut self) -> Vec<Effect> {
        match self.hint.as_mut().and_then(|r| r.job.take()) {
            Some(job) => {
                job.cancel();
                vec![Effect::Hint(HintUpdate::Stopped)]
            }
            None => Vec::new(),
        }
    }

    /// The hint job whose answer is awaited.
    pub fn pending_hint(&self) -> Option<JobId> {
        self.hint
            .as_ref()
            .and_then(|r| r.job.as_ref())
            .map(|j| j.id)
    }

    // ------------------------------------------------------------------------------------
    // What to show
    // ------------------------------------------------------------------------------------

    /// What the board shows.
    pub fn display(&self) -> Display {
        if let Some(draft) = &self.edit {
            return draft.display();
        }
        if let (Some((game, entry)), Some(s)) = (self.review, &self.session) {
            if let Some(display) = self.record_view().display(game, entry, &s.setup().names) {
                return display;
            }
        }
        match &self.session {
            Some(s) => s.display(matches!(self.state, State::BotThinking { .. })),
            None => idle_display(),
        }
    }

    /// The position (seen from the player on roll) and match state the board shows: the
    /// selected action's in review, the game's otherwise; `None` with no match.
    pub fn shown_state(&self) -> Option<(Position, MatchState)> {
        if let Some(draft) = &self.edit {
            return draft.validate().ok();
        }
        if let (Some((game, entry)), Some(_)) = (self.review, &self.session) {
            if let Some(found) = self.record_view().state_after(game, entry) {
                return Some(found);
            }
        }
        let g = self.session.as_ref()?.game();
        Some((g.position(), g.match_state()))
    }

    /// One sentence saying who has to do what (`progress`: the move in progress on the
    /// board).
    pub fn status(&self, progress: MoveProgress) -> String {
        if let Some(text) = self.edit_status() {
            return text;
        }
        let Some(s) = &self.session else {
            return gettext("Start a new match with Ctrl+N.");
        };
        if let Some((game, entry)) = self.review {
            return gettext_f(
                "Reviewing game {}, action {} (read-only) — press Escape to return to the game.",
                &[&(game + 1).to_string(), &(entry + 1).to_string()],
            );
        }
        if let Some(text) = self.tutor_status() {
            return text;
        }
        if let (State::HumanToAct, Some((player, _))) = (self.state, s.human_move()) {
            if progress.complete {
                return gettext_f(
                    "{}: the move is complete — click the dice (Ctrl+F) to play it.",
                    &[s.name(player)],
                );
            }
        }
        s.status()
    }

    /// "Match to 5 points · Ann 2 – 1 Cubeful · Expert" for the window's subtitle.
    pub fn subtitle(&self) -> String {
        self.session.as_ref().map(subtitle).unwrap_or_default()
    }

    /// What happened last.
    pub fn last_event(&self) -> String {
        self.session
            .as_ref()
            .and_then(|s| s.log().last().cloned())
            .unwrap_or_default()
    }

    /// What may be done now (`progress`: the move in progress on the board).
    pub fn controls(&self, progress: MoveProgress) -> Controls {
        if self.edit.is_some() {
            // Nothing of play while editing; the hint studies the draft.
            return Controls {
                hint: true,
                ..Controls::default()
            };
        }
        let Some(session) = &self.session else {
            return Controls {
                roll: true,
                ..Controls::default()
            };
        };
        let waiting = self.state == State::HumanToAct && self.review.is_none();
        let human = |p: Player| waiting && !session.is_bot(p);
        let mut c = Controls {
            hint: true,
            ..Controls::default()
        };
        let mut b = Buttons::default();
        match session.game().decision() {
            Decision::Roll { player, may_double } if human(player) => {
                b.roll = true;
                b.double = may_double;
            }
            Decision::OpeningRoll => {
                b.roll = waiting
                    || self.state
                        == (State::EnterDice {
                            player: None,
                            asking: false,
                        });
            }
            Decision::Move { player, .. } if human(player) => b.finish_move = true,
            Decision::AnswerDouble {
                player, may_beaver, ..
            } if human(player) => {
                b.answer_double = true;
                b.beaver = may_beaver;
            }
            Decision::AnswerResignation { player, .. } if human(player) => {
                b.answer_resignation = true;
            }
            Decision::NewGame => {
                b.next_game = matches!(self.state, State::GameOver | State::NextGameSoon { .. });
            }
            _ => {}
        }
        let bot_dice = matches!(
            self.state,
            State::EnterDice {
                player: Some(p),
                asking: false,
            } if self.is_bot(p)
        );
        c.roll = b.roll || b.next_game || bot_dice;
        c.double = b.double;
        c.take = b.answer_double || b.answer_resignation;
        c.drop = c.take;
        c.beaver = b.beaver;
        c.finish_move = b.finish_move && progress.complete;
        c.undo = b.finish_move && progress.started;
        c.resign = self.resigner().is_some() && self.review.is_none();
        c.hint = self.review.is_none();
        c.buttons = b;
        c
    }

    // ------------------------------------------------------------------------------------
    // The record and its review
    // ------------------------------------------------------------------------------------

    /// The record of the match as the record pane shows it (made again only when the record
    /// changed). Empty without a match.
    pub fn record_view(&self) -> Rc<RecordView> {
        let key = self.record_key();
        if let Some((k, view)) = self.view.borrow().as_ref() {
            if k == &key {
                return view.clone();
            }
        }
        let view = Rc::new(match &self.session {
            Some(s) => RecordView::new(s.game().record()),
            None => RecordView::new(&Default::default()),
        });
        self.view.replace(Some((key, view.clone())));
        view
    }

    /// A number that changes whenever the record changes: an action, an analysis stored
    /// ([`Controller::set_analysis`], [`Controller::record_changed`]), another match.
    pub fn record_revision(&self) -> u64 {
        let k = self.record_key();
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (k.version, k.games, k.entries, k.finished).hash(&mut hasher);
        format!("{:?}", k.last).hash(&mut hasher);
        hasher.finish()
    }

    fn record_key(&self) -> RecordKey {
        let record = self.session.as_ref().map(|s| s.game().record());
        let last = record.and_then(|r| r.games.last());
        RecordKey {
            version: self.record_version,
            games: record.map_or(0, |r| r.games.len()),
            entries: last.map_or(0, |g| g.entries.len()),
            finished: last.is_some_and(|g| g.result.is_some()),
            last: last
                .and_then(|g| g.entries.last())
                .map(|e| e.action.clone()),
        }
    }

    /// Says that the record was changed by someone else (the window after loading or
    /// analysing): the record view is made again.
    pub fn record_changed(&mut self) {
        self.record_version += 1;
    }

    /// Stores (or clears) the analysis of an action of the record; `false` when there is no
    /// such action.
    pub fn set_analysis(
        &mut self,
        game: usize,
        entry: usize,
        analysis: Option<Box<cubeful_engine::game::record::ActionAnalysis>>,
    ) -> bool {
        let Some(session) = self.session.as_mut() else {
            return false;
        };
        let stored = session.set_analysis(game, entry, analysis);
        if stored {
            self.record_version += 1;
        }
        stored
    }

    /// The action of the record shown on the board, `None` for the live position.
    pub fn selection(&self) -> Selection {
        self.review
    }

    /// An earlier action is shown: the board is read-only.
    pub fn is_reviewing(&self) -> bool {
        self.review.is_some()
    }

    /// Shows action `selection` of the record (read-only), or with `None` the live position
    /// again, where the flow goes on (the bot's decision, the next game). An action that is
    /// not in the record changes nothing.
    pub fn select(&mut self, selection: Selection) -> Vec<Effect> {
        let mut fx = Vec::new();
        if self.session.is_none() || selection == self.review {
            return fx;
        }
        match selection {
            Some((game, entry)) => {
                if !self.record_view().contains(game, entry) {
                    return fx;
                }
                if self.is_animating() {
                    // The move is played already: end the show and go on (paused).
                    fx.push(Effect::StopAnimation);
                    self.review = selection;
                    self.proceed(&mut fx);
                } else {
                    self.review = selection;
                }
            }
            None => {
                self.review = None;
                if self.state == State::Paused {
                    self.proceed(&mut fx);
                }
            }
        }
        self.update_hint(&mut fx);
        fx
    }

    /// Moves the review cursor as GNU Backgammon's keys do ([`Nav`]).
    pub fn navigate(&mut self, nav: Nav) -> Vec<Effect> {
        if self.session.is_none() {
            return Vec::new();
        }
        let to = self.record_view().navigate(self.review, nav);
        self.select(to)
    }

    /// Throws away the record after the selected action and plays on from the position
    /// after it, against the same opponent. Without a selection nothing happens.
    pub fn play_on_from_here(&mut self) -> Vec<Effect> {
        let (Some((game, entry)), Some(session)) = (self.review, self.session.as_ref()) else {
            return Vec::new();
        };
        match session.play_on_from(game, entry) {
            Ok(session) => self.resume(session),
            Err(_) => vec![Effect::Toast(gettext(
                "The match cannot be played on from this position.",
            ))],
        }
    }

    /// What pasting or typing `text` — a Position ID, a GNU Backgammon ID or an XGID — would
    /// do. With a match state (a GNU Backgammon ID with its Match ID, an XGID): a new match or
    /// session from that position and state, the players seated and named as now. A Position
    /// ID alone: the checkers of the game in progress put there (a set-up in its record), or
    /// with no game in progress a money session from it, the bottom player on roll. `Err` is
    /// the sentence to show: the text is none of them, or no game can go on from it.
    pub fn plan_paste(&self, text: &str) -> Result<Paste, String> {
        let (position, state) = identify(text).map_err(|e| match e {
            IdentifyError::Xgid(_) => gettext("That XGID is not a valid position."),
            _ => gettext("That is not a Position ID, a GNU Backgammon ID or an XGID."),
        })?;
        let in_game = self.review.is_none()
            && self
                .session
                .as_ref()
                .is_some_and(|s| s.game().in_progress() && s.game().match_winner().is_none());
        if position.result().is_some() {
            return Err(gettext("No game can go on from that position: it is over."));
        }
        if state.is_none() && in_game {
            return Ok(Paste::SetUp(position));
        }
        let state = state.unwrap_or_else(|| {
            let mut money = MatchState::money();
            money.on_roll = player_at(Seat::Bottom);
            money.turn = money.on_roll;
            money
        });
        let setup = self
            .session
            .as_ref()
            .map_or_else(|| self.defaults.clone(), |s| s.setup().clone());
        Session::from_position(setup, position, state)
            .map(|s| Paste::NewSession(Box::new(s)))
            .map_err(|e| match e {
                GameError::InvalidSetup(_) | GameError::InvalidRules(_) => {
                    gettext("No game can go on from that position and match state.")
                }
                e => error_text(&e),
            })
    }

    /// Carries out a paste planned by [`Controller::plan_paste`].
    pub fn paste(&mut self, paste: Paste) -> Vec<Effect> {
        match paste {
            Paste::NewSession(session) => self.resume(*session),
            Paste::SetUp(position) => {
                let mut fx = Vec::new();
                let Some(session) = self.session.as_mut() else {
                    return fx;
                };
                match session.set_up_position(position) {
                    Ok(_) => {
                        self.drop_work(&mut fx);
                        self.record_version += 1;
                        self.proceed(&mut fx);
                        self.update_hint(&mut fx);
                    }
                    Err(e) => fx.push(Effect::Toast(error_text(&e))),
                }
                fx
            }
        }
    }

    /// [`Controller::plan_paste`] and [`Controller::paste`] in one step; a failure is a toast.
    pub fn paste_position(&mut self, text: &str) -> Vec<Effect> {
        match self.plan_paste(text) {
            Ok(paste) => self.paste(paste),
            Err(sentence) => vec![Effect::Toast(sentence)],
        }
    }

    // ------------------------------------------------------------------------------------
    // The flow
    // ------------------------------------------------------------------------------------

    /// What the engine says comes next, with the preferences.
    fn next(&self) -> Option<Next> {
        self.session
            .as_ref()
            .map(|s| s.next(self.prefs.auto_next_game))
    }

    fn is_bot(&self, player: Player) -> bool {
        self.session.as_ref().is_some_and(|s| s.is_bot(player))
    }

    fn manual_dice(&self) -> bool {
        self.session.as_ref().is_some_and(|s| s.setup().manual_dice)
    }

    /// The decision a person has to make now, if the window waits for one.
    fn human_decision(&self) -> Option<Decision> {
        if self.state != State::HumanToAct {
            return None;
        }
        match self.next()? {
            Next::HumanDecides(d) => Some(d),
            _ => None,
        }
    }

    /// `player` (a person) does `action`.
    fn human_act(&mut self, player: Player, action: Action) -> Vec<Effect> {
        if let Some(fx) = self.tutor_check(player, action) {
            return fx;
        }
        let mut fx = Vec::new();
        self.act(&mut fx, |s| s.act(player, action));
        self.update_hint(&mut fx);
        fx
    }

    /// Changes the game with `f`; on success goes on with what comes next, on refusal tells
    /// why (and changes nothing).
    fn act(
        &mut self,
        fx: &mut Vec<Effect>,
        f: impl FnOnce(&mut Session) -> Result<Vec<Event>, GameError>,
    ) -> bool {
        let Some(session) = self.session.as_mut() else {
            return false;
        };
        match f(session) {
            Ok(_) => {
                self.proceed(fx);
                true
            }
            Err(e) => {
                fx.push(Effect::Toast(error_text(&e)));
                false
            }
        }
    }

    /// Plays `mv` for `player` and shows it (if animations are on), then goes on.
    fn play(&mut self, fx: &mut Vec<Effect>, player: Player, mv: Move) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let start = session.game().position();
        // The mover's seat on the board as it is before the move (a turning board turns after).
        let seat = session.seat_of(player);
        if let Err(e) = session.act(player, Action::Move(mv)) {
            fx.push(Effect::Toast(error_text(&e)));
            self.state = State::HumanToAct;
            return;
        }
        if self.prefs.animate && !mv.is_empty() && self.review.is_none() {
            let token = self.token();
            let position = play_steps(&start, mv.steps()).unwrap_or(start);
            self.state = State::Animating { token };
            fx.push(Effect::Animate {
                token,
                seat,
                start,
                mv: LegalMove { mv, position },
            });
        } else {
            self.proceed(fx);
        }
    }

    /// Opens the dice dialog for `player`'s roll (`None`: the opening roll). Never while a
    /// position is edited (a roll the tutor let through then): it is as if the dialog had
    /// been cancelled at once, and Roll asks again once the editing is over.
    fn ask_dice(&mut self, fx: &mut Vec<Effect>, player: Option<Player>) {
        if self.is_editing() {
            self.state = match player {
                Some(p) if !self.is_bot(p) => State::HumanToAct,
                _ => State::EnterDice {
                    player,
                    asking: false,
                },
            };
            return;
        }
        self.state = State::EnterDice {
            player,
            asking: true,
        };
        let name = player.and_then(|p| self.session.as_ref().map(|s| s.name(p).to_string()));
        fx.push(Effect::AskDice { name });
    }

    /// Starts whatever comes next that does not wait for a person, and settles in the state
    /// that waits for what comes after.
    fn proceed(&mut self, fx: &mut Vec<Effect>) {
        // Automatic rolls (none with the session's flow today) loop; everything else settles.
        for _ in 0..4 {
            let Some(next) = self.next() else {
                self.state = State::NoMatch;
                return;
            };
            let waits = matches!(
                next,
                Next::BotDecides(_) | Next::NextGame | Next::EnterDice(_) | Next::AutoRoll(_)
            );
            if self.review.is_some() && waits {
                self.state = State::Paused;
                return;
            }
            match next {
                Next::BotDecides(decision) => {
                    self.ask_bot(fx, decision);
                    return;
                }
                Next::HumanDecides(Decision::Move { player, dice }) => {
                    self.state = State::HumanToAct;
                    if self.prefs.auto_forced_moves && self.review.is_none() {
                        let position = self.session.as_ref().map(|s| s.game().position());
                        if let Some(forced) =
                            position.and_then(|p| MoveAssembly::new(p, dice).forced())
                        {
                            if !forced.mv.is_empty() {
                                self.play(fx, player, forced.mv);
                            }
                        }
                    }
                    return;
                }
                Next::HumanDecides(_) | Next::OpeningRoll => {
                    self.state = State::HumanToAct;
                    return;
                }
                Next::EnterDice(player) => {
                    self.ask_dice(fx, player);
                    return;
                }
                Next::AutoRoll(player) => {
                    let rolled = self.session.as_mut().map(|s| s.act(player, Action::Roll));
                    if !matches!(rolled, Some(Ok(_))) {
                        self.state = State::HumanToAct;
                        return;
                    }
                }
                Next::NextGame => {
                    let token = self.token();
                    self.state = State::NextGameSoon { token };
                    fx.push(Effect::Timer {
                        token,
                        delay: NEXT_GAME_DELAY,
                    });
                    return;
                }
                Next::GameOver => {
                    self.state = State::GameOver;
                    return;
                }
                Next::MatchOver(winner) => {
                    if !matches!(self.state, State::MatchOver { .. }) {
                        let s = self.session.as_ref().expect("a match is on");
                        fx.push(Effect::ShowResult {
                            winner: s.name(winner).to_string(),
                            text: s.log().last().cloned().unwrap_or_default(),
                        });
                    }
                    self.state = State::MatchOver { winner };
                    return;
                }
            }
        }
        self.state = State::HumanToAct;
    }

    /// Hands the bot's decision to a job: the position, the match state and the rules, never
    /// the game with its dice.
    fn ask_bot(&mut self, fx: &mut Vec<Effect>, decision: Decision) {
        let Some(session) = self.session.as_ref() else {
            return;
        };
        let (Some(level), Some(query)) = (session.bot_level(), Query::from_game(session.game()))
        else {
            self.state = State::HumanToAct;
            return;
        };
        let may_double = matches!(
            decision,
            Decision::Roll {
                may_double: true,
                ..
            }
        );
        let rejected = session
            .game()
            .to_act()
            .and_then(|bot| rejected_offer(session.game(), bot));
        let job = Job::new(
            self.job_id(),
            JobKind::Bot {
                query,
                may_double,
                rejected,
                level,
            },
        );
        self.state = State::BotThinking { job: job.id };
        self.bot_job = Some(job.handle());
        fx.push(Effect::Submit(job));
    }

    /// Drops the work in progress for another match: the bot's job, an animation, a timer.
    fn drop_work(&mut self, fx: &mut Vec<Effect>) {
        if let Some(job) = self.bot_job.take() {
            job.cancel();
        }
        if self.is_animating() {
            fx.push(Effect::StopAnimation);
        }
        self.tutor_drop(fx);
        self.state = State::NoMatch;
    }

    /// Asks for a hint if the hint window is open and the question changed.
    fn update_hint(&mut self, fx: &mut Vec<Effect>) {
        if self.is_animating() {
            // The position shown is not the game's yet: ask once the move is shown.
            return;
        }
        let reviewing = self.review.is_some();
        let wanted = match &self.edit {
            // In edit mode the hint studies the draft, once no game could refuse it.
            Some(draft) => draft.validate().ok().map(|(position, state)| {
                let beavers = self
                    .session
                    .as_ref()
                    .map_or(self.defaults.beavers, |s| s.setup().beavers);
                Query::from_state(position, state, beavers)
            }),
            None => self
                .session
                .as_ref()
                .filter(|s| !reviewing && s.human_to_act().is_some())
                .and_then(|s| Query::from_game(s.game())),
        };
        let next_id = self.next_job;
        let Some(request) = self.hint.as_mut() else {
            return;
        };
        let view = match wanted {
            Some(query) => HintView::Asked(query, request.level),
            None => HintView::Nothing,
        };
        if view == request.view {
            return;
        }
        if let Some(job) = request.job.take() {
            job.cancel();
        }
        request.view = view;
        match view {
            HintView::Asked(query, level) => {
                let kind = if request.rollout {
                    hint_rollout::rollout_job(query)
                } else {
                    JobKind::Hint { query, level }
                };
                let job = Job::new(JobId(next_id), kind);
                request.job = Some(job.handle());
                self.next_job += 1;
                fx.push(Effect::Hint(HintUpdate::Thinking));
                fx.push(Effect::Submit(job));
            }
            HintView::Nothing | HintView::Unknown => fx.push(Effect::Hint(HintUpdate::Nothing)),
        }
    }

    /// The player a hint is for (who decides: the player doubled, when a double is to be
    /// answered) and the other one.
    fn hint_names(&self) -> (String, String) {
        self.session
            .as_ref()
            .map(|s| {
                let p = s.game().to_act().unwrap_or_else(|| s.game().on_roll());
                (s.name(p).to_string(), s.name(p.other()).to_string())
            })
            .unwrap_or_default()
    }

    fn job_id(&mut self) -> JobId {
        let id = JobId(self.next_job);
        self.next_job += 1;
        id
    }

    fn token(&mut self) -> u64 {
        let token = self.next_token;
        self.next_token += 1;
        token
    }
}

/// The board before any match: the starting position and an invitation.
pub fn idle_display() -> Display {
    Display {
        roll: Some(Seat::Bottom),
        prompt: Some((Seat::Bottom, gettext("Click to start a new match"))),
        idle: true,
        ..Display::default()
    }
}

/// "Match to 5 points · Ann 2 – 1 Cubeful · Expert".
fn subtitle(s: &Session) -> String {
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
        Opponent::Bot(level) => level_name(level),
        Opponent::Human => gettext("two players"),
    };
    format!("{kind} · {scores} · {opponent}")
}

mod copy;
pub mod edit;
pub mod hint_rollout;
mod seats;

#[cfg(test)]
mod tests;
