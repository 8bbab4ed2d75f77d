//! Training and strength measurement for Cubeful's nets. Kept apart from the engine's play path:
//! nothing here is needed to play or analyse.
//!
//! - [`players`]: the players a duel can pit against each other (our nets, PubEval, random).
//! - [`duel`]: cubeless money games with duplicate dice, and their statistics.
//! - [`backprop`]: gradients of a net's loss, and plain gradient steps.
//! - [`adam`]: the Adam optimiser.
//! - [`td`]: TD(λ) self-play training from random weights, resumable from checkpoints.
//! - [`dataset`]: training positions with targets, and their file format.
//! - [`compare`]: how far one label set's targets are from another's for the same positions.
//! - [`decisions`]: the checker-play decision benchmark.
//! - [`cube_levels`]: how well 0-ply cube decisions agree with deeper ones, by cube efficiency.
//! - [`sampling`]: positions to label, from self-play of the nets or made up.
//! - [`supervised`]: 1-ply and deeper targets, supervised epochs.
//! - [`minibatch`]: supervised training in mini-batches with Adam, for deeper targets.
//! - [`depth`]: perceptrons of any number of hidden layers trained from random weights on one
//!   class's examples, to ask whether a shape pays before the evaluator carries it.
//! - [`prune`]: the pruning nets, distilled from the full nets.
//! - [`rollout_labels`]: rollout targets for the positions the nets misjudge.

pub mod adam;
pub mod backprop;
pub mod compare;
pub mod cube_levels;
pub mod dataset;
pub mod decisions;
pub mod depth;
pub mod duel;
pub mod minibatch;
pub mod players;
pub mod prune;
pub mod rollout_labels;
pub mod sampling;
pub mod supervised;
pub mod td;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use cubeful_engine::Dice;
use rand::Rng;

/// Runs `work(state, i)` for i in 0..n over `threads` threads, each with its own `state` made by
/// `make_state`; results in index order, so the output does not depend on the thread count.
pub(crate) fn parallel_map<S, T: Send>(
    n: usize,
    threads: usize,
    make_state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> T + Sync,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<T>>> = Mutex::new((0..n).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, n.max(1)) {
            scope.spawn(|| {
                let mut state = make_state();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    let r = work(&mut state, i);
                    out.lock().expect("no panic while locked")[i] = Some(r);
                }
            });
        }
    });
    out.into_inner()
        .expect("threads finished")
        .into_iter()
        .map(|r| r.expect("every index done"))
        .collect()
}

/// A random roll; the opening roll of a game is never a double (each player throws one die and
/// the higher starts with both). Every training game and duel draws its dice through this.
pub fn roll(rng: &mut impl Rng, opening: bool) -> Dice {
    loop {
        let (a, b) = (rng.gen_range(1..=6), rng.gen_range(1..=6));
        if !opening || a != b {
            return Dice::new(a, b).expect("dice in 1..=6");
        }
    }
}
