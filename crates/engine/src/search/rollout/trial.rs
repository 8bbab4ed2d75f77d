//! One trial: one game played out from the start of one alternative with the trial's dice
//! (docs/ANALYSIS.md §Rollout trials).
//!
//! Each ply: the truncation checks (fixed depth, bearoff databases), the cube decision of the
//! player on roll (cubeful rollouts), the roll, variance reduction, the play. The game ends
//! when a side has borne off, a double is passed, or a truncation point is reached; the trial's
//! outputs are the terminal value plus the sum of the variance-reduction corrections, all from
//! the side of the player whose decision is rolled out (the *decision maker*).
//!
//! Values inside a trial are kept as money points (the cube included) or as match winning
//! chances, so that values at different cubes add up; output 6 is divided by the alternative's
//! basis cube at the end (money play).

use std::sync::Arc;

use crate::cube::{
    cube_decision, cubeful_equity, cubeful_mwc, cubeless_equity, cubeless_mwc, decide, CubeAction,
    CubeContext, Ownership, Purpose, Scoring,
};
use crate::eval::bearoff::{BearoffDb, CubeState};
use crate::eval::class::{classify, PositionClass};
use crate::eval::{BearoffOracle, Evaluator, Nets, Probabilities};
use crate::rules::dice::Dice;
use crate::rules::movegen::MoveGenerator;
use crate::rules::position::Position;
use crate::search::{prune_keep, EvalSettings, Search};

use super::dice::RolloutDice;
use super::settings::RolloutSettings;
use super::stats::OUTPUTS;

/// Five chances and a value (money points or MWC), from one side.
type Outcome = [f64; 6];

/// One line of play rolled out: where it starts and who decides.
#[derive(Clone, Copy, Debug)]
pub(super) struct Alternative<'a> {
    /// The position at ply 0, seen from the player on roll.
    pub start: Position,
    /// The cube of the player on roll at ply 0.
    pub ctx: CubeContext<'a>,
    /// The player on roll may decide the cube at ply 0.
    pub cube_at_top: bool,
    /// The decision maker is not on roll at ply 0 (a candidate play: the opponent rolls first).
    pub inverted: bool,
    /// Money play: output 6 is in units of this cube.
    pub basis_cube: u32,
    /// Output 5 as a linear function of the five chances: weights and constant.
    pub cubeless: ([f64; 5], f64),
    /// A candidate play that ends the game: its exact outputs (no trial is played).
    pub finished: Option<[f64; OUTPUTS]>,
}

impl<'a> Alternative<'a> {
    /// An alternative starting at `start` with `ctx`; `decider` is the decision maker's cube
    /// context whose cubeless equity output 5 is.
    pub fn new(
        start: Position,
        ctx: CubeContext<'a>,
        decider: &CubeContext,
        cube_at_top: bool,
        inverted: bool,
        basis_cube: u32,
    ) -> Alternative<'a> {
        let at = |a: [f32; 5]| f64::from(cubeless_equity(&Probabilities::from_array(a), decider));
        let constant = at([0.0; 5]);
        let mut weights = [0.0; 5];
        for (i, w) in weights.iter_mut().enumerate() {
            let mut unit = [0.0f32; 5];
            unit[i] = 1.0;
            *w = at(unit) - constant;
        }
        Alternative {
            start,
            ctx,
            cube_at_top,
            inverted,
            basis_cube,
            cubeless: (weights, constant),
            finished: None,
        }
    }

    /// The seven outputs of a decision-maker outcome.
    pub fn outputs(&self, x: &Outcome) -> [f64; OUTPUTS] {
        let (weights, constant) = self.cubeless;
        let cubeless = constant + weights.iter().zip(x).map(|(w, p)| w * p).sum::<f64>();
        let value = if self.ctx.is_money() {
            x[5] / f64::from(self.basis_cube)
        } else {
            x[5]
        };
        [x[0], x[1], x[2], x[3], x[4], cubeless, value]
    }
}

/// What the cube decision of a ply does to the trial.
enum CubeStep {
    Play,
    DoubleTake,
    /// The double is passed: the chances the decision rested on.
    DoublePass(Probabilities),
}

