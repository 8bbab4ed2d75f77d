//! The tutor (GNU Backgammon's tutor mode): while it is on, a person's checker play or cube
//! action (double, take, drop, beaver, resign, and rolling when he could double) is not
//! committed at once. The controller asks the engine's hint about that decision at the tutor's
//! level (a [`JobKind::Hint`], which the pool runs ahead of background analysis) and waits in
//! [`State::Tutoring`], where nothing else can be committed. When the answer comes, the
//! engine's tutor ([`tutor::judge`]) judges what the chosen action loses, and this module only
//! words its verdict: below the threshold the action is committed; otherwise the window is told
//! ([`TutorUpdate::Warn`]) and the person either reconsiders (nothing is committed, the
//! decision is his again) or keeps it (committed as it was).
//!
//! Late answers are recognised by their job id, as the hint's are.

use cubeful_engine::analysis::hint::{Hint, Query, Question};
use cubeful_engine::analysis::resign;
use cubeful_engine::analysis::tutor::{self, Choice, DecisionKind};
use cubeful_engine::game::record::analysis::Skill;
use cubeful_engine::game::{Action, Decision};
use cubeful_engine::search::Level;
use cubeful_engine::Player;

use super::{Controller, Effect, State};
use crate::i18n::{gettext, gettext_f};
use crate::jobs::{Job, JobHandle, JobId, JobKind, Output, Reply};
use crate::settings::{Settings, TutorThreshold};

/// What the tutor does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TutorSettings {
    /// The tutor judges people's decisions.
    pub on: bool,
    /// The level it judges at.
    pub level: Level,
    /// It warns from this mark on (never [`Skill::None`]).
    pub threshold: Skill,
}

impl Default for TutorSettings {
    fn default() -> TutorSettings {
        TutorSettings::from(&Settings::default())
    }
}

impl From<&Settings> for TutorSettings {
    fn from(s: &Settings) -> TutorSettings {
        TutorSettings {
            on: s.tutor,
            level: s.tutor_level(),
            threshold: match s.tutor_threshold {
                TutorThreshold::Doubtful => Skill::Doubtful,
                TutorThreshold::Bad => Skill::Bad,
                TutorThreshold::VeryBad => Skill::VeryBad,
            },
        }
    }
}

/// The kind of decision judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decided {
    Play,
    /// Rolling without doubling (a missed double).
    Roll,
    Double,
    Take,
    Drop,
    Beaver,
    Resign,
}

/// The tutor's warning: how bad the chosen action is, and what is better.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    pub decided: Decided,
    /// GNU Backgammon's mark of the action (doubtful, bad or very bad).
    pub skill: Skill,
    /// The action chosen, in words (a play in GNU Backgammon's notation).
    pub chosen: String,
    /// The better action, in words (a play in GNU Backgammon's notation).
    pub better: String,
    /// The normalised equity lost (money: per cube; match: EMG), > 0.
    pub equity_lost: f32,
    /// In match play, the match winning chance lost (0 to 1).
    pub mwc_lost: Option<f32>,
}

impl Judgement {
    /// The judgement in a sentence: "This play is very bad: it loses 0.412 equity."
    pub fn sentence(&self) -> String {
        let mark = match self.skill {
            Skill::VeryBad => gettext("very bad"),
            Skill::Bad => gettext("bad"),
            Skill::Doubtful | Skill::None => gettext("doubtful"),
        };
        let amount = match self.mwc_lost {
            Some(mwc) => gettext_f(
                "{}% match winning chance",
                &[&format!("{:.2}", 100.0 * mwc)],
            ),
            None => gettext_f("{} equity", &[&format!("{:.3}", self.equity_lost)]),
        };
        let args: &[&str] = &[&mark, &amount];
        match self.decided {
            Decided::Play => gettext_f("This play is {}: it loses {}.", args),
            Decided::Roll => gettext_f("Not doubling is {} here: it loses {}.", args),
            Decided::Double => gettext_f("Doubling is {} here: it loses {}.", args),
            Decided::Take => gettext_f("Taking is {} here: it loses {}.", args),
            Decided::Drop => gettext_f("Dropping is {} here: it loses {}.", args),
            Decided::Beaver => gettext_f("Beavering is {} here: it loses {}.", args),
            Decided::Resign => gettext_f("Resigning is {} here: it loses {}.", args),
        }
    }

