//! What an analysis does and how carefully: the evaluation level of checker plays, of cube
//! decisions and of the luck, the mark thresholds, which players and which parts are analysed.
//! GNU Backgammon's defaults (docs/ANALYSIS.md §Settings): checker plays and cube decisions at
//! cubeful 2-ply with its analysis move filter (the Large preset), luck at cubeful 0-ply.

use crate::analysis::marks::Thresholds;
use crate::game::match_state::Player;
use crate::game::record::analysis::{CubeAnalysis, EvalContext, EvalSource, MoveAnalysis};
use crate::search::rollout::RolloutSettings;
use crate::search::{EvalSettings, FilterPreset, Level};

/// How one kind of decision is evaluated: an n-ply evaluation, or a rollout of what an n-ply
/// evaluation picks.
#[derive(Clone, Debug, PartialEq)]
pub enum AnalysisLevel {
    /// An n-ply evaluation with the move filters of the settings.
    Ply(EvalSettings),
    /// Rollouts (docs/ANALYSIS.md §Rollouts).
    Rollout(Box<RolloutLevel>),
}

/// An analysis by rollouts: the checker plays are ranked at `preselect` with its move filters,
/// then the best `candidates` of those scored at its full depth, and the play made, are rolled
/// out; a cube decision is rolled out directly.
#[derive(Clone, Debug, PartialEq)]
pub struct RolloutLevel {
    /// The evaluation that ranks the plays and picks those rolled out.
    pub preselect: EvalSettings,
    /// At most this many plays are rolled out (besides the play made).
    pub candidates: usize,
    /// The rollouts. Their `threads` are the analysis run's: positions are then analysed one
    /// after the other, each rollout on all the threads.
    pub settings: RolloutSettings,
}

impl AnalysisLevel {
    /// The level of one of GNU Backgammon's predefined playing levels.
    pub fn of(level: Level) -> AnalysisLevel {
        AnalysisLevel::Ply(level.settings())
    }

    /// Cubeful n-ply evaluation without noise and with GNU Backgammon's analysis move filter,
    /// the Large preset (its `set analysis chequerplay evaluation plies N`), `plies` capped at 4,
    /// with the pruning nets choosing the plays inside the search as GNU Backgammon's analysis
    /// does (docs/ENGINE.md §Pruning nets; without pruning nets the search scores every play).
    /// (GNU Backgammon's playing levels, [`AnalysisLevel::of`], use the Normal filter.)
    pub fn plies(plies: u8) -> AnalysisLevel {
        AnalysisLevel::Ply(EvalSettings {
            plies: plies.min(4),
            filter: FilterPreset::Large,
            prune: plies > 0,
            ..Level::Expert.settings()
        })
    }

    /// Rollouts with `settings` of up to `candidates` plays picked at `preselect`.
    pub fn rollout(
        preselect: EvalSettings,
        candidates: usize,
        settings: RolloutSettings,
    ) -> AnalysisLevel {
        AnalysisLevel::Rollout(Box::new(RolloutLevel {
            preselect,
            candidates: candidates.max(1),
            settings,
        }))
    }

    /// The n-ply settings of the level: the evaluation itself, or for rollouts the evaluation
    /// that ranks the plays before the best are rolled out.
    pub fn eval_settings(&self) -> &EvalSettings {
        match self {
            AnalysisLevel::Ply(settings) => settings,
            AnalysisLevel::Rollout(r) => &r.preselect,
        }
    }

    /// The level rolls out.
    pub fn is_rollout(&self) -> bool {
        matches!(self, AnalysisLevel::Rollout(_))
    }

