//! How far the targets of one label set are from another's for the same positions: a set
//! labelled again by another teacher (`train label --from`) against the rollouts of the same
//! positions, say. The files of the two folders are paired by name and their examples by index;
//! the positions must agree.

use std::path::{Path, PathBuf};

use cubeful_engine::eval::class::{classify, PositionClass};
use cubeful_engine::{Position, Side};
use thiserror::Error;

use crate::dataset::{self, DatasetError, Example};

/// The differences of cubeless equity (target minus reference) of a group of examples.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Gap {
    pub count: usize,
    sum: f64,
    sum_squares: f64,
}

impl Gap {
    fn add(&mut self, difference: f64) {
        self.count += 1;
        self.sum += difference;
        self.sum_squares += difference * difference;
    }

    fn merge(&mut self, other: &Gap) {
        self.count += other.count;
        self.sum += other.sum;
        self.sum_squares += other.sum_squares;
    }

    /// Mean difference (the target's lean against the reference); 0 for no examples.
    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum / self.count as f64
        }
    }

    /// Root mean square of the differences; 0 for no examples.
    pub fn rmse(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            (self.sum_squares / self.count as f64).sqrt()
        }
    }
}

/// The gaps of a comparison by the class of each position, and over all of them. The race net
/// judges both races and pure bearoffs, but in play the bearoff databases answer the bearoffs:
/// they are a group of their own. Finished games are left out.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Comparison {
    pub contact: Gap,
    pub crashed: Gap,
    /// Pure bearoffs (both sides' checkers all home).
    pub bearoff: Gap,
    /// Races that are not pure bearoffs, by the lead of the side on roll, in [`RaceLead::ALL`]
    /// order ([`Comparison::race_with_lead`]; all of them: [`Comparison::race`]).
    race_by_lead: [Gap; 5],
    /// Files compared.
    pub files: usize,
}

impl Comparison {
    /// The positions the race net judges when there are no bearoff databases: races and
    /// pure bearoffs.
    pub fn race_net(&self) -> Gap {
        let mut race_net = self.race();
        race_net.merge(&self.bearoff);
        race_net
    }

    pub fn all(&self) -> Gap {
        let mut all = self.contact;
        all.merge(&self.crashed);
        all.merge(&self.race_net());
        all
    }

    /// Races that are not pure bearoffs.
    pub fn race(&self) -> Gap {
        let mut race = Gap::default();
        for gap in &self.race_by_lead {
            race.merge(gap);
        }
        race
    }

    /// The races (not pure bearoffs) in which the side on roll has this lead.
    pub fn race_with_lead(&self, lead: RaceLead) -> Gap {
        self.race_by_lead[lead as usize]
    }

    fn merge(&mut self, other: &Comparison) {
        self.contact.merge(&other.contact);
        self.crashed.merge(&other.crashed);
        self.bearoff.merge(&other.bearoff);
        for (mine, theirs) in self.race_by_lead.iter_mut().zip(&other.race_by_lead) {
            mine.merge(theirs);
        }
        self.files += other.files;
    }
}

/// The lead in the pip count of the side on roll in a race (the opponent's pips minus its
/// own): close races are where a race net errs most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceLead {
    /// Behind by more than 20 pips.
    FarBehind,
    /// Behind by 9 to 20 pips.
    Behind,
    /// Within 8 pips either way.
    Close,
    /// Ahead by 9 to 20 pips.
    Ahead,
    /// Ahead by more than 20 pips.
    FarAhead,
}

impl RaceLead {
    pub const ALL: [RaceLead; 5] = [
        RaceLead::FarBehind,
        RaceLead::Behind,
        RaceLead::Close,
        RaceLead::Ahead,
        RaceLead::FarAhead,
    ];

    pub fn of(position: &Position) -> RaceLead {
        let lead = i64::from(position.pip_count(Side::Opponent))
            - i64::from(position.pip_count(Side::Player));
        match lead {
            i64::MIN..=-21 => RaceLead::FarBehind,
            -20..=-9 => RaceLead::Behind,
            -8..=8 => RaceLead::Close,
            9..=20 => RaceLead::Ahead,
            21.. => RaceLead::FarAhead,
        }
    }

    /// A short name for tables.
    pub fn label(self) -> &'static str {
        match self {
            RaceLead::FarBehind => "behind >20",
            RaceLead::Behind => "behind 9-20",
            RaceLead::Close => "within 8",
            RaceLead::Ahead => "ahead 9-20",
            RaceLead::FarAhead => "ahead >20",
        }
    }
}

