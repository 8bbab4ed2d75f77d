//! `cubeful-cli bench decisions`: the checker-play decision benchmark. The construction of the
//! set is described in docs/TRAINING.md ("The decision benchmark") and in
//! `crates/train/src/decisions.rs`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use cubeful_engine::eval::bearoff::BearoffDb;
use cubeful_engine::eval::nn::NetClass;
use cubeful_engine::eval::Nets;
use cubeful_engine::search::{EvalSettings, FilterPreset};
use cubeful_train::decisions::{
    choosing, paired_difference, summarise, BenchScore, ClassScore, DecisionList, DecisionSet,
    Judge, Origin, SetSpec,
};
use serde::Serialize;

/// Folder of the cached scored sets, relative to the working folder (the workspace root).
pub const DEFAULT_CACHE: &str = "training/bench";

/// The default set: 2,000 decisions, seed 1, scored at 2-ply.
pub const DEFAULT_SPEC: SetSpec = SetSpec {
    decisions: 2000,
    seed: 1,
    judge: Judge::Search { plies: 2 },
    origin: Origin::SelfPlay,
};

/// `--filter`: the move filter of the measured search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FilterArg {
    Normal,
    Large,
}

impl FilterArg {
    fn preset(self) -> FilterPreset {
        match self {
            FilterArg::Normal => FilterPreset::Normal,
            FilterArg::Large => FilterPreset::Large,
        }
    }
}

/// The default depth of `--reference-plies`.
const DEFAULT_REFERENCE_PLIES: u8 = 2;

#[derive(clap::Args)]
pub struct Args {
    /// Nets whose choices are measured (default: the embedded nets).
    #[command(flatten)]
    nets: crate::nets::NetsArg,
    /// Lookahead of the measured choices (and of `--against`'s): 2 is World Class, 3
    /// Grandmaster.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=3))]
    plies: u8,
    /// The move filter of the measured choices' search: `normal` (World Class, Grandmaster) or
    /// `large` (Supremo: up to 16 plays within 0.32 go on from 0-ply instead of 8 within 0.16).
    #[arg(long, value_enum, default_value_t = FilterArg::Normal)]
    filter: FilterArg,
    /// Reduced search for the measured choices (and `--against`'s): below the root's rolls,
    /// each node averages 7 of the 21 rolls (`hint --reduced`); with `--plies` 2 or 3.
    #[arg(long)]
    reduced: bool,
    /// Decisions in the set (in each set, with several seeds).
    #[arg(long, default_value_t = DEFAULT_SPEC.decisions, value_parser = clap::value_parser!(u32).range(10..=100_000))]
    positions: u32,
    /// Seed of the self-play games the decisions come from; several (`--seed 1,2`) measure
    /// their sets as one, numbered in that order.
    #[arg(long, value_delimiter = ',', default_value = "1")]
    seed: Vec<u64>,
    /// Take the decisions from this file instead of self-play: one per line, a position ID
    /// (player on roll) and a roll (`4HPwATDgc/ABMA 31`), anything after them ignored; rolls
    /// with a single play are left out. The scored set is cached under the list's checksum.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["seed", "positions"])]
    decisions_from: Option<PathBuf>,
    /// Lookahead of the reference scores.
    #[arg(long, default_value_t = DEFAULT_REFERENCE_PLIES, value_parser = clap::value_parser!(u8).range(1..=3))]
    reference_plies: u8,
    /// Score the candidates by variance-reduced rollouts of this many games each instead of by
    /// the search (cubeless, the candidates of a decision on the same dice; with 144 games about
    /// 10 s per decision per thread).
    #[arg(long, value_name = "GAMES", conflicts_with = "reference_plies", value_parser = clap::value_parser!(u32).range(36..=1_000_000))]
    reference_rollout: Option<u32>,
    /// Folder of the bearoff databases the reference rollouts stop at [default:
    /// $CUBEFUL_BEAROFF_DIR, else the user cache folder].
    #[arg(long, value_name = "DIR")]
    bearoff_dir: Option<PathBuf>,
    /// The nets' choices (of `--nets` and `--against`; not those of a `--choices` file) judge
    /// bearoff positions by the bearoff databases (of `--bearoff-dir`), as the program plays
    /// when it has them, instead of by the race net alone.
    #[arg(long)]
    bearoff: bool,
    /// Nets that play the games and score the candidates [default: the embedded nets].
    #[arg(long, value_name = "DIR")]
    reference_nets: Option<PathBuf>,
    /// Folder of the cached scored sets.
    #[arg(long, value_name = "DIR", default_value = DEFAULT_CACHE)]
    cache: PathBuf,
    /// Also measure these nets, and report the difference per decision, paired on the same
    /// decisions, with its 95% confidence interval.
    #[arg(long, value_name = "DIR")]
    against: Option<PathBuf>,
    /// Worker threads (the figures do not depend on them).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    /// Print the set's decisions instead of measuring anything, one per line: its number, the
    /// position ID (player on roll), the roll and the class; for having another program choose
    /// (`--choices`).
    #[arg(long, conflicts_with_all = ["nets", "plies", "against", "json", "choices", "bearoff"])]
    list: bool,
    /// Measure the plays in this file instead of the nets' choices: one line per decision, its
    /// number and the play (`17 8/5 6/5`, any notation `hint` prints or `move` reads), as another
    /// program chose them.
    #[arg(long, value_name = "FILE", conflicts_with = "nets")]
    choices: Option<PathBuf>,
    /// Also write every decision's error to this file (tab-separated: number, position ID,
    /// roll, class, error in thousandths of a point, and with `--against` the other nets' error),
    /// to see where the points go.
    #[arg(long, value_name = "FILE")]
    errors: Option<PathBuf>,
}

