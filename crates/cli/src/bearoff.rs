//! `cubeful-cli bearoff show|verify|generate`: the bearoff databases.
//!
//! The default databases live in the user cache folder (`ProjectDirs::from("org", "Cubeful",
//! "cubeful")`, subfolder `bearoff`), or in `$CUBEFUL_BEAROFF_DIR`, or in `--dir DIR`. They are
//! generated there on first use; see `cubeful_engine::eval::bearoff` for the storage policy.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use cubeful_engine::eval::bearoff::{
    self, BearoffDb, CubeState, DbKind, Distribution, Event, Goal, Layout, OneSided, TwoSided,
};
use cubeful_engine::eval::class::{classify, PositionClass};
use cubeful_engine::eval::BearoffOracle;
use cubeful_engine::{gnubg_id, position_id, CubeOwner, MatchState, Position, Side};
use serde::Serialize;

/// Environment variable naming the folder of the default databases.
pub const DIR_VARIABLE: &str = "CUBEFUL_BEAROFF_DIR";

#[derive(clap::Subcommand)]
pub enum What {
    /// What the bearoff databases know about a position: each side's distributions, the race
    /// chances, and (two-sided database) the cubeful money equities and the cube action.
    Show(ShowArgs),
    /// Check a database file: header, CRC-32, and entries solved again from the file itself.
    /// Without FILE, the two default databases.
    Verify(VerifyArgs),
    /// Generate a database file (one-sided on up to 10 points, or two-sided on 6 points).
    Generate(GenerateArgs),
}

/// The folder of the default databases.
#[derive(clap::Args, Clone, Debug)]
pub struct DirArg {
    /// Folder of the default databases [default: $CUBEFUL_BEAROFF_DIR, else the user cache folder]
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

impl DirArg {
    /// The folder to use.
    pub fn resolve(&self) -> Result<PathBuf> {
        if let Some(dir) = &self.dir {
            return Ok(dir.clone());
        }
        if let Some(dir) = std::env::var_os(DIR_VARIABLE).filter(|d| !d.is_empty()) {
            return Ok(PathBuf::from(dir));
        }
        let dirs = directories::ProjectDirs::from("org", "Cubeful", "cubeful").context(
            "no home folder to put the bearoff databases in: give --dir or set CUBEFUL_BEAROFF_DIR",
        )?;
        Ok(dirs.cache_dir().join("bearoff"))
    }

    /// The default databases, loaded from the folder or generated into it (progress on stderr).
    pub fn open(&self) -> Result<BearoffDb> {
        let dir = self.resolve()?;
        let mut reporter = Reporter::new();
        Ok(BearoffDb::open_or_generate(&dir, &mut |e| {
            reporter.event(e)
        }))
    }
}

#[derive(clap::Args)]
pub struct ShowArgs {
    /// GNU Backgammon Position ID (optionally `:MATCH-ID`, whose cube position is used).
    position: String,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    dir: DirArg,
}

#[derive(clap::Args)]
pub struct VerifyArgs {
    /// The database file [default: the two default databases]
    file: Option<PathBuf>,
    /// Entries to solve again, spread over the database (1 to 1000000000).
    #[arg(long, default_value_t = 2000, conflicts_with = "all",
          value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    samples: u64,
    /// Solve every entry again.
    #[arg(long)]
    all: bool,
    #[command(flatten)]
    dir: DirArg,
}

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("kind").required(true).args(["one_sided", "two_sided"])))]
pub struct GenerateArgs {
    /// A one-sided database (distributions of rolls for one side).
    #[arg(long)]
    one_sided: bool,
    /// Points of the one-sided database (1 to 10).
    #[arg(
        long,
        default_value_t = 6,
        value_name = "P",
        conflicts_with = "two_sided"
    )]
    points: u8,
    /// Checkers of the one-sided database (1 to 15).
    #[arg(
        long,
        default_value_t = 15,
        value_name = "C",
        conflicts_with = "two_sided"
    )]
    checkers: u8,
    /// A two-sided database of up to N checkers a side on 6 points (1 to 10; 6 is the default
    /// database).
    #[arg(long, value_name = "N")]
    two_sided: Option<u8>,
    /// Output file [default: the conventional name in the databases' folder]
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    dir: DirArg,
}

