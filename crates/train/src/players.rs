//! Players for duels: Cubeful's nets at 0-ply, PubEval, and a random mover.

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;

use cubeful_engine::cube::{CubeContext, Ownership};
use cubeful_engine::eval::pubeval::PubEval;
use cubeful_engine::eval::{Evaluator, Nets};
use cubeful_engine::search::{EvalSettings, Level, Search};
use cubeful_engine::{Dice, LegalMove, MoveGenerator, Position};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

/// Default location of the PubEval weights (beside the project checkout).
pub const DEFAULT_PUBEVAL_DIR: &str = "../shared/data/pubeval";

/// A player named on the command line.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// Cubeful's nets (the embedded ones, or those in a folder), at 0-ply or searching
    /// `plies` deep / at a predefined level. Duels are cubeless, so the search is too.
    Cubeful {
        nets: Option<PathBuf>,
        settings: Option<EvalSettings>,
    },
    /// PubEval with the weights in a folder.
    PubEval { dir: PathBuf },
    /// Picks a legal move uniformly at random.
    Random,
}

/// A player name that is not understood.
#[derive(Debug, Error, PartialEq, Eq)]
#[error(
    "unknown player {0:?}: use cubeful[:nets=DIR][,plies=N|,level=NAME][,prune=on|off], pubeval[:DIR] or random"
)]
pub struct PlayerSpecError(String);

impl FromStr for PlayerSpec {
    type Err = PlayerSpecError;

    fn from_str(s: &str) -> Result<PlayerSpec, PlayerSpecError> {
        let (name, arg) = match s.split_once(':') {
            Some((n, a)) => (n, Some(a)),
            None => (s, None),
        };
        match (name, arg) {
            ("cubeful", None) => Ok(PlayerSpec::Cubeful {
                nets: None,
                settings: None,
            }),
            ("cubeful", Some(a)) => {
                let bad = || PlayerSpecError(s.to_string());
                let mut nets = None;
                let mut settings: Option<EvalSettings> = None;
                let mut prune: Option<bool> = None;
                for option in a.split(',') {
                    let (key, value) = option.split_once('=').ok_or_else(bad)?;
                    match key {
                        "nets" if !value.is_empty() => nets = Some(PathBuf::from(value)),
                        "plies" => {
                            let plies: u8 = value.parse().map_err(|_| bad())?;
                            if plies > 4 {
                                return Err(bad());
                            }
                            settings = Some(EvalSettings {
                                plies,
                                cubeful: false,
                                ..Level::WorldClass.settings()
                            });
                        }
                        "level" => {
                            let level: Level = value.parse().map_err(|_| bad())?;
                            settings = Some(EvalSettings {
                                cubeful: false,
                                ..level.settings()
                            });
                        }
                        "prune" => {
                            prune = Some(match value {
                                "on" => true,
                                "off" => false,
                                _ => return Err(bad()),
                            })
                        }
                        _ => return Err(bad()),
                    }
                }
                if let Some(prune) = prune {
                    // Pruning nets act inside a search only.
                    let s = settings.as_mut().ok_or_else(bad)?;
                    s.prune = prune;
                }
                Ok(PlayerSpec::Cubeful { nets, settings })
            }
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
            PlayerSpec::Cubeful { nets, settings } => {
                write!(f, "cubeful")?;
                let mut sep = ':';
                if let Some(d) = nets {
                    write!(f, "{sep}nets={}", d.display())?;
                    sep = ',';
                }
                if let Some(s) = settings {
                    write!(f, "{sep}plies={}", s.plies)?;
                    if s.noise > 0.0 {
                        write!(f, ",noise={}", s.noise)?;
                    }
                    if s.plies > 0 && !s.prune {
                        write!(f, ",prune=off")?;
                    }
                }
                Ok(())
            }
            PlayerSpec::PubEval { dir } => write!(f, "pubeval:{}", dir.display()),
            PlayerSpec::Random => write!(f, "random"),
        }
    }
}

/// What a player needs loaded once and shared between threads.
#[derive(Clone)]
pub enum PlayerData {
    Cubeful(Arc<Nets>),
    CubefulSearch(Arc<Nets>, EvalSettings),
    PubEval(Arc<PubEval>),
    Random,
}

