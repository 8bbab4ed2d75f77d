//! `cubeful-cli train …`: training our nets from scratch. See docs/TRAINING.md.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;
use cubeful_engine::eval::class::classify;
use cubeful_engine::eval::nn::NetClass;
use cubeful_engine::eval::{net_class, Nets};
use cubeful_train::adam::AdamParams;
use cubeful_train::backprop::Loss;
use cubeful_train::dataset::{self, Example};
use cubeful_train::depth;
use cubeful_train::duel::{self, DuelConfig};
use cubeful_train::minibatch::{self, MinibatchConfig, Schedule, Selection};
use cubeful_train::players::{PlayerData, PlayerSpec};
use cubeful_train::rollout_labels;
use cubeful_train::sampling;
use cubeful_train::supervised::{self, SupervisedConfig};
use cubeful_train::td::{self, TdConfig};

#[derive(clap::Subcommand)]
pub enum What {
    /// TD(λ) self-play from random weights, checkpointing into DIR (resumes from it if present).
    Td(TdArgs),
    /// Positions from self-play of the nets, labelled with the nets' own 1-ply chances.
    Sample(SampleArgs),
    /// Supervised epochs of the nets towards the targets of data files (online SGD, or Adam in
    /// mini-batches).
    Supervised(SupervisedArgs),
    /// Positions (from self-play, made up, or the files of an earlier set), labelled with
    /// cubeless n-ply chances or rollouts, written in chunks to a folder; resumable (chunks
    /// already written are skipped).
    Label(LabelArgs),
    /// The pruning nets, distilled from the full nets' 0-ply outputs on the positions of label
    /// sets (and positions after plays from them), written beside copies of the full nets.
    Prune(PruneArgs),
    /// The examples of data files that the nets judge worst at 0-ply (cubeless equity at least
    /// `--min-error` from the target's), written to one data file to train on again.
    Hard(HardArgs),
    /// How far the targets of label sets are from a reference set's for the same positions
    /// (files paired by name, examples by index): mean and root mean square of the cubeless
    /// equity difference, target minus reference, by the class of each position (races and pure
    /// bearoffs apart, then together as the race net judges them).
    Compare(CompareArgs),
    /// The depth trial: nets of the given hidden layers (one or more) trained from random
    /// weights on the examples of one class, the held-out figures printed after every epoch, to
    /// compare shapes on equal terms (nothing is saved; docs/TRAINING.md, round adam29).
    Depth(DepthArgs),
}

#[derive(clap::Args)]
pub struct DepthArgs {
    /// Folders of data files (every *.bin in each), as `train label` writes them.
    #[arg(long, value_name = "DIR", required = true)]
    data_dir: Vec<PathBuf>,
    /// The class whose examples train the net.
    #[arg(long, value_enum)]
    class: ClassArg,
    /// The hidden layers' sizes, input side first (`256` or `256,32`), each 1 to 1024.
    #[arg(long, value_delimiter = ',', required = true, value_parser = clap::value_parser!(u32).range(1..=1024))]
    hidden: Vec<u32>,
    /// At most this many of the class's examples, the first in the folders' order (the
    /// held-out share included).
    #[arg(long, value_parser = crate::options::count(1, 100_000_000))]
    max_examples: Option<usize>,
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    epochs: u32,
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    batch: u32,
    /// Initial learning rate, falling along half a cosine wave to a twentieth of it.
    #[arg(long, default_value_t = 0.001, value_parser = rate)]
    alpha: f32,
    #[arg(long, value_enum, default_value_t = LossArg::Mse)]
    loss: LossArg,
    /// Share of the examples held out, picked by a hash of the position.
    #[arg(long, default_value_t = 0.05, value_parser = share)]
    validation: f64,
    /// The hidden units' activation (the engine's nets: sigmoid).
    #[arg(long, value_enum, default_value_t = ActivationArg::Sigmoid)]
    activation: ActivationArg,
    /// Only the class's examples in this part (repeat for the examples in every part named),
    /// from the view of the player on roll: to learn whether nets specialised by the kind of
    /// game fit better than one.
    #[arg(long, value_enum)]
    part: Vec<PartArg>,
    /// Seed of the weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// `--activation` of the depth trial.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum ActivationArg {
    Sigmoid,
    Relu,
    HardSigmoid,
}

/// `--part` of the depth trial.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum PartArg {
    /// The player on roll leads the race.
    Ahead,
    /// The player on roll trails the race or is level.
    Behind,
    /// Two or more of its checkers on the bar or in the opponent's home board.
    Back,
    /// At most one checker there.
    Free,
}

impl From<PartArg> for depth::Part {
    fn from(p: PartArg) -> depth::Part {
        match p {
            PartArg::Ahead => depth::Part::Ahead,
            PartArg::Behind => depth::Part::Behind,
            PartArg::Back => depth::Part::Back,
            PartArg::Free => depth::Part::Free,
        }
    }
}

impl From<ActivationArg> for depth::Activation {
    fn from(a: ActivationArg) -> depth::Activation {
        match a {
            ActivationArg::Sigmoid => depth::Activation::Sigmoid,
            ActivationArg::Relu => depth::Activation::Relu,
            ActivationArg::HardSigmoid => depth::Activation::HardSigmoid,
        }
    }
}