pub fn run(what: &What) -> Result<()> {
    match what {
        What::Show(args) => show(args),
        What::Verify(args) => verify(args),
        What::Generate(args) => generate(args),
    }
}

/// Prints database events on standard error: a progress line on a terminal, else one line per
/// database generated.
struct Reporter {
    terminal: bool,
    last_percent: Option<u64>,
    started: Instant,
}

impl Reporter {
    fn new() -> Reporter {
        Reporter {
            terminal: std::io::stderr().is_terminal(),
            last_percent: None,
            started: Instant::now(),
        }
    }

    fn event(&mut self, event: Event<'_>) {
        let mut err = std::io::stderr().lock();
        match event {
            Event::Loaded { .. } => {}
            Event::Generating {
                what,
                path,
                problem,
            } => {
                self.started = Instant::now();
                self.last_percent = None;
                let why = match (path, problem) {
                    (Some(_), Some(problem)) => format!(" (rejected: {problem})"),
                    (Some(path), None) => format!(" ({} does not exist yet)", path.display()),
                    (None, _) => String::new(),
                };
                let _ = writeln!(err, "generating the {what} bearoff database{why}");
            }
            Event::Progress { what, done, total } => {
                let percent = done * 100 / total.max(1);
                if self.terminal && self.last_percent != Some(percent) {
                    let _ = write!(err, "\r{what}: {percent:3}%");
                    if done == total {
                        let _ = writeln!(err, " ({:.1} s)", self.started.elapsed().as_secs_f64());
                    }
                }
                self.last_percent = Some(percent);
            }
            Event::Saved { path, bytes } => {
                let _ = writeln!(err, "saved {} ({bytes} bytes)", path.display());
            }
            Event::NotSaved { error, .. } => {
                let _ = writeln!(err, "warning: {error}; using the database from memory");
            }
        }
    }
}

fn cube_state(state: &MatchState) -> CubeState {
    match state.cube_owner {
        CubeOwner::Centered => CubeState::Centred,
        CubeOwner::Owned(p) if p == state.on_roll => CubeState::Owned,
        CubeOwner::Owned(_) => CubeState::OpponentOwned,
    }
}

fn cube_name(cube: CubeState) -> &'static str {
    match cube {
        CubeState::Centred => "centred",
        CubeState::Owned => "owned by the player on roll",
        CubeState::OpponentOwned => "owned by the opponent",
    }
}

#[derive(Serialize)]
struct DistributionJson {
    mean: f64,
    sd: f64,
    min: usize,
    max: usize,
    /// `P(rolls = k)` for `k = min ..= max`.
    probabilities: Vec<f64>,
}

impl DistributionJson {
    fn new(d: &Distribution<'_>) -> DistributionJson {
        DistributionJson {
            mean: d.mean(),
            sd: d.sd(),
            min: d.min_rolls(),
            max: d.max_rolls(),
            probabilities: d.iter().map(|(_, p)| p).collect(),
        }
    }
}

#[derive(Serialize)]
struct SideJson {
    checkers: u8,
    off: u8,
    pips: u32,
    /// Index in the one-sided database, if the side is in it.
    index: Option<u32>,
    /// Rolls to bear off every checker.
    all_off: Option<DistributionJson>,
    /// Rolls to bear off the first checker (only for a side with nothing borne off).
    first_off: Option<DistributionJson>,
}

#[derive(Serialize)]
struct ChancesJson {
    win: f32,
    win_gammon: f32,
    win_backgammon: f32,
    lose_gammon: f32,
    lose_backgammon: f32,
    equity: f32,
}

#[derive(Serialize)]
struct CubeJson {
    cube: &'static str,
    /// False when the opponent owns the cube.
    can_double: bool,
    no_double: f64,
    double_take: f64,
    double_pass: f64,
    action: &'static str,
}

#[derive(Serialize)]
struct TwoSidedJson {
    checkers: u8,
    win: f32,
    cubeless_equity: f32,
    centred: f32,
    owned: f32,
    opponent_owned: f32,
    cube_decision: CubeJson,
}

#[derive(Serialize)]
struct ShowJson {
    position_id: String,
    class: &'static str,
    player: SideJson,
    opponent: SideJson,
    /// The one-sided race evaluation, when both sides are in the one-sided database.
    one_sided_race: Option<ChancesJson>,
    two_sided: Option<TwoSidedJson>,
    /// What the evaluator's bearoff oracle returns (two-sided first, else one-sided).
    oracle: Option<ChancesJson>,
}