/// Loading a player's data failed.
#[derive(Debug, Error)]
pub enum PlayerLoadError {
    #[error(transparent)]
    Nets(#[from] cubeful_engine::eval::nn::NetFileError),
    #[error(transparent)]
    PubEval(#[from] cubeful_engine::eval::pubeval::PubEvalError),
}

impl PlayerSpec {
    /// Loads the nets or weights the player needs.
    pub fn load(&self) -> Result<PlayerData, PlayerLoadError> {
        Ok(match self {
            PlayerSpec::Cubeful { nets, settings } => {
                let nets = Arc::new(match nets {
                    None => Nets::embedded(),
                    Some(dir) => Nets::load_dir(dir)?,
                });
                match settings {
                    None => PlayerData::Cubeful(nets),
                    Some(s) => PlayerData::CubefulSearch(nets, *s),
                }
            }
            PlayerSpec::PubEval { dir } => PlayerData::PubEval(Arc::new(PubEval::load(dir)?)),
            PlayerSpec::Random => PlayerData::Random,
        })
    }
}

/// A player ready to move, owned by one thread.
pub enum Player {
    Cubeful(Box<Evaluator>),
    CubefulSearch(Box<Search>, EvalSettings),
    PubEval(Arc<PubEval>, MoveGenerator),
    Random(MoveGenerator),
}

impl Player {
    /// A player from its shared data.
    pub fn new(data: &PlayerData) -> Player {
        match data {
            PlayerData::Cubeful(nets) => Player::Cubeful(Box::new(Evaluator::new(nets.clone()))),
            PlayerData::CubefulSearch(nets, s) => {
                Player::CubefulSearch(Box::new(Search::new(nets.clone())), *s)
            }
            PlayerData::PubEval(w) => Player::PubEval(w.clone(), MoveGenerator::new()),
            PlayerData::Random => Player::Random(MoveGenerator::new()),
        }
    }

    /// The player's play of `dice` in `position`. `rng` is used only by the random player.
    pub fn choose(&mut self, position: &Position, dice: Dice, rng: &mut ChaCha8Rng) -> LegalMove {
        match self {
            Player::Cubeful(e) => e.best_move(position, dice).0,
            Player::CubefulSearch(search, settings) => {
                let ctx = CubeContext::money(1, Ownership::Centered);
                search.best_move(position, dice, &ctx, settings).mv
            }
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
            Ok(PlayerSpec::Cubeful {
                nets: None,
                settings: None
            })
        );
        assert_eq!(
            "cubeful:nets=/tmp/x".parse::<PlayerSpec>(),
            Ok(PlayerSpec::Cubeful {
                nets: Some("/tmp/x".into()),
                settings: None
            })
        );
        let Ok(PlayerSpec::Cubeful {
            nets: Some(_),
            settings: Some(s),
        }) = "cubeful:nets=/tmp/x,plies=2".parse::<PlayerSpec>()
        else {
            panic!("nets and plies");
        };
        assert_eq!((s.plies, s.cubeful, s.prune), (2, false, true));
        let spec: PlayerSpec = "cubeful:prune=off,plies=2".parse().unwrap();
        let PlayerSpec::Cubeful {
            settings: Some(s), ..
        } = &spec
        else {
            panic!("prune");
        };
        assert!(!s.prune);
        assert_eq!(spec.to_string(), "cubeful:plies=2,prune=off");
        assert_eq!(spec.to_string().parse::<PlayerSpec>(), Ok(spec));
        assert!("cubeful:prune=off".parse::<PlayerSpec>().is_err());
        assert!("cubeful:plies=1,prune=maybe".parse::<PlayerSpec>().is_err());
        let Ok(PlayerSpec::Cubeful {
            settings: Some(s), ..
        }) = "cubeful:level=advanced".parse::<PlayerSpec>()
        else {
            panic!("level");
        };
        assert_eq!((s.plies, s.noise), (0, 0.015));
        assert!("cubeful:plies=9".parse::<PlayerSpec>().is_err());
        assert!("cubeful:level=godlike".parse::<PlayerSpec>().is_err());
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