#[derive(clap::Args)]
pub struct CompareArgs {
    /// Folder of the reference set (rollout labels, say).
    #[arg(long, value_name = "DIR")]
    reference: PathBuf,
    /// Folders of the sets to compare with it (the same positions labelled otherwise; files
    /// the reference has and a folder lacks are skipped).
    #[arg(long, value_name = "DIR", required = true)]
    data_dir: Vec<PathBuf>,
    /// Also the races (not pure bearoffs) by the pip lead of the side on roll, in a second
    /// table: close races are where a race net errs most.
    #[arg(long)]
    races_by_lead: bool,
    /// A second, independent rollout of the reference's positions (files paired by name): a
    /// further table gives each set's RMSE with the rollouts' own noise taken out, and that
    /// noise.
    #[arg(long, value_name = "DIR")]
    second_reference: Option<PathBuf>,
}

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("input").required(true).multiple(true).args(["data", "data_dir"])))]
pub struct HardArgs {
    /// Nets that judge the examples (default: the embedded nets).
    #[command(flatten)]
    nets: crate::nets::NetsArg,
    /// Data files.
    #[arg(long)]
    data: Vec<PathBuf>,
    /// Folders of data files (every *.bin in each), as `train label` writes them.
    #[arg(long, value_name = "DIR")]
    data_dir: Vec<PathBuf>,
    /// The least difference of cubeless equity between the nets' 0-ply and the target that
    /// makes an example hard (0 to 3).
    #[arg(long, value_name = "EQUITY", default_value_t = 0.05, value_parser = crate::options::number(0.0, 3.0))]
    min_error: f64,
    /// Output data file.
    #[arg(long)]
    out: PathBuf,
    /// Worker threads, 1 to 256 [default: all cores].
    #[arg(long, value_parser = crate::options::threads())]
    threads: Option<usize>,
}

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("input").required(true).multiple(true).args(["data", "data_dir"])))]
pub struct PruneArgs {
    /// Full nets to distil (default: the embedded nets).
    #[command(flatten)]
    nets: crate::nets::NetsArg,
    /// Data files whose positions are used (their targets are not).
    #[arg(long)]
    data: Vec<PathBuf>,
    /// Folders of data files (every *.bin in each), as `train label` writes them.
    #[arg(long, value_name = "DIR")]
    data_dir: Vec<PathBuf>,
    /// Use at most this many positions of the data (the first ones), 1 to 1000000000.
    #[arg(long, value_parser = crate::options::count(1, 1_000_000_000))]
    positions: Option<usize>,
    /// Positions after plays of one random roll added per data position.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(0..=64))]
    plays: u64,
    /// Hidden units of the contact pruning net.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=128))]
    hidden: u64,
    /// Hidden units of the crashed pruning net.
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u64).range(1..=128))]
    hidden_crashed: u64,
    /// Hidden units of the race pruning net.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=128))]
    hidden_race: u64,
    #[arg(long, default_value_t = 15, value_parser = crate::options::count(1, 10_000))]
    epochs: usize,
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    batch: u64,
    /// Initial learning rate (falls along half a cosine wave to --alpha-end).
    #[arg(long, default_value_t = 0.003, value_parser = rate)]
    alpha: f32,
    #[arg(long, default_value_t = 0.0001, value_parser = rate_or_zero)]
    alpha_end: f32,
    /// Share of the positions held out to pick the epoch and measure agreement (by hash).
    #[arg(long, default_value_t = 0.05, value_parser = share)]
    validation: f64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output folder: the full nets and prune-contact.net, prune-crashed.net, prune-race.net.
    #[arg(long)]
    out: PathBuf,
    /// Worker threads, 1 to 256 [default: all cores].
    #[arg(long, value_parser = crate::options::threads())]
    threads: Option<usize>,
}

#[derive(clap::Args)]
pub struct LabelArgs {
    /// Nets that play the games and compute the targets (default: the embedded nets), and the
    /// bearoff databases the rollouts of `--rollout` stop at.
    #[command(flatten)]
    engine: crate::nets::EngineArgs,
    /// Folder for the chunks (`chunk-00000.bin`, …).
    #[arg(long)]
    dir: PathBuf,
    /// Number of chunks to have in the folder when done.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    chunks: u32,
    /// Positions per chunk.
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    chunk_positions: u32,
    /// Lookahead of the targets (0: the nets' own chances, to measure them against a rollout
    /// set with `train compare`).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=3))]
    plies: u8,
    /// Label with cubeless rollouts of this many games instead, keeping only the positions whose
    /// short probe rollout (`--probe`) is at least `--threshold` from the 0-ply equity
    /// (1 to 1000000).
    #[arg(long, value_name = "GAMES", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    rollout: Option<u32>,
    /// Games of the probe rollout of every position, with `--rollout` (1 to 1000000).
    #[arg(long, value_name = "GAMES", default_value_t = 72, requires = "rollout", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    probe: u32,
    /// With `--rollout`: the least difference of cubeless equity between the probe and 0-ply
    /// that makes a position worth its rollout (0 to 3; 0 keeps every position).
    #[arg(long, value_name = "EQUITY", default_value_t = 0.1, requires = "rollout", value_parser = crate::options::number(0.0, 3.0))]
    threshold: f64,
    /// With `--rollout`: stop every game after this many plies and take the 0-ply chances
    /// there (truncated rollouts; 1 to 10000) [default: play the games out].
    #[arg(long, value_name = "PLIES", requires = "rollout", value_parser = clap::value_parser!(u32).range(1..=10_000))]
    truncate: Option<u32>,
    /// With `--rollout`: variance-reduced games (lookahead variance reduction, as GNU
    /// Backgammon's rollouts): about 16 times a plain game's time for a 150th of its variance.
    #[arg(long, requires = "rollout")]
    vr: bool,
    /// Chunk i uses seed `seed * 1_000_003 + i`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Chance of playing one of the five best moves at random instead of the best (0 to 1).
    #[arg(long, default_value_t = 0.1, value_parser = crate::options::probability)]
    explore: f64,
    /// Where the positions come from: self-play of the nets; the positions after the five best
    /// plays (0-ply) of a random roll in self-play positions (`candidates`: what a choice weighs,
    /// the rejected plays included); races made up with checkers stacked on few points
    /// (`races`); or made-up positions with checkers back in the other side's home board
    /// against a side bearing in or off (`holding-games`). `--explore` and `--class` apply to
    /// self-play and candidates only.
    #[arg(long, value_enum, default_value_t = Source::SelfPlay)]
    source: Source,
    /// With self-play: keep only the positions that this net judges (more games are played to
    /// make up the chunk); with candidates: the positions whose plays are taken.
    #[arg(long, value_enum)]
    class: Option<ClassArg>,
    /// With `--class`: keep only the positions whose gammon is in doubt (the nets' 0-ply
    /// chance of a gammon, for either side, from 2% to 98%): the races where a gammon is saved
    /// or won, which plain self-play holds few of.
    #[arg(long, requires = "class")]
    gammonish: bool,
    /// With `--class race`: keep only the races (pure bearoffs left out) whose pip counts are
    /// at most PIPS apart, where the race net errs most and which plain self-play holds few of.
    #[arg(long, value_name = "PIPS", requires = "class", conflicts_with = "gammonish", value_parser = clap::value_parser!(u32).range(0..=100))]
    close_races: Option<u32>,
    /// With `--class contact` or `crashed`: keep only the positions where a side has at least
    /// N checkers back (on the bar or in the other side's home board: back games and ace-point
    /// games), which plain self-play holds few of (1 to 15).
    #[arg(long, value_name = "N", requires = "class", conflicts_with_all = ["gammonish", "close_races"], value_parser = clap::value_parser!(u8).range(1..=15))]
    back_checkers: Option<u8>,
    /// With self-play or candidates: take the positions of the first N plays of each side of
    /// the games only (distinct ones; the starting position left out), where the early game's
    /// choices are (1 to 100).
    #[arg(long, value_name = "N", conflicts_with = "class", value_parser = clap::value_parser!(u32).range(1..=100))]
    first_plays: Option<u32>,
    /// Label again the positions of the data files of this folder instead of making new ones:
    /// each file (in name order, at most `--chunks` of them) becomes the file of the same name
    /// in `--dir`.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["source", "explore", "chunk_positions", "class", "gammonish", "close_races", "back_checkers", "first_plays"])]
    from: Option<PathBuf>,
    /// With `--from`: mix each new target with the position's old one, this share of the old
    /// (0 to 1; 0.5 with `--plies 1` on 2-ply labels cancels the nets' lean against the player
    /// on roll, docs/TRAINING.md round adam18).
    #[arg(long, value_name = "SHARE", requires = "from", conflicts_with = "rollout", value_parser = crate::options::probability)]
    blend: Option<f64>,
    /// Choose the plays inside the n-ply search among those the pruning nets keep (faster; the
    /// nets' folder must hold prune-*.net).
    #[arg(long, conflicts_with = "rollout")]
    prune: bool,
    /// With `--plies`: the search judges pure bearoffs by the bearoff databases (of
    /// `--bearoff-dir`), at the root and at its leaves, as the program plays, instead of by the
    /// race net (rollout labels use them always, unless `--no-bearoff`).
    #[arg(long, conflicts_with_all = ["rollout", "no_bearoff"])]
    bearoff_leaves: bool,
    /// Worker threads, 1 to 256 [default: all cores].
    #[arg(long, value_parser = crate::options::threads())]
    threads: Option<usize>,
}

