//! TD(λ) self-play training from random weights.
//!
//! The nets play both sides of money games greedily at 0-ply. After each game, every position
//! `s_t` (seen from the player on roll, before the roll) gets a λ-return target computed backwards
//! from the end: `G_t = (1 − λ)·E_t + λ·inv(G_{t+1})`, where `E_t` is the evaluation of the move
//! chosen at `s_t` (the one-step TD target) and `inv` switches the point of view. The last position
//! gets the game's actual result. The net of the position's class then takes one gradient step
//! towards `G_t` (this is the forward view of TD(λ), applied offline once the game is over).
//!
//! Determinism: games are played in batches with the nets frozen during the batch, spread over
//! threads; game `g` uses dice seeded from the run's seed and `g` only, and the updates are applied
//! in game order afterwards. A run therefore gives identical nets for a given seed and batch size,
//! whatever the number of threads, and a run resumed from a checkpoint continues exactly.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use cubeful_engine::eval::class::classify;
use cubeful_engine::eval::inputs::{input_count, INPUT_VERSION, MAX_INPUTS};
use cubeful_engine::eval::nn::{Net, NetClass, NetFileError};
use cubeful_engine::eval::{encode_inputs, net_class, Evaluator, Nets, Probabilities};
use cubeful_engine::files::{read_regular, write_atomically};
use cubeful_engine::{Position, Side};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::backprop::Sgd;

/// Settings of a TD run. Stored in the checkpoint folder; a resumed run keeps them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TdConfig {
    /// Total games to play.
    pub games: u64,
    pub seed: u64,
    /// Learning rate at the start; it halves every `alpha_half_life` games, down to `alpha_end`.
    pub alpha_start: f32,
    pub alpha_half_life: u64,
    pub alpha_end: f32,
    pub lambda: f32,
    /// Hidden units of the contact and crashed nets, and of the race net.
    pub hidden_contact: usize,
    pub hidden_race: usize,
    /// Initial weights are uniform in ±`init_scale`.
    pub init_scale: f32,
    /// Games per batch (played with frozen nets, then learned from in order).
    pub batch: usize,
    /// Save the nets every this many games.
    pub checkpoint_every: u64,
}

impl Default for TdConfig {
    fn default() -> TdConfig {
        TdConfig {
            games: 300_000,
            seed: 1,
            alpha_start: 0.02,
            alpha_half_life: 100_000,
            alpha_end: 0.002,
            lambda: 0.7,
            hidden_contact: 128,
            hidden_race: 64,
            init_scale: 0.1,
            batch: 16,
            checkpoint_every: 5_000,
        }
    }
}

/// Progress of a run, saved with every checkpoint as `state.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TdState {
    pub config: TdConfig,
    pub games_done: u64,
    pub positions_done: u64,
}

