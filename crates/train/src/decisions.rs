//! The checker-play decision benchmark: how much equity a set of nets loses per decision, measured
//! on a fixed set of positions whose candidate plays were scored once by a deeper search or by
//! rollouts.
//!
//! # Construction (docs/TRAINING.md, "The decision benchmark")
//!
//! 1. **Positions.** Self-play games of the reference nets at 0-ply, game `g` with its own
//!    ChaCha8 generator seeded `seed ^ (g+1)·0x9E3779B97F4A7C15`. At each turn the roll is drawn
//!    (the opening roll is never a double), then one coin of probability 1/4 decides whether the
//!    turn is a candidate decision; it is kept if its roll has at least two distinct legal
//!    results and the quota of its class is not full: half of the decisions are contact
//!    positions, a fifth crashed, the rest race (bearoffs included), classes as
//!    [`net_class`] gives them. Then the move is played: with probability 0.15 one of the five
//!    best at 0-ply at random, else the best. Games are played in order until every quota is full
//!    (at most `50·N + 1000` games).
//! 2. **Candidates.** For each decision, the legal plays ranked at 0-ply by the reference nets:
//!    the five best, plus every other play within 0.1 of the best, at most 16 in all.
//! 3. **Reference scores.** Each candidate is scored with the cubeless equity of the position it
//!    leads to, by the set's [`Judge`]:
//!    - *search*: evaluated by [`Search::evaluate`] at the reference depth (2-ply: the
//!      opponent's 21 rolls, then ours, 0-ply leaves; plays inside the search chosen at 0-ply),
//!      money, centred cube, no bearoff database, no noise;
//!    - *rollout*: rolled out as the rollout training labels are
//!      ([`label_settings`]: cubeless games, checker play
//!      at 0-ply with the pruning nets, quasi-random dice, stopped at the bearoff databases) but
//!      with lookahead variance reduction, every candidate of decision `i` on the same dice,
//!      seeded from the set's seed and `i`, so that the luck common to the candidates cancels in
//!      their differences. (Measured on 50 decisions: the difference between two candidates'
//!      scores is off by about 0.05 in contact positions with 36 games, 0.026 with 144; plain
//!      games need about 8 times the time for the same precision.)
//!
//!    A finished game scores exactly.
//! 4. **Measurement.** The evaluated nets choose a play for each decision at the given depth
//!    (cubeless, money, the Normal move filter). The decision's error is the best reference score
//!    minus the chosen play's. A play outside the candidates is counted, and scored the same way
//!    on the spot (its error is 0 if it beats every candidate); without the reference nets at hand
//!    it is charged the error of the worst candidate. Errors are averaged per class and overall
//!    and reported in thousandths of a point per decision.
//!
//! A set can also be made of decisions listed by the user (a position ID and a roll per line,
//! [`DecisionList`]) instead of step 1, for instance the decisions a bot met in games against
//! another program: steps 2 to 4 are the same, and the list's CRC-32 stands for the seed.
//!
//! Everything is deterministic for the seed (or list), the count, the judge and the reference nets (and,
//! for rollouts, the bearoff databases). Scoring takes minutes (2-ply) to an hour or more
//! (rollouts), so the scored set is cached in a file ([`DecisionSet::load_or_build`]) whose name
//! records the count, the seed, the judge and a checksum of the reference nets.
//!
//! # File format
//!
//! Little-endian: magic `CFDECS1\0`; format version (u32, 3); seed (u64; of a listed set, the
//! list's CRC-32); decisions requested (u32); the judge: its kind (u8: 0 search, 1 rollout) and
//! its depth or games (u32) (version 1, still read, had the search depth alone as a u8); the
//! origin (u8: 0 self-play, 1 listed; versions 1 and 2, still read, had self-play sets only);
//! [`nets_checksum`] of the reference nets (u32); decision count (u32);
//! then per decision the 26 signed bytes of [`Position::board`], the two dice, the class (u8: 0
//! contact, 1 crashed, 2 race), the candidate count (u8, 2 to 16), and per candidate the 26 bytes
//! of the board it leads to (seen from the mover, as move generation gives it) and its reference
//! equity (f32), best first; at the end a CRC-32 of everything before it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use cubeful_engine::cube::{CubeContext, Ownership};
use cubeful_engine::eval::bearoff::BearoffDb;
use cubeful_engine::eval::class::classify;
use cubeful_engine::eval::nn::NetClass;
use cubeful_engine::eval::{net_class, BearoffOracle, Evaluator, Nets, Probabilities};
use cubeful_engine::files::{read_regular, write_atomically, FileError};
use cubeful_engine::search::rollout::{Rollout, RolloutSettings, Subject};
use cubeful_engine::search::{EvalSettings, FilterPreset, Search};
use cubeful_engine::{Dice, LegalMove, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use thiserror::Error;

use crate::parallel_map;
use crate::rollout_labels::label_settings;

const MAGIC: &[u8; 8] = b"CFDECS1\0";
const FORMAT_VERSION: u32 = 3;
const HEADER: usize = 8 + 4 + 8 + 4 + 1 + 4 + 1 + 4 + 4;
const BOARD: usize = 26;
/// Candidates kept regardless of their 0-ply score.
const ALWAYS_KEPT: usize = 5;
/// Further candidates kept when within this much of the best at 0-ply.
const WINDOW: f32 = 0.1;
/// At most this many candidates per decision.
const MAX_CANDIDATES: usize = 16;
/// Chance that a turn of the self-play games is considered for the set.
const SAMPLE_SHARE: f64 = 0.25;
/// Chance that a self-play move is one of the five best at random rather than the best.
const EXPLORE: f64 = 0.15;
/// Decisions scored between two saves of a checkpoint ([`DecisionSet::build_resuming`]).
pub const CHECKPOINT_EVERY: usize = 40;
/// Largest decision file read.
const MAX_FILE_BYTES: u64 = 1 << 28;

/// A candidate play of a decision with its reference score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// The position the play leads to, still seen from the mover.
    pub after: Position,
    /// Cubeless equity for the mover after the play, by the reference search.
    pub equity: f32,
}

/// One checker-play decision of the set.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The position before the roll, from the player on roll.
    pub position: Position,
    pub dice: Dice,
    /// The net that judges `position`.
    pub class: NetClass,
    /// At least two candidates, best reference score first.
    pub candidates: Vec<Candidate>,
}

/// A scored set of decisions.
#[derive(Clone, Debug)]
pub struct DecisionSet {
    /// Of a listed set, the list's checksum.
    pub seed: u64,
    pub origin: Origin,
    /// The number of decisions asked for (the set holds fewer only if the games ran out).
    pub requested: u32,
    /// Lookahead of the reference scores.
    pub judge: Judge,
    /// [`nets_checksum`] of the reference nets.
    pub nets_checksum: u32,
    pub decisions: Vec<Decision>,
    /// The reference nets and bearoff databases, when known ([`DecisionSet::attach_reference`]):
    /// a choice outside the candidates is then scored as the candidates were.
    reference: Option<Reference>,
}

/// The reference nets of a set, with the bearoff databases its rollouts stop at.
#[derive(Clone, Debug)]
struct Reference {
    nets: Arc<Nets>,
    bearoff: Option<Arc<BearoffDb>>,
}

/// How the candidates of a set are scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judge {
    /// The cubeless equity by the search at this lookahead (1 to 3).
    Search { plies: u8 },
    /// Cubeless variance-reduced rollouts of this many games per candidate, every candidate of
    /// a decision on the same dice (see the module documentation).
    Rollout { trials: u32 },
}

impl Judge {
    /// The part of a set's file name that names the judge: `2ply`, `rollout324`.
    pub fn file_tag(self) -> String {
        match self {
            Judge::Search { plies } => format!("{plies}ply"),
            Judge::Rollout { trials } => format!("rollout{trials}"),
        }
    }
}