/// How many of a roll's best plays `train label --source candidates` takes.
const CANDIDATES_PER_ROLL: usize = 5;

/// A net class, for `train label --class` and `train supervised --classes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum ClassArg {
    Contact,
    Crashed,
    Race,
}

impl From<ClassArg> for NetClass {
    fn from(class: ClassArg) -> NetClass {
        match class {
            ClassArg::Contact => NetClass::Contact,
            ClassArg::Crashed => NetClass::Crashed,
            ClassArg::Race => NetClass::Race,
        }
    }
}

/// The positions `train label` labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Source {
    SelfPlay,
    Candidates,
    Races,
    HoldingGames,
}

#[derive(clap::Args)]
pub struct SampleArgs {
    /// Nets that play the games and compute the targets (default: the embedded nets).
    #[command(flatten)]
    nets: crate::nets::NetsArg,
    /// Number of positions, 1 to 10000000.
    #[arg(long, default_value_t = 200_000, value_parser = crate::options::count(1, 10_000_000))]
    positions: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Chance of playing one of the five best moves at random instead of the best (0 to 1).
    #[arg(long, default_value_t = 0.1, value_parser = crate::options::probability)]
    explore: f64,
    /// Output data file.
    #[arg(long)]
    out: PathBuf,
    /// Worker threads, 1 to 256 [default: all cores].
    #[arg(long, value_parser = crate::options::threads())]
    threads: Option<usize>,
}

/// The optimiser of `train supervised`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Optimizer {
    /// Online gradient descent, one example at a time (stage 2 of docs/TRAINING.md).
    Sgd,
    /// Adam in mini-batches (stage 3 of docs/TRAINING.md).
    Adam,
}

/// The loss of `train supervised --optimizer adam`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LossArg {
    /// Cross-entropy of each of the five sigmoid outputs.
    Ce,
    /// Squared error of the five outputs.
    Mse,
    /// Squared error of the five outputs and of the equity they make (a quarter of its square).
    MseEquity,
}

impl From<LossArg> for Loss {
    fn from(loss: LossArg) -> Loss {
        match loss {
            LossArg::Ce => Loss::CrossEntropy,
            LossArg::Mse => Loss::SquaredError,
            LossArg::MseEquity => Loss::SquaredErrorEquity,
        }
    }
}

/// The learning-rate schedule of `train supervised --optimizer adam`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ScheduleArg {
    /// Multiplied by --alpha-decay after every epoch.
    Exp,
    /// Half a cosine wave from --alpha down to --alpha-end over the whole run.
    Cosine,
}

/// What picks the epoch whose nets are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SelectArg {
    /// Mean loss on the held-out examples.
    Loss,
    /// Cubeless equity RMSE on the held-out examples.
    Equity,
    /// The decision benchmark at 0-ply (`bench decisions`, its default set).
    Decisions,
}

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("input").required(true).multiple(true).args(["data", "data_dir"])))]
pub struct SupervisedArgs {
    /// Starting nets (default: the embedded nets).
    #[command(flatten)]
    nets: crate::nets::NetsArg,
    /// Data files written by `train sample` or `train label`.
    #[arg(long, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Folders of data files: every *.bin file in each, in name order (repeatable).
    #[arg(long, value_name = "DIR")]
    data_dir: Vec<PathBuf>,
    /// Folder for the trained nets.
    #[arg(long)]
    out: PathBuf,
    /// Widen the starting contact and crashed nets to this many hidden units before training
    /// (the new units start with zero output weights, so the nets start as they were; the race
    /// net keeps its width). A multiple of 64 keeps the fast evaluation path.
    #[arg(long, value_parser = clap::value_parser!(u32).range(8..=1024))]
    hidden: Option<u32>,
    /// Widen the starting race net to this many hidden units before training, as --hidden does
    /// the others.
    #[arg(long, value_parser = clap::value_parser!(u32).range(8..=1024))]
    hidden_race: Option<u32>,
    /// Widen the starting crashed net to this many hidden units before training (instead of
    /// --hidden's width; crashed positions are few in a search, so a wider crashed net costs
    /// little time).
    #[arg(long, value_parser = clap::value_parser!(u32).range(8..=1024))]
    hidden_crashed: Option<u32>,
    /// Give the starting contact net a second hidden layer of this many units before training
    /// (after any widening): its first layer is kept, the second layer and the outputs start
    /// from small random weights, so the net must be trained afresh above its first layer. A
    /// net with a narrower second layer has it widened to this many units instead, computing
    /// the same function (new units with zero weights into the outputs); one with a wider
    /// second layer is an error. A multiple of 64 keeps the fast evaluation path.
    #[arg(long, value_parser = clap::value_parser!(u32).range(8..=1024))]
    second_layer: Option<u32>,
    /// As --second-layer, for the crashed net.
    #[arg(long, value_parser = clap::value_parser!(u32).range(8..=1024))]
    second_layer_crashed: Option<u32>,
    /// Train only these nets (comma-separated): the examples of the other classes are left
    /// out, and their nets are written as they start (not widened). For a round's crashed and
    /// race nets when its contact net is done.
    #[arg(long, value_enum, value_delimiter = ',')]
    classes: Vec<ClassArg>,
    #[arg(long, value_enum, default_value_t = Optimizer::Sgd)]
    optimizer: Optimizer,
    /// Loss (adam only; sgd descends the cross-entropy gradient).
    #[arg(long, value_enum, default_value_t = LossArg::Ce)]
    loss: LossArg,
    /// The race net's loss, when it is not --loss's (adam).
    #[arg(long, value_enum)]
    race_loss: Option<LossArg>,
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    epochs: u32,
    /// Examples per mini-batch (adam).
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    batch: u32,
    /// Initial learning rate [default: 0.005 for sgd, 0.003 for adam].
    #[arg(long, value_parser = rate)]
    alpha: Option<f32>,
    /// The learning rate is multiplied by this after every epoch (sgd; adam with --schedule exp).
    #[arg(long, default_value_t = 0.7, value_parser = rate)]
    alpha_decay: f32,
    /// Learning-rate schedule (adam).
    #[arg(long, value_enum, default_value_t = ScheduleArg::Exp)]
    schedule: ScheduleArg,
    /// Final learning rate of --schedule cosine [default: --alpha / 20].
    #[arg(long, value_parser = rate_or_zero)]
    alpha_end: Option<f32>,
    /// Share of the examples held out [default: 0.02 for sgd, picked at random; 0.05 for adam,
    /// picked by a hash of the position].
    #[arg(long, value_parser = share)]
    validation: Option<f64>,
    /// What picks the epoch whose nets are kept (adam; sgd uses equity).
    #[arg(long, value_enum, default_value_t = SelectArg::Loss)]
    select: SelectArg,
    /// Weight averaging (adam): measure, select and write each net's weights averaged over its
    /// last batches, an exponential moving average moving 1 − DECAY of the way after each batch
    /// (0.9999: about the last 10,000 batches).
    #[arg(long, value_name = "DECAY", value_parser = decay)]
    average: Option<f32>,
    /// Folder of the cached decision benchmark set (--select decisions).
    #[arg(long, value_name = "DIR", default_value = crate::bench_decisions::DEFAULT_CACHE)]
    bench_cache: PathBuf,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (adam; the result does not depend on them) [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Option<u32>,
}

/// A learning rate or decay: a number in (0, 1].
fn rate(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(v) if v > 0.0 && v <= 1.0 => Ok(v),
        _ => Err("expected a number greater than 0 and at most 1".into()),
    }
}

