//! n-ply lookahead with GNU Backgammon's move filters, cubeful at every ply, and the predefined
//! playing levels.
//!
//! # What "n-ply" means
//!
//! A position before the roll is evaluated at 0-ply by the nets. At n-ply (n ≥ 1) it is the average
//! over the 21 rolls (weights 1 for doubles, 2 otherwise) of the value after the best play of each
//! roll, that resulting position being evaluated from the opponent's side at (n − 1)-ply. Inside
//! the search the best play of each roll is chosen at 0-ply, as GNU Backgammon does (with
//! [`EvalSettings::prune`], only among the few plays the pruning nets rank best: see below). A
//! checker-play
//! decision at n-ply evaluates each candidate's resulting position (the opponent on roll) at
//! n-ply, after pruning the candidates with the move filters (below): "2-ply" means what it
//! means in GNU Backgammon.
//!
//! # Cubeful values
//!
//! Every node carries a cube context ([`CubeContext`]). At 0-ply its value is Janowski's cubeful
//! equity (or the cubeful match winning chance). At n-ply the player on roll may double before
//! rolling: the node's value is that of no double, or — if doubling is right for him — the smaller
//! of double/take and double/pass (the opponent answers as well as he can). So the opponent's cube
//! decisions are part of the search at every ply. Values are kept internally as money points (cube
//! value included) or as match winning chances, so that nodes with different cubes compare.
//!
//! # Move filters
//!
//! Before a checker-play decision at n-ply, all plays are scored at 0-ply. Then, for each sub-ply
//! whose filter is active, the remaining candidates are scored at that ply and pruned: the best
//! `accept` are kept, plus up to `extra` more within `threshold` of the best. The survivors are
//! scored at n-ply. GNU Backgammon's "Normal" and "Large" presets are built in
//! (docs/ENGINE.md §Search and levels).
//!
//! # Pruning nets
//!
//! Choosing the play of each roll inside the search costs one full-net evaluation per legal
//! play, and a 2-ply decision makes hundreds of such choices per candidate. With
//! [`EvalSettings::prune`] (and pruning nets loaded, [`crate::eval::prune`]), a roll with more
//! than [`prune_keep`] plays is first scored by the small pruning nets; the full nets then judge
//! only the best [`prune_keep`] of them (in generation order, so ties break as without pruning),
//! and the best of those is the roll's play. Plays ending the game and positions the bearoff
//! database knows are scored exactly in both passes. The choice is deterministic. The plays of a
//! checker-play decision itself (`rank_moves`) are always scored by the full nets; docs/ENGINE.md
//! §Pruning nets gives the measurements behind the numbers.

use std::sync::Arc;

use crate::cube::{
    cube_decision, cubeful_equity, cubeful_mwc, cubeless_equity, cubeless_mwc, decide, CubeContext,
    CubeDecision, CubeEfficiency, ExactCubeful, Purpose, Scoring,
};
use crate::eval::bearoff::BearoffDb;
use crate::eval::class::{classify, PositionClass};
use crate::eval::{Evaluator, Nets, Probabilities};
use crate::rules::dice::Dice;
use crate::rules::movegen::{LegalMove, MoveGenerator};
use crate::rules::position::{Position, Side};

mod levels;
pub mod rollout;

pub use levels::{EvalSettings, FilterPreset, Level, MoveFilter};

/// The 21 rolls in three groups of seven with equal weight (two doubles and five non-doubles,
/// 12 of 36 each), spread by pip total.
const REDUCED_GROUPS: [[(u8, u8); 7]; 3] = [
    [(1, 1), (4, 4), (2, 1), (3, 2), (6, 1), (6, 2), (5, 4)],
    [(2, 2), (5, 5), (3, 1), (5, 1), (5, 2), (5, 3), (6, 4)],
    [(3, 3), (6, 6), (4, 1), (4, 2), (4, 3), (6, 3), (6, 5)],
];

/// The rolls a reduced search averages after `before` was played: the group after
/// `before`'s own. The choice depends only on the roll that led to the node, so every candidate
/// of a decision is measured on the same rolls (their differences keep little of the
/// reduction's noise), and over the 21 rolls before it each group has a third of the weight.
fn reduced_rolls(before: Dice) -> Vec<Dice> {
    let (a, b) = (before.high(), before.low());
    let own = REDUCED_GROUPS
        .iter()
        .position(|g| g.iter().any(|&(x, y)| (x.max(y), x.min(y)) == (a, b)))
        .expect("every roll is in a group");
    REDUCED_GROUPS[(own + 1) % 3]
        .iter()
        .map(|&(x, y)| Dice::new(x, y).expect("valid roll"))
        .collect()
}

/// How many plays of a roll the full nets judge after the pruning nets ranked them (all of them
/// when a roll has no more than this): 2 + ⌊log₂ plays⌋, at most 16. GNU Backgammon keeps
/// 5 + ⌊log₂ plays⌋ with its 16-unit pruning nets; ours are wider and rank well enough that
/// three fewer plays keep the search as close to the unpruned one (docs/ENGINE.md §Pruning
/// nets).
pub fn prune_keep(plays: usize) -> usize {
    (2 + plays.max(1).ilog2() as usize).min(16)
}