impl std::fmt::Display for Judge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Judge::Search { plies } => write!(f, "{plies}-ply scores"),
            Judge::Rollout { trials } => write!(f, "rollouts of {trials} games"),
        }
    }
}

/// Sets are equal when their contents are (whether the reference nets are attached aside).
impl PartialEq for DecisionSet {
    fn eq(&self, other: &DecisionSet) -> bool {
        self.seed == other.seed
            && self.origin == other.origin
            && self.requested == other.requested
            && self.judge == other.judge
            && self.nets_checksum == other.nets_checksum
            && self.decisions == other.decisions
    }
}

/// What makes a set: the count, the seed and the judge (the nets are passed apart), and where
/// its decisions come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetSpec {
    pub decisions: u32,
    /// Of a listed set, the list's checksum ([`DecisionList::checksum`]).
    pub seed: u64,
    pub judge: Judge,
    pub origin: Origin,
}

/// Where the decisions of a set come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Self-play games of the reference nets, from the seed (step 1 of the construction).
    SelfPlay,
    /// A [`DecisionList`].
    Listed,
}

/// Decisions given by the user instead of self-play: positions (player on roll) and rolls, each
/// with at least two distinct plays.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionList {
    decisions: Vec<(Position, Dice, NetClass)>,
    /// Lines whose roll has a single play (or none): nothing to choose.
    forced: usize,
}

/// A list of decisions ([`DecisionList::parse`]) that cannot be used.
#[derive(Debug, Error, PartialEq)]
pub enum DecisionListError {
    #[error("line {line}: {reason}")]
    Line { line: usize, reason: String },
    #[error("the list holds no decision with a choice to make")]
    Empty,
}

impl DecisionList {
    /// Reads a list: one decision per line, a position ID (the player on roll) and a roll
    /// (`31`, `3-1`), separated by blanks, anything after them ignored; blank lines and lines
    /// starting with `#` skipped. Decisions whose roll leaves a single play are left out (see
    /// [`DecisionList::forced`]).
    pub fn parse(text: &str) -> Result<DecisionList, DecisionListError> {
        let mut generator = cubeful_engine::MoveGenerator::new();
        let mut decisions = Vec::new();
        let mut forced = 0;
        for (number, line) in content_lines(text) {
            let error = |reason: String| DecisionListError::Line {
                line: number,
                reason,
            };
            let mut fields = line.split_ascii_whitespace();
            let (Some(id), Some(roll)) = (fields.next(), fields.next()) else {
                return Err(error("a position ID and a roll expected".into()));
            };
            let position = cubeful_engine::position_id::decode(id)
                .map_err(|e| error(format!("position ID {id:?}: {e}")))?;
            let dice: Dice = roll
                .parse()
                .map_err(|e| error(format!("roll {roll:?}: {e}")))?;
            if position.result().is_some() {
                return Err(error(format!("position {id}: the game is over")));
            }
            if generator.generate(&position, dice).len() < 2 {
                forced += 1;
                continue;
            }
            let class = net_class(classify(&position)).expect("a game in progress");
            decisions.push((position, dice, class));
        }
        if decisions.is_empty() {
            return Err(DecisionListError::Empty);
        }
        Ok(DecisionList { decisions, forced })
    }

    /// The decisions, in the list's order.
    pub fn len(&self) -> usize {
        self.decisions.len()
    }

    /// Whether the list is empty (never, for a parsed list).
    pub fn is_empty(&self) -> bool {
        self.decisions.is_empty()
    }

    /// Lines left out because their roll has a single play.
    pub fn forced(&self) -> usize {
        self.forced
    }

    /// CRC-32 of the decisions (board bytes and dice of each, in order): names the list.
    pub fn checksum(&self) -> u32 {
        let mut hasher = crc32fast::Hasher::new();
        for (position, dice, _) in &self.decisions {
            let board: Vec<u8> = position.board().iter().map(|&x| x as u8).collect();
            hasher.update(&board);
            hasher.update(&[dice.first(), dice.second()]);
        }
        hasher.finalize()
    }

    /// The spec of the set of this list scored by `judge`.
    pub fn spec(&self, judge: Judge) -> SetSpec {
        SetSpec {
            decisions: self.decisions.len() as u32,
            seed: u64::from(self.checksum()),
            judge,
            origin: Origin::Listed,
        }
    }
}

/// A decision set file that could not be used.
#[derive(Debug, Error)]
pub enum DecisionSetError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error("cannot create the folder {path}: {source}")]
    Folder {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("decision set {path}: {reason}")]
    Format { path: PathBuf, reason: String },
    #[error("these nets (checksum {found:08x}) did not score the decision set (scored by nets with checksum {expected:08x})")]
    WrongReference { expected: u32, found: u32 },
    #[error("the set is made of a list of decisions, and the list given is not it")]
    WrongList,
}

/// A file of choices ([`DecisionSet::parse_choices`]) that cannot be measured.
#[derive(Debug, Error, PartialEq)]
pub enum ChoicesError {
    #[error("line {line}: {reason}")]
    Line { line: usize, reason: String },
    #[error("no choice for decision {index}")]
    Missing { index: usize },
}

/// The figures of one class (or of all decisions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct ClassScore {
    pub decisions: usize,
    /// Mean equity lost per decision, in thousandths of a point.
    pub mean_error_millipoints: f64,
    /// Standard error of that mean (over the decisions), in thousandths of a point.
    pub standard_error_millipoints: f64,
    /// Share of decisions where the chosen play is the reference's best.
    pub best_play_share: f64,
    /// Decisions where the chosen play was not among the candidates.
    pub outside_candidates: usize,
}

/// The benchmark result of a set of nets.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchScore {
    /// Lookahead of the evaluated nets' choices.
    pub plies: u8,
    pub contact: ClassScore,
    pub crashed: ClassScore,
    pub race: ClassScore,
    pub overall: ClassScore,
}

impl BenchScore {
    /// The figures of a class.
    pub fn class(&self, class: NetClass) -> &ClassScore {
        match class {
            NetClass::Contact => &self.contact,
            NetClass::Crashed => &self.crashed,
            NetClass::Race => &self.race,
        }
    }
}

/// CRC-32 of the three nets' files, in the order contact, crashed, race, each without its own
/// trailing CRC (a CRC over a message followed by its CRC is the same for every message): names
/// the reference nets.
pub fn nets_checksum(nets: &Nets) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    for class in NetClass::ALL {
        let bytes = nets.net(class).to_bytes();
        hasher.update(&bytes[..bytes.len() - 4]);
    }
    hasher.finalize()
}

fn class_code(class: NetClass) -> u8 {
    match class {
        NetClass::Contact => 0,
        NetClass::Crashed => 1,
        NetClass::Race => 2,
    }
}

fn class_from_code(code: u8) -> Option<NetClass> {
    NetClass::ALL.get(usize::from(code)).copied()
}

/// The cubeless search of measured choices at `plies`, as the program plays: World Class's
/// filter, no reduction, the pruning nets where the nets have them (docs/ENGINE.md §Pruning
/// nets). For [`DecisionSet::errors`].
pub fn choosing(plies: u8) -> EvalSettings {
    EvalSettings {
        prune: true,
        ..cubeless(plies)
    }
}

/// Cubeless settings at `plies`, as the labels of the training data are made.
fn cubeless(plies: u8) -> EvalSettings {
    EvalSettings {
        plies,
        cubeful: false,
        noise: 0.0,
        deterministic: true,
        filter: FilterPreset::Normal,
        reduced: false,
        prune: false,
    }
}

/// The quota of each class for `n` decisions: half contact, a fifth crashed, the rest race.
fn quotas(n: usize) -> [usize; 3] {
    let contact = n / 2;
    let crashed = n / 5;
    [contact, crashed, n - contact - crashed]
}