/// The decay of a moving average: a number in [0, 1).
fn decay(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(v) if (0.0..1.0).contains(&v) => Ok(v),
        _ => Err("expected a number from 0 up to (not including) 1".into()),
    }
}

/// A learning rate that may be zero: a number in [0, 1].
fn rate_or_zero(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err("expected a number from 0 to 1".into()),
    }
}

/// A share of the examples: a number in [0, 0.5].
fn share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=0.5).contains(&v) => Ok(v),
        _ => Err("expected a number from 0 to 0.5".into()),
    }
}

/// The most games of a TD run (and the longest half-life and checkpoint interval).
const MAX_TD_GAMES: u64 = 1_000_000_000;

#[derive(clap::Args)]
pub struct TdArgs {
    /// Checkpoint folder: nets and state.ron are written here and resumed from.
    #[arg(long)]
    dir: PathBuf,
    /// Total games, 1 to 1000000000 (a resumed run is extended to this many).
    #[arg(long, default_value_t = 300_000, value_parser = clap::value_parser!(u64).range(1..=MAX_TD_GAMES))]
    games: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Initial learning rate (more than 0, at most 1).
    #[arg(long, default_value_t = 0.02, value_parser = rate)]
    alpha: f32,
    /// Games after which the learning rate halves.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..=MAX_TD_GAMES))]
    alpha_half_life: u64,
    /// Lowest learning rate (0 to 1).
    #[arg(long, default_value_t = 0.002, value_parser = rate_or_zero)]
    alpha_end: f32,
    /// λ of the targets (0 to 1).
    #[arg(long, default_value_t = 0.7, value_parser = crate::options::number_f32(0.0, 1.0))]
    lambda: f32,
    /// Hidden units of the contact and crashed nets (1 to 1024).
    #[arg(long, default_value_t = 128, value_parser = crate::options::count(1, 1024))]
    hidden: usize,
    /// Hidden units of the race net (1 to 1024).
    #[arg(long, default_value_t = 64, value_parser = crate::options::count(1, 1024))]
    hidden_race: usize,
    /// Games per batch, played with frozen nets (1 to 4096).
    #[arg(long, default_value_t = 16, value_parser = crate::options::count(1, 4096))]
    batch: usize,
    /// Games between checkpoints (1 to 1000000000).
    #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..=MAX_TD_GAMES))]
    checkpoint_every: u64,
    /// Worker threads, 1 to 256 [default: all cores].
    #[arg(long, value_parser = crate::options::threads())]
    threads: Option<usize>,
    /// At each checkpoint, play this many games against PubEval and print the result (0: never;
    /// at most 1000000).
    #[arg(long, default_value_t = 1000, value_parser = crate::options::count(0, 1_000_000))]
    bench_games: usize,
    /// PubEval weights for the checkpoint benchmark.
    #[arg(long, default_value = cubeful_train::players::DEFAULT_PUBEVAL_DIR)]
    pubeval: PathBuf,
}

pub fn run(what: &What) -> Result<()> {
    match what {
        What::Td(args) => run_td(args),
        What::Sample(args) => run_sample(args),
        What::Supervised(args) => run_supervised(args),
        What::Label(args) => run_label(args),
        What::Prune(args) => run_prune(args),
        What::Hard(args) => run_hard(args),
        What::Compare(args) => run_compare(args),
        What::Depth(args) => run_depth(args),
    }
}

fn run_depth(args: &DepthArgs) -> Result<()> {
    let class = NetClass::from(args.class);
    let mut examples = load_examples(&[], &args.data_dir, "depth")?;
    let parts: Vec<depth::Part> = args.part.iter().map(|&p| p.into()).collect();
    examples.retain(|e| {
        net_class(classify(&e.position)) == Some(class)
            && parts.iter().all(|p| p.contains(&e.position))
    });
    examples.truncate(args.max_examples.unwrap_or(usize::MAX));
    let (train, held_out) = minibatch::split_validation(&examples, args.validation);
    if train.is_empty() || held_out.is_empty() {
        anyhow::bail!(
            "depth: {} {} examples are too few to train on and hold some out",
            examples.len(),
            class.name()
        );
    }
    let config = depth::DepthConfig {
        hidden: args.hidden.iter().map(|&n| n as usize).collect(),
        epochs: args.epochs as usize,
        batch: args.batch as usize,
        alpha: args.alpha,
        schedule: Schedule::Cosine {
            end: args.alpha / 20.0,
        },
        loss: args.loss.into(),
        activation: args.activation.into(),
        seed: args.seed,
    };
    eprintln!(
        "depth: {} net{}, hidden layers {:?} of {:?} units, {} training and {} held-out examples",
        class.name(),
        if parts.is_empty() {
            String::new()
        } else {
            format!(" of the part {parts:?}")
        },
        config.hidden,
        config.activation,
        train.len(),
        held_out.len()
    );
    depth::train(class, &train, &held_out, &config, |e| {
        let train_loss = e
            .train_loss
            .map_or_else(|| "-".to_string(), |l| format!("{l:.5}"));
        println!(
            "epoch {}/{}, alpha {:.6}, train loss {train_loss}, held-out loss {:.5}, equity RMSE {:.5} ({:.0} s)",
            e.epoch, config.epochs, e.alpha, e.held_out_loss, e.equity_rmse, e.seconds
        );
    });
    Ok(())
}

