//! Rollout targets for the positions the nets misjudge.
//!
//! Labels from the nets' own 2-ply inherit the nets' blind spots: where a checker is trapped
//! behind a prime, 0-ply and 2-ply agree with each other and are both 10–17% off the games
//! played out (docs/TRAINING.md, round adam5). Rollouts see what the search cannot, but cost a
//! thousand times more, so they are spent where they change something:
//!
//! 1. every position is first rolled out briefly (`probe_trials` games), and
//! 2. only where that probe's cubeless equity is at least `threshold` away from the 0-ply one is
//!    the rollout continued to `trials` games (the probe's games count), and the position kept
//!    with the rollout's chances as its target.
//!
//! The rollouts are cubeless, with quasi-random dice, checker play at 0-ply with the pruning
//! nets, and games stopped at the bearoff databases; with `variance_reduction`, our lookahead
//! variance reduction. It costs about 16 times the time of a plain trial but leaves about a
//! 150th of the variance on contact positions (144 games: standard error 0.0078 against
//! 0.0955; docs/TRAINING.md, "The next long job"), nine times the precision per second, so it
//! is the choice for labels; plain games (the sets made before 2026-12-07) are 0.12–0.13 from
//! the truth at 72 games. A position's dice depend
//! only on `seed` and its index, so the result does not depend on the number of threads.
//!
//! Truncated rollouts (`truncate`) stop every game after that many plies and take the 0-ply
//! chances there instead of playing on: a target that looks that far ahead through the nets'
//! own play, at a fraction of the cost and of the variance of whole games (where the nets judge
//! the later positions better than the early ones they are to learn).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use cubeful_engine::cube::{CubeContext, Ownership};
use cubeful_engine::eval::bearoff::BearoffDb;
use cubeful_engine::eval::{Evaluator, Nets, Probabilities};
use cubeful_engine::search::rollout::{PhaseSettings, Rollout, RolloutSettings, StopRule, Subject};
use cubeful_engine::search::{EvalSettings, Level};
use cubeful_engine::Position;

use crate::dataset::Example;
use crate::parallel_map;

/// How positions are chosen and labelled.
#[derive(Clone, Copy, Debug)]
pub struct RolloutLabelConfig {
    /// Games of the first, short rollout of every position.
    pub probe_trials: u32,
    /// Games of the rollout of a chosen position (the probe's included).
    pub trials: u32,
    /// A position is chosen when its probe's cubeless equity and the 0-ply one differ by at
    /// least this much (0: every position).
    pub threshold: f32,
    /// Dice seed; position `i` rolls with a seed made from this and `i`.
    pub seed: u64,
    /// Stop every game after this many plies and take the 0-ply chances there (`None`: play
    /// to the end or to the bearoff databases).
    pub truncate: Option<u32>,
    /// Lookahead variance reduction in the probe and the rollout.
    pub variance_reduction: bool,
}

/// The outcome of labelling a batch of positions.
#[derive(Clone, Debug, Default)]
pub struct RolloutLabels {
    /// The chosen positions with their rolled-out chances, in the order of the input.
    pub examples: Vec<Example>,
    /// Positions probed (finished games are skipped).
    pub probed: usize,
    /// Sum over the chosen positions of |rollout equity − 0-ply equity|.
    pub total_gap: f64,
}

/// The rollout settings of the labels: cubeless, plain games played to the bearoff databases (or
/// for `truncate` plies) at 0-ply with the pruning nets, quasi-random dice, one thread.
pub fn label_settings(trials: u32, seed: u64, truncate: Option<u32>) -> RolloutSettings {
    let play = EvalSettings {
        prune: true,
        cubeful: false,
        ..Level::Expert.settings()
    };
    RolloutSettings {
        trials,
        cubeful: false,
        variance_reduction: false,
        quasi_random: true,
        seed,
        truncation: truncate,
        truncation_eval: play,
        truncate_bearoff_two_sided: true,
        truncate_bearoff_one_sided: true,
        early: PhaseSettings::both(play),
        late: None,
        stop: StopRule::TrialLimit,
        threads: 1,
    }
}