/// The evaluation of a position before the roll, for the player on roll.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PositionEval {
    /// Cubeless chances at the requested ply.
    pub probabilities: Probabilities,
    /// Cubeless equity: money equity, or normalised match equity (EMG) at the cube.
    pub cubeless: f32,
    /// Cubeful equity normalised to the cube (money) or EMG (match); equals `cubeless` when the
    /// settings are cubeless.
    pub cubeful: f32,
    /// Cubeful match winning chance (match play only).
    pub mwc: Option<f32>,
    pub plies: u8,
}

/// One candidate play of a checker-play decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RankedMove {
    pub mv: LegalMove,
    /// Chances of the mover after the play.
    pub probabilities: Probabilities,
    /// Equity of the mover after the play, normalised like [`PositionEval::cubeful`] (cubeless
    /// when the settings are).
    pub equity: f32,
    /// Match winning chance after the play (match play).
    pub mwc: Option<f32>,
    /// The ply at which this play was last scored.
    pub plies: u8,
}

/// A cube decision with the chances it rests on.
#[derive(Clone, Copy, Debug)]
pub struct CubeAnalysis {
    pub decision: CubeDecision,
    /// Cubeless chances of the player on roll (before the roll) at the requested ply.
    pub probabilities: Probabilities,
    pub plies: u8,
}

/// The searcher: an evaluator plus buffers. One per thread.
pub struct Search {
    evaluator: Evaluator,
    generators: Vec<MoveGenerator>,
    noise_seed: u64,
    random_state: u64,
    bearoff: Option<Arc<BearoffDb>>,
    /// Scratch space of the pruning pass: (value, index of the play).
    pruned: Vec<(f32, usize)>,
    /// What the current question is for (its cube efficiency at shallow depth): set by each
    /// entry point, [`Search::rank_moves`] for checker plays, [`Search::cube_decision`] and
    /// [`Search::evaluate`] for cube actions.
    purpose: Purpose,
}

/// Internal node values: money points (cube included) or match winning chances, one per cube
/// context the node was asked about.
#[derive(Clone, Debug)]
struct NodeValue {
    probabilities: Probabilities,
    /// Value of the player on roll for each context, his doubling option included.
    values: Vec<f32>,
}

/// The cube context of `position` in an evaluation of `plies` (the whole evaluation's depth)
/// for `purpose`: its cube efficiency, or the exact cubeful equities of the two-sided bearoff
/// database `bearoff` when it covers the position. The search's and the rollouts' leaves both
/// take their context here.
pub(crate) fn context_at<'a>(
    bearoff: Option<&BearoffDb>,
    ctx: &CubeContext<'a>,
    position: &Position,
    plies: u8,
    purpose: Purpose,
) -> CubeContext<'a> {
    if let Some(values) = bearoff.and_then(|db| db.two_sided_values(position)) {
        return ctx.with_exact(ExactCubeful {
            owned: values.owned,
            centered: values.centred,
            opponent_owns: values.opponent_owned,
            centered_jacoby: None,
        });
    }
    ctx.with_position(position, plies, purpose)
}

impl Search {
    /// A searcher over `nets`.
    pub fn new(nets: Arc<Nets>) -> Search {
        Search::with_evaluator(Evaluator::new(nets))
    }

    /// A searcher using `evaluator` (with its cache and bearoff knowledge).
    pub fn with_evaluator(evaluator: Evaluator) -> Search {
        Search {
            evaluator,
            generators: (0..6).map(|_| MoveGenerator::new()).collect(),
            noise_seed: 0,
            random_state: 0x853C_49E6_748F_EA9B,
            bearoff: None,
            pruned: Vec::with_capacity(64),
            purpose: Purpose::CubeAction,
        }
    }

    /// Uses the bearoff databases: exact chances for bearoff positions (through the evaluator) and
    /// exact cubeful money equities where the two-sided database covers a position.
    pub fn set_bearoff(&mut self, db: Option<Arc<BearoffDb>>) {
        self.evaluator
            .set_bearoff(db.clone().map(|d| d as Arc<dyn crate::eval::BearoffOracle>));
        self.bearoff = db;
    }

    /// The bearoff databases in use, if any (for rollouts that should use the same).
    pub fn bearoff(&self) -> Option<&Arc<BearoffDb>> {
        self.bearoff.as_ref()
    }