fn run_compare(args: &CompareArgs) -> Result<()> {
    use cubeful_train::compare::{self, Gap, RaceLead};
    println!(
        "target minus reference ({}), cubeless equity: examples, mean, RMSE",
        args.reference.display()
    );
    let cell = |g: &Gap| format!("{:>8} {:+.4} {:.4}", g.count, g.mean(), g.rmse());
    println!(
        "{:<40} {:>5} {:>22} {:>22} {:>22} {:>22} {:>22} {:>22}",
        "set", "files", "contact", "crashed", "race", "bearoff", "race net", "all"
    );
    let mut comparisons = Vec::with_capacity(args.data_dir.len());
    for dir in &args.data_dir {
        let c = compare::compare_dirs(dir, &args.reference, args.second_reference.as_deref())?;
        println!(
            "{:<40} {:>5} {:>22} {:>22} {:>22} {:>22} {:>22} {:>22}",
            dir.display(),
            c.files,
            cell(&c.contact),
            cell(&c.crashed),
            cell(&c.race()),
            cell(&c.bearoff),
            cell(&c.race_net()),
            cell(&c.all())
        );
        comparisons.push(c);
    }
    if args.races_by_lead {
        println!("races by the pip lead of the side on roll (opponent's pips minus its own)");
        print!("{:<40}", "set");
        for lead in RaceLead::ALL {
            print!(" {:>22}", lead.label());
        }
        println!();
        for (dir, c) in args.data_dir.iter().zip(&comparisons) {
            print!("{:<40}", dir.display());
            for lead in RaceLead::ALL {
                print!(" {:>22}", cell(&c.race_with_lead(lead)));
            }
            println!();
        }
    }
    if let Some(second) = &args.second_reference {
        println!(
            "beyond the rollouts' noise (with {}): examples rolled out twice, RMSE beyond the \
             noise, one rollout's noise",
            second.display()
        );
        let crossed = |g: &Gap| match (g.rmse_beyond_noise(), g.reference_noise()) {
            (Some(beyond), Some(noise)) => format!("{:>8} {:.4} {:.4}", g.crossed, beyond, noise),
            _ => format!("{:>8} {:>6} {:>6}", 0, "-", "-"),
        };
        println!(
            "{:<40} {:>22} {:>22} {:>22} {:>22} {:>22} {:>22}",
            "set", "contact", "crashed", "race", "bearoff", "race net", "all"
        );
        for (dir, c) in args.data_dir.iter().zip(&comparisons) {
            println!(
                "{:<40} {:>22} {:>22} {:>22} {:>22} {:>22} {:>22}",
                dir.display(),
                crossed(&c.contact),
                crossed(&c.crashed),
                crossed(&c.race()),
                crossed(&c.bearoff),
                crossed(&c.race_net()),
                crossed(&c.all())
            );
        }
    }
    Ok(())
}

fn run_hard(args: &HardArgs) -> Result<()> {
    let nets = args.nets.load()?;
    let examples = load_examples(&args.data, &args.data_dir, "hard")?;
    let start = Instant::now();
    let hard = supervised::hard_examples(
        &nets,
        &examples,
        args.min_error as f32,
        threads_or_all(args.threads),
    );
    let mut by_class = [0usize; 3];
    for e in &hard {
        match example_class(e) {
            Some(NetClass::Contact) => by_class[0] += 1,
            Some(NetClass::Crashed) => by_class[1] += 1,
            Some(NetClass::Race) => by_class[2] += 1,
            None => {}
        }
    }
    dataset::save(&args.out, &hard)?;
    eprintln!(
        "hard: {} of {} examples at least {} from their targets (contact {}, crashed {}, race {}) \
         in {}; wrote {}",
        hard.len(),
        examples.len(),
        args.min_error,
        by_class[0],
        by_class[1],
        by_class[2],
        hms(start.elapsed().as_secs_f64()),
        args.out.display()
    );
    Ok(())
}

fn run_prune(args: &PruneArgs) -> Result<()> {
    use cubeful_train::prune::{self, DistillConfig, DistillReport};
    if args.alpha_end > args.alpha {
        anyhow::bail!(
            "--alpha-end {} is above --alpha {}",
            args.alpha_end,
            args.alpha
        );
    }
    let threads = threads_or_all(args.threads);
    let nets = args.nets.load()?;
    let mut positions: Vec<_> = load_examples(&args.data, &args.data_dir, "prune")?
        .into_iter()
        .map(|e| e.position)
        .collect();
    if let Some(n) = args.positions {
        positions.truncate(n);
    }
    if positions.is_empty() {
        anyhow::bail!("no positions in the data given");
    }
    // Held out by position, before any play is added, so that a held-out position's
    // successors are held out too.
    let tagged: Vec<Example> = positions
        .iter()
        .map(|&position| Example {
            position,
            target: Default::default(),
        })
        .collect();
    let (train_positions, held_out) = minibatch::split_validation(&tagged, args.validation);
    let train_positions: Vec<_> = train_positions.iter().map(|e| e.position).collect();
    let held_out: Vec<_> = held_out.iter().map(|e| e.position).collect();
    let start = Instant::now();
    let plays = args.plays as usize;
    let train = prune::distill_examples(&nets, &train_positions, plays, args.seed, threads);
    let validation = prune::distill_examples(&nets, &held_out, plays, args.seed, threads);
    eprintln!(
        "prune: {} training and {} held-out examples with the full nets' 0-ply targets in {}",
        train.len(),
        validation.len(),
        hms(start.elapsed().as_secs_f64())
    );
    let config = DistillConfig {
        hidden: [
            args.hidden as usize,
            args.hidden_crashed as usize,
            args.hidden_race as usize,
        ],
        epochs: args.epochs,
        batch: args.batch as usize,
        alpha: args.alpha,
        alpha_end: args.alpha_end,
        seed: args.seed,
    };
    let report = |r: &DistillReport| {
        eprintln!(
            "prune: {:<7} epoch {:>2}: train loss {} held-out loss {:.5} ({} / {} examples){} {}",
            r.class.name(),
            r.epoch,
            r.train_loss
                .map_or_else(|| "-".to_string(), |l| format!("{l:.5}")),
            r.validation_loss,
            r.examples.0,
            r.examples.1,
            if r.best { " *" } else { "" },
            hms(r.seconds)
        );
    };
    let pruning = prune::train(&train, &validation, &config, &report);
    let mut out = (*nets).clone();
    out.prune = Some(pruning);
    out.save_dir(&args.out)?;
    eprintln!("prune: wrote {}", args.out.display());
    let agreement = prune::agreement(
        &Arc::new(out),
        &held_out,
        &[2, 3, 4, 5, 6, 8, 10],
        args.seed ^ 0xA5A5,
        threads,
    );
    println!("agreement on held-out positions, one random roll each (full nets' best play kept; equity lost per decision, 0-ply):");
    println!("class    keep  decisions  pruned  kept best   loss (mppd)");
    for (class, rows) in ["contact", "crashed", "race"].iter().zip(&agreement.rows) {
        for r in rows {
            let keep = r.keep.map_or_else(|| "rule".to_string(), |k| k.to_string());
            println!(
                "{class:<8} {keep:>4} {:>10} {:>7} {:>9.2}% {:>12.3}",
                r.decisions,
                r.pruned,
                100.0 * r.kept_best as f64 / r.decisions.max(1) as f64,
                r.mean_loss_millipoints
            );
        }
    }
    Ok(())
}