fn side_json(db: &BearoffDb, position: &Position, side: Side) -> SideJson {
    let counts = position.side(side);
    let one = db.one_sided();
    let index = one.and_then(|o| o.index(&counts)).filter(|&i| i > 0);
    let dist = |goal| {
        let (o, i) = (one?, index?);
        o.distribution(i, goal).map(|d| DistributionJson::new(&d))
    };
    let off = position.off(side);
    SideJson {
        checkers: position.on_board(side),
        off,
        pips: position.pip_count(side),
        index,
        all_off: dist(Goal::AllOff),
        first_off: if off == 0 { dist(Goal::FirstOff) } else { None },
    }
}

fn chances(p: &cubeful_engine::eval::Probabilities) -> ChancesJson {
    ChancesJson {
        win: p.win,
        win_gammon: p.win_gammon,
        win_backgammon: p.win_backgammon,
        lose_gammon: p.lose_gammon,
        lose_backgammon: p.lose_backgammon,
        equity: p.equity(),
    }
}

fn show(args: &ShowArgs) -> Result<()> {
    let (position, state) = gnubg_id::decode(&args.position).context("bad Position ID")?;
    let db = args.dir.open()?;
    let class = classify(&position);
    let cube = cube_state(&state);
    let one_sided_race = db
        .one_sided()
        .and_then(|o| o.race(&position.side(Side::Player), &position.side(Side::Opponent)))
        .filter(|_| class == PositionClass::Bearoff);
    let two_sided = match (
        db.two_sided_values(&position),
        db.cube_decision(&position, cube),
    ) {
        (Some(v), Some(d)) => Some(TwoSidedJson {
            checkers: db.two_sided().map_or(0, TwoSided::checkers),
            win: v.win,
            cubeless_equity: v.cubeless_equity(),
            centred: v.centred,
            owned: v.owned,
            opponent_owned: v.opponent_owned,
            cube_decision: CubeJson {
                cube: cube_name(cube),
                can_double: cube != CubeState::OpponentOwned,
                no_double: d.no_double,
                double_take: d.double_take,
                double_pass: d.double_pass,
                action: d.action.text(),
            },
        }),
        _ => None,
    };
    let oracle = if class == PositionClass::Bearoff {
        db.probabilities(&position)
    } else {
        None
    };
    let json = ShowJson {
        position_id: position_id::encode(&position),
        class: class.name(),
        player: side_json(&db, &position, Side::Player),
        opponent: side_json(&db, &position, Side::Opponent),
        one_sided_race: one_sided_race.as_ref().map(chances),
        two_sided,
        oracle: oracle.as_ref().map(chances),
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        print_show(&json, &state);
    }
    Ok(())
}

fn print_distribution(label: &str, d: &DistributionJson) {
    let mut parts = Vec::new();
    for (k, p) in (d.min..).zip(&d.probabilities) {
        if *p >= 0.0005 {
            parts.push(format!("{k}: {:.1}%", 100.0 * p));
        }
    }
    println!(
        "    {label:<16} mean {:.3}, sd {:.3}   {}",
        d.mean,
        d.sd,
        parts.join("  ")
    );
}