/// Step 1 of the construction: the positions and rolls of the set, in the order found.
pub fn sample_decisions(nets: &Arc<Nets>, n: usize, seed: u64) -> Vec<(Position, Dice, NetClass)> {
    let mut evaluator = Evaluator::new(nets.clone());
    let mut generator = cubeful_engine::MoveGenerator::new();
    let mut left = quotas(n);
    let mut out = Vec::with_capacity(n);
    let max_games = 50 * n as u64 + 1000;
    for g in 0..max_games {
        if left.iter().all(|&l| l == 0) {
            break;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (g + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut position = Position::starting();
        for turn in 0..10_000 {
            let dice = crate::roll(&mut rng, turn == 0);
            if rng.gen_bool(SAMPLE_SHARE) {
                let class = net_class(classify(&position)).expect("a game in progress");
                let k = usize::from(class_code(class));
                if left[k] > 0 && generator.generate(&position, dice).len() >= 2 {
                    left[k] -= 1;
                    out.push((position, dice, class));
                }
            }
            match crate::sampling::exploring_play(
                &mut evaluator,
                &position,
                dice,
                EXPLORE,
                &mut rng,
            ) {
                Some(next) => position = next,
                None => break,
            }
        }
    }
    out
}

/// The lines of a list or choices file that say something, numbered from 1 and trimmed: blank
/// lines and `#` comments left out.
fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(n, line)| (n + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

/// The decisions of a set of `spec`: from self-play, or `list`'s (which must be the list of the
/// spec).
fn decisions_to_score(
    nets: &Arc<Nets>,
    spec: SetSpec,
    list: Option<&DecisionList>,
) -> Result<Vec<(Position, Dice, NetClass)>, DecisionSetError> {
    match (spec.origin, list) {
        (Origin::SelfPlay, None) => Ok(sample_decisions(nets, spec.decisions as usize, spec.seed)),
        (Origin::Listed, Some(list)) if list.spec(spec.judge) == spec => Ok(list.decisions.clone()),
        _ => Err(DecisionSetError::WrongList),
    }
}

/// Cubeless equity for the mover after a play leading to `after`, at `plies`.
fn reference_equity(search: &mut Search, after: &Position, plies: u8) -> f32 {
    if let Some(result) = after.result() {
        return Probabilities::of_result(result.winner, result.kind).equity();
    }
    let ctx = CubeContext::money(1, Ownership::Centered);
    search
        .evaluate(&after.swap(), &ctx, &cubeless(plies))
        .probabilities
        .invert()
        .equity()
}

/// The dice seed of the rollouts of decision `index` of a set of seed `seed`.
fn rollout_seed(seed: u64, index: usize) -> u64 {
    (seed ^ 0xD1CE_5EED_0000_0000)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index as u64)
}

/// Scores plays by a set's judge: one per thread.
struct Scorer<'r> {
    judge: Judge,
    reference: &'r Reference,
    search: Search,
}

impl<'r> Scorer<'r> {
    fn new(judge: Judge, reference: &'r Reference) -> Scorer<'r> {
        Scorer {
            judge,
            reference,
            search: Search::new(reference.nets.clone()),
        }
    }

    /// The cubeless equities for the mover of `plays` (legal plays in `position`), as decision
    /// `index` of a set of seed `seed` scores them.
    fn score(
        &mut self,
        position: &Position,
        plays: &[LegalMove],
        seed: u64,
        index: usize,
    ) -> Vec<f32> {
        match self.judge {
            Judge::Search { plies } => plays
                .iter()
                .map(|m| reference_equity(&mut self.search, &m.position, plies))
                .collect(),
            Judge::Rollout { trials } => {
                let ctx = CubeContext::money(1, Ownership::Centered);
                let settings = RolloutSettings {
                    variance_reduction: true,
                    ..label_settings(trials, rollout_seed(seed, index), None)
                };
                let mut rollout = Rollout::new(
                    self.reference.nets.clone(),
                    self.reference.bearoff.clone(),
                    position,
                    &ctx,
                    Subject::Moves(plays.to_vec()),
                    &settings,
                )
                .expect("a game in progress, candidates and trials");
                let result = rollout.run(&AtomicBool::new(false), &mut |_| {});
                result
                    .alternatives
                    .iter()
                    .map(|a| a.cubeless as f32)
                    .collect()
            }
        }
    }
}

impl DecisionSet {
    /// Builds and scores a set (steps 1 to 3 of the construction) with `nets` as reference, on
    /// `threads` threads (the result does not depend on them). `progress` is called with the
    /// number of decisions scored so far.
    ///
    /// Rollouts stop at `bearoff`'s databases when given (the scores depend on it; the command
    /// line always gives the standard ones). A listed set needs its `list` (and a self-play set
    /// none).
    pub fn build(
        nets: &Arc<Nets>,
        bearoff: Option<Arc<BearoffDb>>,
        spec: SetSpec,
        list: Option<&DecisionList>,
        threads: usize,
        progress: &(dyn Fn(usize) + Sync),
    ) -> Result<DecisionSet, DecisionSetError> {
        let sampled = decisions_to_score(nets, spec, list)?;
        let mut set = DecisionSet::empty(nets, bearoff, spec);
        set.score_more(&sampled, sampled.len(), threads, progress);
        Ok(set)
    }

    /// [`DecisionSet::build`], saving the decisions scored so far to `checkpoint` every
    /// [`CHECKPOINT_EVERY`] decisions and starting from what it holds, if it exists (it must be
    /// a checkpoint of the same set). The result is the same as `build`'s, however often the
    /// work was interrupted; the checkpoint is left in place.
    pub fn build_resuming(
        nets: &Arc<Nets>,
        bearoff: Option<Arc<BearoffDb>>,
        spec: SetSpec,
        list: Option<&DecisionList>,
        threads: usize,
        progress: &(dyn Fn(usize) + Sync),
        checkpoint: &Path,
    ) -> Result<DecisionSet, DecisionSetError> {
        let sampled = decisions_to_score(nets, spec, list)?;
        let mut set = DecisionSet::empty(nets, bearoff, spec);
        if checkpoint.exists() {
            let saved = DecisionSet::load(checkpoint)?;
            let fits = saved.spec() == spec
                && saved.nets_checksum == set.nets_checksum
                && saved.decisions.len() <= sampled.len()
                && saved
                    .decisions
                    .iter()
                    .zip(&sampled)
                    .all(|(d, s)| (d.position, d.dice, d.class) == *s);
            if !fits {
                return Err(DecisionSetError::Format {
                    path: checkpoint.to_path_buf(),
                    reason: "a checkpoint of another set (remove it to start over)".into(),
                });
            }
            set.decisions = saved.decisions;
        }
        progress(set.decisions.len());
        while set.decisions.len() < sampled.len() {
            let upto = (set.decisions.len() + CHECKPOINT_EVERY).min(sampled.len());
            set.score_more(&sampled, upto, threads, progress);
            set.save(checkpoint)?;
        }
        Ok(set)
    }

    /// A set of `spec` by `nets` without decisions yet.
    fn empty(nets: &Arc<Nets>, bearoff: Option<Arc<BearoffDb>>, spec: SetSpec) -> DecisionSet {
        DecisionSet {
            seed: spec.seed,
            origin: spec.origin,
            requested: spec.decisions,
            judge: spec.judge,
            nets_checksum: nets_checksum(nets),
            decisions: Vec::new(),
            reference: Some(Reference {
                nets: nets.clone(),
                bearoff,
            }),
        }
    }

    /// Scores the sampled decisions after those the set holds, up to index `upto` (steps 2 and
    /// 3 of the construction), calling `progress` with the number of decisions scored.
    fn score_more(
        &mut self,
        sampled: &[(Position, Dice, NetClass)],
        upto: usize,
        threads: usize,
        progress: &(dyn Fn(usize) + Sync),
    ) {
        let reference = self.reference.as_ref().expect("a set being built");
        let (judge, seed, first) = (self.judge, self.seed, self.decisions.len());
        let done = AtomicUsize::new(first);
        let more = parallel_map(
            upto - first,
            threads,
            || {
                (
                    Evaluator::new(reference.nets.clone()),
                    Scorer::new(judge, reference),
                )
            },
            |(evaluator, scorer), k| {
                let i = first + k;
                let (position, dice, class) = sampled[i];
                let ranked = evaluator.rank_moves(&position, dice);
                let best = ranked[0].1.equity();
                let kept = ranked
                    .iter()
                    .enumerate()
                    .take_while(|(k, (_, p))| {
                        *k < ALWAYS_KEPT || (*k < MAX_CANDIDATES && best - p.equity() <= WINDOW)
                    })
                    .count();
                let plays: Vec<LegalMove> = ranked[..kept].iter().map(|(m, _)| *m).collect();
                let scores = scorer.score(&position, &plays, seed, i);
                let mut candidates: Vec<Candidate> = plays
                    .iter()
                    .zip(scores)
                    .map(|(m, equity)| Candidate {
                        after: m.position,
                        equity,
                    })
                    .collect();
                // Stable: among equal scores the better 0-ply play stays first.
                candidates.sort_by(|a, b| b.equity.total_cmp(&a.equity));
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                Decision {
                    position,
                    dice,
                    class,
                    candidates,
                }
            },
        );
        self.decisions.extend(more);
    }

    /// Attaches the reference nets (checked against the set's checksum) and the bearoff
    /// databases the set was built with, so that a choice outside the candidates is scored
    /// exactly instead of being charged the worst candidate's error.
    pub fn attach_reference(
        &mut self,
        nets: Arc<Nets>,
        bearoff: Option<Arc<BearoffDb>>,
    ) -> Result<(), DecisionSetError> {
        let found = nets_checksum(&nets);
        if found != self.nets_checksum {
            return Err(DecisionSetError::WrongReference {
                expected: self.nets_checksum,
                found,
            });
        }
        self.reference = Some(Reference { nets, bearoff });
        Ok(())
    }

    /// Whether the reference nets are attached.
    pub fn has_reference(&self) -> bool {
        self.reference.is_some()
    }

    /// The file name of a set: `decisions-N-seedS-JUDGE-CRC.bin` (of a listed set,
    /// `decisions-N-listLISTCRC-JUDGE-CRC.bin`), the judge `Pply` or `rolloutT`
    /// ([`Judge::file_tag`]).
    pub fn file_name(spec: SetSpec, nets_checksum: u32) -> String {
        let origin = match spec.origin {
            Origin::SelfPlay => format!("seed{}", spec.seed),
            Origin::Listed => format!("list{:08x}", spec.seed),
        };
        format!(
            "decisions-{}-{origin}-{}-{nets_checksum:08x}.bin",
            spec.decisions,
            spec.judge.file_tag()
        )
    }

    /// The set cached in folder `dir` for `spec` and the reference `nets`; built and saved there
    /// (the folder created if needed) when absent. Returns the set and whether it was built.
    /// The build saves a checkpoint beside the set's file (`….partial`) as it goes, and starts
    /// from it when there is one: an interrupted build resumes.
    pub fn load_or_build(
        dir: &Path,
        nets: &Arc<Nets>,
        bearoff: Option<Arc<BearoffDb>>,
        spec: SetSpec,
        list: Option<&DecisionList>,
        threads: usize,
        progress: &(dyn Fn(usize) + Sync),
    ) -> Result<(DecisionSet, bool), DecisionSetError> {
        let checksum = nets_checksum(nets);
        let path = dir.join(DecisionSet::file_name(spec, checksum));
        if path.exists() {
            let mut set = DecisionSet::load(&path)?;
            if set.spec() != spec || set.nets_checksum != checksum {
                return Err(DecisionSetError::Format {
                    path,
                    reason: "its header does not match its name (renamed by hand?)".into(),
                });
            }
            set.reference = Some(Reference {
                nets: nets.clone(),
                bearoff,
            });
            return Ok((set, false));
        }
        std::fs::create_dir_all(dir).map_err(|source| DecisionSetError::Folder {
            path: dir.to_path_buf(),
            source,
        })?;
        let checkpoint = path.with_extension("partial");
        let set =
            DecisionSet::build_resuming(nets, bearoff, spec, list, threads, progress, &checkpoint)?;
        set.save(&path)?;
        // The set is saved: its checkpoint is no longer needed (if it cannot be removed, the
        // next build of this set starts from it, which is just as good).
        let _ = std::fs::remove_file(&checkpoint);
        Ok((set, true))
    }

    /// What the set was built for.
    pub fn spec(&self) -> SetSpec {
        SetSpec {
            decisions: self.requested,
            seed: self.seed,
            judge: self.judge,
            origin: self.origin,
        }
    }

    /// The bytes of the set's file (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(HEADER + self.decisions.len() * (BOARD + 4 + 6 * 30) + 4);
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        b.extend_from_slice(&self.seed.to_le_bytes());
        b.extend_from_slice(&self.requested.to_le_bytes());
        let (kind, value) = match self.judge {
            Judge::Search { plies } => (0u8, u32::from(plies)),
            Judge::Rollout { trials } => (1u8, trials),
        };
        b.push(kind);
        b.extend_from_slice(&value.to_le_bytes());
        b.push(match self.origin {
            Origin::SelfPlay => 0,
            Origin::Listed => 1,
        });
        b.extend_from_slice(&self.nets_checksum.to_le_bytes());
        b.extend_from_slice(&(self.decisions.len() as u32).to_le_bytes());
        for d in &self.decisions {
            b.extend(d.position.board().iter().map(|&x| x as u8));
            b.push(d.dice.first());
            b.push(d.dice.second());
            b.push(class_code(d.class));
            b.push(d.candidates.len() as u8);
            for c in &d.candidates {
                b.extend(c.after.board().iter().map(|&x| x as u8));
                b.extend_from_slice(&c.equity.to_le_bytes());
            }
        }
        let crc = crc32fast::hash(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        b
    }

    /// Writes the set atomically.
    pub fn save(&self, path: &Path) -> Result<(), DecisionSetError> {
        Ok(write_atomically(path, &self.to_bytes())?)
    }

    /// Reads a set file, checking its checksum, every position, roll and score.
    pub fn load(path: &Path) -> Result<DecisionSet, DecisionSetError> {
        let bytes = read_regular(path, MAX_FILE_BYTES)?;
        DecisionSet::from_bytes(&bytes).map_err(|reason| DecisionSetError::Format {
            path: path.to_path_buf(),
            reason,
        })
    }

    /// Reads a set from the bytes of its file; the error says what is wrong and where.
    pub fn from_bytes(bytes: &[u8]) -> Result<DecisionSet, String> {
        if bytes.len() < 8 + 4 || &bytes[..8] != MAGIC {
            return Err("not a Cubeful decision set file".into());
        }
        let body = &bytes[..bytes.len() - 4];
        let crc = u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().expect("4 bytes"));
        if crc32fast::hash(body) != crc {
            return Err("checksum mismatch (corrupt or truncated file)".into());
        }
        let mut r = Reader { bytes: body, at: 8 };
        let version = r.u32()?;
        if !(1..=FORMAT_VERSION).contains(&version) {
            return Err(format!(
                "format version {version}; this program reads versions 1 to {FORMAT_VERSION}"
            ));
        }
        let seed = r.u64()?;
        let requested = r.u32()?;
        let judge = if version == 1 {
            Judge::Search { plies: r.u8()? }
        } else {
            match (r.u8()?, r.u32()?) {
                (0, plies @ 1..=3) => Judge::Search { plies: plies as u8 },
                (1, trials @ 1..) => Judge::Rollout { trials },
                (kind, value) => {
                    return Err(format!("unknown judge {kind} with value {value}"));
                }
            }
        };
        let origin = match version {
            1 | 2 => Origin::SelfPlay,
            _ => match r.u8()? {
                0 => Origin::SelfPlay,
                1 => Origin::Listed,
                code => return Err(format!("unknown origin {code}")),
            },
        };
        let nets_checksum = r.u32()?;
        let count = r.u32()? as usize;
        let mut decisions = Vec::with_capacity(count.min(1 << 20));
        for i in 0..count {
            let offset = r.at;
            let position = r
                .position()
                .map_err(|e| format!("decision {i} (byte {offset}): {e}"))?;
            let (a, b) = (r.u8()?, r.u8()?);
            let dice = Dice::new(a, b).map_err(|e| format!("decision {i}: bad roll: {e}"))?;
            if position.result().is_some() {
                return Err(format!("decision {i}: the game is over"));
            }
            let legal = cubeful_engine::legal_moves(&position, dice);
            let class = r.u8()?;
            let class =
                class_from_code(class).ok_or_else(|| format!("decision {i}: bad class {class}"))?;
            let n = usize::from(r.u8()?);
            if !(2..=MAX_CANDIDATES).contains(&n) {
                return Err(format!("decision {i}: {n} candidates (2 to 16 expected)"));
            }
            let mut candidates = Vec::with_capacity(n);
            for k in 0..n {
                let after = r
                    .position()
                    .map_err(|e| format!("decision {i} candidate {k}: {e}"))?;
                if !legal.iter().any(|m| m.position == after) {
                    return Err(format!(
                        "decision {i} candidate {k}: not a play of the roll {dice}"
                    ));
                }
                let equity = r.f32()?;
                if !equity.is_finite() || equity.abs() > 3.0 {
                    return Err(format!(
                        "decision {i} candidate {k}: impossible equity {equity}"
                    ));
                }
                candidates.push(Candidate { after, equity });
            }
            decisions.push(Decision {
                position,
                dice,
                class,
                candidates,
            });
        }
        if r.at != body.len() {
            return Err(format!(
                "{} bytes after the last decision",
                body.len() - r.at
            ));
        }
        Ok(DecisionSet {
            seed,
            origin,
            requested,
            judge,
            nets_checksum,
            decisions,
            reference: None,
        })
    }

    /// The errors of each decision when `nets` choose with the search `settings` (step 4 of
    /// the construction; [`choosing`] gives the usual ones): for each decision, the error in
    /// points and whether the choice was among the candidates. A choice outside the candidates
    /// is scored by the reference search when the reference nets are attached (its error is 0
    /// if it scores above every candidate), else charged the error of the worst candidate.
    ///
    /// At 0 plies the nets choose alone; above, the search's filter, reduction and pruning are
    /// `settings`' (the reference scores never prune). With `bearoff`, the choices judge
    /// bearoff positions by its databases (as the program does when it has them); without, by
    /// the race net alone.
    pub fn errors(
        &self,
        nets: &Arc<Nets>,
        settings: &EvalSettings,
        bearoff: Option<&Arc<BearoffDb>>,
        threads: usize,
    ) -> Vec<(f32, bool)> {
        let ctx = CubeContext::money(1, Ownership::Centered);
        let plies = settings.plies;
        parallel_map(
            self.decisions.len(),
            threads,
            || {
                let scorer = self.reference.as_ref().map(|r| Scorer::new(self.judge, r));
                let mut evaluator = Evaluator::new(nets.clone());
                let mut search = Search::new(nets.clone());
                if let Some(db) = bearoff {
                    evaluator.set_bearoff(Some(db.clone() as Arc<dyn BearoffOracle>));
                    search.set_bearoff(Some(db.clone()));
                }
                (evaluator, search, scorer)
            },
            |(evaluator, search, scorer), i| {
                let d = &self.decisions[i];
                let choice = if plies == 0 {
                    evaluator.best_move(&d.position, d.dice).0
                } else {
                    search.best_move(&d.position, d.dice, &ctx, settings).mv
                };
                self.error_of(i, &choice, scorer.as_mut())
            },
        )
    }

    /// Per decision, the error of `choices` made elsewhere (another program's, say): choice
    /// *i* is a legal play of decision *i*, and the figures are those of [`DecisionSet::errors`].
    pub fn errors_of_choices(&self, choices: &[LegalMove], threads: usize) -> Vec<(f32, bool)> {
        assert_eq!(
            choices.len(),
            self.decisions.len(),
            "one choice per decision"
        );
        parallel_map(
            self.decisions.len(),
            threads,
            || self.reference.as_ref().map(|r| Scorer::new(self.judge, r)),
            |scorer, i| self.error_of(i, &choices[i], scorer.as_mut()),
        )
    }

    /// Reads choices made elsewhere: one line per decision, its index (from 0), blanks, and the
    /// play in any notation [`parse_move`](cubeful_engine::notation::parse_move) reads
    /// (`8/5 6/5`); blank lines and lines starting with `#` are skipped. Every decision needs
    /// exactly one legal play.
    pub fn parse_choices(&self, text: &str) -> Result<Vec<LegalMove>, ChoicesError> {
        self.parse_choices_from(text, 0, self.decisions.len())
    }

    /// [`DecisionSet::parse_choices`] for a set measured together with others: its decisions
    /// are numbered from `first` in the file, which numbers `total` decisions in all; lines of
    /// the other sets' decisions are skipped.
    pub fn parse_choices_from(
        &self,
        text: &str,
        first: usize,
        total: usize,
    ) -> Result<Vec<LegalMove>, ChoicesError> {
        let mut choices: Vec<Option<LegalMove>> = vec![None; self.decisions.len()];
        for (line_number, line) in content_lines(text) {
            let error = |reason: String| ChoicesError::Line {
                line: line_number,
                reason,
            };
            let (index, play) = line
                .split_once(|c: char| c.is_ascii_whitespace())
                .unwrap_or((line, ""));
            let number: usize = index
                .parse()
                .map_err(|_| error(format!("{index:?} is not a decision number")))?;
            if number >= total {
                return Err(error(format!(
                    "there is no decision {number} (the set has {total})"
                )));
            }
            let Some(index) = number.checked_sub(first) else {
                continue;
            };
            let Some(d) = self.decisions.get(index) else {
                continue;
            };
            if choices[index].is_some() {
                return Err(error(format!("a second choice for decision {number}")));
            }
            let play = cubeful_engine::notation::parse_move(&d.position, d.dice, play.trim())
                .map_err(|e| error(format!("decision {number} (roll {}): {e}", d.dice)))?;
            choices[index] = Some(play);
        }
        choices
            .into_iter()
            .enumerate()
            .map(|(index, c)| {
                c.ok_or(ChoicesError::Missing {
                    index: first + index,
                })
            })
            .collect()
    }

    /// The error of `choice` in decision `i` and whether it is among the candidates.
    fn error_of(&self, i: usize, choice: &LegalMove, scorer: Option<&mut Scorer>) -> (f32, bool) {
        let d = &self.decisions[i];
        let best = d.candidates[0].equity;
        if let Some(c) = d.candidates.iter().find(|c| c.after == choice.position) {
            return (best - c.equity, true);
        }
        let error = match scorer {
            Some(s) => {
                let equity = s.score(&d.position, std::slice::from_ref(choice), self.seed, i)[0];
                (best - equity).max(0.0)
            }
            None => best - d.candidates[d.candidates.len() - 1].equity,
        };
        (error, false)
    }

    /// The benchmark figures of `nets` choosing at `plies` (with World Class's move filter).
    pub fn score(&self, nets: &Arc<Nets>, plies: u8, threads: usize) -> BenchScore {
        let errors = self.errors(nets, &choosing(plies), None, threads);
        self.summarise(&errors, plies)
    }

    /// The figures of per-decision `errors` (as [`DecisionSet::errors`] gives them) of choices
    /// at `plies`.
    pub fn summarise(&self, errors: &[(f32, bool)], plies: u8) -> BenchScore {
        summarise(&self.classes(), errors, plies)
    }

    /// The paired difference of two sets of per-decision errors, `a − b`, on the decisions of
    /// `class` (all decisions for `None`): the mean and its standard error, in thousandths of a
    /// point. Negative: `a` loses less.
    pub fn paired_difference(
        &self,
        a: &[(f32, bool)],
        b: &[(f32, bool)],
        class: Option<NetClass>,
    ) -> (f64, f64) {
        paired_difference(&self.classes(), a, b, class)
    }

    /// The class of each decision, in order.
    pub fn classes(&self) -> Vec<NetClass> {
        self.decisions.iter().map(|d| d.class).collect()
    }
}

/// The benchmark figures of choices at `plies` whose per-decision `errors` (as
/// [`DecisionSet::errors`] gives them) were made in decisions of `classes` (one class per
/// error): so several sets (seeds) can be measured as one.
pub fn summarise(classes: &[NetClass], errors: &[(f32, bool)], plies: u8) -> BenchScore {
    assert_eq!(classes.len(), errors.len(), "one class per error");
    let summarise = |class: Option<NetClass>| {
        let mut s = ClassScore::default();
        let mut values = Vec::new();
        let mut best = 0usize;
        for (&c, &(error, inside)) in classes.iter().zip(errors) {
            if class.is_some_and(|wanted| wanted != c) {
                continue;
            }
            values.push(f64::from(error));
            if inside && error <= 0.0 {
                best += 1;
            }
            if !inside {
                s.outside_candidates += 1;
            }
        }
        s.decisions = values.len();
        let (mean, se) = mean_and_standard_error(&values);
        s.mean_error_millipoints = 1000.0 * mean;
        s.standard_error_millipoints = 1000.0 * se;
        if s.decisions > 0 {
            s.best_play_share = best as f64 / s.decisions as f64;
        }
        s
    };
    BenchScore {
        plies,
        contact: summarise(Some(NetClass::Contact)),
        crashed: summarise(Some(NetClass::Crashed)),
        race: summarise(Some(NetClass::Race)),
        overall: summarise(None),
    }
}

/// The paired difference `a − b` of two choosers' per-decision errors in decisions of
/// `classes`, on those of `class` (all for `None`): the mean and its standard error, in
/// thousandths of a point. Negative: `a` loses less.
pub fn paired_difference(
    classes: &[NetClass],
    a: &[(f32, bool)],
    b: &[(f32, bool)],
    class: Option<NetClass>,
) -> (f64, f64) {
    assert!(
        classes.len() == a.len() && a.len() == b.len(),
        "one class per error"
    );
    let values: Vec<f64> = classes
        .iter()
        .zip(a.iter().zip(b))
        .filter(|(&c, _)| class.is_none_or(|wanted| wanted == c))
        .map(|(_, (x, y))| f64::from(x.0) - f64::from(y.0))
        .collect();
    let (mean, se) = mean_and_standard_error(&values);
    (1000.0 * mean, 1000.0 * se)
}

/// The mean of `values` and its standard error (0 and 0 for no values, standard error 0 for one).
fn mean_and_standard_error(values: &[f64]) -> (f64, f64) {
    let n = values.len();
    if n == 0 {
        return (0.0, 0.0);
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    if n == 1 {
        return (mean, 0.0);
    }
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    (mean, (variance / n as f64).sqrt())
}

/// A cursor over the bytes of a set file.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        if self.bytes.len() - self.at < n {
            return Err(format!("the file ends early at byte {}", self.at));
        }
        self.at += n;
        Ok(&self.bytes[self.at - n..self.at])
    }

    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }

    fn f32(&mut self) -> Result<f32, String> {
        Ok(f32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    fn position(&mut self) -> Result<Position, String> {
        let mut board = [0i8; BOARD];
        for (b, &x) in board.iter_mut().zip(self.take(BOARD)?) {
            *b = x as i8;
        }
        Position::from_board(board).map_err(|e| format!("impossible position: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_testkit::ScratchDir;

    fn spec(decisions: u32, seed: u64) -> SetSpec {
        SetSpec {
            decisions,
            seed,
            judge: Judge::Search { plies: 1 },
            origin: Origin::SelfPlay,
        }
    }

    #[test]
    fn the_set_is_deterministic_and_round_trips() {
        let nets = Arc::new(Nets::embedded());
        let a = DecisionSet::build(&nets, None, spec(40, 7), None, 2, &|_| {}).unwrap();
        let b = DecisionSet::build(&nets, None, spec(40, 7), None, 1, &|_| {}).unwrap();
        assert_eq!(a, b, "the same set whatever the threads");
        assert_eq!(a.decisions.len(), 40);
        let count = |c: NetClass| a.decisions.iter().filter(|d| d.class == c).count();
        assert_eq!(
            [
                count(NetClass::Contact),
                count(NetClass::Crashed),
                count(NetClass::Race)
            ],
            [20, 8, 12]
        );
        for d in &a.decisions {
            assert_eq!(net_class(classify(&d.position)), Some(d.class));
            assert!((2..=MAX_CANDIDATES).contains(&d.candidates.len()));
            assert!(d.candidates.windows(2).all(|w| w[0].equity >= w[1].equity));
            let legal = cubeful_engine::legal_moves(&d.position, d.dice);
            assert!(d
                .candidates
                .iter()
                .all(|c| legal.iter().any(|m| m.position == c.after)));
        }
        let other = DecisionSet::build(&nets, None, spec(40, 8), None, 1, &|_| {}).unwrap();
        assert_ne!(a.decisions, other.decisions, "another seed, another set");

        let back = DecisionSet::from_bytes(&a.to_bytes()).unwrap();
        assert_eq!(back, a);
        let mut bytes = a.to_bytes();
        bytes[HEADER + 3] ^= 0x40;
        assert!(DecisionSet::from_bytes(&bytes)
            .unwrap_err()
            .contains("checksum"));
        let short = &a.to_bytes()[..HEADER + 10];
        assert!(DecisionSet::from_bytes(short).is_err());

        // Well-formed files whose contents cannot be: a candidate that is not a play of the
        // roll, a decision in a finished game.
        let recrc = |mut bytes: Vec<u8>| {
            let n = bytes.len() - 4;
            let crc = crc32fast::hash(&bytes[..n]);
            bytes[n..].copy_from_slice(&crc.to_le_bytes());
            bytes
        };
        let mut bytes = a.to_bytes();
        let first_candidate = HEADER + BOARD + 4;
        let before: Vec<u8> = bytes[HEADER..HEADER + BOARD].to_vec();
        bytes[first_candidate..first_candidate + BOARD].copy_from_slice(&before);
        let err = DecisionSet::from_bytes(&recrc(bytes)).unwrap_err();
        assert!(err.contains("decision 0 candidate 0: not a play"), "{err}");
        let finished = Position::from_points(&[], &[(6, 2)]).unwrap();
        assert!(finished.result().is_some());
        let mut bytes = a.to_bytes();
        bytes[HEADER..HEADER + BOARD].copy_from_slice(&finished.board().map(|x| x as u8));
        let err = DecisionSet::from_bytes(&recrc(bytes)).unwrap_err();
        assert!(err.contains("decision 0: the game is over"), "{err}");
    }

    #[test]
    fn the_reference_nets_lose_nothing_at_the_reference_depth() {
        let nets = Arc::new(Nets::embedded());
        let set = DecisionSet::build(&nets, None, spec(30, 3), None, 2, &|_| {}).unwrap();
        let mut evaluator = Evaluator::new(nets.clone());
        let mut covered = 0;
        // A 1-ply choice of the reference nets maximises the same 1-ply scores over the plays the
        // Normal filter keeps (the leading plays within 0.16 at 0-ply, at most 8). Where those
        // include every candidate, a choice among the candidates is the best one.
        for (d, (error, inside)) in
            set.decisions
                .iter()
                .zip(set.errors(&nets, &choosing(1), None, 2))
        {
            let ranked = evaluator.rank_moves(&d.position, d.dice);
            let best = ranked[0].1.equity();
            let kept = ranked
                .iter()
                .take(8)
                .take_while(|(_, p)| best - p.equity() <= 0.16)
                .count();
            if d.candidates.len() <= kept && inside {
                covered += 1;
                assert!(error.abs() < 1e-6, "{error}");
            }
            assert!(error >= 0.0);
        }
        // How many decisions qualify depends on the nets (8 of the 30 with round adam22's,
        // 10 or more before): enough that the check above is not empty.
        assert!(covered >= 5, "{covered}");

        let score = set.score(&nets, 0, 1);
        assert_eq!(
            score,
            set.score(&nets, 0, 2),
            "the same score whatever the threads"
        );
        let (all, classes) = (score.overall, [score.contact, score.crashed, score.race]);
        assert_eq!(all.decisions, 30);
        assert_eq!(classes.iter().map(|c| c.decisions).sum::<usize>(), 30);
        let errors = set.errors(&nets, &choosing(0), None, 1);
        let mean = 1000.0 * errors.iter().map(|e| f64::from(e.0)).sum::<f64>() / 30.0;
        assert!((all.mean_error_millipoints - mean).abs() < 1e-9);
        let weighted: f64 = classes
            .iter()
            .map(|c| c.mean_error_millipoints * c.decisions as f64)
            .sum::<f64>()
            / 30.0;
        assert!((all.mean_error_millipoints - weighted).abs() < 1e-9);
        assert!(all.mean_error_millipoints > 0.0, "0-ply is not 1-ply");
        assert!(all.standard_error_millipoints > 0.0);
        let at_one_ply = set.errors(&nets, &choosing(1), None, 1);
        let (diff, se) = set.paired_difference(&errors, &at_one_ply, None);
        let one = set.summarise(&at_one_ply, 1).overall.mean_error_millipoints;
        assert!((diff - (all.mean_error_millipoints - one)).abs() < 1e-9);
        assert!(
            diff > 0.0 && se > 0.0,
            "0-ply loses more than 1-ply: {diff} ± {se}"
        );
        assert_eq!(set.paired_difference(&errors, &errors, None), (0.0, 0.0));
        assert!(all.best_play_share > 0.3 && all.best_play_share < 1.0);
    }

    #[test]
    fn choices_made_elsewhere_measure_as_the_nets_own() {
        let nets = Arc::new(Nets::embedded());
        let set = DecisionSet::build(&nets, None, spec(12, 4), None, 2, &|_| {}).unwrap();
        let mut evaluator = Evaluator::new(nets.clone());
        // The nets' 0-ply choices, written out in notation in reverse order with a comment and
        // a blank line, are read back as the same plays and measure the same.
        let mut text = String::from("# decision play\n\n");
        for (i, d) in set.decisions.iter().enumerate().rev() {
            let choice = evaluator.best_move(&d.position, d.dice).0;
            let play = cubeful_engine::notation::format_move(&d.position, &choice.mv);
            text.push_str(&format!("{i}\t{play}\n"));
        }
        let choices = set.parse_choices(&text).unwrap();
        assert_eq!(
            set.errors_of_choices(&choices, 2),
            set.errors(&nets, &choosing(0), None, 1)
        );
        // Which line is wrong, and why.
        let line = |text: &str| match set.parse_choices(text) {
            Err(ChoicesError::Line { line, reason }) => (line, reason),
            other => panic!("{other:?}"),
        };
        let first = text.lines().nth(2).unwrap();
        let (n, reason) = line(&format!("{first}\n{first}\n"));
        assert_eq!(n, 2);
        assert!(reason.contains("second choice"), "{reason}");
        let (n, reason) = line("\n12 8/5 6/5\n");
        assert_eq!(n, 2);
        assert!(reason.contains("no decision 12"), "{reason}");
        assert!(line("x 8/5").1.contains("not a decision number"));
        let (n, reason) = line("0 25/1\n");
        assert_eq!(n, 1);
        assert!(reason.starts_with("decision 0 (roll "), "{reason}");
        assert_eq!(
            set.parse_choices(first),
            Err(ChoicesError::Missing { index: 0 })
        );
    }

    #[test]
    fn a_choice_outside_the_candidates_is_scored_with_the_reference_nets() {
        let nets = Arc::new(Nets::embedded());
        // Forty decisions: enough that the 0-ply choice is not the 1-ply judge's best in some.
        let mut set = DecisionSet::build(&nets, None, spec(40, 9), None, 2, &|_| {}).unwrap();
        let mut evaluator = Evaluator::new(nets.clone());
        // Remove each decision's 0-ply choice from its candidates (keeping at least one).
        let mut expected = Vec::new();
        for d in &mut set.decisions {
            let choice = evaluator.best_move(&d.position, d.dice).0.position;
            let k = d.candidates.iter().position(|c| c.after == choice).unwrap();
            let removed = d.candidates.remove(k);
            let best = d.candidates[0].equity;
            let worst = d.candidates.last().unwrap().equity;
            expected.push(((best - removed.equity).max(0.0), best - worst));
        }
        let with_reference = set.errors(&nets, &choosing(0), None, 1);
        let mut detached = set.clone();
        detached.reference = None;
        assert!(set.has_reference() && !detached.has_reference());
        let without = detached.errors(&nets, &choosing(0), None, 1);
        for (((exact, inside), (charged, inside2)), (want_exact, want_charged)) in
            with_reference.iter().zip(&without).zip(&expected)
        {
            assert!(!inside && !inside2);
            assert!((exact - want_exact).abs() < 1e-6, "{exact} vs {want_exact}");
            assert!(
                (charged - want_charged).abs() < 1e-6,
                "{charged} vs {want_charged}"
            );
        }
        assert!(
            with_reference.iter().any(|e| e.0 > 0.0),
            "some removed choices were not the best"
        );
        let mut other = (*nets).clone();
        other.race.trained += 1;
        assert!(matches!(
            set.attach_reference(Arc::new(other), None),
            Err(DecisionSetError::WrongReference { .. })
        ));
    }

    #[test]
    fn rollout_judged_sets_score_every_play_on_the_same_dice() {
        let nets = Arc::new(Nets::embedded());
        let spec = SetSpec {
            decisions: 4,
            seed: 4,
            judge: Judge::Rollout { trials: 9 },
            origin: Origin::SelfPlay,
        };
        let a = DecisionSet::build(&nets, None, spec, None, 2, &|_| {}).unwrap();
        let b = DecisionSet::build(&nets, None, spec, None, 1, &|_| {}).unwrap();
        assert_eq!(a, b, "the same scores whatever the threads");
        assert_eq!(a.spec(), spec);
        assert_eq!(
            DecisionSet::file_name(spec, 0xabcd),
            "decisions-4-seed4-rollout9-0000abcd.bin"
        );
        let searched = DecisionSet::build(
            &nets,
            None,
            SetSpec {
                judge: Judge::Search { plies: 1 },
                ..spec
            },
            None,
            2,
            &|_| {},
        )
        .unwrap();
        assert_eq!(
            a.decisions
                .iter()
                .map(|d| (d.position, d.dice))
                .collect::<Vec<_>>(),
            searched
                .decisions
                .iter()
                .map(|d| (d.position, d.dice))
                .collect::<Vec<_>>(),
            "the judge does not change the decisions"
        );
        assert_ne!(a.decisions, searched.decisions, "but it changes the scores");
        // A play rolled out alone scores as it did among the candidates: the same dice.
        let reference = a.reference.clone().unwrap();
        let mut scorer = Scorer::new(a.judge, &reference);
        for (i, d) in a.decisions.iter().enumerate() {
            let last = d.candidates[d.candidates.len() - 1];
            let play = cubeful_engine::legal_moves(&d.position, d.dice)
                .into_iter()
                .find(|m| m.position == last.after)
                .unwrap();
            let alone = scorer.score(&d.position, &[play], a.seed, i);
            assert_eq!(alone, vec![last.equity], "decision {i}");
        }
        let back = DecisionSet::from_bytes(&a.to_bytes()).unwrap();
        assert_eq!(back, a);
        assert_eq!(back.judge, Judge::Rollout { trials: 9 });
    }

    #[test]
    fn versions_1_and_2_files_are_still_read() {
        let nets = Arc::new(Nets::embedded());
        let set = DecisionSet::build(&nets, None, spec(10, 2), None, 1, &|_| {}).unwrap();
        let v3 = set.to_bytes();
        // Version 2: no origin byte (self-play sets only).
        let mut v2 = v3[..8].to_vec();
        v2.extend_from_slice(&2u32.to_le_bytes());
        v2.extend_from_slice(&v3[12..29]);
        v2.extend_from_slice(&v3[30..v3.len() - 4]);
        let crc = crc32fast::hash(&v2);
        v2.extend_from_slice(&crc.to_le_bytes());
        assert_eq!(DecisionSet::from_bytes(&v2).unwrap(), set);
        // Version 1: the judge was the search depth alone, one byte.
        let mut v1 = v2[..8].to_vec();
        v1.extend_from_slice(&1u32.to_le_bytes());
        v1.extend_from_slice(&v2[12..24]);
        v1.push(1);
        v1.extend_from_slice(&v2[29..v2.len() - 4]);
        let crc = crc32fast::hash(&v1);
        v1.extend_from_slice(&crc.to_le_bytes());
        assert_eq!(DecisionSet::from_bytes(&v1).unwrap(), set);
        let mut v4 = v3.clone();
        v4[8] = 4;
        let n = v4.len() - 4;
        let crc = crc32fast::hash(&v4[..n]);
        v4[n..].copy_from_slice(&crc.to_le_bytes());
        assert!(DecisionSet::from_bytes(&v4)
            .unwrap_err()
            .contains("format version 4"));
    }

    #[test]
    fn an_interrupted_build_resumes_from_its_checkpoint() {
        let nets = Arc::new(Nets::embedded());
        let spec = spec(CHECKPOINT_EVERY as u32 + 12, 6);
        let whole = DecisionSet::build(&nets, None, spec, None, 2, &|_| {}).unwrap();
        let dir = ScratchDir::new("resume");
        let checkpoint = dir.join("set.partial");
        // Interrupted after 7 decisions.
        let mut part = whole.clone();
        part.decisions.truncate(7);
        part.save(&checkpoint).unwrap();
        let seen = AtomicUsize::new(0);
        let resumed = DecisionSet::build_resuming(
            &nets,
            None,
            spec,
            None,
            1,
            &|n| {
                seen.fetch_max(n, Ordering::Relaxed);
            },
            &checkpoint,
        )
        .unwrap();
        assert_eq!(resumed, whole);
        assert_eq!(seen.load(Ordering::Relaxed), whole.decisions.len());
        assert_eq!(
            DecisionSet::load(&checkpoint).unwrap(),
            whole,
            "saved as it went"
        );
        // A checkpoint of another set is refused, not silently mixed in.
        let other =
            DecisionSet::build(&nets, None, SetSpec { seed: 7, ..spec }, None, 1, &|_| {}).unwrap();
        other.save(&checkpoint).unwrap();
        let refused = DecisionSet::build_resuming(&nets, None, spec, None, 1, &|_| {}, &checkpoint);
        assert!(
            matches!(refused, Err(DecisionSetError::Format { ref reason, .. }) if reason.contains("another set")),
            "{refused:?}"
        );
    }

    #[test]
    fn the_cache_is_written_once_and_then_read() {
        let nets = Arc::new(Nets::embedded());
        let scratch = ScratchDir::new("decisions");
        // The cache folder does not exist yet: the first build makes it.
        let dir = scratch.join("cache");
        let (built, fresh) =
            DecisionSet::load_or_build(&dir, &nets, None, spec(12, 5), None, 1, &|_| {}).unwrap();
        assert!(fresh);
        let files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(
            files,
            vec![DecisionSet::file_name(spec(12, 5), nets_checksum(&nets))],
            "the set, and no checkpoint left beside it"
        );
        let (read, fresh) =
            DecisionSet::load_or_build(&dir, &nets, None, spec(12, 5), None, 1, &|_| {}).unwrap();
        assert!(!fresh);
        assert_eq!(built, read);
    }

    #[test]
    fn a_listed_set_scores_the_decisions_of_its_list() {
        let nets = Arc::new(Nets::embedded());
        let selfplay = DecisionSet::build(&nets, None, spec(12, 3), None, 1, &|_| {}).unwrap();
        // The self-play set's decisions as a list, with a forced roll and comments among them.
        let bar = Position::from_points(
            &[(25, 2), (6, 13)],
            &[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (24, 3)],
        )
        .unwrap();
        let mut text = String::from("# position ID\troll\n\n");
        for (i, d) in selfplay.decisions.iter().enumerate() {
            text.push_str(&format!(
                "{} {} anything\n",
                cubeful_engine::position_id::encode(&d.position),
                d.dice
            ));
            if i == 3 {
                text.push_str(&format!(
                    "{}\t6-6\n",
                    cubeful_engine::position_id::encode(&bar)
                ));
            }
        }
        let list = DecisionList::parse(&text).unwrap();
        assert_eq!((list.len(), list.forced()), (12, 1));
        let spec = list.spec(Judge::Search { plies: 1 });
        assert_eq!(spec.origin, Origin::Listed);
        assert_eq!(spec.seed, u64::from(list.checksum()));
        let listed = DecisionSet::build(&nets, None, spec, Some(&list), 2, &|_| {}).unwrap();
        assert_eq!(
            listed.decisions, selfplay.decisions,
            "the same decisions, scored alike"
        );
        assert_eq!(listed.spec(), spec);
        let back = DecisionSet::from_bytes(&listed.to_bytes()).unwrap();
        assert_eq!(back, listed);
        assert_eq!(back.origin, Origin::Listed);
        assert!(DecisionSet::file_name(spec, 1)
            .starts_with(&format!("decisions-12-list{:08x}-1ply-", list.checksum())));
        // A set needs its own list.
        let fewer =
            DecisionList::parse(&text.lines().take(5).collect::<Vec<_>>().join("\n")).unwrap();
        assert_ne!(fewer.checksum(), list.checksum());
        for (spec, list) in [
            (spec, Some(&fewer)),
            (spec, None),
            (selfplay.spec(), Some(&list)),
        ] {
            assert!(matches!(
                DecisionSet::build(&nets, None, spec, list, 1, &|_| {}),
                Err(DecisionSetError::WrongList)
            ));
        }
        // Bad lines say where and what.
        let bad = |text: &str| DecisionList::parse(text).unwrap_err().to_string();
        assert_eq!(
            bad("# nothing\n"),
            "the list holds no decision with a choice to make"
        );
        assert!(bad("\n4HPwATDgc/ABMA\n").starts_with("line 2: a position ID and a roll expected"));
        assert!(bad("4HPwATDgc/ABMA 71").starts_with("line 1: roll \"71\""));
        assert!(bad("4HPwATDgc/AB 31").starts_with("line 1: position ID \"4HPwATDgc/AB\""));
    }
}