/// A thread's player of trials: the fast 0-ply evaluator, a searcher (with its caches) for
/// deeper evaluations, and a move generator.
pub(super) struct Worker {
    fast: Evaluator,
    search: Search,
    bearoff: Option<Arc<BearoffDb>>,
    generator: MoveGenerator,
    /// The pruning nets' values of a roll's plays, with their indices (kept between rolls).
    ranked: Vec<(f64, usize)>,
}

impl Worker {
    /// A worker; `cache`: the 0-ply evaluator keeps a cache (it pays with variance reduction).
    pub fn new(nets: Arc<Nets>, bearoff: Option<Arc<BearoffDb>>, cache: bool) -> Worker {
        let mut search = Search::new(nets.clone());
        search.set_bearoff(bearoff.clone());
        Worker {
            fast: {
                let mut fast = Evaluator::new(nets);
                fast.set_cache(cache);
                fast.set_bearoff(bearoff.clone().map(|db| db as Arc<dyn BearoffOracle>));
                fast
            },
            search,
            bearoff,
            generator: MoveGenerator::new(),
            ranked: Vec::with_capacity(64),
        }
    }

    /// Plays trial `trial` of `alt`; `None` if `stop()` became true during the trial.
    pub fn play(
        &mut self,
        alt: &Alternative,
        trial: u64,
        noise_seed: Option<u64>,
        dice: &RolloutDice,
        settings: &RolloutSettings,
        stop: &dyn Fn() -> bool,
    ) -> Option<[f64; OUTPUTS]> {
        if let Some(outputs) = alt.finished {
            return Some(outputs);
        }
        if let Some(seed) = noise_seed {
            self.search.set_noise_seed(seed);
        }
        let money = alt.ctx.is_money();
        let mut rolls = dice.trial(trial);
        let mut position = alt.start;
        let mut ctx = alt.ctx;
        let mut correction = [0.0f64; 6];
        let mut ply = 0usize;
        let terminal: Outcome = loop {
            if stop() {
                return None;
            }
            let decider_on_roll = ply.is_multiple_of(2) != alt.inverted;
            let view = |p: &Probabilities, v: f64| to_decider(p, v, decider_on_roll, money);
            if settings
                .truncation
                .is_some_and(|depth| ply >= depth as usize)
            {
                let (p, v) = self.position_value(&position, &ctx, &settings.truncation_eval);
                break view(&p, v);
            }
            let cube_allowed = ply > 0 || alt.cube_at_top;
            if let Some((p, v)) = self.bearoff_stop(&position, &ctx, cube_allowed, settings) {
                break view(&p, v);
            }
            let phase = settings.phase(ply);
            if settings.cubeful && cube_allowed && ctx.can_double() {
                match self.cube_step(&position, &ctx, &phase.cube) {
                    CubeStep::Play => {}
                    CubeStep::DoubleTake => ctx = ctx.doubled(),
                    CubeStep::DoublePass(p) => break view(&p, pass_value(&ctx)),
                }
            }
            let roll = rolls.roll(ply);
            let after = if settings.variance_reduction {
                let (reused, c) =
                    self.variance_reduction(&position, &ctx, roll, &phase.checker, decider_on_roll);
                for (sum, c) in correction.iter_mut().zip(c) {
                    *sum += c;
                }
                match reused {
                    Some(after) => after,
                    None => self.best_play(&position, roll, &ctx, &phase.checker),
                }
            } else {
                self.best_play(&position, roll, &ctx, &phase.checker)
            };
            if let Some(result) = after.result() {
                let p = Probabilities::of_result(result.winner, result.kind);
                break view(&p, exact_value(&p, &ctx));
            }
            position = after.swap();
            ctx = ctx.swapped();
            ply += 1;
        };
        let mut sum = terminal;
        for (s, c) in sum.iter_mut().zip(correction) {
            *s += c;
        }
        Some(alt.outputs(&sum))
    }

    /// The play of `dice` at `settings`: the position after it, seen from the mover.
    fn best_play(
        &mut self,
        position: &Position,
        dice: Dice,
        ctx: &CubeContext,
        settings: &EvalSettings,
    ) -> Position {
        if settings.plies == 0 && settings.noise == 0.0 {
            self.best_zero_ply(position, dice, ctx, settings.cubeful, settings.prune)
                .0
        } else {
            self.search
                .best_move(position, dice, ctx, settings)
                .mv
                .position
        }
    }