fn print_show(json: &ShowJson, state: &MatchState) {
    println!("Position ID {} ({})", json.position_id, json.class);
    for (name, side) in [
        ("Player on roll", &json.player),
        ("Opponent", &json.opponent),
    ] {
        println!(
            "  {name}: {} checkers, {} off, {} pips",
            side.checkers, side.off, side.pips
        );
        match (&side.all_off, side.index) {
            (Some(d), Some(index)) => {
                println!("    one-sided database, position {index}:");
                print_distribution("rolls to finish", d);
                if let Some(g) = &side.first_off {
                    print_distribution("rolls to 1st off", g);
                }
            }
            _ => println!("    not in the one-sided database"),
        }
    }
    if let Some(p) = &json.one_sided_race {
        println!("  Race from the one-sided distributions (cubeless):");
        println!("    Win     W(g)    W(bg)   L(g)    L(bg)   Equity");
        println!(
            "    {:.4}  {:.4}  {:.4}  {:.4}  {:.4}  {:+.4}",
            p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon, p.equity
        );
    }
    match &json.two_sided {
        Some(t) => {
            println!(
                "  Two-sided database ({} checkers a side), exact:",
                t.checkers
            );
            println!(
                "    cubeless: win {:.5}, equity {:+.5}",
                t.win, t.cubeless_equity
            );
            println!("    cubeful money equity per cube unit, player on roll:");
            println!("      cube centred            {:+.5}", t.centred);
            println!("      player on roll owns it  {:+.5}", t.owned);
            println!("      opponent owns it        {:+.5}", t.opponent_owned);
            let d = &t.cube_decision;
            let note = if state.is_money() {
                ""
            } else {
                " (money equities: the match score is not taken into account)"
            };
            println!("    cube decision, cube {}{note}:", d.cube);
            println!("      No double      {:+.5}", d.no_double);
            if d.can_double {
                println!("      Double, take   {:+.5}", d.double_take);
                println!("      Double, pass   {:+.5}", d.double_pass);
            }
            println!("      Correct cube action: {}", d.action);
        }
        None => println!("  Not in the two-sided database."),
    }
    match (&json.oracle, json.class) {
        (Some(_), _) => {
            println!("  The evaluator uses the bearoff databases for this position.")
        }
        (None, "over") => println!("  The game is over."),
        (None, _) => println!("  Not a pure bearoff: the evaluator uses its nets."),
    }
}

fn describe(kind: DbKind, layout: Layout) -> String {
    format!(
        "{kind} database of {} points and {} checkers",
        layout.points(),
        layout.checkers()
    )
}

fn verify(args: &VerifyArgs) -> Result<()> {
    let files = match &args.file {
        Some(file) => vec![file.clone()],
        None => {
            let dir = args.dir.resolve()?;
            vec![
                dir.join(bearoff::ONE_SIDED_FILE),
                dir.join(bearoff::TWO_SIDED_FILE),
            ]
        }
    };
    let samples = (!args.all).then_some(args.samples);
    for file in &files {
        let start = Instant::now();
        let report = bearoff::verify_file(file, samples)?;
        let info = report.info;
        let entries = match info.kind {
            DbKind::OneSided => u64::from(info.layout.count()),
            DbKind::TwoSided => u64::from(info.layout.count()).pow(2),
        };
        println!(
            "{}: {}, {} bytes, CRC-32 {:08x} ok, {} of {} entries solved again: identical ({:.2} s)",
            file.display(),
            describe(info.kind, info.layout),
            info.bytes,
            info.crc,
            report.recomputed,
            entries,
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

fn generate(args: &GenerateArgs) -> Result<()> {
    let mut reporter = Reporter::new();
    let start = Instant::now();
    let (bytes, name, description) = match args.two_sided {
        Some(n) => {
            let layout = TwoSided::layout_for(n)?;
            let db = TwoSided::generate(n, &mut |done, total| {
                reporter.event(Event::Progress {
                    what: "two-sided",
                    done,
                    total,
                })
            })?;
            (
                db.to_bytes(),
                bearoff::two_sided_file_name(n),
                describe(DbKind::TwoSided, layout),
            )
        }
        None => {
            if !args.one_sided {
                bail!("choose --one-sided or --two-sided N");
            }
            let layout = Layout::new(args.points, args.checkers)?;
            let db = OneSided::generate(layout, &mut |done, total| {
                reporter.event(Event::Progress {
                    what: "one-sided",
                    done,
                    total,
                })
            });
            (
                db.to_bytes(),
                bearoff::one_sided_file_name(layout),
                describe(DbKind::OneSided, layout),
            )
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    // The folder of `-o FILE` must exist; the databases' own folder is created when missing.
    let path = match &args.output {
        Some(p) => p.clone(),
        None => {
            let dir = args.dir.resolve()?;
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("cannot create the folder {}", dir.display()))?;
            dir.join(name)
        }
    };
    bearoff::storage::write_atomic(&path, &bytes)?;
    let crc = u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().expect("4 bytes"));
    println!(
        "{}: {description}, {} bytes, CRC-32 {crc:08x}, generated in {seconds:.2} s",
        path.display(),
        bytes.len()
    );
    Ok(())
}
