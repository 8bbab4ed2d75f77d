//! Judging analysed actions as GNU Backgammon does: the error of a checker play, the cube
//! decision behind a double, take or pass, and the skill and luck marks they earn
//! (docs/ANALYSIS.md §Marks and statistics).
//!
//! Everything here works from the figures stored in an [`ActionAnalysis`] — what Cubeful's
//! analyser writes and what GNU Backgammon's SGF `A`, `DA` and `LU` properties hold — and from the
//! match state before the action ([`Snapshot`]), which gives the cube and score the figures are
//! normalised with.
//!
//! Units: all errors and luck are **normalised equity** (money: per 1-cube; match: EMG of the
//! player concerned at the current cube). A cube analysis stores the cubeful values of no double
//! and double/take for the doubler: money equity normalised to the current cube, or in match
//! play the match winning chance, which is converted to EMG with the doubler's scale at the
//! current cube (so double/pass is +1 exactly).
//!
//! Arithmetic is done in `f32` after reading the stored figures as `f32`, as GNU Backgammon does,
//! so that marks on the thresholds and the statistics built on these judgements come out as it
//! prints them.

use serde::Serialize;

use crate::cube::met::{AwayLookup, MatchEquityTable, MatchScore};
use crate::cube::{decide, CubeAction, CubeContext, Scoring};
use crate::game::match_state::{MatchState, Player};
use crate::game::record::analysis::{CubeAnalysis, Luck, MoveAnalysis, Skill};
use crate::game::record::{ActionAnalysis, MatchInfo, RecordAction, Snapshot};

/// GNU Backgammon's mark thresholds (normalised equity), settable.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Thresholds {
    /// An error worse than this is doubtful (`?!`).
    pub doubtful: f64,
    /// An error worse than this is bad (`?`).
    pub bad: f64,
    /// An error worse than this is very bad (`??`).
    pub very_bad: f64,
    /// A roll better than this is lucky (and worse than its negative unlucky).
    pub lucky: f64,
    /// A roll better than this is very lucky (and worse than its negative very unlucky).
    pub very_lucky: f64,
}

impl Default for Thresholds {
    /// GNU Backgammon's defaults since 1.07.001: 0.03, 0.06, 0.12 for skill, 0.3, 0.6 for luck.
    fn default() -> Thresholds {
        Thresholds {
            doubtful: 0.03,
            bad: 0.06,
            very_bad: 0.12,
            lucky: 0.3,
            very_lucky: 0.6,
        }
    }
}

impl Thresholds {
    /// The thresholds of GNU Backgammon 1.06 and earlier: 0.04, 0.08, 0.16 for skill.
    pub fn gnubg_1_06() -> Thresholds {
        Thresholds {
            doubtful: 0.04,
            bad: 0.08,
            very_bad: 0.16,
            ..Thresholds::default()
        }
    }
}

/// The skill mark of an error (normalised equity; an error is ≤ 0, a gain is never marked):
/// very bad below −`very_bad`, bad below −`bad`, doubtful below −`doubtful`. The comparison is
/// made in `f32`, as GNU Backgammon stores both.
pub fn skill(error: f64, t: &Thresholds) -> Skill {
    let e = error as f32;
    if e < -(t.very_bad as f32) {
        Skill::VeryBad
    } else if e < -(t.bad as f32) {
        Skill::Bad
    } else if e < -(t.doubtful as f32) {
        Skill::Doubtful
    } else {
        Skill::None
    }
}

/// The luck mark of a roll's luck (normalised equity): very lucky above `very_lucky`, lucky
/// above `lucky`, unlucky and very unlucky below their negatives; NaN is unmarked.
pub fn luck_mark(luck: f64, t: &Thresholds) -> Luck {
    let l = luck as f32;
    if l > t.very_lucky as f32 {
        Luck::VeryLucky
    } else if l > t.lucky as f32 {
        Luck::Lucky
    } else if l < -(t.very_lucky as f32) {
        Luck::VeryUnlucky
    } else if l < -(t.lucky as f32) {
        Luck::Unlucky
    } else {
        Luck::None
    }
}

