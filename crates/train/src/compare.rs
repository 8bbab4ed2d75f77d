//! How far the targets of one label set are from another's for the same positions: a set
//! labelled again by another teacher (`train label --from`) against the rollouts of the same
//! positions, say. The files of the two folders are paired by name and their examples by index;
//! the positions must agree.
//!
//! A rollout label carries its own noise, which every evaluator's RMSE against it includes:
//! with a second, independent rollout of the same positions, the mean of (t − r₁)(t − r₂) is an
//! unbiased estimate of the target's squared distance to the rollouts' expectation, the noise
//! taken out ([`Gap::rmse_beyond_noise`]).

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
    /// Examples with a second reference, and their sums of (t − r₁)(t − r₂) and (r₁ − r₂)².
    pub crossed: usize,
    sum_cross: f64,
    sum_reference_squares: f64,
}

impl Gap {
    fn add(&mut self, difference: f64) {
        self.count += 1;
        self.sum += difference;
        self.sum_squares += difference * difference;
    }

    /// One example's difference from the reference and from a second, independent reference.
    fn add_crossed(&mut self, difference: f64, second_difference: f64) {
        self.add(difference);
        self.crossed += 1;
        self.sum_cross += difference * second_difference;
        let between = second_difference - difference;
        self.sum_reference_squares += between * between;
    }

    fn merge(&mut self, other: &Gap) {
        self.count += other.count;
        self.sum += other.sum;
        self.sum_squares += other.sum_squares;
        self.crossed += other.crossed;
        self.sum_cross += other.sum_cross;
        self.sum_reference_squares += other.sum_reference_squares;
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

    /// The target's RMSE to what the two references estimate, their noise taken out: the square
    /// root of the mean of (t − r₁)(t − r₂) over the examples with a second reference (0 when
    /// that mean is negative, as it can be for a target nearer than the noise can tell); `None`
    /// without any.
    pub fn rmse_beyond_noise(&self) -> Option<f64> {
        (self.crossed > 0).then(|| (self.sum_cross / self.crossed as f64).max(0.0).sqrt())
    }

    /// One reference label's own noise (RMSE to its expectation), from the two references'
    /// differences: √(mean (r₁ − r₂)² / 2); `None` without a second reference.
    pub fn reference_noise(&self) -> Option<f64> {
        (self.crossed > 0).then(|| (self.sum_reference_squares / self.crossed as f64 / 2.0).sqrt())
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

/// Checks that `examples` (of the file `path`) are the positions of `reference`, in order.
fn check_pairing(
    examples: &[Example],
    reference: &[Example],
    path: &Path,
) -> Result<(), CompareError> {
    if examples.len() != reference.len() {
        return Err(CompareError::Count {
            path: path.to_path_buf(),
            count: examples.len(),
            reference_count: reference.len(),
        });
    }
    match examples
        .iter()
        .zip(reference)
        .position(|(e, r)| e.position != r.position)
    {
        Some(index) => Err(CompareError::Position {
            path: path.to_path_buf(),
            index,
        }),
        None => Ok(()),
    }
}

/// Compares the examples of one file with those of its reference, example by example, and with
/// a second reference of the same positions (of the file `second.1`) when there is one.
pub fn compare_examples(
    examples: &[Example],
    reference: &[Example],
    second: Option<(&[Example], &Path)>,
    path: &Path,
) -> Result<Comparison, CompareError> {
    check_pairing(examples, reference, path)?;
    if let Some((second, second_path)) = second {
        check_pairing(second, reference, second_path)?;
    }
    let mut out = Comparison {
        files: 1,
        ..Comparison::default()
    };
    for (index, (e, r)) in examples.iter().zip(reference).enumerate() {
        let gap = match classify(&e.position) {
            PositionClass::Contact => &mut out.contact,
            PositionClass::Crashed => &mut out.crashed,
            PositionClass::Race => &mut out.race_by_lead[RaceLead::of(&e.position) as usize],
            PositionClass::Bearoff => &mut out.bearoff,
            PositionClass::Over => continue,
        };
        let target = f64::from(e.target.equity());
        let difference = target - f64::from(r.target.equity());
        match second {
            Some((second, _)) => gap.add_crossed(
                difference,
                target - f64::from(second[index].target.equity()),
            ),
            None => gap.add(difference),
        }
    }
    Ok(out)
}

/// Compares every data file of folder `dir` with the file of the same name in `reference`
/// (a reference may have more files: a set labelled again only in part compares as far as it
/// goes), and with the file of that name in `second` (an independent second rollout of the same
/// positions) where it has one.
pub fn compare_dirs(
    dir: &Path,
    reference: &Path,
    second: Option<&Path>,
) -> Result<Comparison, CompareError> {
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
        let second_path = second.map(|s| s.join(name)).filter(|p| p.is_file());
        let second_examples = second_path.as_deref().map(dataset::load).transpose()?;
        let second = second_examples.as_deref().zip(second_path.as_deref());
        out.merge(&compare_examples(
            &examples,
            &reference_examples,
            second,
            &path,
        )?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubeful_engine::eval::Probabilities;
    use cubeful_testkit::ScratchDir;

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
        let c = compare_examples(&labels, &reference, None, Path::new("x.bin")).unwrap();
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
        let c = compare_examples(&labels, &reference, None, Path::new("x.bin")).unwrap();
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
            compare_examples(&[example(other, 0.5)], &one, None, Path::new("x.bin")),
            Err(CompareError::Position { index: 0, .. })
        ));
        assert!(matches!(
            compare_examples(&[], &one, None, Path::new("x.bin")),
            Err(CompareError::Count {
                count: 0,
                reference_count: 1,
                ..
            })
        ));
    }

    /// A contact example whose cubeless equity is `equity` (a win chance of (1 + equity) / 2).
    fn with_equity(equity: f64) -> Example {
        example(Position::starting(), ((1.0 + equity) / 2.0) as f32)
    }

    #[test]
    fn a_second_reference_takes_the_rollouts_noise_out() {
        // A target 0.03 off the truth; two references each off the truth by independent noise of
        // 0.1 (±0.1 with equal chance): the plain RMSE is √(0.03² + 0.1²), the crossed one 0.03.
        let mut state = 7u64;
        let mut noise = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            if state >> 63 == 0 {
                0.1
            } else {
                -0.1
            }
        };
        let n = 20_000;
        let (mut labels, mut first, mut second) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..n {
            let truth = -0.5 + i as f64 / n as f64;
            labels.push(with_equity(truth + 0.03));
            first.push(with_equity(truth + noise()));
            second.push(with_equity(truth + noise()));
        }
        let path = Path::new("x.bin");
        let c = compare_examples(&labels, &first, Some((&second, path)), path).unwrap();
        assert_eq!((c.contact.count, c.contact.crossed), (n, n));
        let plain = c.contact.rmse();
        assert!(
            (plain - (0.03f64.powi(2) + 0.01).sqrt()).abs() < 0.002,
            "{plain}"
        );
        let beyond = c.contact.rmse_beyond_noise().unwrap();
        assert!((beyond - 0.03).abs() < 0.003, "{beyond}");
        let rollout = c.contact.reference_noise().unwrap();
        assert!((rollout - 0.1).abs() < 0.002, "{rollout}");
        // Without the second reference there is nothing to take out.
        let c = compare_examples(&labels, &first, None, path).unwrap();
        assert_eq!(
            (c.contact.crossed, c.contact.rmse_beyond_noise()),
            (0, None)
        );
        assert_eq!(c.contact.reference_noise(), None);
    }