    /// The best play of `dice` at 0-ply (noiseless): the position after it and its chances and
    /// value for the mover. With `prune` (and pruning nets loaded), a roll with many plays is
    /// first ranked by the pruning nets and only the best [`prune_keep`] are judged by the full
    /// nets, as the search does (docs/ENGINE.md §Pruning nets) and as GNU Backgammon's 0-ply
    /// rollouts do.
    fn best_zero_ply(
        &mut self,
        position: &Position,
        dice: Dice,
        ctx: &CubeContext,
        cubeful: bool,
        prune: bool,
    ) -> (Position, Probabilities, f64) {
        let mut generator = std::mem::take(&mut self.generator);
        let moves = generator.generate(position, dice);
        let keep = prune_keep(moves.len());
        let mut best: Option<(Position, Probabilities, f64)> = None;
        if prune && moves.len() > keep && self.fast.has_prune_nets() {
            let mut ranked = std::mem::take(&mut self.ranked);
            ranked.clear();
            for (i, m) in moves.iter().enumerate() {
                ranked.push((self.prune_zero_ply(&m.position, ctx, cubeful), i));
            }
            // Best first, among equals the earlier play; the survivors then in generation
            // order, so that the full nets break ties as without pruning.
            ranked.select_nth_unstable_by(keep - 1, |a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            ranked.truncate(keep);
            ranked.sort_unstable_by_key(|&(_, i)| i);
            for &(_, i) in &ranked {
                let (p, v) = self.after_zero_ply(&moves[i].position, ctx, cubeful);
                if best.as_ref().is_none_or(|b| v > b.2) {
                    best = Some((moves[i].position, p, v));
                }
            }
            self.ranked = ranked;
        } else {
            for m in moves.iter() {
                let (p, v) = self.after_zero_ply(&m.position, ctx, cubeful);
                if best.as_ref().is_none_or(|b| v > b.2) {
                    best = Some((m.position, p, v));
                }
            }
        }
        self.generator = generator;
        best.expect("move generation returns at least the empty play")
    }

    /// The pruning nets' value for the mover of `after`, as [`Worker::after_zero_ply`] computes
    /// it from the full nets (the full evaluation where there is no pruning estimate: finished
    /// games, bearoffs the database knows).
    fn prune_zero_ply(&mut self, after: &Position, ctx: &CubeContext, cubeful: bool) -> f64 {
        let next = after.swap();
        let estimate = if after.result().is_none() {
            self.fast.evaluate_prune(&next)
        } else {
            None
        };
        let Some(p) = estimate else {
            return self.after_zero_ply(after, ctx, cubeful).1;
        };
        let opponent = ctx.swapped();
        let v = if cubeful {
            self.leaf_value(&p, &opponent, &next, Purpose::CheckerPlay)
        } else {
            exact_value(&p, &opponent)
        };
        invert(v, ctx)
    }

    /// Chances and value for the mover of `after` (seen from the mover) at 0-ply; `ctx` is the
    /// mover's cube. A finished game is judged exactly by the evaluator (its class is "over").
    fn after_zero_ply(
        &mut self,
        after: &Position,
        ctx: &CubeContext,
        cubeful: bool,
    ) -> (Probabilities, f64) {
        let next = after.swap();
        let opponent = ctx.swapped();
        let p = self.fast.evaluate(&next);
        let v = if cubeful {
            self.leaf_value(&p, &opponent, &next, Purpose::CheckerPlay)
        } else {
            exact_value(&p, &opponent)
        };
        (p.invert(), invert(v, ctx))
    }

    /// Chances and value for the mover of `after` at `settings` (its plies and noise).
    fn after_value(
        &mut self,
        after: &Position,
        ctx: &CubeContext,
        settings: &EvalSettings,
    ) -> (Probabilities, f64) {
        if let Some(result) = after.result() {
            let p = Probabilities::of_result(result.winner, result.kind);
            return (p, exact_value(&p, ctx));
        }
        let (p, v) = self.position_value(&after.swap(), &ctx.swapped(), settings);
        (p.invert(), invert(v, ctx))
    }

    /// Chances and value of `position` before the roll for its player on roll at `settings`.
    fn position_value(
        &mut self,
        position: &Position,
        ctx: &CubeContext,
        settings: &EvalSettings,
    ) -> (Probabilities, f64) {
        if settings.plies == 0 && settings.noise == 0.0 {
            let p = self.fast.evaluate(position);
            let v = if settings.cubeful {
                self.leaf_value(&p, ctx, position, Purpose::CubeAction)
            } else {
                exact_value(&p, ctx)
            };
            return (p, v);
        }
        let e = self.search.evaluate(position, ctx, settings);
        let v = match ctx.scoring {
            Scoring::Money { .. } => f64::from(e.cubeful) * f64::from(ctx.cube),
            Scoring::Match { .. } => e.mwc.map_or(0.5, f64::from),
        };
        (e.probabilities, v)
    }

    /// Cubeful 0-ply value (money points or MWC) of chances `p` of `position` for `purpose` (a
    /// checker play's candidates, or the value before the roll where a rollout is truncated):
    /// Janowski's model, or the two-sided bearoff database's exact equities where it covers the
    /// position.
    fn leaf_value(
        &self,
        p: &Probabilities,
        ctx: &CubeContext,
        position: &Position,
        purpose: Purpose,
    ) -> f64 {
        let ctx = self.context_at(ctx, position, purpose);
        match ctx.scoring {
            Scoring::Money { .. } => f64::from(cubeful_equity(p, &ctx)) * f64::from(ctx.cube),
            Scoring::Match { .. } => cubeful_mwc(p, &ctx).map_or(0.5, f64::from),
        }
    }

    /// `ctx` with the cube efficiency of `position` for `purpose` in a 0-ply evaluation (the
    /// rollout's own leaves and decisions; deeper evaluations go through the search), or its
    /// exact cubeful equities.
    fn context_at<'a>(
        &self,
        ctx: &CubeContext<'a>,
        position: &Position,
        purpose: Purpose,
    ) -> CubeContext<'a> {
        crate::search::context_at(self.bearoff.as_deref(), ctx, position, 0, purpose)
    }

    /// Lookahead variance reduction before the roll `dice`: for each of the 21 rolls the best
    /// play at 0-ply, valued at (checker plies − 1); the correction is the weighted mean of those
    /// values minus the value of the roll made, from the decision maker's side. Returns the play
    /// of `dice` when it is the one the checker settings would choose (0-ply, no noise).
    fn variance_reduction(
        &mut self,
        position: &Position,
        ctx: &CubeContext,
        dice: Dice,
        checker: &EvalSettings,
        decider_on_roll: bool,
    ) -> (Option<Position>, Outcome) {
        let money = ctx.is_money();
        let deeper = EvalSettings {
            plies: checker.plies.saturating_sub(1),
            noise: 0.0,
            deterministic: true,
            ..*checker
        };
        let mut mean = [0.0f64; 6];
        let mut rolled = [0.0f64; 6];
        let mut rolled_play = None;
        for roll in Dice::all() {
            let (after, p, v) =
                self.best_zero_ply(position, roll, ctx, checker.cubeful, checker.prune);
            let (p, v) = if checker.plies >= 2 {
                self.after_value(&after, ctx, &deeper)
            } else {
                (p, v)
            };
            let x = to_decider(&p, v, decider_on_roll, money);
            let w = f64::from(roll.weight()) / 36.0;
            for (m, x) in mean.iter_mut().zip(x) {
                *m += w * x;
            }
            if roll == dice {
                rolled = x;
                rolled_play = Some(after);
            }
        }
        let mut correction = [0.0f64; 6];
        for ((c, m), r) in correction.iter_mut().zip(mean).zip(rolled) {
            *c = m - r;
        }
        let reuse = checker.plies == 0 && checker.noise == 0.0;
        (rolled_play.filter(|_| reuse), correction)
    }

    /// The cube decision of the player on roll (who may double) at `settings`.
    fn cube_step(
        &mut self,
        position: &Position,
        ctx: &CubeContext,
        settings: &EvalSettings,
    ) -> CubeStep {
        let (action, p) = if settings.plies == 0 && settings.noise == 0.0 {
            let p = self.fast.evaluate(position);
            let exact = match (&self.bearoff, ctx.is_money()) {
                (Some(db), true) => {
                    let state = match ctx.owner {
                        Ownership::Centered => CubeState::Centred,
                        Ownership::OnRoll => CubeState::Owned,
                        Ownership::Opponent => CubeState::OpponentOwned,
                    };
                    db.cube_decision(position, state)
                }
                _ => None,
            };
            // The database's no-double equity looks one roll ahead; its 0-ply cubeful equity
            // already includes the double, which would make every double look optional.
            let decision = match exact {
                Some(d) => decide(d.no_double as f32, d.double_take as f32, ctx, false),
                None => cube_decision(&p, &self.context_at(ctx, position, Purpose::CubeAction)),
            };
            (decision.action, p)
        } else {
            let a = self.search.cube_decision(position, ctx, settings);
            (a.decision.action, a.probabilities)
        };
        match action {
            CubeAction::DoubleTake | CubeAction::RedoubleTake | CubeAction::DoubleBeaver => {
                CubeStep::DoubleTake
            }
            CubeAction::DoublePass | CubeAction::RedoublePass => CubeStep::DoublePass(p),
            _ => CubeStep::Play,
        }
    }

    /// The value at which a trial stops on entering a bearoff database, if it does here.
    fn bearoff_stop(
        &mut self,
        position: &Position,
        ctx: &CubeContext,
        cube_allowed: bool,
        settings: &RolloutSettings,
    ) -> Option<(Probabilities, f64)> {
        let db = self.bearoff.clone()?;
        let two_sided = |position: &Position| {
            db.two_sided_values(position).map(|v| {
                let p = Probabilities {
                    win: v.win,
                    ..Probabilities::default()
                };
                (p, v)
            })
        };
        if settings.cubeful {
            if !(settings.truncate_bearoff_two_sided && ctx.is_money() && cube_allowed) {
                return None;
            }
            let (p, v) = two_sided(position)?;
            let e = match ctx.owner {
                Ownership::Centered => v.centred,
                Ownership::OnRoll => v.owned,
                Ownership::Opponent => v.opponent_owned,
            };
            return Some((p, f64::from(e) * f64::from(ctx.cube)));
        }
        let mut p = None;
        if settings.truncate_bearoff_two_sided {
            p = two_sided(position).map(|(p, _)| p);
        }
        if p.is_none()
            && settings.truncate_bearoff_one_sided
            && db.one_sided().is_some()
            && classify(position) == PositionClass::Bearoff
        {
            p = Some(self.fast.evaluate(position));
        }
        p.map(|p| (p, exact_value(&p, ctx)))
    }
}