/// Two sets that cannot be compared.
#[derive(Debug, Error)]
pub enum CompareError {
    #[error(transparent)]
    Dataset(#[from] DatasetError),
    #[error("{path} has no file of the same name in the reference folder {reference}")]
    Missing { path: PathBuf, reference: PathBuf },
    #[error("{path} holds {count} examples, its reference {reference_count}")]
    Count {
        path: PathBuf,
        count: usize,
        reference_count: usize,
    },
    #[error("example {index} of {path} is not the position of its reference")]
    Position { path: PathBuf, index: usize },
}

/// Compares the examples of one file with those of its reference, example by example.
pub fn compare_examples(
    examples: &[Example],
    reference: &[Example],
    path: &Path,
) -> Result<Comparison, CompareError> {
    if examples.len() != reference.len() {
        return Err(CompareError::Count {
            path: path.to_path_buf(),
            count: examples.len(),
            reference_count: reference.len(),
        });
    }
    let mut out = Comparison {
        files: 1,
        ..Comparison::default()
    };
    for (index, (e, r)) in examples.iter().zip(reference).enumerate() {
        if e.position != r.position {
            return Err(CompareError::Position {
                path: path.to_path_buf(),
                index,
            });
        }
        let difference = f64::from(e.target.equity()) - f64::from(r.target.equity());
        match classify(&e.position) {
            PositionClass::Contact => out.contact.add(difference),
            PositionClass::Crashed => out.crashed.add(difference),
            PositionClass::Race => {
                out.race_by_lead[RaceLead::of(&e.position) as usize].add(difference)
            }
            PositionClass::Bearoff => out.bearoff.add(difference),
            PositionClass::Over => {}
        }
    }
    Ok(out)
}

/// Compares every data file of folder `dir` with the file of the same name in `reference`
/// (a reference may have more files: a set labelled again only in part compares as far as it
/// goes).
pub fn compare_dirs(dir: &Path, reference: &Path) -> Result<Comparison, CompareError> {
    let mut out = Comparison::default();
    for path in dataset::files_in(dir)? {
        let name = path.file_name().expect("a data file has a name");
        let reference_path = reference.join(name);
        if !reference_path.is_file() {
            return Err(CompareError::Missing {
                path,
                reference: reference.to_path_buf(),
            });
        }
        let examples = dataset::load(&path)?;
        let reference_examples = dataset::load(&reference_path)?;
        out.merge(&compare_examples(&examples, &reference_examples, &path)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_engine::eval::Probabilities;

    fn example(position: Position, win: f32) -> Example {
        Example {
            position,
            target: Probabilities::from_array([win, 0.0, 0.0, 0.0, 0.0]),
        }
    }

    #[test]
    fn gaps_are_target_minus_reference_by_class() {
        let contact = Position::starting();
        let race = Position::from_points(&[(8, 5), (6, 5)], &[(9, 5), (6, 5)]).expect("a race");
        assert_eq!(classify(&race), PositionClass::Race);
        let bearoff = Position::from_points(&[(3, 5), (2, 5)], &[(4, 5), (1, 5)]).expect("ok");
        assert_eq!(classify(&bearoff), PositionClass::Bearoff);
        let reference = [
            example(contact, 0.5),
            example(race, 0.5),
            example(race, 0.5),
            example(bearoff, 0.5),
        ];
        let labels = [
            example(contact, 0.55),
            example(race, 0.45),
            example(race, 0.6),
            example(bearoff, 0.4),
        ];
        let c = compare_examples(&labels, &reference, Path::new("x.bin")).unwrap();
        // Equity is 2·win − 1: the contact example is 0.1 above, the races −0.1 and +0.2.
        assert_eq!(c.contact.count, 1);
        assert!((c.contact.mean() - 0.1).abs() < 1e-6);
        assert_eq!(c.race().count, 2);
        assert!((c.race().mean() - 0.05).abs() < 1e-6);
        assert!((c.race().rmse() - (0.05f64 / 2.0).sqrt()).abs() < 1e-6);
        assert_eq!(c.crashed, Gap::default());
        // The bearoff −0.2, on its own and with the races in the race net's group.
        assert_eq!(c.bearoff.count, 1);
        assert!((c.bearoff.mean() + 0.2).abs() < 1e-6);
        assert_eq!(c.race_net().count, 3);
        assert!((c.race_net().mean() + 0.1 / 3.0).abs() < 1e-6);
        assert_eq!(c.all().count, 4);
        assert!(c.all().mean().abs() < 1e-6);
    }

    #[test]
    fn races_are_split_by_the_lead_of_the_side_on_roll() {
        // 70 pips against 75: within 8.
        let close = Position::from_points(&[(8, 5), (6, 5)], &[(9, 5), (6, 5)]).expect("a race");
        assert_eq!(RaceLead::of(&close), RaceLead::Close);
        // 55 against 85: ahead by 30; the other side of it behind by 30.
        let ahead = Position::from_points(&[(6, 5), (5, 5)], &[(9, 5), (8, 5)]).expect("a race");
        assert_eq!(RaceLead::of(&ahead), RaceLead::FarAhead);
        let behind = Position::from_points(&[(9, 5), (8, 5)], &[(6, 5), (5, 5)]).expect("a race");
        assert_eq!(RaceLead::of(&behind), RaceLead::FarBehind);
        // 70 against 79 and 90: ahead by 9 and by 20; 79 against 70: behind by 9.
        let nine = Position::from_points(&[(8, 5), (6, 5)], &[(9, 6), (6, 4), (1, 1)]).expect("ok");
        assert_eq!(nine.pip_count(Side::Opponent), 79);
        assert_eq!(RaceLead::of(&nine), RaceLead::Ahead);
        let twenty =
            Position::from_points(&[(8, 5), (6, 5)], &[(10, 6), (6, 4), (6, 1)]).expect("ok");
        assert_eq!(twenty.pip_count(Side::Opponent), 90);
        assert_eq!(RaceLead::of(&twenty), RaceLead::Ahead);
        let nine_behind =
            Position::from_points(&[(9, 6), (6, 4), (1, 1)], &[(8, 5), (6, 5)]).expect("ok");
        assert_eq!(RaceLead::of(&nine_behind), RaceLead::Behind);

        let reference = [
            example(close, 0.5),
            example(ahead, 0.5),
            example(behind, 0.5),
        ];
        let labels = [
            example(close, 0.6),
            example(ahead, 0.5),
            example(behind, 0.45),
        ];
        let c = compare_examples(&labels, &reference, Path::new("x.bin")).unwrap();
        assert_eq!(c.race().count, 3);
        let close_gap = c.race_with_lead(RaceLead::Close);
        assert_eq!(close_gap.count, 1);
        assert!((close_gap.mean() - 0.2).abs() < 1e-6);
        assert!((c.race_with_lead(RaceLead::FarBehind).mean() + 0.1).abs() < 1e-6);
        assert_eq!(c.race_with_lead(RaceLead::FarAhead).count, 1);
        assert_eq!(c.race_with_lead(RaceLead::Behind), Gap::default());
        assert_eq!(c.race_with_lead(RaceLead::Ahead), Gap::default());
    }

    #[test]
    fn other_positions_or_counts_are_refused() {
        let start = Position::starting();
        let other = Position::from_points(&[(8, 5), (6, 5)], &[(9, 5), (6, 5)]).expect("a race");
        let one = [example(start, 0.5)];
        assert!(matches!(
            compare_examples(&[example(other, 0.5)], &one, Path::new("x.bin")),
            Err(CompareError::Position { index: 0, .. })
        ));
        assert!(matches!(
            compare_examples(&[], &one, Path::new("x.bin")),
            Err(CompareError::Count {
                count: 0,
                reference_count: 1,
                ..
            })
        ));
    }

    #[test]
    fn folders_pair_files_by_name() {
        let tmp = std::env::temp_dir().join(format!("cubeful-compare-{}", std::process::id()));
        let (a, b) = (tmp.join("a"), tmp.join("b"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        let start = Position::starting();
        dataset::save(&a.join("chunk-00000.bin"), &[example(start, 0.6)]).unwrap();
        dataset::save(&b.join("chunk-00000.bin"), &[example(start, 0.5)]).unwrap();
        dataset::save(&b.join("chunk-00001.bin"), &[example(start, 0.5)]).unwrap();
        let c = compare_dirs(&a, &b).unwrap();
        assert_eq!((c.files, c.contact.count), (1, 1));
        assert!((c.contact.mean() - 0.2).abs() < 1e-6);
        // The other way round, chunk-00001 has no partner.
        assert!(matches!(
            compare_dirs(&b, &a),
            Err(CompareError::Missing { .. })
        ));
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
