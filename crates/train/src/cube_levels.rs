//! How well 0-ply cube decisions agree with deeper ones, for a range of cube efficiencies.
//!
//! Janowski's model turns the cubeless chances of a static evaluation into cubeful equities
//! with one parameter, the cube efficiency `x` (how live the cube is). A deeper search replaces
//! most of the model by looking ahead, so the `x` a 0-ply decision should use is the one whose
//! decisions a deeper search confirms most often. This measures that: on self-play positions
//! ([`crate::decisions::sample_decisions`]), each in three cube situations (money with the cube
//! centred, money with the player on roll owning a 2-cube, and a 7-point match at a score drawn
//! for the position, cube centred), the reference is the cube decision at `reference_plies`
//! (its own leaves use the engine's rule for that depth, [`cube_efficiency`]); each `x` makes a
//! 0-ply double/no-double and take/pass decision from the same nets' static chances, and its
//! error is what the reference equities say the choice costs:
//!
//! - doubler: best of no double (ND) and double (min(DT, DP)) minus the chosen one;
//! - taker (as if doubled): best of take (−DT) and pass (−DP) minus the chosen one;
//!
//! in normalised money equity (match play: the reference's MWC converted as GNU Backgammon's
//! analysis does). Money play uses the Jacoby rule and no beavers. Decisions are "close" where
//! the reference's proper action is worth less than 0.16 more than the alternative, as GNU
//! Backgammon counts close cube decisions.
//!
//! The search reference is itself Janowski's model one roll later (with the deep efficiency),
//! so it favours efficiencies near that one. [`Reference::Rollout`] judges by cubeful rollouts
//! instead (GNU Backgammon's default settings: 0-ply play and cube, variance reduction), and only
//! where the measured efficiencies disagree about a decision: elsewhere every efficiency makes
//! the same choice and the same error, so the comparison loses nothing by leaving them out. The
//! figures then are per disagreeing case, not per position.
//!
//! [`cube_efficiency`]: cubeful_engine::cube::cube_efficiency

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use cubeful_engine::cube::met::{MatchEquityTable, MatchScore};
use cubeful_engine::cube::{cube_decision, CubeContext, CubeDecision, Ownership};
use cubeful_engine::eval::nn::NetClass;
use cubeful_engine::eval::Nets;
use cubeful_engine::search::rollout::{rollout, RolloutSettings, Subject};
use cubeful_engine::search::{EvalSettings, FilterPreset, Search};
use cubeful_engine::Player;
use serde::Serialize;

use crate::decisions::sample_decisions;
use crate::parallel_map;

/// A decision is close when its proper action beats the alternative by less than this.
const CLOSE: f32 = 0.16;

/// The cube situations each position is judged in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Situation {
    /// Money, Jacoby rule, no beavers, cube centred.
    MoneyCentred,
    /// Money, the player on roll owns a 2-cube.
    MoneyOwned,
    /// 7-point match, cube centred, a score drawn for the position.
    Match,
}

const SITUATIONS: [Situation; 3] = [
    Situation::MoneyCentred,
    Situation::MoneyOwned,
    Situation::Match,
];

/// What judges the 0-ply decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// The cube decision of the search at this depth.
    Search { plies: u8 },
    /// Cubeful rollouts of this many trials (seeded by the case), only of the cases where the
    /// efficiencies disagree.
    Rollout { trials: u32 },
}

/// The errors of one efficiency in one situation (or all), in thousandths of a point.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Errors {
    pub positions: usize,
    /// Double/no-double decisions the 0-ply choice got wrong.
    pub wrong_doubles: usize,
    /// Take/pass decisions the 0-ply choice got wrong.
    pub wrong_takes: usize,
    /// Mean error of the doubler's choice per position.
    pub double_millipoints: f64,
    /// Mean error of the taker's choice per position.
    pub take_millipoints: f64,
    /// Close double decisions (by the reference) and the mean error per close one.
    pub close_doubles: usize,
    pub close_double_millipoints: f64,
}