/// The error of the play made (normalised equity, ≤ 0 when the candidates are ranked best
/// first): the played candidate's equity minus the first candidate's. `None` when the played
/// or the best candidate has no evaluation, or the played index is out of range.
pub fn checker_error(moves: &MoveAnalysis) -> Option<f64> {
    let best = moves.candidates.first()?.eval.as_ref()?;
    let played = moves.candidates.get(moves.played)?.eval.as_ref()?;
    Some(f64::from(played.equity as f32 - best.equity as f32))
}

/// The play was a real choice: more than one distinct legal play (GNU Backgammon counts the
/// candidates listed, which its analysis makes all legal plays).
pub fn is_unforced(moves: &MoveAnalysis) -> bool {
    moves.candidates.len() > 1
}

/// The judgement of a cube decision from the doubler's side (normalised equity for the player
/// who may double, cube value before the double; GNU Backgammon's `FindCubeDecision`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CubeJudgement {
    /// The player who may double.
    #[serde(skip)]
    pub doubler: Player,
    /// The doubler had the cube (GNU Backgammon's `GetDPEq`: access to the cube, not the
    /// Crawford game, not a dead cube, not the post-Crawford leader). Without it the optimal
    /// value is no double's and nothing is an error.
    pub available: bool,
    /// No double.
    pub no_double: f64,
    /// Double, take.
    pub double_take: f64,
    /// Double, pass: +1 (as stored, it is never analysed).
    pub double_pass: f64,
    /// The value of the proper action: max(no double, min(double/take, double/pass)) when the
    /// cube is available, no double otherwise.
    pub optimal: f64,
    /// The proper action, in GNU Backgammon's words ([`CubeAction::text`]).
    #[serde(serialize_with = "serialize_action")]
    pub action: CubeAction,
    /// A close decision (GNU Backgammon's `isCloseCubedecision`): the proper action is within
    /// 0.16 of double/take (capped at +1).
    pub close: bool,
}

fn serialize_action<S: serde::Serializer>(a: &CubeAction, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(a.text())
}

/// The close-decision margin (normalised equity).
pub const CLOSE_CUBE: f64 = 0.16;

impl CubeJudgement {
    /// Judges no-double and double/take values (normalised for the doubler, see the module
    /// documentation) in the cube context of the doubler (GNU Backgammon's
    /// `FindBestCubeDecision`). `can_win_gammon` only chooses between "too good" and "double,
    /// pass" wording.
    pub fn new(
        doubler: Player,
        no_double: f32,
        double_take: f32,
        ctx: &CubeContext,
        can_win_gammon: bool,
    ) -> CubeJudgement {
        let decision = decide(no_double, double_take, ctx, can_win_gammon);
        let dp = 1.0f32;
        let optimal = decision.optimal;
        let close = optimal - double_take.min(1.0) < CLOSE_CUBE as f32;
        CubeJudgement {
            doubler,
            available: ctx.can_double(),
            no_double: f64::from(no_double),
            double_take: f64::from(double_take),
            double_pass: f64::from(dp),
            optimal: f64::from(optimal),
            action: decision.action,
            close,
        }
    }

    fn f(x: f64) -> f32 {
        x as f32
    }

    /// The error of not doubling (≤ 0): no double − optimal.
    pub fn no_double_error(&self) -> f64 {
        f64::from(Self::f(self.no_double) - Self::f(self.optimal))
    }

    /// The error of doubling (≤ 0): min(double/take, double/pass) − optimal.
    pub fn double_error(&self) -> f64 {
        f64::from(Self::f(self.double_take).min(Self::f(self.double_pass)) - Self::f(self.optimal))
    }