    /// A stored figure obtained this way is at least as good as this level. For an n-ply level:
    /// any rollout, or an n-ply evaluation at least as deep (then cubeful rather than cubeless,
    /// noiseless rather than noisy). For a rollout level: a rollout of at least as many trials.
    pub fn is_covered_by(&self, source: &EvalSource) -> bool {
        match (self, source) {
            (AnalysisLevel::Ply(_), EvalSource::Rollout(_)) => true,
            (AnalysisLevel::Rollout(asked), EvalSource::Rollout(stored)) => {
                stored.trials >= asked.settings.trials
            }
            (AnalysisLevel::Rollout(_), EvalSource::Eval(_)) => false,
            (AnalysisLevel::Ply(asked), EvalSource::Eval(stored)) => {
                let rank = |plies: u8, cubeful: bool, noiseless: bool| (plies, cubeful, noiseless);
                rank(stored.plies, stored.cubeful, stored.noise == 0.0)
                    >= rank(asked.plies, asked.cubeful, asked.noise == 0.0)
            }
        }
    }

    /// A stored checker-play analysis is at least as good as this level: its deepest evaluated
    /// candidate is ([`AnalysisLevel::is_covered_by`]).
    pub fn covers_moves(&self, moves: &MoveAnalysis) -> bool {
        moves
            .candidates
            .iter()
            .filter_map(|c| c.eval.as_ref())
            .any(|e| self.is_covered_by(&e.source))
    }

    /// A stored cube analysis is at least as good as this level.
    pub fn covers_cube(&self, cube: &CubeAnalysis) -> bool {
        self.is_covered_by(&cube.source)
    }

    /// A short name: `0-ply`, `2-ply`, …
    pub fn describe(&self) -> String {
        match self {
            AnalysisLevel::Rollout(r) => format!(
                "rollout, {} trials{}",
                r.settings.trials,
                if r.settings.cubeful { "" } else { ", cubeless" }
            ),
            AnalysisLevel::Ply(s) => {
                let mut text = format!("{}-ply", s.plies);
                if !s.cubeful {
                    text.push_str(" cubeless");
                }
                if s.noise > 0.0 {
                    text.push_str(&format!(" noise {:.3}", s.noise));
                }
                if s.reduced {
                    text.push_str(" reduced");
                }
                text
            }
        }
    }
}

/// The evaluation context stored with an n-ply figure at `plies` (the depth a candidate was
/// scored at, which may be less than the settings' for a play the filters pruned); `prune` says
/// whether the search chose inner plays with the pruning nets (as GNU Backgammon records its own).
pub(crate) fn eval_context(settings: &EvalSettings, plies: u8) -> EvalContext {
    EvalContext {
        plies,
        cubeful: settings.cubeful,
        deterministic: settings.deterministic,
        noise: f64::from(settings.noise),
        prune: settings.prune && plies > 0,
    }
}

/// What becomes of the analysis an action already has (read from a file, or from an earlier run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Existing {
    /// Analyse every action again, replacing what it had.
    Replace,
    /// GNU Backgammon's way: a checker play or cube decision already analysed at least as well
    /// as asked ([`AnalysisLevel::is_covered_by`]) keeps its analysis, the others are analysed
    /// again; the luck is always computed again.
    #[default]
    KeepAsGood,
    /// Leave every action that has analysis as it is; analyse only the others.
    Keep,
}

/// Everything an analysis run is asked to do.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisSettings {
    /// Level of the checker-play analysis.
    pub checker: AnalysisLevel,
    /// Level of the cube decisions (always evaluated cubeful).
    pub cube: AnalysisLevel,
    /// Level of the luck of the rolls (21 best plays per roll: keep it cheap).
    pub luck: EvalSettings,
    /// Thresholds of the skill and luck marks.
    pub thresholds: Thresholds,
    /// Analyse the actions of player 0 and of player 1.
    pub players: [bool; 2],
    /// Analyse checker plays.
    pub moves: bool,
    /// Analyse cube decisions: before each checker play where the mover had the cube, and
    /// doubles, takes and passes.
    pub cube_decisions: bool,
    /// Analyse the luck of the rolls.
    pub luck_analysis: bool,
    /// Keep at most this many candidates of a checker play (the played one is always kept,
    /// after them if it is not among them). `None`: every legal play, as GNU Backgammon stores
    /// them.
    pub max_candidates: Option<usize>,
    /// What becomes of the analysis actions already have.
    pub existing: Existing,
}