    /// The cube context of `position` in an evaluation of `plies` (the whole search's depth)
    /// for the current question ([`context_at`]).
    fn context_at<'a>(
        &self,
        ctx: &CubeContext<'a>,
        position: &Position,
        plies: u8,
    ) -> CubeContext<'a> {
        context_at(self.bearoff.as_deref(), ctx, position, plies, self.purpose)
    }

    /// The underlying 0-ply evaluator.
    pub fn evaluator(&mut self) -> &mut Evaluator {
        &mut self.evaluator
    }

    /// Seed of the noise of weaker levels (both the deterministic and the random kind).
    pub fn set_noise_seed(&mut self, seed: u64) {
        self.noise_seed = seed;
        self.random_state = splitmix(seed);
    }

    /// Evaluates `position` (before the roll) for its player on roll: its value as a cube
    /// action sees it (the no-double side of a cube decision, an eval, a resignation's value).
    pub fn evaluate(
        &mut self,
        position: &Position,
        ctx: &CubeContext,
        settings: &EvalSettings,
    ) -> PositionEval {
        self.evaluate_for(position, ctx, settings, Purpose::CubeAction)
    }

    /// [`Search::evaluate`] with the cube valued for `purpose`: [`Purpose::CheckerPlay`] scores
    /// a candidate play's resulting position (the opponent on roll) exactly as
    /// [`Search::rank_moves`] scores it at that depth.
    pub fn evaluate_for(
        &mut self,
        position: &Position,
        ctx: &CubeContext,
        settings: &EvalSettings,
        purpose: Purpose,
    ) -> PositionEval {
        self.purpose = purpose;
        let plies = settings.plies.min(4);
        let node = self.node(
            position,
            std::slice::from_ref(ctx),
            settings,
            plies,
            0,
            None,
        );
        let p = node.probabilities;
        let cubeless = cubeless_equity(&p, ctx);
        let (cubeful, mwc) = if settings.cubeful {
            self.normalised(node.values[0], ctx)
        } else {
            (cubeless, cubeless_mwc(&p, ctx))
        };
        PositionEval {
            probabilities: p,
            cubeless,
            cubeful,
            mwc,
            plies,
        }
    }

    /// Every legal play of `dice`, ranked best first after scoring with the move filters at
    /// `settings.plies`. `ctx` is the cube of the mover (before the move).
    pub fn rank_moves(
        &mut self,
        position: &Position,
        dice: Dice,
        ctx: &CubeContext,
        settings: &EvalSettings,
    ) -> Vec<RankedMove> {
        self.rank_moves_for(position, dice, ctx, settings, Purpose::CheckerPlay)
    }

    /// [`Search::rank_moves`] with the cube valued for `purpose`: a checker play's (the hint's,
    /// the bot's), or a cube action's (the plays inside a cube decision's search, which a
    /// temperature map shows; docs/CUBE.md).
    pub fn rank_moves_for(
        &mut self,
        position: &Position,
        dice: Dice,
        ctx: &CubeContext,
        settings: &EvalSettings,
        purpose: Purpose,
    ) -> Vec<RankedMove> {
        self.purpose = purpose;
        let plies = settings.plies.min(4);
        let mut generator = std::mem::take(&mut self.generators[0]);
        let moves: Vec<LegalMove> = generator.generate(position, dice).to_vec();
        self.generators[0] = generator;
        let mut ranked: Vec<RankedMove> = moves
            .iter()
            .map(|m| self.score_move(m, ctx, settings, 0))
            .collect();
        sort_moves(&mut ranked);
        let mut alive = ranked.len();
        for sub in 0..plies {
            let filter = settings.filter.filter(plies, sub);
            let Some(accept) = filter.accept else {
                continue;
            };
            if sub > 0 {
                for r in ranked[..alive].iter_mut() {
                    *r = self.score_move(&r.mv, ctx, settings, sub);
                }
                sort_moves(&mut ranked[..alive]);
            }
            let best = ranked[0].equity;
            let mut keep = accept.min(alive);
            while keep < alive
                && keep < accept + filter.extra
                && best - ranked[keep].equity <= filter.threshold
            {
                keep += 1;
            }
            alive = keep.max(1);
        }
        if plies > 0 {
            for r in ranked[..alive].iter_mut() {
                *r = self.score_move(&r.mv, ctx, settings, plies);
            }
            sort_moves(&mut ranked[..alive]);
        }
        ranked
    }

    /// The best play of `dice` at `settings`.
    pub fn best_move(
        &mut self,
        position: &Position,
        dice: Dice,
        ctx: &CubeContext,
        settings: &EvalSettings,
    ) -> RankedMove {
        self.best_move_for(position, dice, ctx, settings, Purpose::CheckerPlay)
    }

    /// The best play of `dice` at `settings` for `purpose` ([`Search::rank_moves_for`]).
    pub fn best_move_for(
        &mut self,
        position: &Position,
        dice: Dice,
        ctx: &CubeContext,
        settings: &EvalSettings,
        purpose: Purpose,
    ) -> RankedMove {
        self.rank_moves_for(position, dice, ctx, settings, purpose)[0]
    }

    /// The cube decision of the player on roll before rolling, at `settings.plies`.
    pub fn cube_decision(
        &mut self,
        position: &Position,
        ctx: &CubeContext,
        settings: &EvalSettings,
    ) -> CubeAnalysis {
        self.purpose = Purpose::CubeAction;
        let plies = settings.plies.min(4);
        let ctx = &self.context_at(ctx, position, plies);
        // Inside the two-sided bearoff database the exact cubeful values of a centred cube
        // already include doubling now, so they cannot stand for "no double": the decision is
        // then made one roll ahead, where every position is again the database's (exact at
        // any depth, so the answer is still the 0-ply one).
        let in_database = matches!(ctx.efficiency, CubeEfficiency::Exact(_));
        if plies == 0 && !in_database {
            let p = self.static_eval(position, settings);
            return CubeAnalysis {
                decision: cube_decision(&p, ctx),
                probabilities: p,
                plies,
            };
        }
        let depth = plies.max(1);
        let both = self.roll_average(position, &[*ctx, ctx.doubled()], settings, depth, 0, None);
        let (nd, _) = self.normalised(both.values[0], ctx);
        let (dt, _) = self.normalised(both.values[1], ctx);
        let p = both.probabilities;
        CubeAnalysis {
            decision: decide(nd, dt, ctx, p.win_gammon > 0.0),
            probabilities: p,
            plies,
        }
    }

    /// Scores one candidate play at `plies`: its resulting position evaluated from the opponent's
    /// side at `plies` (0-ply: statically; 1-ply: over the opponent's 21 rolls; …), seen from the
    /// mover.
    fn score_move(
        &mut self,
        m: &LegalMove,
        ctx: &CubeContext,
        settings: &EvalSettings,
        plies: u8,
    ) -> RankedMove {
        let child_ctx = [ctx.swapped()];
        let child = self.child_value(&m.position, &child_ctx, settings, plies, 1, None);
        let value = invert(child.values[0], ctx);
        let probabilities = child.probabilities.invert();
        let (equity, mwc) = if settings.cubeful {
            self.normalised(value, ctx)
        } else {
            (
                cubeless_equity(&probabilities, ctx),
                cubeless_mwc(&probabilities, ctx),
            )
        };
        RankedMove {
            mv: *m,
            probabilities,
            equity,
            mwc,
            plies,
        }
    }

    /// The values, for the opponent now on roll, of `after` (a position seen from the mover who
    /// just played, as move generation returns it) in each of `child_ctxs`, evaluated at `plies`.
    fn child_value(
        &mut self,
        after: &Position,
        child_ctxs: &[CubeContext],
        settings: &EvalSettings,
        plies: u8,
        depth: usize,
        arriving: Option<Dice>,
    ) -> NodeValue {
        if let Some(result) = after.result() {
            // The mover has won: the opponent's value is the loss.
            let p = Probabilities::of_result(Side::Opponent, result.kind);
            return NodeValue {
                probabilities: p,
                values: child_ctxs.iter().map(|c| exact_value(&p, c)).collect(),
            };
        }
        let next = after.swap();
        self.node(&next, child_ctxs, settings, plies, depth, arriving)
    }

    /// Values of `position` before the roll for its player on roll at `plies`, one per cube
    /// context in `ctxs`, his doubling option included. All contexts share one pass over the
    /// rolls (the plays chosen at 0-ply under the first context), as GNU Backgammon does.
    /// `arriving` is the roll whose play led here inside this evaluation (none at its first
    /// roll): it picks the rolls of a reduced search.
    fn node(
        &mut self,
        position: &Position,
        ctxs: &[CubeContext],
        settings: &EvalSettings,
        plies: u8,
        depth: usize,
        arriving: Option<Dice>,
    ) -> NodeValue {
        if let Some(result) = position.result() {
            let p = Probabilities::of_result(result.winner, result.kind);
            return NodeValue {
                probabilities: p,
                values: ctxs.iter().map(|c| exact_value(&p, c)).collect(),
            };
        }
        let here: Vec<CubeContext> = ctxs
            .iter()
            .map(|c| self.context_at(c, position, settings.plies))
            .collect();
        if plies == 0 {
            let p = self.static_eval(position, settings);
            let values = here
                .iter()
                .map(|c| {
                    if settings.cubeful {
                        leaf_value(&p, c)
                    } else {
                        exact_value(&p, c)
                    }
                })
                .collect();
            return NodeValue {
                probabilities: p,
                values,
            };
        }
        // Each context without a double, and after double/take where a double is possible.
        let mut expanded: Vec<CubeContext> = Vec::with_capacity(2 * here.len());
        let mut doubled_at: Vec<Option<usize>> = Vec::with_capacity(here.len());
        for c in &here {
            expanded.push(*c);
        }
        for c in &here {
            if settings.cubeful && c.can_double() {
                doubled_at.push(Some(expanded.len()));
                expanded.push(c.doubled());
            } else {
                doubled_at.push(None);
            }
        }
        let averaged = self.roll_average(position, &expanded, settings, plies, depth, arriving);
        let values = here
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let nd = averaged.values[i];
                match doubled_at[i] {
                    None => nd,
                    Some(k) => {
                        let (dt, dp) = (averaged.values[k], pass_value(c));
                        if dt >= nd && dp >= nd {
                            dt.min(dp)
                        } else {
                            nd
                        }
                    }
                }
            })
            .collect();
        NodeValue {
            probabilities: averaged.probabilities,
            values,
        }
    }

    /// The average over the 21 rolls of the values after the best (0-ply) play of each roll, the
    /// player on roll not doubling now; one value per cube context in `ctxs`.
    ///
    /// A reduced search averages 7 of them, a third of the weight ([`reduced_rolls`]), at every
    /// roll but an evaluation's first (`arriving` is `None` there).
    fn roll_average(
        &mut self,
        position: &Position,
        ctxs: &[CubeContext],
        settings: &EvalSettings,
        plies: u8,
        depth: usize,
        arriving: Option<Dice>,
    ) -> NodeValue {
        if self.generators.len() <= depth {
            self.generators.resize_with(depth + 1, MoveGenerator::new);
        }
        let child_ctxs: Vec<CubeContext> = ctxs.iter().map(|c| c.swapped()).collect();
        let mut sum_p = [0.0f32; 5];
        let mut sum_v = vec![0.0f32; ctxs.len()];
        let rolls: Vec<Dice> = match arriving {
            Some(before) if settings.reduced => reduced_rolls(before),
            _ => Dice::all().collect(),
        };
        let total: f32 = rolls.iter().map(|d| d.weight() as f32).sum();
        for dice in rolls {
            let mut generator = std::mem::take(&mut self.generators[depth]);
            let moves = generator.generate(position, dice);
            let best = self.best_of_roll(moves, &child_ctxs[0], &ctxs[0], settings);
            self.generators[depth] = generator;
            let child = self.child_value(
                &best,
                &child_ctxs,
                settings,
                plies - 1,
                depth + 1,
                Some(dice),
            );
            let w = dice.weight() as f32;
            for (s, x) in sum_p
                .iter_mut()
                .zip(child.probabilities.invert().to_array())
            {
                *s += w * x;
            }
            for ((s, &v), c) in sum_v.iter_mut().zip(&child.values).zip(ctxs) {
                *s += w * invert(v, c);
            }
        }
        NodeValue {
            probabilities: Probabilities::from_array(sum_p.map(|s| s / total)),
            values: sum_v.into_iter().map(|s| s / total).collect(),
        }
    }

    /// The position after the best play among `moves` (the plays of one roll) at 0-ply, by the
    /// value for the mover in `ctx` (the first play among equals): all plays judged by the full
    /// nets, or with pruning only the best [`prune_keep`] by the pruning nets (module
    /// documentation, "Pruning nets").
    fn best_of_roll(
        &mut self,
        moves: &[LegalMove],
        child_ctx: &CubeContext,
        ctx: &CubeContext,
        settings: &EvalSettings,
    ) -> Position {
        let keep = prune_keep(moves.len());
        if settings.prune && moves.len() > keep && self.evaluator.has_prune_nets() {
            let mut pruned = std::mem::take(&mut self.pruned);
            pruned.clear();
            for (i, m) in moves.iter().enumerate() {
                pruned.push((self.prune_value(&m.position, child_ctx, ctx, settings), i));
            }
            // Best first; among equals the earlier play. Then the survivors back in generation
            // order, so that the full nets break ties as they do without pruning.
            pruned.select_nth_unstable_by(keep - 1, |a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            pruned.truncate(keep);
            pruned.sort_unstable_by_key(|&(_, i)| i);
            let mut best = (moves[pruned[0].1].position, f32::NEG_INFINITY);
            for &(_, i) in pruned.iter() {
                let v = self.quick_value(&moves[i].position, child_ctx, ctx, settings);
                if v > best.1 {
                    best = (moves[i].position, v);
                }
            }
            self.pruned = pruned;
            return best.0;
        }
        let mut best = (moves[0].position, f32::NEG_INFINITY);
        for m in moves {
            let v = self.quick_value(&m.position, child_ctx, ctx, settings);
            if v > best.1 {
                best = (m.position, v);
            }
        }
        best.0
    }

    /// The pruning nets' value of `after` for the mover, as [`Search::quick_value`] computes it
    /// from the full nets (exact where the full evaluation is exact; no noise).
    fn prune_value(
        &mut self,
        after: &Position,
        child_ctx: &CubeContext,
        ctx: &CubeContext,
        settings: &EvalSettings,
    ) -> f32 {
        if after.result().is_some() {
            return self.quick_value(after, child_ctx, ctx, settings);
        }
        let next = after.swap();
        let Some(p) = self.evaluator.evaluate_prune(&next) else {
            return self.quick_value(after, child_ctx, ctx, settings);
        };
        let v = if settings.cubeful {
            leaf_value(&p, &self.context_at(child_ctx, &next, settings.plies))
        } else {
            exact_value(&p, child_ctx)
        };
        invert(v, ctx)
    }

    /// 0-ply value of `after` for the mover (used to pick the play of each roll in the search).
    fn quick_value(
        &mut self,
        after: &Position,
        child_ctx: &CubeContext,
        ctx: &CubeContext,
        settings: &EvalSettings,
    ) -> f32 {
        if let Some(result) = after.result() {
            let p = Probabilities::of_result(result.winner, result.kind);
            return exact_value(&p, ctx);
        }
        let next = after.swap();
        let p = self.static_eval(&next, settings);
        let v = if settings.cubeful {
            leaf_value(&p, &self.context_at(child_ctx, &next, settings.plies))
        } else {
            exact_value(&p, child_ctx)
        };
        invert(v, ctx)
    }

    /// 0-ply chances, with the settings' noise added to each output (then made consistent
    /// again), as GNU Backgammon's weaker levels do.
    fn static_eval(&mut self, position: &Position, settings: &EvalSettings) -> Probabilities {
        let mut p = self.evaluator.evaluate(position);
        if settings.noise > 0.0 {
            let mut a = p.to_array();
            for (i, x) in a.iter_mut().enumerate() {
                *x += settings.noise * self.gaussian(position, settings.deterministic, i as u64);
            }
            p = Probabilities::from_array(a);
            p.make_consistent();
        }
        p
    }

    /// A standard normal number: from the position (and the noise seed) when deterministic,
    /// else from the running generator.
    fn gaussian(&mut self, position: &Position, deterministic: bool, output: u64) -> f32 {
        let mut state = if deterministic {
            let mut h = self.noise_seed ^ 0x243F_6A88_85A3_08D3 ^ output.wrapping_mul(0x9E37);
            for &b in position.board() {
                h = (h ^ u64::from(b as u8)).wrapping_mul(0x0100_0000_01B3);
            }
            h
        } else {
            self.random_state = splitmix(self.random_state);
            self.random_state ^ output
        };
        state = splitmix(state);
        let u1 = ((state >> 11) as f64 + 1.0) / (1u64 << 53) as f64;
        state = splitmix(state);
        let u2 = (state >> 11) as f64 / (1u64 << 53) as f64;
        ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()) as f32
    }

    /// Internal value → (normalised equity, MWC) at `ctx`.
    fn normalised(&self, value: f32, ctx: &CubeContext) -> (f32, Option<f32>) {
        match ctx.scoring {
            Scoring::Money { .. } => (value / ctx.cube as f32, None),
            Scoring::Match { .. } => (ctx.mwc_to_equity(value).unwrap_or(0.0), Some(value)),
        }
    }
}