/// The examples of data files and of folders of them, in that order; each folder's count is
/// reported on standard error after `command: `.
/// The net that judges an example's position (`None` for a finished game).
fn example_class(e: &Example) -> Option<NetClass> {
    cubeful_engine::eval::net_class(cubeful_engine::eval::class::classify(&e.position))
}

fn load_examples(files: &[PathBuf], dirs: &[PathBuf], command: &str) -> Result<Vec<Example>> {
    let mut examples = Vec::new();
    for path in files {
        examples.extend(dataset::load(path)?);
    }
    for dir in dirs {
        let (loaded, count) = dataset::load_dir(dir)?;
        eprintln!(
            "{command}: {} examples from {count} files in {}",
            loaded.len(),
            dir.display()
        );
        examples.extend(loaded);
    }
    Ok(examples)
}

fn threads_or_all(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(crate::options::all_cores)
}

fn run_sample(args: &SampleArgs) -> Result<()> {
    let threads = threads_or_all(args.threads);
    let nets = args.nets.load()?;
    let start = Instant::now();
    let positions =
        sampling::SelfPlay::new(&nets, args.explore, threads).positions(args.positions, args.seed);
    eprintln!(
        "sample: {} positions from self-play in {}; computing 1-ply targets…",
        positions.len(),
        hms(start.elapsed().as_secs_f64())
    );
    let t = Instant::now();
    let examples = supervised::one_ply_targets(&nets, &positions, threads);
    eprintln!(
        "sample: {} targets in {} ({:.0} positions/s)",
        examples.len(),
        hms(t.elapsed().as_secs_f64()),
        examples.len() as f64 / t.elapsed().as_secs_f64().max(1e-9)
    );
    dataset::save(&args.out, &examples)?;
    eprintln!("sample: wrote {}", args.out.display());
    Ok(())
}

fn run_label(args: &LabelArgs) -> Result<()> {
    let threads = threads_or_all(args.threads);
    let nets = args.engine.nets.load()?;
    if !args.dir.is_dir() {
        anyhow::bail!("--dir {} is not a folder", args.dir.display());
    }
    if (args.class.is_some() || args.first_plays.is_some())
        && !matches!(args.source, Source::SelfPlay | Source::Candidates)
    {
        anyhow::bail!(
            "--class and --first-plays pick among self-play positions (--source self-play or candidates) only"
        );
    }
    if args.close_races.is_some() && !matches!(args.class, Some(ClassArg::Race)) {
        anyhow::bail!("--close-races keeps races only: give it --class race");
    }
    if args.back_checkers.is_some() && matches!(args.class, Some(ClassArg::Race)) {
        anyhow::bail!(
            "--back-checkers keeps positions with contact: give it --class contact or crashed"
        );
    }
    let bases = match (args.class, args.first_plays) {
        (Some(class), _) => match (args.close_races, args.back_checkers) {
            (Some(pips), _) => sampling::Bases::CloseRaces(pips),
            (None, Some(checkers)) => sampling::Bases::BackGames {
                class: class.into(),
                checkers,
            },
            (None, None) if args.gammonish => sampling::Bases::Gammonish(class.into()),
            (None, None) => sampling::Bases::Class(class.into()),
        },
        (None, Some(plies)) => sampling::Bases::FirstPlays(plies as usize),
        (None, None) => sampling::Bases::All,
    };
    if args.prune && nets.prune.is_none() {
        anyhow::bail!("--prune: the nets have no pruning nets (prune-*.net)");
    }
    // Rollouts stop at the databases; n-ply searches use them when asked.
    let bearoff = if args.rollout.is_some() || args.bearoff_leaves {
        args.engine.bearoff()?
    } else {
        None
    };
    // The chunks to write: their names, and where their positions come from.
    let sources: Vec<(String, Option<PathBuf>)> = match &args.from {
        Some(from) => dataset::files_in(from)?
            .into_iter()
            .take(args.chunks as usize)
            .map(|file| {
                let name = file.file_name().expect("a data file has a name");
                (name.to_string_lossy().into_owned(), Some(file))
            })
            .collect(),
        None => (0..args.chunks)
            .map(|chunk| (format!("chunk-{chunk:05}.bin"), None))
            .collect(),
    };
    for (chunk, (name, from)) in sources.into_iter().enumerate() {
        let path = args.dir.join(&name);
        if path.exists() {
            continue;
        }
        let start = Instant::now();
        let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(chunk as u64);
        let count = args.chunk_positions as usize;
        let old = from.as_deref().map(dataset::load).transpose()?;
        let positions = match (&old, args.source) {
            (Some(old), _) => old.iter().map(|example| example.position).collect(),
            (None, Source::SelfPlay) => {
                sampling::SelfPlay::new(&nets, args.explore, threads).bases(count, seed, bases)
            }
            (None, Source::Candidates) => sampling::SelfPlay::new(&nets, args.explore, threads)
                .candidates(count, seed, bases, CANDIDATES_PER_ROLL),
            (None, Source::Races) => sampling::random_races(count, seed),
            (None, Source::HoldingGames) => sampling::random_holding_games(count, seed),
        };
        let (examples, how) = match args.rollout {
            None => {
                let mut examples = supervised::deep_targets(
                    &nets,
                    &positions,
                    args.plies,
                    args.prune,
                    bearoff.as_ref(),
                    threads,
                );
                let mut how = format!(
                    "at {}-ply{}{}",
                    args.plies,
                    if args.prune { ", pruned" } else { "" },
                    if bearoff.is_some() {
                        ", bearoff databases"
                    } else {
                        ""
                    }
                );
                if let (Some(share), Some(old)) = (args.blend, &old) {
                    examples = dataset::blend(old, &examples, share as f32);
                    how = format!("{how}, blended with {share} of the old targets");
                }
                (examples, how)
            }
            Some(trials) => {
                let config = rollout_labels::RolloutLabelConfig {
                    probe_trials: args.probe,
                    trials,
                    threshold: args.threshold as f32,
                    seed,
                    truncate: args.truncate,
                    variance_reduction: args.vr,
                };
                let labels = rollout_labels::rollout_targets(
                    &nets,
                    bearoff.clone(),
                    &positions,
                    &config,
                    threads,
                );
                let kept = labels.examples.len();
                let how = format!(
                    "rolled out, of {} probed; mean gap to 0-ply {:.3}",
                    labels.probed,
                    labels.total_gap / kept.max(1) as f64
                );
                (labels.examples, how)
            }
        };
        dataset::save(&path, &examples)?;
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "label: {} ({} positions {how}) in {:.0} s, {:.1} positions/s",
            path.display(),
            examples.len(),
            secs,
            examples.len() as f64 / secs
        );
    }
    Ok(())
}