impl Default for AnalysisSettings {
    /// GNU Backgammon's analysis defaults: checker plays and cube decisions at cubeful 2-ply
    /// with the Large move filter, luck at cubeful 0-ply, thresholds 0.03/0.06/0.12 and
    /// 0.3/0.6, both players, everything analysed, every candidate kept, analysis already as
    /// good as asked kept.
    fn default() -> AnalysisSettings {
        AnalysisSettings {
            checker: AnalysisLevel::plies(2),
            cube: AnalysisLevel::plies(2),
            luck: Level::Expert.settings(),
            thresholds: Thresholds::default(),
            players: [true, true],
            moves: true,
            cube_decisions: true,
            luck_analysis: true,
            max_candidates: None,
            existing: Existing::KeepAsGood,
        }
    }
}

impl AnalysisSettings {
    /// The actions of `player` are analysed.
    pub fn analyses(&self, player: Player) -> bool {
        self.players[player.index()]
    }

    /// Checker plays or cube decisions are rolled out.
    pub fn uses_rollouts(&self) -> bool {
        (self.moves && self.checker.is_rollout()) || (self.cube_decisions && self.cube.is_rollout())
    }

    /// The cube level's n-ply settings, made cubeful (a cube decision is cubeful by definition).
    pub(crate) fn cube_settings(&self) -> EvalSettings {
        EvalSettings {
            cubeful: true,
            ..*self.cube.eval_settings()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_gnu_backgammons() {
        let s = AnalysisSettings::default();
        let checker = s.checker.eval_settings();
        assert_eq!(
            (checker.plies, checker.cubeful, checker.noise),
            (2, true, 0.0)
        );
        assert_eq!(checker.filter, FilterPreset::Large);
        assert_eq!(s.cube.eval_settings().plies, 2);
        assert_eq!((s.luck.plies, s.luck.cubeful), (0, true));
        assert_eq!(s.thresholds, Thresholds::default());
        assert!(s.analyses(Player::Zero) && s.analyses(Player::One));
        assert!(s.moves && s.cube_decisions && s.luck_analysis);
        assert_eq!(s.existing, Existing::KeepAsGood);
        assert_eq!(AnalysisLevel::plies(9).eval_settings().plies, 4);
        assert_eq!(AnalysisLevel::plies(3).describe(), "3-ply");
        let cubeless = AnalysisSettings {
            cube: AnalysisLevel::Ply(EvalSettings {
                cubeful: false,
                ..*AnalysisLevel::plies(1).eval_settings()
            }),
            ..s
        };
        assert!(cubeless.cube_settings().cubeful);
    }

    #[test]
    fn levels_cover_what_is_as_deep() {
        let two = AnalysisLevel::plies(2);
        let stored = |plies, cubeful| {
            EvalSource::Eval(EvalContext {
                plies,
                cubeful,
                deterministic: true,
                noise: 0.0,
                prune: true,
            })
        };
        assert!(two.is_covered_by(&stored(2, true)));
        assert!(two.is_covered_by(&stored(3, false)));
        assert!(!two.is_covered_by(&stored(1, true)));
        assert!(!two.is_covered_by(&stored(2, false)));
        assert!(AnalysisLevel::plies(0).is_covered_by(&stored(0, true)));
        let noisy = AnalysisLevel::of(Level::Beginner);
        assert!(noisy.is_covered_by(&stored(0, true)));
        assert!(
            !AnalysisLevel::of(Level::Expert).is_covered_by(&EvalSource::Eval(EvalContext {
                noise: 0.06,
                ..match stored(0, true) {
                    EvalSource::Eval(c) => c,
                    EvalSource::Rollout(_) => unreachable!(),
                }
            }))
        );
    }
}