/// SplitMix64's output for the state `x` (a well-mixed 64-bit value from any seed).
fn splitmix(x: u64) -> u64 {
    let mut state = x;
    crate::game::splitmix64(&mut state)
}

/// Sorts best first (stable: generation order among equals).
fn sort_moves(moves: &mut [RankedMove]) {
    moves.sort_by(|a, b| b.equity.total_cmp(&a.equity));
}

/// The value of the other player for a node value `v` of the player on roll at `ctx`.
fn invert(v: f32, ctx: &CubeContext) -> f32 {
    match ctx.scoring {
        Scoring::Money { .. } => -v,
        Scoring::Match { .. } => 1.0 - v,
    }
}

/// Cubeful 0-ply value (money points or MWC).
fn leaf_value(p: &Probabilities, ctx: &CubeContext) -> f32 {
    match ctx.scoring {
        Scoring::Money { .. } => cubeful_equity(p, ctx) * ctx.cube as f32,
        Scoring::Match { .. } => cubeful_mwc(p, ctx).unwrap_or(0.5),
    }
}

/// Cubeless value (money points or MWC): used for finished games and cubeless settings.
fn exact_value(p: &Probabilities, ctx: &CubeContext) -> f32 {
    match ctx.scoring {
        Scoring::Money { .. } => cubeless_equity(p, ctx) * ctx.cube as f32,
        Scoring::Match { .. } => cubeless_mwc(p, ctx).unwrap_or(0.5),
    }
}