/// The probe, and for a chosen position the full rollout, of `position`: its rolled-out chances
/// and 0-ply equity, or `None` if the position is not chosen (or the game is over).
pub fn label_position(
    evaluator: &mut Evaluator,
    bearoff: Option<&Arc<BearoffDb>>,
    position: &Position,
    config: &RolloutLabelConfig,
    seed: u64,
) -> Option<(Probabilities, f32)> {
    if position.result().is_some() {
        return None;
    }
    let static_equity = evaluator.evaluate(position).equity();
    let ctx = CubeContext::money(1, Ownership::Centered);
    let probe = config.probe_trials.clamp(1, config.trials.max(1));
    let settings = RolloutSettings {
        variance_reduction: config.variance_reduction,
        ..label_settings(probe, seed, config.truncate)
    };
    let mut rollout = Rollout::new(
        evaluator.nets().clone(),
        bearoff.cloned(),
        position,
        &ctx,
        Subject::Position,
        &settings,
    )
    .ok()?;
    let never = AtomicBool::new(false);
    let result = rollout.run(&never, &mut |_| {});
    let gap = (result.alternatives[0].cubeless as f32 - static_equity).abs();
    if gap < config.threshold {
        return None;
    }
    rollout.set_trials(config.trials.max(probe));
    let result = rollout.run(&never, &mut |_| {});
    let a = &result.alternatives[0];
    let mut chances = [0.0f32; 5];
    for (c, m) in chances.iter_mut().zip(&a.mean) {
        *c = *m as f32;
    }
    Some((Probabilities::from_array(chances), static_equity))
}