/// The result for one efficiency.
#[derive(Clone, Debug, Serialize)]
pub struct EfficiencyScore {
    pub x: f32,
    pub money_centred: Errors,
    pub money_owned: Errors,
    #[serde(rename = "match")]
    pub match_play: Errors,
    /// Contact and crashed positions only, all situations.
    pub contact: Errors,
    /// Race positions only, all situations.
    pub race: Errors,
}

/// One position in one situation: the reference and the static chances.
struct Case {
    situation: Situation,
    class: NetClass,
    reference: CubeDecision,
    probabilities: cubeful_engine::eval::Probabilities,
    score: Option<MatchScore>,
}

fn settings(plies: u8) -> EvalSettings {
    EvalSettings {
        plies,
        cubeful: true,
        noise: 0.0,
        deterministic: true,
        filter: FilterPreset::Normal,
        reduced: false,
        prune: true,
    }
}

/// A 7-point match score for position `i` (each player 2 to 7 away, never Crawford).
fn match_score(i: usize) -> MatchScore {
    let a = (i * 7 + 3) % 6;
    let b = (i * 11 + 1) % 6;
    MatchScore::new(7, [a as u16, b as u16], false)
}

fn context<'a>(
    situation: Situation,
    met: &'a MatchEquityTable,
    score: Option<MatchScore>,
) -> CubeContext<'a> {
    match situation {
        Situation::MoneyCentred => {
            CubeContext::money_with_rules(1, Ownership::Centered, true, false)
        }
        Situation::MoneyOwned => CubeContext::money_with_rules(2, Ownership::OnRoll, true, false),
        Situation::Match => CubeContext::new_match(
            met,
            score.expect("a match case has a score"),
            Player::Zero,
            1,
            Ownership::Centered,
        ),
    }
}

/// Errors (doubler, taker) in equity of a decision (`double`, `take`) judged by `reference`.
fn errors(reference: &CubeDecision, double: bool, take: bool) -> (f32, f32) {
    let (nd, dt, dp) = (
        reference.no_double,
        reference.double_take,
        reference.double_pass,
    );
    let doubled = dt.min(dp);
    let best_doubler = nd.max(doubled);
    let chosen_doubler = if double { doubled } else { nd };
    let best_taker = (-dt).max(-dp);
    let chosen_taker = if take { -dt } else { -dp };
    (best_doubler - chosen_doubler, best_taker - chosen_taker)
}

/// The 0-ply choices (double, take) at efficiency `x`.
fn shallow_choice(
    probabilities: &cubeful_engine::eval::Probabilities,
    ctx: CubeContext,
    x: f32,
) -> (bool, bool) {
    let shallow = cube_decision(probabilities, &ctx.with_efficiency(x));
    let double = shallow.double_take.min(shallow.double_pass) > shallow.no_double;
    let take = shallow.double_take < shallow.double_pass;
    (double, take)
}