    /// The error of taking, for the taker (≤ 0): double/pass − double/take when taking is worse
    /// than passing, else 0.
    pub fn take_error(&self) -> f64 {
        if self.double_take > self.double_pass {
            f64::from(Self::f(self.double_pass) - Self::f(self.double_take))
        } else {
            0.0
        }
    }

    /// The error of passing, for the passer (≤ 0): double/take − double/pass when passing is
    /// worse than taking, else 0.
    pub fn pass_error(&self) -> f64 {
        if self.double_pass > self.double_take {
            f64::from(Self::f(self.double_take) - Self::f(self.double_pass))
        } else {
            0.0
        }
    }

    /// Not doubling was a mistake (no double < optimal).
    pub fn is_missed_double(&self) -> bool {
        self.no_double < self.optimal
    }

    /// The opponent should pass a double (double/take > +1): a missed double here is "above
    /// the cash point", a wrong double "too good".
    pub fn is_pass(&self) -> bool {
        self.double_take > 1.0
    }

    /// The position is too good to double (no double > +1).
    pub fn is_too_good(&self) -> bool {
        self.no_double > 1.0
    }
}

/// The doubler's cube context at `before` for the player `doubler` (the cube and score as they
/// are before the double), with `met` for match play.
pub fn cube_context<'a>(
    before: &Snapshot,
    doubler: Player,
    info: &MatchInfo,
    met: &'a MatchEquityTable,
) -> CubeContext<'a> {
    let state = MatchState {
        on_roll: doubler,
        ..before.state
    };
    CubeContext::from_state(&state, met, info.rules.beavers)
}

/// Judges a stored cube analysis for `doubler` at `before`: `None` when the doubler has no
/// cube to double (GNU Backgammon's `GetDPEq`: no access, the Crawford game, a dead cube, the
/// post-Crawford leader), since such a decision is not a decision.
pub fn judge_cube(
    cube: &CubeAnalysis,
    before: &Snapshot,
    doubler: Player,
    info: &MatchInfo,
    met: &MatchEquityTable,
) -> Option<CubeJudgement> {
    Some(cube_judgement(cube, before, doubler, info, met)).filter(|j| j.available)
}

/// Judges a stored cube analysis for `doubler` at `before` whether or not the doubler has the
/// cube ([`CubeJudgement::available`]); GNU Backgammon's statistics count such a stored
/// decision too.
pub fn cube_judgement(
    cube: &CubeAnalysis,
    before: &Snapshot,
    doubler: Player,
    info: &MatchInfo,
    met: &MatchEquityTable,
) -> CubeJudgement {
    let ctx = cube_context(before, doubler, info, met);
    let (nd, dt) = match ctx.scoring {
        Scoring::Money { .. } => (cube.no_double[6] as f32, cube.double_take[6] as f32),
        Scoring::Match { score, .. } => {
            let scale = MwcScaleF32::new(met, &score, doubler, ctx.cube);
            (
                scale.emg(cube.no_double[6] as f32),
                scale.emg(cube.double_take[6] as f32),
            )
        }
    };
    CubeJudgement::new(doubler, nd, dt, &ctx, cube.no_double[1] > 0.0)
}

/// MWC of `player` from both players' aways, in single precision as GNU Backgammon's table
/// lookups give it: the table holds player 0's (pre-Crawford) or the trailer's (post-Crawford)
/// MWC as `f32`, and the other player's is `1 − ` that in `f32`.
fn mwc_of_aways_f32(
    met: &MatchEquityTable,
    away: [i64; 2],
    player: Player,
    post_crawford: bool,
) -> f32 {
    match met.lookup(away, player, post_crawford) {
        AwayLookup::Won => 1.0,
        AwayLookup::Lost => 0.0,
        AwayLookup::Entry(m) => m as f32,
        AwayLookup::Complement(m) => 1.0 - m as f32,
    }
}

