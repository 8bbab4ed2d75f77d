//! The terminal session's tutor (`set tutor on`, GNU Backgammon's tutor mode): before a
//! person's checker play or cube action (double, take, drop, beaver, resign, and rolling when
//! he could double) is carried out, the engine's tutor ([`tutor::judge`]) judges it from the
//! hint at the session's level. A bad or very bad action is refused with the tutor's warning;
//! entered again at once, it is kept.

use anyhow::{bail, Result};
use cubeful_engine::analysis::hint::{self, Query, Question};
use cubeful_engine::analysis::resign;
use cubeful_engine::analysis::tutor::{self, Choice, DecisionKind, Verdict};
use cubeful_engine::formats::notation::parse_move;
use cubeful_engine::game::record::analysis::Skill;
use cubeful_engine::game::{Action, Decision};

use super::commands::{Command, PlayerKind};
use super::Session;

/// The tutor of a terminal session.
#[derive(Debug, Default)]
pub(super) struct Tutor {
    pub(super) on: bool,
    /// The action last warned about, with its decision: entered again at once, it is kept.
    warned: Option<(Query, Action)>,
}

impl Session {
    /// Called before `command` is carried out: with the tutor on and a person to decide, a bad
    /// or very bad action is refused with the tutor's warning, unless it is the action just
    /// warned about.
    pub(super) fn tutor_check(&mut self, command: &Command) -> Result<()> {
        if !self.tutor.on {
            return Ok(());
        }
        let warned = self.tutor.warned.take();
        let Some(game) = &self.game else {
            return Ok(());
        };
        let Some(query) = Query::from_game(game) else {
            return Ok(());
        };
        if self.kinds[query.player().index()] != PlayerKind::Human {
            return Ok(());
        }
        let may_double = matches!(
            game.decision(),
            Decision::Roll {
                may_double: true,
                ..
            }
        );
        let action = match (command, query.question) {
            (Command::Move(text), Question::Move(dice)) => {
                match parse_move(&query.position, dice, text) {
                    Ok(legal) => Action::Move(legal.mv),
                    // The game refuses it and says why.
                    Err(_) => return Ok(()),
                }
            }
            (Command::Roll, Question::Cube) if may_double => Action::Roll,
            (Command::Double | Command::Redouble, Question::Cube) => Action::Double,
            (Command::Take | Command::Accept, Question::AnswerDouble { .. }) => Action::Take,
            (Command::Drop | Command::Reject, Question::AnswerDouble { .. }) => Action::Drop,
            (Command::Beaver | Command::Redouble, Question::AnswerDouble { .. }) => Action::Beaver,
            (Command::Resign(offer), Question::Move(_) | Question::Cube) => Action::Resign(*offer),
            _ => return Ok(()),
        };
        if warned == Some((query, action)) {
            return Ok(());
        }
        let asked = match action {
            Action::Resign(offer) => resign::offered(&query, offer),
            _ => query,
        };
        let settings = self.settings();
        let hint = hint::hint(self.search()?, &asked, &settings);
        match tutor::judge(&query, &action, &hint) {
            Some(verdict) if verdict.skill >= Skill::Bad => {
                self.tutor.warned = Some((query, action));
                bail!(
                    "the tutor warns: {} Enter it again to keep it.",
                    warning(&verdict)
                )
            }
            _ => Ok(()),
        }
    }
}

/// The tutor's verdict in a sentence: "6/5 6/3 is bad: it loses 0.123 equity (the best play
/// is 8/5 6/5)."
fn warning(v: &Verdict) -> String {
    let mark = match v.skill {
        Skill::VeryBad => "very bad",
        Skill::Bad => "bad",
        Skill::Doubtful | Skill::None => "doubtful",
    };
    let chosen = match (&v.kind, &v.chosen) {
        (DecisionKind::Play, Choice::Play(text)) => format!("the play {text}"),
        (_, choice) => match choice {
            Choice::NoDouble => "not doubling".to_string(),
            Choice::Double => "doubling".to_string(),
            Choice::Take => "taking".to_string(),
            Choice::Drop => "dropping".to_string(),
            Choice::Beaver => "beavering".to_string(),
            Choice::Resign(_) => "resigning".to_string(),
            Choice::PlayOn => "playing on".to_string(),
            Choice::Play(text) => format!("the play {text}"),
        },
    };
    let loss = match v.loss.mwc {
        Some(mwc) => format!("{:.2}% match winning chance", 100.0 * mwc),
        None => format!("{:.3} equity", v.loss.equity),
    };
    let better = match &v.better {
        Choice::Play(text) => format!("the best play is {text}"),
        Choice::NoDouble => "better: no double".to_string(),
        Choice::Double => "better: double".to_string(),
        Choice::Take => "better: take".to_string(),
        Choice::Drop => "better: drop".to_string(),
        Choice::Beaver => "better: beaver".to_string(),
        Choice::Resign(_) => "better: resign".to_string(),
        Choice::PlayOn => "better: play on".to_string(),
    };
    format!("{chosen} is {mark} here: it loses {loss} ({better}).")
}