#[derive(Serialize)]
struct Report<'a> {
    set: String,
    decisions: usize,
    /// `2ply`, `rollout324`: what scored the candidates.
    judge: String,
    seconds: f64,
    #[serde(flatten)]
    score: &'a BenchScore,
    #[serde(skip_serializing_if = "Option::is_none")]
    against: Option<Against>,
}

/// The comparison with `--against` nets.
#[derive(Serialize)]
struct Against {
    nets: String,
    score: BenchScore,
    /// `--nets` minus `--against`, per class, paired on the decisions.
    difference: Differences,
}

#[derive(Serialize)]
struct Differences {
    contact: Difference,
    crashed: Difference,
    race: Difference,
    overall: Difference,
}

#[derive(Serialize)]
struct Difference {
    /// Mean difference of the errors per decision, in thousandths of a point (negative: the
    /// `--nets` lose less).
    millipoints: f64,
    /// Half-width of its 95% confidence interval.
    ci95: f64,
}

/// Loads the set of `spec` from `cache` with `reference` nets, scoring it first (minutes) if it is
/// not cached; says so on standard error.
fn load_set(
    cache: &Path,
    reference: &Arc<Nets>,
    bearoff: Option<Arc<BearoffDb>>,
    spec: SetSpec,
    list: Option<&DecisionList>,
    threads: usize,
) -> Result<(DecisionSet, PathBuf)> {
    let name = DecisionSet::file_name(spec, cubeful_train::decisions::nets_checksum(reference));
    let path = cache.join(&name);
    if !path.exists() {
        eprintln!(
            "bench decisions: scoring {} decisions by {} into {} (once: a few minutes per thousand at 2-ply, about 3 hours per thousand per thread by rollouts of 144 games)",
            spec.decisions,
            spec.judge,
            path.display()
        );
    }
    let started = Instant::now();
    let total = spec.decisions as usize;
    let progress = |done: usize| {
        if done.is_multiple_of(250) || done == total {
            eprintln!(
                "bench decisions: {done}/{total} scored ({:.0} s)",
                started.elapsed().as_secs_f64()
            );
        }
    };
    let (set, _) =
        DecisionSet::load_or_build(cache, reference, bearoff, spec, list, threads, &progress)?;
    Ok((set, path))
}

/// The default set scored with the embedded nets, from `cache` (scored first if absent).
pub fn default_set(cache: &Path, threads: usize) -> Result<DecisionSet> {
    Ok(load_set(
        cache,
        &Arc::new(Nets::embedded()),
        None,
        DEFAULT_SPEC,
        None,
        threads,
    )?
    .0)
}

fn line(name: &str, s: &ClassScore) -> String {
    format!(
        "  {name:<8} {:>6} decisions  {:>7.2} ± {:.2} mppd  best play {:>5.1}%  outside candidates {}",
        s.decisions,
        s.mean_error_millipoints,
        s.standard_error_millipoints,
        100.0 * s.best_play_share,
        s.outside_candidates
    )
}