fn run_supervised(args: &SupervisedArgs) -> Result<()> {
    if args.optimizer == Optimizer::Sgd {
        if args.loss != LossArg::Ce || args.race_loss.is_some_and(|l| l != LossArg::Ce) {
            anyhow::bail!("--optimizer sgd descends the cross-entropy gradient only (--loss ce)");
        }
        if args.select != SelectArg::Equity && args.select != SelectArg::Loss {
            anyhow::bail!("--optimizer sgd picks its epoch by the held-out equity error only");
        }
        if args.average.is_some() {
            anyhow::bail!("--average works with --optimizer adam only");
        }
    }
    if let (Optimizer::Adam, Some(end)) = (args.optimizer, args.alpha_end) {
        let alpha = args.alpha.unwrap_or(ADAM_ALPHA);
        if end > alpha {
            anyhow::bail!("--alpha-end {end} is above --alpha {alpha}");
        }
    }
    let mut nets = (*args.nets.load()?).clone();
    let trained: Vec<NetClass> = if args.classes.is_empty() {
        NetClass::ALL.to_vec()
    } else {
        args.classes.iter().map(|&c| c.into()).collect()
    };
    let width = |class: NetClass, h: Option<u32>| {
        h.filter(|_| trained.contains(&class)).map(|h| h as usize)
    };
    widen(
        &mut nets,
        [
            width(NetClass::Contact, args.hidden),
            width(NetClass::Crashed, args.hidden_crashed.or(args.hidden)),
            width(NetClass::Race, args.hidden_race),
        ],
        args.seed,
    )?;
    deepen(
        &mut nets,
        [
            width(NetClass::Contact, args.second_layer),
            width(NetClass::Crashed, args.second_layer_crashed),
        ],
        args.seed,
    )?;
    let mut examples = load_examples(&args.data, &args.data_dir, "supervised")?;
    if trained.len() < NetClass::ALL.len() {
        let before = examples.len();
        examples.retain(|e| example_class(e).is_some_and(|c| trained.contains(&c)));
        let names: Vec<&str> = trained.iter().map(|c| c.name()).collect();
        eprintln!(
            "supervised: only the {} nets: {} of {before} examples kept",
            names.join(" and "),
            examples.len()
        );
    }
    eprintln!("supervised: {} examples", examples.len());
    if examples.is_empty() {
        anyhow::bail!("no training examples in the data given");
    }
    match args.optimizer {
        Optimizer::Sgd => run_sgd(args, nets, &examples),
        Optimizer::Adam => run_adam(args, nets, &examples),
    }
}

/// Widens the contact, crashed and race nets to `hidden` units each (see `Net::widened`;
/// `None`: as they are), reproducibly from `seed`.
fn widen(nets: &mut Nets, hidden: [Option<usize>; 3], seed: u64) -> Result<()> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ 0x5769_6465);
    let [contact, crashed, race] = hidden;
    let widths = [
        (&mut nets.contact, contact),
        (&mut nets.crashed, crashed),
        (&mut nets.race, race),
    ];
    for (net, hidden) in widths {
        let Some(hidden) = hidden else {
            continue;
        };
        let from = net.hidden();
        if hidden == from {
            continue;
        }
        *net = net
            .widened(hidden, 0.1, || rng.gen::<f32>())
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "cannot widen the {} net to {hidden} hidden units: it has {from}",
                    net.class().name()
                )
            })?;
        eprintln!(
            "supervised: {} net widened from {from} to {hidden} hidden units",
            net.class().name()
        );
    }
    // The pruning nets were distilled from the narrower nets; they stay as they are.
    Ok(())
}

/// Gives the contact and crashed nets a second hidden layer of the given units (see
/// `Net::deepened`), or widens the one they have to that many (`Net::widened_second`, which
/// keeps what the net computes); `None`, or a layer of that many units already: as they are.
/// Reproducible from `seed`.
fn deepen(nets: &mut Nets, second: [Option<usize>; 2], seed: u64) -> Result<()> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ 0x4465_6570);
    let [contact, crashed] = second;
    for (net, second) in [(&mut nets.contact, contact), (&mut nets.crashed, crashed)] {
        let Some(second) = second else {
            continue;
        };
        let (name, from) = (net.class().name(), net.second());
        if from == 0 {
            let deep = net
                .deepened(second, 0.1, || rng.gen::<f32>())
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "cannot give the {name} net a second hidden layer of {second} units"
                    )
                })?;
            eprintln!("supervised: {name} net given a second hidden layer of {second} units under new outputs");
            *net = deep;
        } else if second > from {
            *net = net
                .widened_second(second, 0.1, || rng.gen::<f32>())
                .ok_or_else(|| {
                    anyhow::anyhow!("cannot widen the {name} net's second layer to {second} units")
                })?;
            eprintln!("supervised: {name} net's second hidden layer widened from {from} to {second} units");
        } else if second < from {
            anyhow::bail!(
                "the {name} net's second hidden layer has {from} units, more than {second}"
            );
        }
    }
    Ok(())
}