/// Value of the player on roll when his double is passed: he wins the cube.
fn pass_value(ctx: &CubeContext) -> f32 {
    match ctx.scoring {
        Scoring::Money { .. } => ctx.cube as f32,
        Scoring::Match {
            score,
            on_roll,
            met,
        } => met.mwc_after(&score, on_roll, on_roll, ctx.cube) as f32,
    }
}

/// True when a position is a race or bearoff (for reporting).
pub fn is_noncontact(position: &Position) -> bool {
    matches!(
        classify(position),
        PositionClass::Race | PositionClass::Bearoff
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::Ownership;

    fn search() -> Search {
        Search::new(Arc::new(Nets::embedded()))
    }

    #[test]
    fn zero_ply_ranking_matches_the_evaluator() {
        let mut s = search();
        let ctx = CubeContext::money(1, Ownership::Centered);
        let settings = EvalSettings {
            cubeful: false,
            ..EvalSettings::default()
        };
        let start = Position::starting();
        let dice = Dice::new(4, 2).unwrap();
        let ranked = s.rank_moves(&start, dice, &ctx, &settings);
        let plain = s.evaluator().rank_moves(&start, dice);
        assert_eq!(ranked.len(), plain.len());
        assert_eq!(ranked[0].mv, plain[0].0);
        assert!((ranked[0].equity - plain[0].1.equity()).abs() < 1e-5);
    }

    #[test]
    fn one_ply_is_the_average_over_rolls() {
        let mut s = search();
        let ctx = CubeContext::money(1, Ownership::Centered);
        let settings = EvalSettings {
            plies: 1,
            cubeful: false,
            ..EvalSettings::default()
        };
        let start = Position::starting();
        let e = s.evaluate(&start, &ctx, &settings);
        // By hand: average of the best 0-ply play of each roll.
        let mut sum = 0.0;
        for d in Dice::all() {
            let (_, p) = s.evaluator().best_move(&start, d);
            sum += d.weight() as f32 * p.equity();
        }
        assert!(
            (e.cubeless - sum / 36.0).abs() < 1e-4,
            "{} vs {}",
            e.cubeless,
            sum / 36.0
        );
    }

    #[test]
    fn reduced_groups_cover_every_roll_once_with_equal_weight() {
        let mut seen = std::collections::HashSet::new();
        for group in REDUCED_GROUPS {
            let mut weight = 0;
            for (a, b) in group {
                let d = Dice::new(a, b).unwrap();
                weight += d.weight();
                assert!(seen.insert(d.normalized()));
            }
            assert_eq!(weight, 12);
        }
        assert_eq!(seen.len(), 21);
        // A reduced 2-ply evaluation stays close to the full one.
        let mut s = search();
        let ctx = CubeContext::money(1, Ownership::Centered);
        let full = EvalSettings {
            plies: 2,
            cubeful: false,
            ..EvalSettings::default()
        };
        let reduced = EvalSettings {
            reduced: true,
            ..full
        };
        let a = s.evaluate(&Position::starting(), &ctx, &full).cubeless;
        let b = s.evaluate(&Position::starting(), &ctx, &reduced).cubeless;
        assert!((a - b).abs() < 0.05, "{a} vs {b}");
    }

    /// A reduced 2-ply decision measures every candidate on the opponent's 21 replies and on
    /// the same third of the rolls after each, so the candidates keep nearly the full search's
    /// differences. (Reducing the replies too, on a third picked per candidate, put the plays'
    /// differences some 0.05 off and its choices behind the 0-ply's.)
    #[test]
    fn reduced_two_ply_keeps_the_candidates_differences() {
        let mut s = search();
        let ctx = CubeContext::money(1, Ownership::Centered);
        let full = EvalSettings {
            plies: 2,
            ..Level::WorldClass.settings()
        };
        let reduced = EvalSettings {
            reduced: true,
            ..full
        };
        for (a, b) in [(2, 1), (4, 3), (6, 4), (5, 2)] {
            let dice = Dice::new(a, b).unwrap();
            let f = s.rank_moves(&Position::starting(), dice, &ctx, &full);
            let r = s.rank_moves(&Position::starting(), dice, &ctx, &reduced);
            let reduced_of = |m: &RankedMove| {
                let x = r.iter().find(|x| x.mv.position == m.mv.position).unwrap();
                assert_eq!(x.plies, 2, "{a}{b}: the same plays reach 2 plies");
                x.equity
            };
            let (f0, r0) = (f[0].equity, reduced_of(&f[0]));
            for m in &f[1..4] {
                let (df, dr) = (m.equity - f0, reduced_of(m) - r0);
                assert!((df - dr).abs() < 0.025, "{a}{b}: {df} full, {dr} reduced");
            }
        }
    }

    #[test]
    fn two_ply_decision_keeps_the_filtered_moves() {
        let mut s = search();
        let ctx = CubeContext::money(1, Ownership::Centered);
        let ranked = s.rank_moves(
            &Position::starting(),
            Dice::new(4, 2).unwrap(),
            &ctx,
            &Level::WorldClass.settings(),
        );
        assert_eq!(ranked[0].plies, 2);
        assert!(ranked.iter().filter(|r| r.plies == 2).count() <= 8);
        assert!(ranked
            .windows(2)
            .all(|w| w[0].plies > w[1].plies || w[0].equity >= w[1].equity));
        // 8/4 6/4 is the standard play of an opening 42.
        let text = crate::formats::notation::format_move(&Position::starting(), &ranked[0].mv.mv);
        assert_eq!(text, "8/4 6/4");
    }

    /// Positions before the roll from random games, with a roll each.
    fn random_decisions(n: usize) -> Vec<(Position, Dice)> {
        let mut seed = 0x1234_5678u64;
        let mut next = |m: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 33) as usize) % m
        };
        let mut out = Vec::new();
        while out.len() < n {
            let mut p = Position::starting();
            loop {
                let d = Dice::new(next(6) as u8 + 1, next(6) as u8 + 1).unwrap();
                out.push((p, d));
                let moves = crate::rules::movegen::legal_moves(&p, d);
                let q = moves[next(moves.len())].position;
                if q.result().is_some() {
                    break;
                }
                p = q.swap();
            }
        }
        out.truncate(n);
        out
    }

    #[test]
    fn prune_keep_follows_the_log_rule() {
        assert_eq!(prune_keep(0), 2);
        assert_eq!(prune_keep(1), 2);
        assert_eq!(prune_keep(3), 3);
        assert_eq!(prune_keep(4), 4);
        assert_eq!(prune_keep(8), 5);
        assert_eq!(prune_keep(20), 6);
        assert_eq!(prune_keep(64), 8);
        assert_eq!(prune_keep(1 << 14), 16);
        assert_eq!(prune_keep(1 << 20), 16);
    }

    #[test]
    fn pruned_choice_of_a_roll_agrees_with_the_full_nets() {
        let mut s = search();
        let ctx = CubeContext::money(1, Ownership::Centered);
        let child = ctx.swapped();
        let full = Level::WorldClass.settings();
        let pruned = EvalSettings {
            prune: true,
            ..full
        };
        let unpruned = EvalSettings {
            prune: false,
            ..full
        };
        let (mut acted, mut same, mut clear, mut clear_same) = (0, 0, 0, 0);
        let mut loss = 0.0f64;
        for (position, dice) in random_decisions(3_000) {
            let moves = crate::rules::movegen::legal_moves(&position, dice);
            if moves.len() <= prune_keep(moves.len()) {
                continue;
            }
            acted += 1;
            let a = s.best_of_roll(&moves, &child, &ctx, &pruned);
            let b = s.best_of_roll(&moves, &child, &ctx, &unpruned);
            // Deterministic: the same answer again.
            assert_eq!(a, s.best_of_roll(&moves, &child, &ctx, &pruned));
            let mut values: Vec<f32> = moves
                .iter()
                .map(|m| s.quick_value(&m.position, &child, &ctx, &full))
                .collect();
            let va = s.quick_value(&a, &child, &ctx, &full);
            let vb = s.quick_value(&b, &child, &ctx, &full);
            values.sort_by(|x, y| y.total_cmp(x));
            assert_eq!(vb, values[0], "the unpruned choice is the full nets' best");
            loss += f64::from(vb - va);
            if a == b {
                same += 1;
            }
            // A clear best play (0.1 ahead of the second) is almost never pruned away.
            if values[0] - values[1] > 0.1 {
                clear += 1;
                if a == b {
                    clear_same += 1;
                }
            }
        }
        // Positions of random play, harder than real games: with the committed nets and
        // `prune_keep`'s 2 + log₂ plays about 94% the same choice, 3.4 thousandths of a point
        // lost per pruned roll, 98% of the clear cases (with 32-unit nets and 5 + log₂ plays
        // 96%, 2.6 and 99%). A pruning net ranking at random keeps the best play about half
        // the time.
        assert!(acted > 1_000, "pruning acted on {acted} rolls only");
        let share = same as f64 / acted as f64;
        assert!(share > 0.92, "same choice in {same} of {acted}");
        let mean = loss / acted as f64;
        assert!(mean < 0.005, "mean loss {mean}");
        assert!(
            clear > 100 && clear_same as f64 >= 0.97 * clear as f64,
            "{clear_same} of {clear}"
        );
    }

    #[test]
    fn pruned_search_is_deterministic_and_close_to_the_unpruned_one() {
        let ctx = CubeContext::money(1, Ownership::Centered);
        let pruned = Level::WorldClass.settings();
        assert!(pruned.prune);
        let unpruned = EvalSettings {
            prune: false,
            ..pruned
        };
        let start = Position::starting();
        for (a, b) in [(4, 2), (6, 5), (2, 1)] {
            let dice = Dice::new(a, b).unwrap();
            let first = search().rank_moves(&start, dice, &ctx, &pruned);
            let again = search().rank_moves(&start, dice, &ctx, &pruned);
            assert_eq!(first, again, "{dice}");
            let full = search().rank_moves(&start, dice, &ctx, &unpruned);
            assert_eq!(first[0].mv, full[0].mv, "{dice}");
            assert!(
                (first[0].equity - full[0].equity).abs() < 0.01,
                "{dice}: {} vs {}",
                first[0].equity,
                full[0].equity
            );
        }
        // Without pruning nets the flag changes nothing.
        let bare = Nets {
            prune: None,
            ..Nets::embedded()
        };
        let mut s = Search::new(Arc::new(bare));
        let e1 = s.evaluate(&start, &ctx, &pruned);
        let e2 = search().evaluate(&start, &ctx, &unpruned);
        assert_eq!(e1, e2);
    }

    #[test]
    fn cube_decision_ordering_holds() {
        let mut s = search();
        let ctx = CubeContext::money(1, Ownership::Centered);
        for plies in [0, 1] {
            let a = s.cube_decision(
                &Position::starting(),
                &ctx,
                &EvalSettings {
                    plies,
                    ..EvalSettings::default()
                },
            );
            let d = a.decision;
            assert_eq!(d.double_pass, 1.0);
            assert!(d.no_double > -0.5 && d.no_double < 0.5, "{d:?}");
            // The opening position is no double.
            assert!(!d.action.is_double(), "{d:?}");
        }
    }
}