/// Several sets measured as one (`--seed 1,2`): their decisions numbered in order.
struct Sets {
    sets: Vec<(DecisionSet, PathBuf)>,
}

impl Sets {
    /// Each decision's set and its index there, in order.
    fn decisions(&self) -> impl Iterator<Item = (&DecisionSet, usize)> {
        self.sets
            .iter()
            .flat_map(|(set, _)| (0..set.decisions.len()).map(move |i| (set, i)))
    }

    fn len(&self) -> usize {
        self.sets.iter().map(|(set, _)| set.decisions.len()).sum()
    }

    fn classes(&self) -> Vec<NetClass> {
        self.sets
            .iter()
            .flat_map(|(set, _)| set.classes())
            .collect()
    }

    /// Each set's per-decision figures by `f`, one after the other.
    fn concat(
        &self,
        mut f: impl FnMut(&DecisionSet, usize) -> Result<Vec<(f32, bool)>>,
    ) -> Result<Vec<(f32, bool)>> {
        let mut all = Vec::with_capacity(self.len());
        let mut first = 0;
        for (set, _) in &self.sets {
            all.extend(f(set, first)?);
            first += set.decisions.len();
        }
        Ok(all)
    }

    fn paths(&self) -> String {
        let paths: Vec<String> = self
            .sets
            .iter()
            .map(|(_, path)| path.display().to_string())
            .collect();
        paths.join(" + ")
    }
}

/// Decision `i` of `set`, numbered `number`, as `--list` and `--errors` print it: number,
/// position ID, roll, class, tab-separated.
fn row(set: &DecisionSet, i: usize, number: usize) -> String {
    let d = &set.decisions[i];
    format!(
        "{number}\t{}\t{}\t{}",
        cubeful_engine::position_id::encode(&d.position),
        d.dice,
        d.class.name()
    )
}

/// Writes the per-decision errors of `--errors` (atomically).
fn write_errors(
    file: &Path,
    sets: &Sets,
    errors: &[(f32, bool)],
    other: Option<&[(f32, bool)]>,
) -> Result<()> {
    let mut text = String::from("# decision\tposition ID\troll\tclass\terror (mppd)");
    if other.is_some() {
        text.push_str("\tagainst (mppd)");
    }
    text.push('\n');
    for (n, (set, i)) in sets.decisions().enumerate() {
        text.push_str(&format!("{}\t{:.2}", row(set, i, n), 1000.0 * errors[n].0));
        if let Some(other) = other {
            text.push_str(&format!("\t{:.2}", 1000.0 * other[n].0));
        }
        text.push('\n');
    }
    cubeful_engine::files::write_atomically(file, text.as_bytes())
        .with_context(|| format!("cannot write {}", file.display()))
}

