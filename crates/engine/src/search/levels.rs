//! Evaluation settings: how deep and how carefully a decision is evaluated ([`EvalSettings`]),
//! the move filters that prune checker-play candidates between plies ([`MoveFilter`],
//! [`FilterPreset`]) and GNU Backgammon's predefined playing levels ([`Level`]). The search
//! itself is in the parent module; docs/ENGINE.md §Search and levels lists the levels and filters.

/// Pruning at one sub-ply of a checker-play decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveFilter {
    /// Moves always kept; `None` means no pruning (and no scoring) at this sub-ply.
    pub accept: Option<usize>,
    /// Further moves kept if within `threshold` of the best.
    pub extra: usize,
    pub threshold: f32,
}

impl MoveFilter {
    const SKIP: MoveFilter = MoveFilter {
        accept: None,
        extra: 0,
        threshold: 0.0,
    };

    const fn keep(extra: usize, threshold: f32) -> MoveFilter {
        MoveFilter {
            accept: Some(0),
            extra,
            threshold,
        }
    }
}

/// A set of move filters: for an n-ply decision, the filters of sub-plies 0..n.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FilterPreset {
    /// GNU Backgammon's "Normal": up to 8 moves within 0.16 after 0-ply; at 3-ply and deeper, up
    /// to 2 within 0.04 after 2-ply.
    Normal,
    /// GNU Backgammon's "Large": up to 16 within 0.32 after 0-ply; up to 4 within 0.08 after 2-ply.
    Large,
}

impl FilterPreset {
    /// The filter of sub-ply `sub` of an `plies`-ply decision.
    pub fn filter(self, plies: u8, sub: u8) -> MoveFilter {
        let (first, deep) = match self {
            FilterPreset::Normal => (MoveFilter::keep(8, 0.16), MoveFilter::keep(2, 0.04)),
            FilterPreset::Large => (MoveFilter::keep(16, 0.32), MoveFilter::keep(4, 0.08)),
        };
        match sub {
            0 => first,
            2 if plies >= 3 => deep,
            _ => MoveFilter::SKIP,
        }
    }
}

/// How deep and how carefully to evaluate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvalSettings {
    /// Lookahead, 0 to 4.
    pub plies: u8,
    /// Take the cube into account (Janowski at the leaves, cube decisions inside the search).
    pub cubeful: bool,
    /// Standard deviation of the Gaussian noise added to each of the five 0-ply outputs (weaker
    /// levels).
    pub noise: f32,
    /// Deterministic noise: the same noise for the same position (and seed).
    pub deterministic: bool,
    pub filter: FilterPreset,
    /// Reduced evaluation: below an evaluation's first roll, average each node over one third
    /// of the rolls (7 of the 21, a third of the weight, picked by the roll played before it)
    /// instead of all 21 — about three times faster per ply below the first. Every candidate of
    /// a decision sees the same rolls, so their differences stay close to the full search's.
    pub reduced: bool,
    /// Pre-select the play of each roll inside the search with the pruning nets: every play is
    /// scored by the small nets and only the best few by the full nets (docs/ENGINE.md §Pruning
    /// nets). No effect at 0-ply or without pruning nets. On for World Class and stronger, as
    /// in GNU Backgammon.
    pub prune: bool,
}

impl Default for EvalSettings {
    fn default() -> EvalSettings {
        Level::Expert.settings()
    }
}

/// GNU Backgammon's predefined playing levels, with the same settings (docs/ENGINE.md §Search and
/// levels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    Beginner,
    Casual,
    Intermediate,
    Advanced,
    Expert,
    WorldClass,
    Supremo,
    Grandmaster,
}

impl Level {
    /// All levels, weakest first.
    pub const ALL: [Level; 8] = [
        Level::Beginner,
        Level::Casual,
        Level::Intermediate,
        Level::Advanced,
        Level::Expert,
        Level::WorldClass,
        Level::Supremo,
        Level::Grandmaster,
    ];

    /// The level's evaluation settings.
    pub fn settings(self) -> EvalSettings {
        let zero = |noise| EvalSettings {
            plies: 0,
            cubeful: true,
            noise,
            deterministic: true,
            filter: FilterPreset::Normal,
            reduced: false,
            prune: false,
        };
        match self {
            Level::Beginner => zero(0.060),
            Level::Casual => zero(0.050),
            Level::Intermediate => zero(0.030),
            Level::Advanced => zero(0.015),
            Level::Expert => zero(0.0),
            Level::WorldClass => EvalSettings {
                plies: 2,
                prune: true,
                ..zero(0.0)
            },
            Level::Supremo => EvalSettings {
                plies: 2,
                filter: FilterPreset::Large,
                prune: true,
                ..zero(0.0)
            },
            Level::Grandmaster => EvalSettings {
                plies: 3,
                prune: true,
                ..zero(0.0)
            },
        }
    }

    /// Lower-case name without spaces: `beginner`, …, `worldclass`, `supremo`, `grandmaster`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Casual => "casual",
            Level::Intermediate => "intermediate",
            Level::Advanced => "advanced",
            Level::Expert => "expert",
            Level::WorldClass => "worldclass",
            Level::Supremo => "supremo",
            Level::Grandmaster => "grandmaster",
        }
    }
}

impl std::str::FromStr for Level {
    type Err = String;

    /// Accepts the names of [`Level::name`], case-insensitive, with or without blanks, `-`, `_`.
    fn from_str(s: &str) -> Result<Level, String> {
        let key: String = s
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_'))
            .collect::<String>()
            .to_lowercase();
        Level::ALL
            .into_iter()
            .find(|l| l.name() == key || (key == "casualplay" && *l == Level::Casual))
            .ok_or_else(|| {
                format!(
                    "unknown level {}: use one of {}",
                    crate::formats::quote(s),
                    Level::ALL.map(Level::name).join(", ")
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_and_have_the_manual_settings() {
        assert_eq!("World Class".parse::<Level>(), Ok(Level::WorldClass));
        assert_eq!("grandmaster".parse::<Level>(), Ok(Level::Grandmaster));
        assert!("godlike".parse::<Level>().is_err());
        assert_eq!(Level::Beginner.settings().noise, 0.060);
        assert_eq!(Level::Advanced.settings().noise, 0.015);
        assert_eq!(Level::WorldClass.settings().plies, 2);
        assert_eq!(Level::Supremo.settings().filter, FilterPreset::Large);
        assert_eq!(Level::Grandmaster.settings().plies, 3);
        // Pruning nets inside the search from World Class up, as in GNU Backgammon.
        assert!(!Level::Expert.settings().prune);
        assert!(Level::WorldClass.settings().prune);
        assert!(Level::Supremo.settings().prune);
        assert!(Level::Grandmaster.settings().prune);
    }

    #[test]
    fn filters_match_the_manual() {
        let f = FilterPreset::Normal.filter(2, 0);
        assert_eq!((f.accept, f.extra, f.threshold), (Some(0), 8, 0.16));
        assert_eq!(FilterPreset::Normal.filter(2, 1).accept, None);
        assert_eq!(FilterPreset::Normal.filter(3, 2).extra, 2);
        assert_eq!(FilterPreset::Large.filter(2, 0).extra, 16);
    }
}