    /// The better choice in a sentence: "The best play is 8/5 6/5."
    pub fn better_sentence(&self) -> String {
        match self.decided {
            Decided::Play => gettext_f("The best play is {}.", &[&self.better]),
            _ => gettext_f("The better choice: {}.", &[&self.better]),
        }
    }
}

/// What the tutor's dialog should do.
#[derive(Clone, Debug, PartialEq)]
pub enum TutorUpdate {
    /// Warn about the action waiting for the person's word.
    Warn(Judgement),
    /// The warning is not wanted any more (another match, the tutor turned off).
    Close,
}

/// The action waiting for the tutor's judgement or the person's word.
#[derive(Debug)]
struct Pending {
    job: JobHandle,
    player: Player,
    action: Action,
    /// The decision's query (for a resignation, the resigner's, before the offer).
    query: Query,
    /// The warning shown, once the answer came.
    warned: Option<Judgement>,
}

/// The tutor's part of the controller.
#[derive(Debug, Default)]
pub(super) struct Tutor {
    settings: TutorSettings,
    pending: Option<Pending>,
}

impl Controller {
    /// Sets what the tutor does. Turned off while an action waits for it, the action is
    /// committed as chosen (GNU Backgammon's "End Tutor Mode").
    pub fn set_tutor(&mut self, settings: TutorSettings) -> Vec<Effect> {
        self.tutor.settings = settings;
        let mut fx = Vec::new();
        if !settings.on && self.tutor.pending.is_some() {
            self.tutor_commit(&mut fx);
        }
        fx
    }

    /// What the tutor does.
    pub fn tutor_settings(&self) -> TutorSettings {
        self.tutor.settings
    }

    /// The judgement awaited from the engine, if any.
    pub fn tutor_job(&self) -> Option<JobId> {
        self.tutor
            .pending
            .as_ref()
            .filter(|p| p.warned.is_none())
            .map(|p| p.job.id)
    }

    /// The warning waiting for the person's word, if any.
    pub fn tutor_warning(&self) -> Option<&Judgement> {
        self.tutor.pending.as_ref().and_then(|p| p.warned.as_ref())
    }

    /// The person keeps the action the tutor warned about: it is committed.
    pub fn tutor_keep(&mut self) -> Vec<Effect> {
        let mut fx = Vec::new();
        if self.tutor_warning().is_some() {
            self.tutor_commit(&mut fx);
        }
        fx
    }

    /// The person reconsiders the action the tutor warned about: nothing is committed and the
    /// decision is his again (a play starts again from the start of the move).
    pub fn tutor_reconsider(&mut self) -> Vec<Effect> {
        let mut fx = Vec::new();
        if self.tutor_warning().is_some() {
            self.tutor.pending = None;
            self.state = State::HumanToAct;
            self.update_hint(&mut fx);
        }
        fx
    }

    /// Called by `human_act` (and by `roll` for a person's roll) before `player`'s `action` is
    /// committed: with the tutor on, the engine is asked to judge it and the action waits (the
    /// effects to carry out); otherwise `None` and the action goes ahead.
    pub(super) fn tutor_check(&mut self, player: Player, action: Action) -> Option<Vec<Effect>> {
        if !self.tutor.settings.on || self.review.is_some() || self.state != State::HumanToAct {
            return None;
        }
        let game = self.session.as_ref()?.game();
        // Rolling is judged only when the person could double instead (a missed double).
        let may_double = matches!(
            game.decision(),
            Decision::Roll {
                may_double: true,
                ..
            }
        );
        let game_query = Query::from_game(game)?;
        let asked = match (action, game_query.question) {
            (Action::Move(_), Question::Move(_))
            | (Action::Double, Question::Cube)
            | (Action::Take | Action::Drop | Action::Beaver, Question::AnswerDouble { .. }) => {
                game_query
            }
            (Action::Roll, Question::Cube) if may_double => game_query,
            (Action::Resign(offer), Question::Move(_) | Question::Cube) => {
                resign::offered(&game_query, offer)
            }
            _ => return None,
        };
        let job = Job::new(
            self.job_id(),
            JobKind::Hint {
                query: asked,
                level: self.tutor.settings.level,
            },
        );
        self.state = State::Tutoring { job: job.id };
        self.tutor.pending = Some(Pending {
            job: job.handle(),
            player,
            action,
            query: game_query,
            warned: None,
        });
        Some(vec![Effect::Submit(job)])
    }