pub fn run(args: &Args) -> Result<()> {
    if args.reduced && args.plies < 2 {
        bail!("--reduced needs --plies 2 or 3: below the root's rolls there is nothing to reduce");
    }
    let threads = args.threads as usize;
    let reference = Arc::new(match &args.reference_nets {
        Some(dir) => Nets::load_dir(dir)?,
        None => Nets::embedded(),
    });
    let judge = match args.reference_rollout {
        Some(trials) => Judge::Rollout { trials },
        None => Judge::Search {
            plies: args.reference_plies,
        },
    };
    // Rollouts stop at the bearoff databases; the choices use them with `--bearoff`.
    let bearoff = match (judge, args.bearoff) {
        (Judge::Rollout { .. }, _) | (_, true) => {
            let dir = crate::bearoff::DirArg {
                dir: args.bearoff_dir.clone(),
            };
            Some(Arc::new(dir.open()?))
        }
        (Judge::Search { .. }, false) => None,
    };
    let choosing_bearoff = bearoff.as_ref().filter(|_| args.bearoff);
    let settings = EvalSettings {
        filter: args.filter.preset(),
        reduced: args.reduced,
        ..choosing(args.plies)
    };
    let judge_bearoff = match judge {
        Judge::Rollout { .. } => bearoff.clone(),
        Judge::Search { .. } => None,
    };
    let mut sets = Sets { sets: Vec::new() };
    match &args.decisions_from {
        Some(file) => {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            let list = DecisionList::parse(&text)
                .with_context(|| format!("decisions {}", file.display()))?;
            if list.forced() > 0 {
                eprintln!(
                    "bench decisions: {} of the list's decisions have a single play; left out",
                    list.forced()
                );
            }
            sets.sets.push(load_set(
                &args.cache,
                &reference,
                judge_bearoff,
                list.spec(judge),
                Some(&list),
                threads,
            )?);
        }
        None => {
            for &seed in &args.seed {
                let spec = SetSpec {
                    decisions: args.positions,
                    seed,
                    judge,
                    origin: Origin::SelfPlay,
                };
                sets.sets.push(load_set(
                    &args.cache,
                    &reference,
                    judge_bearoff.clone(),
                    spec,
                    None,
                    threads,
                )?);
            }
        }
    }
    if args.list {
        println!("# decision\tposition ID\troll\tclass");
        for (n, (set, i)) in sets.decisions().enumerate() {
            println!("{}", row(set, i, n));
        }
        return Ok(());
    }
    let started = Instant::now();
    let errors = match &args.choices {
        Some(file) => {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            let total = sets.len();
            sets.concat(|set, first| {
                let choices = set
                    .parse_choices_from(&text, first, total)
                    .with_context(|| format!("choices {}", file.display()))?;
                Ok(set.errors_of_choices(&choices, threads))
            })?
        }
        None => {
            let nets = args.nets.load()?;
            sets.concat(|set, _| Ok(set.errors(&nets, &settings, choosing_bearoff, threads)))?
        }
    };
    let classes = sets.classes();
    let score = summarise(&classes, &errors, args.plies);
    let other_errors = match &args.against {
        None => None,
        Some(dir) => {
            let nets = Arc::new(Nets::load_dir(dir)?);
            Some(sets.concat(|set, _| Ok(set.errors(&nets, &settings, choosing_bearoff, threads)))?)
        }
    };
    let against = match (&args.against, &other_errors) {
        (Some(dir), Some(other_errors)) => {
            let diff = |class| {
                let (m, se) = paired_difference(&classes, &errors, other_errors, class);
                Difference {
                    millipoints: m,
                    ci95: 1.96 * se,
                }
            };
            Some(Against {
                nets: dir.display().to_string(),
                score: summarise(&classes, other_errors, args.plies),
                difference: Differences {
                    contact: diff(Some(NetClass::Contact)),
                    crashed: diff(Some(NetClass::Crashed)),
                    race: diff(Some(NetClass::Race)),
                    overall: diff(None),
                },
            })
        }
        _ => None,
    };
    if let Some(file) = &args.errors {
        write_errors(file, &sets, &errors, other_errors.as_deref())?;
    }
    let report = Report {
        set: sets.paths(),
        decisions: sets.len(),
        judge: judge.file_tag(),
        seconds: started.elapsed().as_secs_f64(),
        score: &score,
        against,
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    let choices = match &args.choices {
        Some(_) => "the file's choices".to_string(),
        None => format!(
            "{}-ply{} choices{}{}",
            args.plies,
            if args.reduced { " reduced" } else { "" },
            match args.filter {
                FilterArg::Normal => "",
                FilterArg::Large => " with the large move filter",
            },
            if args.bearoff {
                " with the bearoff databases"
            } else {
                ""
            }
        ),
    };
    println!(
        "decisions: {choices} against {}, {} decisions ({}), {:.1} s; mean error per decision in thousandths of a point (mppd) ± its standard error",
        judge,
        report.decisions,
        report.set,
        report.seconds
    );
    let table = |score: &BenchScore| {
        for (name, s) in [
            ("contact", &score.contact),
            ("crashed", &score.crashed),
            ("race", &score.race),
            ("overall", &score.overall),
        ] {
            println!("{}", line(name, s));
        }
    };
    let measured = match (&args.choices, &args.nets.nets) {
        (Some(file), _) => format!("choices in {}", file.display()),
        (None, Some(dir)) => dir.display().to_string(),
        (None, None) => "embedded nets".to_string(),
    };
    if let Some(against) = &report.against {
        println!("{measured}:");
        table(&score);
        println!("{}:", against.nets);
        table(&against.score);
        println!(
            "difference per decision, {measured} minus {}, paired (95% CI):",
            against.nets
        );
        let d = &against.difference;
        for (name, x) in [
            ("contact", &d.contact),
            ("crashed", &d.crashed),
            ("race", &d.race),
            ("overall", &d.overall),
        ] {
            println!("  {name:<8} {:>+7.2} mppd ± {:.2}", x.millipoints, x.ci95);
        }
    } else {
        table(&score);
    }
    Ok(())
}