/// [`MatchEquityTable::mwc_after`] in single precision (GNU Backgammon's `getME`): MWC of
/// `player` after `winner` wins `points` in the game at `score`.
pub fn mwc_after_f32(
    met: &MatchEquityTable,
    score: &MatchScore,
    player: Player,
    winner: Player,
    points: u32,
) -> f32 {
    let mut away = [
        i64::from(score.away(Player::Zero)),
        i64::from(score.away(Player::One)),
    ];
    let post = score.crawford || away[0] == 1 || away[1] == 1;
    away[winner.index()] -= i64::from(points);
    mwc_of_aways_f32(met, away, player, post)
}

/// [`MatchEquityTable::mwc_at_score`] in single precision (GNU Backgammon's `getMEAtScore`).
pub fn mwc_at_score_f32(met: &MatchEquityTable, score: &MatchScore, player: Player) -> f32 {
    let away = [
        i64::from(score.away(Player::Zero)),
        i64::from(score.away(Player::One)),
    ];
    mwc_of_aways_f32(met, away, player, score.is_post_crawford())
}

/// GNU Backgammon's MWC ↔ normalised equity map in single precision (its `mwc2eq` and
/// `eq2mwc`), for one player at one score and cube.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MwcScaleF32 {
    /// MWC after winning the cube value.
    pub win: f32,
    /// MWC after losing the cube value.
    pub lose: f32,
}

impl MwcScaleF32 {
    /// The scale of `player` at `score` with the cube at `cube`.
    pub fn new(
        met: &MatchEquityTable,
        score: &MatchScore,
        player: Player,
        cube: u32,
    ) -> MwcScaleF32 {
        MwcScaleF32 {
            win: mwc_after_f32(met, score, player, player, cube),
            lose: mwc_after_f32(met, score, player, player.other(), cube),
        }
    }

    /// EMG of an MWC: `(2·MWC − (W + L)) / (W − L)`.
    pub fn emg(&self, mwc: f32) -> f32 {
        (2.0 * mwc - (self.win + self.lose)) / (self.win - self.lose)
    }

    /// MWC of an EMG: `(EMG·(W − L) + (W + L)) / 2`.
    pub fn mwc(&self, emg: f32) -> f32 {
        0.5 * (emg * (self.win - self.lose) + (self.win + self.lose))
    }

    /// A normalised amount as a change in MWC: `eq2mwc(x) − eq2mwc(0)`.
    pub fn mwc_change(&self, emg: f32) -> f32 {
        self.mwc(emg) - self.mwc(0.0)
    }
}

/// A normalised amount (error or luck) of `player` at `before` in unnormalised units: money, ×
/// the cube value (points); match, the change in MWC (GNU Backgammon's
/// `eq2mwc(x) − eq2mwc(0)` with the player's cube state).
pub fn unnormalised(amount: f32, before: &Snapshot, player: Player, met: &MatchEquityTable) -> f32 {
    let state = &before.state;
    match MatchScore::from_state(state) {
        None => amount * state.cube_value() as f32,
        Some(score) => MwcScaleF32::new(met, &score, player, state.cube_value()).mwc_change(amount),
    }
}

/// Which player doubles in the decision an action answers or skips: the mover for a checker
/// play (the decision before it), the player for a double, the opponent for a take, pass or
/// beaver; `None` for other actions.
pub fn doubler_of(action: &RecordAction) -> Option<Player> {
    match action {
        RecordAction::Move { player, .. } | RecordAction::Double { player } => Some(*player),
        RecordAction::Take { player }
        | RecordAction::Drop { player }
        | RecordAction::Beaver { player } => Some(player.other()),
        _ => None,
    }
}