/// Measures each of `efficiencies` on `n` positions sampled with `seed` by `nets`, judged by
/// `reference`, on `threads` threads (the result does not depend on them).
pub fn measure(
    nets: &Arc<Nets>,
    n: usize,
    seed: u64,
    reference: Reference,
    efficiencies: &[f32],
    threads: usize,
) -> Vec<EfficiencyScore> {
    let met = MatchEquityTable::kazaross_xg2();
    let sampled = sample_decisions(nets, n, seed);
    let cases: Vec<Vec<Case>> = parallel_map(
        sampled.len(),
        threads,
        || Search::new(nets.clone()),
        |search, i| {
            let (position, _, class) = sampled[i];
            let score = Some(match_score(i));
            let probabilities = search
                .evaluate(
                    &position,
                    &CubeContext::money(1, Ownership::Centered),
                    &settings(0),
                )
                .probabilities;
            SITUATIONS
                .iter()
                .enumerate()
                .filter_map(|(k, &situation)| {
                    let ctx = context(situation, met, score);
                    let reference = match reference {
                        Reference::Search { plies } => {
                            search
                                .cube_decision(&position, &ctx, &settings(plies))
                                .decision
                        }
                        Reference::Rollout { trials } => {
                            let choice = |x| shallow_choice(&probabilities, ctx, x);
                            let first = choice(*efficiencies.first()?);
                            if efficiencies.iter().all(|&x| choice(x) == first) {
                                return None;
                            }
                            let settings = RolloutSettings {
                                trials,
                                seed: seed ^ ((i * 3 + k) as u64 + 1).wrapping_mul(0x9E37_79B9),
                                threads: 1,
                                ..RolloutSettings::default()
                            };
                            let result = rollout(
                                nets.clone(),
                                None,
                                &position,
                                &ctx,
                                Subject::Cube,
                                &settings,
                                &AtomicBool::new(false),
                                &mut |_| {},
                            )
                            .ok()?;
                            result.cube?
                        }
                    };
                    Some(Case {
                        situation,
                        class,
                        reference,
                        probabilities,
                        score,
                    })
                })
                .collect()
        },
    );
    efficiencies
        .iter()
        .map(|&x| {
            let mut by_situation: [Errors; 3] = Default::default();
            let mut contact = Errors::default();
            let mut race = Errors::default();
            for case in cases.iter().flatten() {
                let ctx = context(case.situation, met, case.score);
                let (double, take) = shallow_choice(&case.probabilities, ctx, x);
                let (doubler, taker) = errors(&case.reference, double, take);
                let r = &case.reference;
                let close = (r.no_double - r.double_take.min(r.double_pass)).abs() < CLOSE;
                let k = SITUATIONS
                    .iter()
                    .position(|&s| s == case.situation)
                    .expect("a known situation");
                let class_errors = if case.class == NetClass::Race {
                    &mut race
                } else {
                    &mut contact
                };
                for e in [&mut by_situation[k], class_errors] {
                    e.positions += 1;
                    e.wrong_doubles += usize::from(doubler > 0.0);
                    e.wrong_takes += usize::from(taker > 0.0);
                    e.double_millipoints += f64::from(doubler) * 1000.0;
                    e.take_millipoints += f64::from(taker) * 1000.0;
                    if close {
                        e.close_doubles += 1;
                        e.close_double_millipoints += f64::from(doubler) * 1000.0;
                    }
                }
            }
            for e in by_situation.iter_mut().chain([&mut contact, &mut race]) {
                let n = e.positions.max(1) as f64;
                e.double_millipoints /= n;
                e.take_millipoints /= n;
                e.close_double_millipoints /= e.close_doubles.max(1) as f64;
            }
            let [money_centred, money_owned, match_play] = by_situation;
            EfficiencyScore {
                x,
                money_centred,
                money_owned,
                match_play,
                contact,
                race,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_follow_the_reference_equities() {
        let reference = CubeDecision {
            no_double: 0.5,
            double_take: 0.7,
            double_pass: 1.0,
            action: cubeful_engine::cube::CubeAction::DoubleTake,
            optimal: 0.7,
            centered: true,
        };
        assert_eq!(errors(&reference, true, true), (0.0, 0.0));
        let (d, t) = errors(&reference, false, false);
        assert!((d - 0.2).abs() < 1e-6 && (t - 0.3).abs() < 1e-6);
    }

    #[test]
    fn the_reference_agrees_with_itself_at_the_same_depth() {
        // At a 0-ply reference, the rule's own shallow contact efficiency makes no contact error.
        let nets = Arc::new(Nets::embedded());
        let scores = measure(
            &nets,
            40,
            5,
            Reference::Search { plies: 0 },
            &[0.5, cubeful_engine::cube::CUBE_ACTION_CONTACT_EFFICIENCY],
            1,
        );
        assert!(scores[1].contact.positions > 0);
        assert_eq!(scores[1].contact.wrong_doubles, 0);
        assert_eq!(scores[1].contact.wrong_takes, 0);
        assert!(scores[0].contact.wrong_doubles + scores[0].contact.wrong_takes > 0);
    }
}