    #[test]
    fn a_target_nearer_than_the_noise_tells_is_zero_beyond_it() {
        // (t − r₁)(t − r₂) = 0.2 · −0.2 < 0: no error beyond the noise, not a NaN.
        let path = Path::new("x.bin");
        let c = compare_examples(
            &[with_equity(0.2)],
            &[with_equity(0.0)],
            Some((&[with_equity(0.4)], path)),
            path,
        )
        .unwrap();
        assert_eq!(c.contact.rmse_beyond_noise(), Some(0.0));
        assert!((c.contact.reference_noise().unwrap() - 0.4 / 2f64.sqrt()).abs() < 1e-6);
    }

    #[test]
    fn a_second_reference_of_other_positions_is_refused() {
        let start = Position::starting();
        let other = Position::from_points(&[(8, 5), (6, 5)], &[(9, 5), (6, 5)]).expect("a race");
        let second_path = Path::new("second/x.bin");
        let result = compare_examples(
            &[example(start, 0.5)],
            &[example(start, 0.5)],
            Some((&[example(other, 0.5)], second_path)),
            Path::new("x.bin"),
        );
        assert!(
            matches!(&result, Err(CompareError::Position { path, index: 0 }) if path == second_path)
        );
    }

    #[test]
    fn folders_pair_files_by_name() {
        let tmp = ScratchDir::new("compare");
        let (a, b) = (tmp.join("a"), tmp.join("b"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        let start = Position::starting();
        dataset::save(&a.join("chunk-00000.bin"), &[example(start, 0.6)]).unwrap();
        dataset::save(&b.join("chunk-00000.bin"), &[example(start, 0.5)]).unwrap();
        dataset::save(&b.join("chunk-00001.bin"), &[example(start, 0.5)]).unwrap();
        let c = compare_dirs(&a, &b, None).unwrap();
        assert_eq!((c.files, c.contact.count), (1, 1));
        assert!((c.contact.mean() - 0.2).abs() < 1e-6);
        // A second reference pairs by name too; files it lacks are compared without it.
        let second = tmp.join("second");
        std::fs::create_dir_all(&second).unwrap();
        dataset::save(&second.join("chunk-00000.bin"), &[example(start, 0.55)]).unwrap();
        let c = compare_dirs(&a, &b, Some(&second)).unwrap();
        assert_eq!((c.contact.count, c.contact.crossed), (1, 1));
        // (0.2)(0.1) beyond the noise.
        assert!((c.contact.rmse_beyond_noise().unwrap() - 0.02f64.sqrt()).abs() < 1e-6);
        std::fs::remove_file(second.join("chunk-00000.bin")).unwrap();
        let c = compare_dirs(&a, &b, Some(&second)).unwrap();
        assert_eq!((c.contact.count, c.contact.crossed), (1, 0));
        // The other way round, chunk-00001 has no partner.
        assert!(matches!(
            compare_dirs(&b, &a, None),
            Err(CompareError::Missing { .. })
        ));
    }
}