/// Probes every position and rolls out the chosen ones (see the module documentation).
pub fn rollout_targets(
    nets: &Arc<Nets>,
    bearoff: Option<Arc<BearoffDb>>,
    positions: &[Position],
    config: &RolloutLabelConfig,
    threads: usize,
) -> RolloutLabels {
    let out = parallel_map(
        positions.len(),
        threads,
        || Evaluator::new(nets.clone()),
        |evaluator, i| {
            let position = positions[i];
            let seed = config
                .seed
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(i as u64);
            let probed = position.result().is_none();
            let labelled = label_position(evaluator, bearoff.as_ref(), &position, config, seed);
            (probed, labelled.map(|(target, eq)| (position, target, eq)))
        },
    );
    let mut labels = RolloutLabels::default();
    for (probed, labelled) in out {
        labels.probed += usize::from(probed);
        if let Some((position, target, static_equity)) = labelled {
            labels.total_gap += f64::from((target.equity() - static_equity).abs());
            labels.examples.push(Example { position, target });
        }
    }
    labels
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_engine::formats::ids::position_id;

    fn nets() -> Arc<Nets> {
        Arc::new(Nets::embedded())
    }

    /// A crashed position with a checker trapped behind a prime, where the nets' 0-ply is far
    /// from the games played out (docs/TRAINING.md).
    const TRAPPED: &str = "/4MBAAh2BwngBg";

    #[test]
    fn a_threshold_of_zero_labels_every_position_with_a_rollout() {
        let nets = nets();
        let positions = [Position::starting(), position_id::decode(TRAPPED).unwrap()];
        let config = RolloutLabelConfig {
            probe_trials: 144,
            trials: 288,
            threshold: 0.0,
            seed: 5,
            truncate: None,
            variance_reduction: false,
        };
        let labels = rollout_targets(&nets, None, &positions, &config, 2);
        assert_eq!(labels.probed, 2);
        assert_eq!(labels.examples.len(), 2);
        let start = labels.examples[0].target;
        // The opening position is nearly even, and its chances are chances.
        assert!((start.win - 0.5).abs() < 0.1, "{start:?}");
        for e in &labels.examples {
            let a = e.target.to_array();
            assert!(a.iter().all(|p| (0.0..=1.0).contains(p)), "{a:?}");
            assert!(a[1] <= a[0] && a[2] <= a[1] && a[4] <= a[3], "{a:?}");
        }
        // Not the 0-ply chances: the targets come from the games.
        let mut evaluator = Evaluator::new(nets.clone());
        let statics = evaluator.evaluate(&positions[1]);
        assert_ne!(statics.to_array(), labels.examples[1].target.to_array());
    }

    #[test]
    fn a_rollout_truncated_after_one_ply_is_the_one_ply_evaluation() {
        // 36 quasi-random games take each first roll once; stopped after that roll's play, their
        // mean is the 0-ply chances after each roll's best play averaged over the rolls: the
        // 1-ply evaluation. Whole games land elsewhere: by how much depends on the nets of the
        // day (0.016 at most with round adam40's), so the test asks only for more than the
        // truncated rollout's float noise.
        let nets = nets();
        let positions = [position_id::decode(TRAPPED).unwrap()];
        let truncated = |truncate| RolloutLabelConfig {
            probe_trials: 36,
            trials: 36,
            threshold: 0.0,
            seed: 3,
            truncate,
            variance_reduction: false,
        };
        let one_ply =
            crate::supervised::deep_targets(&nets, &positions, 1, true, None, 1)[0].target;
        let cut = rollout_targets(&nets, None, &positions, &truncated(Some(1)), 1).examples[0];
        let whole = rollout_targets(&nets, None, &positions, &truncated(None), 1).examples[0];
        let gap = |a: Probabilities, b: Probabilities| {
            a.to_array()
                .iter()
                .zip(b.to_array())
                .map(|(x, y)| (x - y).abs())
                .fold(0.0f32, f32::max)
        };
        assert!(
            gap(cut.target, one_ply) < 1e-4,
            "{cut:?} against {one_ply:?}"
        );
        assert!(
            gap(whole.target, one_ply) > 1e-3,
            "{whole:?} against {one_ply:?}"
        );
    }

    /// The embedded nets with the crashed net's win output biased down (by 2 in the logit):
    /// nets that misjudge every crashed position at 0-ply by construction, while they play
    /// much as before (every crashed play is judged with the same bias) and contact and race
    /// positions are judged as before. A test of the threshold must not depend on what the
    /// nets of the day still get wrong: the trapped checker, misjudged by 0.2 until round
    /// adam22, is judged within 0.02 by nets trained on crashed rollouts.
    fn nets_misjudging_crashed_positions() -> Arc<Nets> {
        let mut nets = Nets::embedded();
        nets.crashed.params_mut().b2[0] -= 2.0;
        Arc::new(nets)
    }

    #[test]
    fn the_threshold_keeps_only_the_misjudged_and_threads_do_not_matter() {
        let nets = nets_misjudging_crashed_positions();
        let positions = [Position::starting(), position_id::decode(TRAPPED).unwrap()];
        let config = RolloutLabelConfig {
            // A probe long enough (about 0.03 of equity standard error) that the opening,
            // judged within a few hundredths at 0-ply, stays well inside the threshold and the
            // trapped checker, misjudged by the biased crashed net, well outside.
            probe_trials: 1296,
            trials: 1296,
            threshold: 0.1,
            seed: 9,
            truncate: None,
            variance_reduction: false,
        };
        let one = rollout_targets(&nets, None, &positions, &config, 1);
        let two = rollout_targets(&nets, None, &positions, &config, 2);
        // The opening is judged well at 0-ply; the trapped checker is not.
        assert_eq!(one.examples.len(), 1, "{:?}", one.examples);
        assert_eq!(one.examples[0].position, positions[1]);
        assert!(one.examples[0].target.win > 0.66, "{:?}", one.examples[0]);
        assert!(one.total_gap >= 0.1);
        assert_eq!(
            one.examples[0].target.to_array(),
            two.examples[0].target.to_array()
        );
    }

    #[test]
    fn variance_reduced_labels_differ_far_less_between_seeds() {
        // The same positions rolled out with two seeds: the variance-reduced labels agree far
        // more closely than the plain ones (the squared differences of equity sum to 0.0004
        // against 0.32 with adam46w's nets; asked for a twentieth, so the test holds for any
        // sound nets, and fails if the flag is not passed on).
        let nets = nets();
        let positions = [
            Position::starting(),
            position_id::decode(TRAPPED).unwrap(),
            position_id::decode("0OfgATDg8+ABUA").unwrap(),
            position_id::decode("sGfwATDgc/ABMA").unwrap(),
        ];
        let spread = |variance_reduction: bool| {
            let label = |seed| {
                let config = RolloutLabelConfig {
                    probe_trials: 36,
                    trials: 36,
                    threshold: 0.0,
                    seed,
                    truncate: None,
                    variance_reduction,
                };
                rollout_targets(&nets, None, &positions, &config, 2).examples
            };
            let (a, b) = (label(21), label(22));
            assert_eq!(a.len(), positions.len());
            a.iter()
                .zip(&b)
                .map(|(x, y)| (x.target.equity() - y.target.equity()).powi(2))
                .sum::<f32>()
        };
        let (plain, reduced) = (spread(false), spread(true));
        assert!(reduced * 20.0 < plain, "plain {plain}, reduced {reduced}");
    }
}