/// Cubeless value (money points or MWC) of chances `p` for the player on roll at `ctx`: the
/// value of a finished game, and of every position in a cubeless rollout.
pub(super) fn exact_value(p: &Probabilities, ctx: &CubeContext) -> f64 {
    match ctx.scoring {
        Scoring::Money { .. } => f64::from(cubeless_equity(p, ctx)) * f64::from(ctx.cube),
        Scoring::Match { .. } => cubeless_mwc(p, ctx).map_or(0.5, f64::from),
    }
}

/// The value of the other player.
fn invert(v: f64, ctx: &CubeContext) -> f64 {
    if ctx.is_money() {
        -v
    } else {
        1.0 - v
    }
}

/// The value of the player on roll when his double is passed: he wins the cube.
fn pass_value(ctx: &CubeContext) -> f64 {
    match ctx.scoring {
        Scoring::Money { .. } => f64::from(ctx.cube),
        Scoring::Match {
            score,
            on_roll,
            met,
        } => met.mwc_after(&score, on_roll, on_roll, ctx.cube),
    }
}

/// Chances and value of the side on roll (or the mover) as the decision maker's outcome.
pub(super) fn to_decider(p: &Probabilities, v: f64, decider: bool, money: bool) -> Outcome {
    let p = if decider { *p } else { p.invert() };
    let v = match (decider, money) {
        (true, _) => v,
        (false, true) => -v,
        (false, false) => 1.0 - v,
    };
    let a = p.to_array().map(f64::from);
    [a[0], a[1], a[2], a[3], a[4], v]
}