fn run_sgd(args: &SupervisedArgs, nets: Nets, examples: &[Example]) -> Result<()> {
    let config = SupervisedConfig {
        epochs: args.epochs as usize,
        alpha: args.alpha.unwrap_or(0.005),
        alpha_decay: args.alpha_decay,
        validation: args.validation.unwrap_or(0.02),
        seed: args.seed,
    };
    let start = Instant::now();
    let best = supervised::train(nets, examples, &config, |r| {
        eprintln!(
            "supervised: epoch {}/{}, alpha {:.5}, train loss {:.5}, held-out equity RMSE {:.5}{} ({})",
            r.epoch,
            config.epochs,
            r.alpha,
            r.train_loss,
            r.validation_equity_rmse,
            if r.best { " (best)" } else { "" },
            hms(start.elapsed().as_secs_f64())
        );
    });
    best.save_dir(&args.out)?;
    eprintln!("supervised: best nets written to {}", args.out.display());
    Ok(())
}

/// Default initial learning rate of Adam.
const ADAM_ALPHA: f32 = 0.003;

fn run_adam(args: &SupervisedArgs, nets: Nets, examples: &[Example]) -> Result<()> {
    let threads = threads_or_all(args.threads.map(|t| t as usize));
    let alpha = args.alpha.unwrap_or(ADAM_ALPHA);
    let schedule = match args.schedule {
        ScheduleArg::Exp => Schedule::Exponential {
            decay: args.alpha_decay,
        },
        ScheduleArg::Cosine => Schedule::Cosine {
            end: args.alpha_end.unwrap_or(alpha / 20.0),
        },
    };
    let config = MinibatchConfig {
        epochs: args.epochs as usize,
        batch: args.batch as usize,
        alpha,
        schedule,
        loss: args.loss.into(),
        race_loss: args.race_loss.map(Loss::from),
        adam: AdamParams::default(),
        seed: args.seed,
        threads,
        average: args.average,
    };
    let (train, validation) =
        minibatch::split_validation(examples, args.validation.unwrap_or(0.05));
    if train.is_empty() {
        anyhow::bail!("every example is held out: lower --validation");
    }
    eprintln!(
        "supervised: adam, {} training and {} held-out examples, batches of {}, {} threads",
        train.len(),
        validation.len(),
        config.batch,
        threads
    );
    let set;
    let select = match args.select {
        SelectArg::Loss => Selection::Loss,
        SelectArg::Equity => Selection::EquityRmse,
        SelectArg::Decisions => {
            set = crate::bench_decisions::default_set(&args.bench_cache, threads)?;
            Selection::Decisions(&set)
        }
    };
    let mut save_error = None;
    let (best, epoch) = minibatch::train(nets, &train, &validation, &config, select, |r, nets| {
        if r.epoch == 0 {
            let [contact, crashed, race] = r.class_counts;
            eprintln!(
                "supervised: training examples: {contact} contact, {crashed} crashed, {race} race"
            );
        }
        let [lc, lx, lr] = r.validation_loss_by_class;
        eprintln!(
            "supervised: epoch {}/{}, alpha {:.6}, train loss {}, held-out loss {:.5} ({lc:.5} contact, {lx:.5} crashed, {lr:.5} race), equity RMSE {:.5}{}{} ({})",
            r.epoch,
            config.epochs,
            r.alpha,
            r.train_loss.map_or("-".to_string(), |l| format!("{l:.5}")),
            r.validation_loss,
            r.validation_equity_rmse,
            r.decisions_millipoints
                .map_or(String::new(), |d| format!(", decisions {d:.2} mppd")),
            if r.best { " (best)" } else { "" },
            hms(r.seconds)
        );
        // Each best epoch is written at once, so that a long run can be stopped at any time.
        if r.best && r.epoch > 0 && save_error.is_none() {
            save_error = nets.save_dir(&args.out).err();
        }
    });
    if let Some(e) = save_error {
        return Err(
            anyhow::Error::new(e).context(format!("cannot write nets to {}", args.out.display()))
        );
    }
    best.save_dir(&args.out)?;
    eprintln!(
        "supervised: nets of epoch {epoch} written to {}",
        args.out.display()
    );
    Ok(())
}

fn run_td(args: &TdArgs) -> Result<()> {
    let threads = threads_or_all(args.threads);
    let config = TdConfig {
        games: args.games,
        seed: args.seed,
        alpha_start: args.alpha,
        alpha_half_life: args.alpha_half_life,
        alpha_end: args.alpha_end,
        lambda: args.lambda,
        hidden_contact: args.hidden,
        hidden_race: args.hidden_race,
        init_scale: 0.1,
        batch: args.batch,
        checkpoint_every: args.checkpoint_every,
    };
    let pubeval = if args.bench_games > 0 {
        Some(
            PlayerSpec::PubEval {
                dir: args.pubeval.clone(),
            }
            .load()?,
        )
    } else {
        None
    };
    let started = Instant::now();
    let mut last_line = Instant::now();
    let state = td::train(&args.dir, &config, threads, |p, nets| {
        if p.checkpoint || last_line.elapsed().as_secs() >= 10 {
            last_line = Instant::now();
            eprintln!(
                "td: {}/{} games ({:.1}%), {:.1} games/s, {:.0} positions/s, loss {:.4}, alpha {:.4}, ETA {}{}",
                p.games_done,
                p.games_total,
                100.0 * p.games_done as f64 / p.games_total as f64,
                p.games_per_second,
                p.positions_per_second,
                p.loss,
                p.alpha,
                hms(p.eta_seconds),
                if p.checkpoint { ", checkpoint saved" } else { "" }
            );
        }
        if p.checkpoint {
            if let Some(pubeval) = &pubeval {
                let me = PlayerData::Cubeful(Arc::new(nets.clone()));
                let r = duel::run(
                    &me,
                    pubeval,
                    ("td", "pubeval"),
                    &DuelConfig {
                        games: args.bench_games,
                        seed: 12345,
                        threads,
                    },
                );
                eprintln!(
                    "td: after {} games: {:+.3} ppg vs PubEval (±{:.3}, {} games), {:.1}% wins",
                    p.games_done,
                    r.ppg,
                    r.ci95,
                    r.games,
                    100.0 * r.win_rate
                );
            }
        }
    })?;
    eprintln!(
        "td: done, {} games, {} positions trained, {} this session",
        state.games_done,
        state.positions_done,
        hms(started.elapsed().as_secs_f64())
    );
    Ok(())
}

fn hms(seconds: f64) -> String {
    let s = seconds.max(0.0) as u64;
    format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
}