/// Sets `analysis.skill`, `analysis.cube_skill` and `analysis.luck_mark` from the figures stored
/// in it, as GNU Backgammon marks them: `action` is the action analysed, `before` the replay
/// snapshot before it (position, match state), `info` the match (rules). Uses GNU Backgammon's
/// default match equity table ([`MatchEquityTable::kazaross_xg2`]).
///
/// * A checker play: `skill` from the play's error, `cube_skill` from the no-double error of
///   the cube decision before it (when the mover had the cube), `luck_mark` from the luck.
/// * A double: `skill` from the double's error; a take or pass: the taker's or passer's error.
///   Beavers are not judged (GNU Backgammon does not analyse them).
/// * A roll without a move: `luck_mark`.
///
/// A mark whose figures are missing is cleared.
pub fn mark(
    action: &RecordAction,
    analysis: &mut ActionAnalysis,
    before: &Snapshot,
    info: &MatchInfo,
    t: &Thresholds,
) {
    mark_with(
        action,
        analysis,
        before,
        info,
        t,
        MatchEquityTable::kazaross_xg2(),
    )
}

/// [`mark`] with another match equity table.
pub fn mark_with(
    action: &RecordAction,
    analysis: &mut ActionAnalysis,
    before: &Snapshot,
    info: &MatchInfo,
    t: &Thresholds,
    met: &MatchEquityTable,
) {
    let judgement = match (doubler_of(action), &analysis.cube) {
        (Some(doubler), Some(cube)) => judge_cube(cube, before, doubler, info, met),
        _ => None,
    };
    analysis.skill = Skill::None;
    analysis.cube_skill = Skill::None;
    match action {
        RecordAction::Move { .. } => {
            if let Some(error) = analysis.moves.as_ref().and_then(checker_error) {
                analysis.skill = skill(error, t);
            }
            if let Some(j) = judgement {
                analysis.cube_skill = skill(j.no_double_error(), t);
            }
        }
        RecordAction::Double { .. } => {
            if let Some(j) = judgement {
                analysis.skill = skill(j.double_error(), t);
            }
        }
        RecordAction::Take { .. } => {
            if let Some(j) = judgement {
                analysis.skill = skill(j.take_error(), t);
            }
        }
        RecordAction::Drop { .. } => {
            if let Some(j) = judgement {
                analysis.skill = skill(j.pass_error(), t);
            }
        }
        _ => {}
    }
    analysis.luck_mark = match (action, analysis.luck) {
        (RecordAction::Move { .. } | RecordAction::Roll { .. }, Some(luck)) => luck_mark(luck, t),
        _ => Luck::None,
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::match_state::CubeOwner;
    use crate::game::record::analysis::{Candidate, CandidateEval, EvalContext, EvalSource};
    use crate::game::Rules;
    use crate::rules::dice::Dice;
    use crate::rules::moves::Move;
    use crate::rules::position::Position;

    fn eval_source() -> EvalSource {
        EvalSource::Eval(EvalContext {
            plies: 2,
            cubeful: true,
            deterministic: true,
            noise: 0.0,
            prune: true,
        })
    }

    fn candidate(equity: f64) -> Candidate {
        Candidate {
            mv: Move::NONE,
            eval: Some(CandidateEval {
                probabilities: [0.5, 0.1, 0.0, 0.1, 0.0],
                equity,
                source: eval_source(),
            }),
        }
    }

    fn snapshot(length: u16, score: [u16; 2], cube_log2: u8, owner: CubeOwner) -> Snapshot {
        let mut state = MatchState::new_match(length);
        state.score = score;
        state.cube_log2 = cube_log2;
        state.cube_owner = owner;
        state.on_roll = Player::Zero;
        state.turn = Player::Zero;
        Snapshot {
            position: Position::starting(),
            state,
        }
    }

    fn info(length: u16) -> MatchInfo {
        MatchInfo::new(
            ["a".into(), "b".into()],
            Rules {
                match_length: length,
                crawford: true,
                jacoby: false,
                beavers: false,
            },
        )
    }

    #[test]
    fn skill_thresholds() {
        let t = Thresholds::default();
        assert_eq!(skill(0.0, &t), Skill::None);
        assert_eq!(skill(0.01, &t), Skill::None);
        assert_eq!(skill(-0.03, &t), Skill::None);
        assert_eq!(skill(-0.0301, &t), Skill::Doubtful);
        assert_eq!(skill(-0.06, &t), Skill::Doubtful);
        assert_eq!(skill(-0.0601, &t), Skill::Bad);
        assert_eq!(skill(-0.12, &t), Skill::Bad);
        assert_eq!(skill(-0.1201, &t), Skill::VeryBad);
        assert_eq!(skill(f64::NEG_INFINITY, &t), Skill::VeryBad);
        let old = Thresholds::gnubg_1_06();
        assert_eq!(skill(-0.035, &old), Skill::None);
        assert_eq!(skill(-0.035, &t), Skill::Doubtful);
    }

    #[test]
    fn luck_thresholds() {
        let t = Thresholds::default();
        assert_eq!(luck_mark(0.3, &t), Luck::None);
        assert_eq!(luck_mark(0.31, &t), Luck::Lucky);
        assert_eq!(luck_mark(0.61, &t), Luck::VeryLucky);
        assert_eq!(luck_mark(-0.3, &t), Luck::None);
        assert_eq!(luck_mark(-0.31, &t), Luck::Unlucky);
        assert_eq!(luck_mark(-0.61, &t), Luck::VeryUnlucky);
        assert_eq!(luck_mark(f64::NEG_INFINITY, &t), Luck::VeryUnlucky);
        assert_eq!(luck_mark(f64::NAN, &t), Luck::None);
    }

    #[test]
    fn checker_error_of_the_played_candidate() {
        let moves = MoveAnalysis {
            played: 2,
            candidates: vec![candidate(0.2), candidate(0.15), candidate(0.05)],
            rollout_marks: vec![],
        };
        let e = checker_error(&moves).unwrap();
        assert!((e + 0.15).abs() < 1e-6, "{e}");
        assert!(is_unforced(&moves));
        let forced = MoveAnalysis {
            played: 0,
            candidates: vec![candidate(0.2)],
            rollout_marks: vec![],
        };
        assert_eq!(checker_error(&forced), Some(0.0));
        assert!(!is_unforced(&forced));
        let missing = MoveAnalysis { played: 3, ..moves };
        assert_eq!(checker_error(&missing), None);
    }

    fn cube(nd_mwc: f64, dt_mwc: f64) -> CubeAnalysis {
        CubeAnalysis {
            no_double: [0.7, 0.2, 0.01, 0.05, 0.0, 0.5, nd_mwc],
            double_take: [0.7, 0.2, 0.01, 0.05, 0.0, 0.5, dt_mwc],
            source: eval_source(),
            double_take_rollout: None,
        }
    }

    #[test]
    fn match_cube_is_judged_in_emg_of_the_doubler() {
        // The stored double/pass-like case: at 0-0 to 3 with a centred 1-cube, the doubler's
        // double/pass MWC maps to +1.
        let met = MatchEquityTable::kazaross_xg2();
        let before = snapshot(3, [0, 0], 0, CubeOwner::Centered);
        let score = MatchScore::new(3, [0, 0], false);
        let scale = MwcScaleF32::new(met, &score, Player::Zero, 1);
        assert!((scale.emg(scale.win) - 1.0).abs() < 1e-6);
        // A big double: ND 0.5 EMG, DT 0.9 EMG.
        let c = cube(f64::from(scale.mwc(0.5)), f64::from(scale.mwc(0.9)));
        let j = judge_cube(&c, &before, Player::Zero, &info(3), met).unwrap();
        assert!((j.no_double - 0.5).abs() < 1e-5 && (j.double_take - 0.9).abs() < 1e-5);
        assert!((j.optimal - 0.9).abs() < 1e-5);
        assert!(j.close && j.is_missed_double() && !j.is_pass());
        assert!((j.no_double_error() + 0.4).abs() < 1e-5);
        assert_eq!(j.double_error(), 0.0);
        assert_eq!(j.take_error(), 0.0);
        assert!((j.pass_error() + 0.1).abs() < 1e-5);
        assert_eq!(j.action, CubeAction::DoubleTake);
        // The opponent owns the cube: no decision for player 0.
        let owned = snapshot(3, [0, 0], 1, CubeOwner::Owned(Player::One));
        assert!(judge_cube(&c, &owned, Player::Zero, &info(3), met).is_none());
        // The Crawford game: no decision either.
        let mut crawford = snapshot(3, [2, 0], 0, CubeOwner::Centered);
        crawford.state.crawford = true;
        assert!(judge_cube(&c, &crawford, Player::Zero, &info(3), met).is_none());
    }

    #[test]
    fn marks_of_every_kind_of_action() {
        let t = Thresholds::default();
        let met = MatchEquityTable::kazaross_xg2();
        let before = snapshot(5, [0, 0], 0, CubeOwner::Centered);
        let score = MatchScore::new(5, [0, 0], false);
        let scale = MwcScaleF32::new(met, &score, Player::Zero, 1);
        // Too good to double, and the double's error is 0.2 (very bad), the pass is right.
        let c = cube(f64::from(scale.mwc(1.2)), f64::from(scale.mwc(1.5)));
        let dice = Dice::new(3, 1).unwrap();
        let mv = RecordAction::Move {
            player: Player::Zero,
            dice,
            mv: Move::NONE,
        };
        let mut a = ActionAnalysis {
            cube: Some(c.clone()),
            moves: Some(MoveAnalysis {
                played: 1,
                candidates: vec![candidate(0.1), candidate(0.05)],
                rollout_marks: vec![],
            }),
            luck: Some(0.45),
            ..ActionAnalysis::default()
        };
        mark(&mv, &mut a, &before, &info(5), &t);
        assert_eq!(a.skill, Skill::Doubtful);
        assert_eq!(a.cube_skill, Skill::None);
        assert_eq!(a.luck_mark, Luck::Lucky);

        let mut d = ActionAnalysis {
            cube: Some(c.clone()),
            ..ActionAnalysis::default()
        };
        let double = RecordAction::Double {
            player: Player::Zero,
        };
        mark(&double, &mut d, &before, &info(5), &t);
        assert_eq!(d.skill, Skill::VeryBad);
        let mut before_take = before;
        before_take.state.doubled = true;
        before_take.state.turn = Player::One;
        let take = RecordAction::Take {
            player: Player::One,
        };
        let mut tk = d.clone();
        mark(&take, &mut tk, &before_take, &info(5), &t);
        assert_eq!(tk.skill, Skill::VeryBad);
        let drop = RecordAction::Drop {
            player: Player::One,
        };
        let mut dr = d.clone();
        mark(&drop, &mut dr, &before_take, &info(5), &t);
        assert_eq!(dr.skill, Skill::None);
        // No figures: marks are cleared.
        let mut empty = ActionAnalysis {
            skill: Skill::Bad,
            luck_mark: Luck::Lucky,
            ..ActionAnalysis::default()
        };
        mark(&mv, &mut empty, &before, &info(5), &t);
        assert_eq!((empty.skill, empty.luck_mark), (Skill::None, Luck::None));
    }

    #[test]
    fn unnormalised_amounts() {
        let met = MatchEquityTable::kazaross_xg2();
        let mut money = snapshot(0, [0, 0], 2, CubeOwner::Centered);
        money.state.match_length = 0;
        assert_eq!(unnormalised(0.25, &money, Player::Zero, met), 1.0);
        let m = snapshot(3, [0, 0], 0, CubeOwner::Centered);
        let score = MatchScore::new(3, [0, 0], false);
        let s = met.scale(&score, Player::Zero, 1);
        let expected = 0.1 * (s.win - s.lose) / 2.0;
        assert!((f64::from(unnormalised(0.1, &m, Player::Zero, met)) - expected).abs() < 1e-6);
    }
}
