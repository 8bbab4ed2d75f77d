//! Players for duels: Cubeful's nets at 0-ply, PubEval, and a random mover.

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;

use cubeful_engine::eval::{Evaluator, Nets};
use cubeful_engine::pubeval::PubEval;
use cubeful_engine::{Dice, LegalMove, MoveGenerator, Position};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

/// Default location of the PubEval weights (beside the project checkout).
pub const DEFAULT_PUBEVAL_DIR: &str = "../shared/data/pubeval";

/// A player named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// Cubeful's nets at 0-ply: the embedded ones, or those in a folder.
    Cubeful { nets: Option<PathBuf> },
    /// PubEval with the weights in a folder.
    PubEval { dir: PathBuf },
    /// Picks a legal move uniformly at random.
    Random,
}

/// A player name that is not understood.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("unknown player {0:?}: use cubeful, cubeful:nets=DIR, pubeval, pubeval:DIR or random")]
pub struct PlayerSpecError(String);

impl FromStr for PlayerSpec {
    type Err = PlayerSpecError;

    fn from_str(s: &str) -> Result<PlayerSpec, PlayerSpecError> {
        let (name, arg) = match s.split_once(':') {
            Some((n, a)) => (n, Some(a)),
            None => (s, None),
        };
        match (name, arg) {
            ("cubeful", None) => Ok(PlayerSpec::Cubeful { nets: None }),
            ("cubeful", Some(a)) => match a.strip_prefix("nets=") {
                Some(dir) if !dir.is_empty() => Ok(PlayerSpec::Cubeful {
                    nets: Some(PathBuf::from(dir)),
                }),
                _ => Err(PlayerSpecError(s.to_string())),
            },
            ("pubeval", None) => Ok(PlayerSpec::PubEval {
                dir: PathBuf::from(DEFAULT_PUBEVAL_DIR),
            }),
            ("pubeval", Some(dir)) if !dir.is_empty() => Ok(PlayerSpec::PubEval {
                dir: PathBuf::from(dir),
            }),
            ("random", None) => Ok(PlayerSpec::Random),
            _ => Err(PlayerSpecError(s.to_string())),
        }
    }
}

impl std::fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayerSpec::Cubeful { nets: None } => write!(f, "cubeful"),
            PlayerSpec::Cubeful { nets: Some(d) } => write!(f, "cubeful:nets={}", d.display()),
            PlayerSpec::PubEval { dir } => write!(f, "pubeval:{}", dir.display()),
            PlayerSpec::Random => write!(f, "random"),
        }
    }
}

/// What a player needs loaded once and shared between threads.
#[derive(Clone)]
pub enum PlayerData {
    Cubeful(Arc<Nets>),
    PubEval(Arc<PubEval>),
    Random,
}

/// Loading a player's data failed.
#[derive(Debug, Error)]
pub enum PlayerLoadError {
    #[error(transparent)]
    Nets(#[from] cubeful_engine::nn::NetFileError),
    #[error(transparent)]
    PubEval(#[from] cubeful_engine::pubeval::PubEvalError),
}

impl PlayerSpec {
    /// Loads the nets or weights the player needs.
    pub fn load(&self) -> Result<PlayerData, PlayerLoadError> {
        Ok(match self {
            PlayerSpec::Cubeful { nets: None } => PlayerData::Cubeful(Arc::new(Nets::embedded())),
            PlayerSpec::Cubeful { nets: Some(dir) } => {
                PlayerData::Cubeful(Arc::new(Nets::load_dir(dir)?))
            }
            PlayerSpec::PubEval { dir } => PlayerData::PubEval(Arc::new(PubEval::load(dir)?)),
            PlayerSpec::Random => PlayerData::Random,
        })
    }
}

/// A player ready to move, owned by one thread.
pub enum Player {
    Cubeful(Box<Evaluator>),
    PubEval(Arc<PubEval>, MoveGenerator),
    Random(MoveGenerator),
}

impl Player {
    /// A player from its shared data.
    pub fn new(data: &PlayerData) -> Player {
        match data {
            PlayerData::Cubeful(nets) => Player::Cubeful(Box::new(Evaluator::new(nets.clone()))),
            PlayerData::PubEval(w) => Player::PubEval(w.clone(), MoveGenerator::new()),
            PlayerData::Random => Player::Random(MoveGenerator::new()),
        }
    }

    /// The player's play of `dice` in `position`. `rng` is used only by the random player.
    pub fn choose(&mut self, position: &Position, dice: Dice, rng: &mut ChaCha8Rng) -> LegalMove {
        match self {
            Player::Cubeful(e) => e.best_move(position, dice).0,
            Player::PubEval(w, g) => w.choose(position, dice, g),
            Player::Random(g) => {
                let moves = g.generate(position, dice);
                moves[rng.gen_range(0..moves.len())]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_player_names() {
        assert_eq!(
            "cubeful".parse::<PlayerSpec>(),
            Ok(PlayerSpec::Cubeful { nets: None })
        );
        assert_eq!(
            "cubeful:nets=/tmp/x".parse::<PlayerSpec>(),
            Ok(PlayerSpec::Cubeful {
                nets: Some("/tmp/x".into())
            })
        );
        assert_eq!(
            "pubeval".parse::<PlayerSpec>(),
            Ok(PlayerSpec::PubEval {
                dir: DEFAULT_PUBEVAL_DIR.into()
            })
        );
        assert_eq!("random".parse::<PlayerSpec>(), Ok(PlayerSpec::Random));
        assert!("gnubg".parse::<PlayerSpec>().is_err());
        assert!("cubeful:foo".parse::<PlayerSpec>().is_err());
        assert!("random:1".parse::<PlayerSpec>().is_err());
    }
}