/// A training run could not start or continue.
#[derive(Debug, Error)]
pub enum TdError {
    #[error("cannot use checkpoint folder {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("checkpoint state {path} is unreadable: {message}")]
    State { path: PathBuf, message: String },
    #[error(transparent)]
    Nets(#[from] NetFileError),
    /// Training diverged: nets with such weights are not saved.
    #[error("training diverged after {games} games: the {net} net has a weight that is not a finite number; no checkpoint saved (try a lower --alpha or --lambda)")]
    NotFinite { games: u64, net: &'static str },
}

/// Progress reported after each batch.
#[derive(Clone, Debug)]
pub struct Progress {
    pub games_done: u64,
    pub games_total: u64,
    pub positions_done: u64,
    pub games_per_second: f64,
    pub positions_per_second: f64,
    /// Mean squared TD error per position over the last batches (sum over the five outputs).
    pub loss: f64,
    pub alpha: f32,
    pub eta_seconds: f64,
    /// True when a checkpoint was just written.
    pub checkpoint: bool,
}

/// One finished self-play game: positions before each roll, the evaluation of the move chosen
/// there (for the mover), and the final result for the last mover.
struct GameRecord {
    positions: Vec<Position>,
    chosen: Vec<Probabilities>,
}

/// Fresh nets with random weights for `config`.
pub fn random_nets(config: &TdConfig) -> Nets {
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed ^ 0x005E_ED0F_4E75);
    let mut uniform = || rng.gen::<f32>();
    let mut random = |class: NetClass, hidden: usize| {
        let inputs = input_count(class);
        Net::random(
            class,
            INPUT_VERSION,
            inputs,
            hidden,
            config.init_scale,
            &mut uniform,
        )
    };
    let contact = random(NetClass::Contact, config.hidden_contact);
    let crashed = random(NetClass::Crashed, config.hidden_contact);
    let race = random(NetClass::Race, config.hidden_race);
    Nets {
        contact,
        crashed,
        race,
        prune: None,
    }
}

/// The longest state file read: the state is a few hundred bytes of settings and counters.
const MAX_STATE_BYTES: u64 = 1 << 20;

fn state_path(dir: &Path) -> PathBuf {
    dir.join("state.ron")
}

/// Loads a checkpoint from `dir`, if there is one.
pub fn load_checkpoint(dir: &Path) -> Result<Option<(TdState, Nets)>, TdError> {
    let path = state_path(dir);
    if !path.exists() {
        return Ok(None);
    }
    let bytes = read_regular(&path, MAX_STATE_BYTES).map_err(|e| TdError::Io {
        path: path.clone(),
        source: e.into_reason(),
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let state: TdState = ron::from_str(&text).map_err(|e| TdError::State {
        path: path.clone(),
        message: e.to_string(),
    })?;
    let nets = Nets::load_dir(dir)?;
    Ok(Some((state, nets)))
}

/// Saves nets and state into `dir`, each file atomically.
pub fn save_checkpoint(dir: &Path, state: &TdState, nets: &Nets) -> Result<(), TdError> {
    let io = |source| TdError::Io {
        path: dir.to_path_buf(),
        source,
    };
    nets.save_dir(dir).map_err(io)?;
    let text = ron::ser::to_string_pretty(state, ron::ser::PrettyConfig::default())
        .expect("the state serialises");
    write_atomically(&state_path(dir), text.as_bytes()).map_err(|e| io(e.into()))?;
    Ok(())
}

/// Plays one self-play game with frozen nets.
fn play(evaluator: &mut Evaluator, seed: u64, game: u64) -> GameRecord {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut position = Position::starting();
    let mut record = GameRecord {
        positions: Vec::with_capacity(128),
        chosen: Vec::with_capacity(128),
    };
    for turn in 0..10_000 {
        let dice = crate::roll(&mut rng, turn == 0);
        let (m, p) = evaluator.best_move(&position, dice);
        record.positions.push(position);
        if let Some(result) = m.position.result() {
            debug_assert_eq!(result.winner, Side::Player);
            record
                .chosen
                .push(Probabilities::of_result(result.winner, result.kind));
            return record;
        }
        record.chosen.push(p);
        position = m.position.swap();
    }
    // A game this long means the nets refuse to make progress; learn from it as it stands.
    record
}

/// Learns from one game; returns (positions, summed squared error).
fn learn(
    nets: &mut Nets,
    record: &GameRecord,
    lambda: f32,
    alpha: f32,
    sgd: &mut Sgd,
    inputs: &mut [f32],
) -> (u64, f64) {
    let n = record.positions.len();
    let mut target = record.chosen[n - 1];
    let mut loss = 0.0f64;
    let mut count = 0;
    for t in (0..n).rev() {
        if t < n - 1 {
            let next = target.invert();
            let e = record.chosen[t];
            let mix = |a: f32, b: f32| (1.0 - lambda) * a + lambda * b;
            target = Probabilities {
                win: mix(e.win, next.win),
                win_gammon: mix(e.win_gammon, next.win_gammon),
                win_backgammon: mix(e.win_backgammon, next.win_backgammon),
                lose_gammon: mix(e.lose_gammon, next.lose_gammon),
                lose_backgammon: mix(e.lose_backgammon, next.lose_backgammon),
            };
        }
        let position = &record.positions[t];
        let Some(class) = net_class(classify(position)) else {
            continue;
        };
        let x = encode_inputs(class, position, inputs);
        let net = nets.net_mut(class);
        loss += f64::from(sgd.step(net, x, &target.to_array(), alpha));
        net.trained += 1;
        count += 1;
    }
    (count, loss)
}

/// The name of the first net of `nets` with a weight that is NaN or infinite, if any.
fn non_finite_net(nets: &Nets) -> Option<&'static str> {
    [&nets.contact, &nets.crashed, &nets.race]
        .into_iter()
        .find(|net| {
            net.params()
                .parts()
                .iter()
                .any(|part| part.iter().any(|w| !w.is_finite()))
        })
        .map(|net| net.class().name())
}

/// Runs (or resumes) TD training, checkpointing into `dir`. `report` is called after each batch.
/// Returns the final state.
pub fn train(
    dir: &Path,
    config: &TdConfig,
    threads: usize,
    mut report: impl FnMut(&Progress, &Nets),
) -> Result<TdState, TdError> {
    std::fs::create_dir_all(dir).map_err(|source| TdError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let (mut state, mut nets) = match load_checkpoint(dir)? {
        Some((mut state, nets)) => {
            // A resumed run keeps its settings, except that it may be extended.
            state.config.games = state.config.games.max(config.games);
            (state, nets)
        }
        None => (
            TdState {
                config: config.clone(),
                games_done: 0,
                positions_done: 0,
            },
            random_nets(config),
        ),
    };
    let cfg = state.config.clone();
    let mut sgd = Sgd::new(cfg.hidden_contact.max(cfg.hidden_race));
    let mut inputs = vec![0.0f32; MAX_INPUTS];
    let start = Instant::now();
    let start_games = state.games_done;
    let start_positions = state.positions_done;
    let mut recent_loss = 0.0f64;
    let mut recent_positions = 0u64;
    while state.games_done < cfg.games {
        let first = state.games_done;
        let count = (cfg.batch as u64).min(cfg.games - first);
        let frozen = Arc::new(nets.clone());
        let mut records: Vec<Option<GameRecord>> = (0..count).map(|_| None).collect();
        std::thread::scope(|scope| {
            let chunks = records.chunks_mut(count.div_ceil(threads.max(1) as u64) as usize);
            let mut offset = 0u64;
            for chunk in chunks {
                let frozen = frozen.clone();
                let base = first + offset;
                offset += chunk.len() as u64;
                scope.spawn(move || {
                    let mut evaluator = Evaluator::new(frozen);
                    evaluator.set_cache(false);
                    for (i, slot) in chunk.iter_mut().enumerate() {
                        *slot = Some(play(&mut evaluator, cfg.seed, base + i as u64));
                    }
                });
            }
        });
        let half_lives = state.games_done as f64 / cfg.alpha_half_life.max(1) as f64;
        let alpha = (cfg.alpha_start * 0.5f32.powf(half_lives as f32)).max(cfg.alpha_end);
        for record in records.into_iter().flatten() {
            let (n, loss) = learn(&mut nets, &record, cfg.lambda, alpha, &mut sgd, &mut inputs);
            state.positions_done += n;
            recent_loss += loss;
            recent_positions += n;
        }
        state.games_done += count;
        let checkpoint =
            state.games_done % cfg.checkpoint_every < count || state.games_done == cfg.games;
        if checkpoint {
            if let Some(net) = non_finite_net(&nets) {
                return Err(TdError::NotFinite {
                    games: state.games_done,
                    net,
                });
            }
            save_checkpoint(dir, &state, &nets)?;
        }
        let elapsed = start.elapsed().as_secs_f64().max(1e-9);
        let games_per_second = (state.games_done - start_games) as f64 / elapsed;
        let progress = Progress {
            games_done: state.games_done,
            games_total: cfg.games,
            positions_done: state.positions_done,
            games_per_second,
            positions_per_second: (state.positions_done - start_positions) as f64 / elapsed,
            loss: recent_loss / recent_positions.max(1) as f64,
            alpha,
            eta_seconds: (cfg.games - state.games_done) as f64 / games_per_second.max(1e-9),
            checkpoint,
        };
        if checkpoint {
            recent_loss = 0.0;
            recent_positions = 0;
        }
        report(&progress, &nets);
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_testkit::ScratchDir;

    fn tiny() -> TdConfig {
        TdConfig {
            games: 24,
            seed: 9,
            hidden_contact: 8,
            hidden_race: 4,
            batch: 8,
            checkpoint_every: 8,
            ..TdConfig::default()
        }
    }

    /// A run whose weights become NaN or infinite stops with an error instead of saving them.
    #[test]
    fn diverged_weights_are_not_saved() {
        let dir = ScratchDir::new("td-nan");
        let cfg = TdConfig {
            alpha_start: f32::INFINITY,
            alpha_end: f32::INFINITY,
            ..tiny()
        };
        let mut reports = 0;
        let result = train(&dir, &cfg, 1, |_, _| reports += 1);
        assert!(
            matches!(result, Err(TdError::NotFinite { games: 8, .. })),
            "{result:?}"
        );
        assert_eq!(reports, 0, "no progress reported for the diverged batch");
        assert!(!state_path(&dir).exists(), "no checkpoint");
    }

    #[test]
    fn deterministic_and_resumable() {
        let base = ScratchDir::new("td");
        let (a, b, c) = (base.join("a"), base.join("b"), base.join("c"));
        let cfg = tiny();
        train(&a, &cfg, 2, |_, _| {}).unwrap();
        train(&b, &cfg, 1, |_, _| {}).unwrap();
        // The same run in two parts: 16 games, then resumed to 24.
        train(
            &c,
            &TdConfig {
                games: 16,
                ..cfg.clone()
            },
            2,
            |_, _| {},
        )
        .unwrap();
        let state = train(&c, &cfg, 2, |_, _| {}).unwrap();
        assert_eq!(state.games_done, 24);
        let na = Nets::load_dir(&a).unwrap();
        let nb = Nets::load_dir(&b).unwrap();
        let nc = Nets::load_dir(&c).unwrap();
        assert_eq!(na.contact, nb.contact);
        assert_eq!(na.race, nb.race);
        assert_eq!(na.contact, nc.contact);
        assert_eq!(na.crashed, nc.crashed);
        assert!(na.contact.trained > 0);
    }

    /// Checkpoints never write through a link planted where a temporary file used to be named,
    /// and a state file that is not a regular file is refused at once.
    #[cfg(unix)]
    #[test]
    fn checkpoints_never_follow_planted_links() {
        let dir = ScratchDir::new("td-links");
        let victim = dir.join("victim");
        std::fs::write(&victim, b"precious").unwrap();
        for name in ["state.ron.tmp", "contact.net.tmp", "race.net.tmp"] {
            std::os::unix::fs::symlink(&victim, dir.join(name)).unwrap();
        }
        train(&dir, &tiny(), 1, |_, _| {}).unwrap();
        assert!(
            std::fs::read(&victim).unwrap() == b"precious",
            "the file behind the planted link was overwritten"
        );
        assert!(std::fs::symlink_metadata(state_path(&dir))
            .unwrap()
            .is_file());

        std::fs::remove_file(state_path(&dir)).unwrap();
        let status = std::process::Command::new("mkfifo")
            .arg(state_path(&dir))
            .status()
            .unwrap();
        assert!(status.success());
        let err = load_checkpoint(&dir).map(|_| ()).unwrap_err().to_string();
        assert!(err.contains("not a regular file"), "{err}");
    }
}