    /// Called by `reply` first: a message about the tutor's job is handled here (the effects),
    /// any other is `None`.
    pub(super) fn tutor_reply(&mut self, reply: &Reply) -> Option<Vec<Effect>> {
        let pending = self.tutor.pending.as_ref()?;
        if reply.id() != pending.job.id || pending.warned.is_some() {
            return None;
        }
        let mut fx = Vec::new();
        match reply {
            Reply::Done {
                output: Output::Hint(hint),
                ..
            } => {
                let judged = judge(&pending.query, pending.action, hint);
                let threshold = self.tutor.settings.threshold.max(Skill::Doubtful);
                match judged {
                    Some(j) if j.skill >= threshold => {
                        fx.push(Effect::Tutor(TutorUpdate::Warn(j.clone())));
                        if let Some(p) = self.tutor.pending.as_mut() {
                            p.warned = Some(j);
                        }
                    }
                    _ => self.tutor_commit(&mut fx),
                }
            }
            // Not judged after all (the job was dropped): the action goes ahead.
            Reply::Done { .. } | Reply::Cancelled { .. } => self.tutor_commit(&mut fx),
            Reply::Progress { .. } => {}
        }
        Some(fx)
    }

    /// Drops the action waiting for the tutor (another match): its job is cancelled and its
    /// warning closed.
    pub(super) fn tutor_drop(&mut self, fx: &mut Vec<Effect>) {
        if let Some(p) = self.tutor.pending.take() {
            p.job.cancel();
            if p.warned.is_some() {
                fx.push(Effect::Tutor(TutorUpdate::Close));
            }
        }
    }

    /// The status line while the tutor has the action, if it has.
    pub(super) fn tutor_status(&self) -> Option<String> {
        let p = self.tutor.pending.as_ref()?;
        Some(if p.warned.is_some() {
            gettext("The tutor warns: reconsider or keep your choice.")
        } else {
            gettext("The tutor is judging your choice…")
        })
    }

    /// Commits the waiting action as chosen (and closes its warning).
    fn tutor_commit(&mut self, fx: &mut Vec<Effect>) {
        let Some(p) = self.tutor.pending.take() else {
            return;
        };
        p.job.cancel();
        if p.warned.is_some() {
            fx.push(Effect::Tutor(TutorUpdate::Close));
        }
        self.state = State::HumanToAct;
        let (player, action) = (p.player, p.action);
        if action == Action::Roll && self.manual_dice() {
            self.ask_dice(fx, Some(player));
        } else {
            self.act(fx, |s| s.act(player, action));
        }
        self.update_hint(fx);
    }
}

/// The engine's verdict on `action`, the answer to `query`, from its `hint` about it
/// ([`tutor::judge`]), in words; `None` when there is nothing to warn about (the hint does
/// not answer that question, or the action earns no mark).
fn judge(query: &Query, action: Action, hint: &Hint) -> Option<Judgement> {
    let verdict = tutor::judge(query, &action, hint)?;
    if verdict.skill == Skill::None {
        return None;
    }
    let decided = match (verdict.kind, &verdict.chosen) {
        (DecisionKind::Play, _) => Decided::Play,
        (DecisionKind::Cube, Choice::NoDouble) => Decided::Roll,
        (DecisionKind::Cube, _) => Decided::Double,
        (DecisionKind::AnswerDouble, Choice::Take) => Decided::Take,
        (DecisionKind::AnswerDouble, Choice::Beaver) => Decided::Beaver,
        (DecisionKind::AnswerDouble, _) => Decided::Drop,
        (DecisionKind::Resignation, _) => Decided::Resign,
    };
    Some(Judgement {
        decided,
        skill: verdict.skill,
        chosen: choice_words(&verdict.chosen),
        better: choice_words(&verdict.better),
        equity_lost: verdict.loss.equity,
        mwc_lost: verdict.loss.mwc,
    })
}

/// A choice of the tutor's verdict in words (a play in GNU Backgammon's notation).
fn choice_words(choice: &Choice) -> String {
    match choice {
        Choice::Play(text) => text.clone(),
        Choice::NoDouble => gettext("no double"),
        Choice::Double => gettext("double"),
        Choice::Take => gettext("take"),
        Choice::Drop => gettext("drop"),
        Choice::Beaver => gettext("beaver"),
        Choice::Resign(_) => gettext("resign"),
        Choice::PlayOn => gettext("play on"),
    }
}

#[cfg(test)]
#[path = "tutor_tests.rs"]
mod tests;
