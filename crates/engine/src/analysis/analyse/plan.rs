//! What there is to analyse in a record: one task per position to think about, with the
//! snapshots it needs, so that tasks run in any order on any thread.
//!
//! * A checker play (or a roll left unplayed): the cube decision before it, the play, the luck.
//! * A double and the take or pass answering it: one cube decision, stored on both actions.
//!   Beavers, and takes or passes answering a beaver, are not analysed (GNU Backgammon skips
//!   them); nor are resignations and set-ups.
//!
//! Which parts of an action are analysed follows the settings' toggles, players and
//! [`Existing`] rule; an action with nothing to do gets no task.

use crate::analysis::hint::cube_context;
use crate::game::match_state::MatchState;
use crate::game::record::{ActionAnalysis, MatchInfo, MatchRecord, RecordAction, Replay, Snapshot};
use crate::rules::position::Position;

use super::settings::{AnalysisSettings, Existing};

/// One action a task stores its analysis on.
#[derive(Clone, Debug)]
pub(crate) struct Target {
    pub entry: usize,
    pub action: RecordAction,
    /// The replay's snapshot before the action.
    pub before: Snapshot,
    /// The analysis the action carries now (parts not analysed again are kept).
    pub existing: Option<ActionAnalysis>,
}

/// The parts of a turn analysed again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Parts {
    /// The cube decision before the checker play.
    pub cube: bool,
    /// The checker play.
    pub moves: bool,
    /// The luck of the roll.
    pub luck: bool,
}

/// What a task evaluates.
#[derive(Clone, Debug)]
pub(crate) enum Work {
    /// A roll by the player of the target, played or not: `rolled` is the moment after the roll
    /// (the position seen from him, the dice set).
    Turn { rolled: Snapshot, parts: Parts },
    /// The cube decision of the doubler at the first target's `before` snapshot, stored on every
    /// target.
    Cube,
}

/// One unit of work: a position to analyse and the actions that receive the result.
#[derive(Clone, Debug)]
pub(crate) struct Task {
    /// The game (counting from 0).
    pub game: usize,
    pub work: Work,
    /// The actions analysed, in record order (never empty).
    pub targets: Vec<Target>,
}

/// The state before the roll of the mover of a `rolled` snapshot.
pub(crate) fn before_roll(rolled: &Snapshot) -> MatchState {
    MatchState {
        dice: None,
        ..rolled.state
    }
}

/// The mover of a turn could have doubled before rolling: the cube is in use, this is not the
/// opening position, and he has access to a live cube.
pub(crate) fn cube_available(info: &MatchInfo, rolled: &Snapshot) -> bool {
    info.cube_used
        && rolled.position != Position::starting()
        && cube_context(&before_roll(rolled), info.rules.beavers_apply()).can_double()
}

/// The tasks of `record` (replayed as `replay`, leniently: what could not be replayed is left
/// out) under `settings`, in record order.
pub(crate) fn plan(
    record: &MatchRecord,
    replay: &Replay,
    settings: &AnalysisSettings,
) -> Vec<Task> {
    let info = &record.info;
    let cube_on = settings.cube_decisions && info.cube_used;
    let mut tasks = Vec::new();
    for (g, (game, replayed)) in record.games.iter().zip(replay.games()).enumerate() {
        if replayed.skipped {
            continue;
        }
        let target = |i: usize| -> Option<Target> {
            let entry = game.entries.get(i)?;
            let before = *replayed.before(i)?;
            let wanted = settings.analyses(entry.action.player())
                && !(settings.existing == Existing::Keep && entry.analysis.is_some());
            wanted.then(|| Target {
                entry: i,
                action: entry.action.clone(),
                before,
                existing: entry.analysis.as_deref().cloned(),
            })
        };
        // The cube decision of a target is analysed again.
        let cube_again = |t: &Target| -> bool {
            match (
                settings.existing,
                t.existing.as_ref().and_then(|a| a.cube.as_ref()),
            ) {
                (Existing::KeepAsGood, Some(cube)) => !settings.cube.covers_cube(cube),
                _ => true,
            }
        };
        for (i, entry) in game.entries.iter().enumerate() {
            if replayed.before(i).is_none() {
                break;
            }
            match &entry.action {
                RecordAction::Move { .. } | RecordAction::Roll { .. } => {
                    let (Some(t), Some(rolled)) = (target(i), replayed.rolled(i)) else {
                        continue;
                    };
                    let is_move = matches!(entry.action, RecordAction::Move { .. });
                    let keep_as_good = settings.existing == Existing::KeepAsGood;
                    let moves_kept = keep_as_good
                        && t.existing
                            .as_ref()
                            .and_then(|a| a.moves.as_ref())
                            .is_some_and(|m| settings.checker.covers_moves(m));
                    let parts = Parts {
                        cube: is_move
                            && cube_on
                            && cube_again(&t)
                            && (!keep_as_good || cube_available(info, rolled)),
                        moves: is_move && settings.moves && !moves_kept,
                        luck: settings.luck_analysis,
                    };
                    if parts != Parts::default() {
                        tasks.push(Task {
                            game: g,
                            work: Work::Turn {
                                rolled: *rolled,
                                parts,
                            },
                            targets: vec![t],
                        });
                    }
                }
                RecordAction::Double { player } if cube_on => {
                    let answered = game.entries.get(i + 1).is_some_and(|next| {
                        matches!(
                            next.action,
                            RecordAction::Take { player: p } | RecordAction::Drop { player: p }
                                if p == player.other()
                        )
                    });
                    let mut targets: Vec<Target> = target(i).into_iter().collect();
                    if answered {
                        targets.extend(target(i + 1));
                    }
                    targets.retain(|t| cube_again(t));
                    if !targets.is_empty() {
                        tasks.push(Task {
                            game: g,
                            work: Work::Cube,
                            targets,
                        });
                    }
                }
                _ => {}
            }
        }
    }
    tasks
}
